import { appendDecided, draft, type Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, isUuid } from '@hearth/events';
import { belief } from '@hearth/proto';
import { requirePosition } from '@hearth/store';
import type { Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import { SERVICE } from '../config.js';
import type { BeliefDb } from '../db.js';
import { beliefsProjection } from '../projections/beliefs.js';

interface AdminDeps {
  bus: Bus;
  db: Kysely<BeliefDb>;
  clock: Clock;
  logger?: Logger;
}

/**
 * MergeBeliefs (§4.12, §8.3): an admin's merge of the two nodes a tentative
 * link joins — never automatic (§9.4). The older node is kept; the other's
 * occurrences move to it. A link already merged answers with the same pair.
 */
export function createMergeBeliefsCommand(deps: AdminDeps): (request: belief.MergeBeliefsRequest) => Promise<belief.MergeBeliefsResponse> {
  return async (request) => {
    const req = request;
    if (!isUuid(req.userId) || !isUuid(req.linkId)) throw new Error('MergeBeliefsRequest.user_id and link_id must be uuids');
    let answer: belief.MergeBeliefsResponse = { found: false, keptBeliefId: '', mergedBeliefId: '', error: '' };
    await appendDecided(deps.bus, 'belief-graph', req.userId, async (last) => {
      await requirePosition(deps.db, beliefsProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
      const link = await deps.db.selectFrom('links').selectAll().where('link_id', '=', req.linkId).where('user_id', '=', req.userId).executeTakeFirst();
      if (!link) return [];
      const pair = await deps.db.selectFrom('nodes').select(['belief_id', 'created_at', 'deleted_at', 'merged_into', 'holder']).where('belief_id', 'in', [link.from_belief_id, link.to_belief_id]).orderBy('created_at').orderBy('belief_id').execute();
      const [kept, merged] = pair;
      if (!kept || !merged) {
        answer = { found: true, keptBeliefId: '', mergedBeliefId: '', error: 'one of the linked nodes no longer exists' };
        return [];
      }
      if (link.state === 'merged') {
        const into = merged.merged_into ?? kept.merged_into;
        answer = { found: true, keptBeliefId: into ?? kept.belief_id, mergedBeliefId: into === kept.belief_id ? merged.belief_id : kept.belief_id, error: '' };
        return [];
      }
      if (kept.deleted_at || merged.deleted_at) {
        answer = { found: true, keptBeliefId: '', mergedBeliefId: '', error: 'one of the linked nodes was rolled back or merged' };
        return [];
      }
      answer = { found: true, keptBeliefId: kept.belief_id, mergedBeliefId: merged.belief_id, error: '' };
      return [
        draft(
          Events.BeliefsMerged,
          { linkId: link.link_id, keptBeliefId: kept.belief_id, mergedBeliefId: merged.belief_id, reason: req.reason.slice(0, 500) },
          { userId: req.userId, causationId: '', correlationId: link.link_id, id: deriveId('belief-graph', 'merge', link.link_id), occurredAt: deps.clock.now() },
        ),
      ];
    });
    if (answer.keptBeliefId) deps.logger?.info({ userId: req.userId, linkId: req.linkId, kept: answer.keptBeliefId, merged: answer.mergedBeliefId }, 'belief nodes merged by an admin');
    return answer;
  };
}

/**
 * RollbackExtractorVersion (§6) for one user: a compensating event that
 * soft-deletes the user's occurrences of that version (the projection removes
 * nodes left without evidence). Running it again finds nothing left to remove.
 */
export function createRollbackCommand(deps: AdminDeps): (request: belief.RollbackExtractorVersionRequest) => Promise<belief.RollbackExtractorVersionResponse> {
  return async (request) => {
    const req = request;
    if (!isUuid(req.userId)) throw new Error('RollbackExtractorVersionRequest.user_id must be a uuid');
    if (!/^[0-9a-f]{8,64}$/.test(req.extractorVersion)) throw new Error(`extractor_version must be a hex hash, got ${JSON.stringify(req.extractorVersion.slice(0, 64))}`);
    let count = 0;
    await appendDecided(deps.bus, 'belief-graph', req.userId, async (last) => {
      await requirePosition(deps.db, beliefsProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
      const rows = await deps.db
        .selectFrom('occurrences')
        .select('occurrence_id')
        .where('user_id', '=', req.userId)
        .where('extractor_version', '=', req.extractorVersion)
        .where('deleted_at', 'is', null)
        .orderBy('occurrence_id')
        .execute();
      count = rows.length;
      if (rows.length === 0) return [];
      const ids = rows.map((r) => r.occurrence_id);
      return [
        draft(
          Events.ExtractorVersionRolledBack,
          { extractorVersion: req.extractorVersion, occurrenceIds: ids, reason: req.reason.slice(0, 500) },
          { userId: req.userId, causationId: '', correlationId: req.extractorVersion, id: deriveId('belief-graph', 'rollback', req.userId, req.extractorVersion, ids[0]!, String(ids.length)), occurredAt: deps.clock.now() },
        ),
      ];
    });
    return { occurrences: count };
  };
}

/** ListBeliefUsers: the users with live occurrences of a version (the rollback script's work list). */
export function createListBeliefUsersQuery(db: Kysely<BeliefDb>): (request: belief.ListBeliefUsersRequest) => Promise<belief.ListBeliefUsersResponse> {
  return async (request) => {
    const { extractorVersion } = request;
    const rows = await db.selectFrom('occurrences').select('user_id').distinct().where('extractor_version', '=', extractorVersion).where('deleted_at', 'is', null).orderBy('user_id').execute();
    return { userIds: rows.map((r) => r.user_id) };
  };
}
