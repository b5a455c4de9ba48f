import { isUuid } from '@hearth/events';
import { uncertainty } from '@hearth/proto';
import type { Kysely } from 'kysely';
import { loadTolerance } from '../adapters/state.js';
import { SERVICE } from '../config.js';
import type { UncertaintyDb } from '../db.js';
import type { StoredSubject } from '../projections/uncertainties.js';

/**
 * GetUncertainties: one user's records as GET /v1/admin/users/{user_id}/uncertainties
 * and the export show them (API.md), oldest first, with the tolerance. A side
 * stated by its message shows the memory that message wrote.
 */
export function createGetUncertaintiesQuery(db: Kysely<UncertaintyDb>): (request: uncertainty.GetUncertaintiesRequest) => Promise<uncertainty.GetUncertaintiesResponse> {
  return async (request) => {
    const { userId } = request;
    if (!isUuid(userId)) throw new Error(`GetUncertaintiesRequest.user_id must be a uuid, got ${JSON.stringify(userId.slice(0, 64))}`);
    const rows = await db.selectFrom('uncertainties').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('uncertainty_id').limit(SERVICE.listLimit).execute();
    const pending = rows.flatMap((r) => (r.subjects as StoredSubject[]).filter((s) => s.kind === 'memory' && !s.id).map((s) => s.sourceMessageId));
    const written = pending.length
      ? await db.selectFrom('held_memories').select(['memory_id', 'memory_key', 'source_message_id']).where('user_id', '=', userId).where('source_message_id', 'in', pending).execute()
      : [];
    const response: uncertainty.GetUncertaintiesResponse = {
      tolerance: await loadTolerance(db, userId),
      uncertainties: rows.map((r) => ({
        uncertaintyId: r.uncertainty_id,
        uncertaintyType: r.uncertainty_type,
        subjects: (r.subjects as StoredSubject[]).map((s) => ({
          ...s,
          id: s.id || (written.find((w) => w.source_message_id === s.sourceMessageId && w.memory_key === s.memoryKey)?.memory_id ?? ''),
        })),
        severity: r.severity,
        state: r.state,
        detectionContext: r.detection_context,
        temporalSignal: r.temporal_signal,
        resolutionStrategy: r.resolution_strategy ?? '',
        surfacedCount: r.surfaced_count,
        sourceMessageIds: r.source_message_ids,
        createdAt: r.created_at,
        resolvedAt: r.resolved_at ?? undefined,
        reasoning: r.reasoning,
        surfaceContext: r.surface_context,
        resolutionDetail: r.resolution_detail ?? '',
        lastSurfacedAt: r.last_surfaced_at ?? undefined,
      })),
    };
    return response;
  };
}
