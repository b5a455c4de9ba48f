import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events, type UncertaintySubject } from '@hearth/events';
import type { Projection } from '@hearth/store';
import { sql, type Transaction } from 'kysely';
import type { UncertaintyDb } from '../db.js';

type Trx = Transaction<UncertaintyDb>;

/** A subject as stored in `uncertainties.subjects` (the proto's JSON form). */
export type StoredSubject = UncertaintySubject;

/**
 * Uncertainty's read model. From memory's events: a mirror of the user's
 * records (what Context 1 and drift check against) and which write-backs have
 * been applied. From its own: the uncertainty records, the reliability state
 * of each memory and belief, the tolerance and the drift cycle. Memory comes
 * first in `sources`, so a replay folds every record before its reliability;
 * reliability lives in its own table, so live order across the two streams
 * does not matter either.
 */
export const uncertaintiesProjection: Projection<UncertaintyDb> = {
  name: 'uncertainties',
  sources: ['memory', 'uncertainty'],
  tables: ['held_memories', 'reliability', 'uncertainties', 'checks', 'written_back', 'tolerances', 'drift'],
  types: [Events.MemoryRecorded.name, Events.MemoryConfirmed.name, Events.MemoriesInvalidated.name, Events.TurnMemoryWritten.name, Events.MessageChecked.name, Events.UncertaintyRecorded.name, Events.UncertaintySurfaced.name, Events.UncertaintyResolved.name, Events.UncertaintySteppedDown.name, Events.ReliabilityChanged.name, Events.ToleranceAdjusted.name, Events.DriftCycled.name],
  async apply(trx, e) {
    switch (e.type) {
      case Events.MemoryRecorded.name:
        return recorded(trx, e);
      case Events.MemoryConfirmed.name: {
        const m = payloadOf(e, Events.MemoryConfirmed);
        await trx
          .updateTable('held_memories')
          .set((eb) => ({ confidence: m.confidence, statements: eb('statements', '+', 1), last_confirmed_at: e.occurredAt }))
          .where('memory_id', '=', m.memoryId)
          .where('user_id', '=', e.userId)
          .execute();
        return;
      }
      case Events.MemoriesInvalidated.name: {
        const m = payloadOf(e, Events.MemoriesInvalidated);
        if (m.memoryIds.length > 0) await trx.updateTable('held_memories').set({ status: 'INVALID' }).where('memory_id', 'in', m.memoryIds).where('user_id', '=', e.userId).execute();
        return;
      }
      case Events.TurnMemoryWritten.name: {
        const w = payloadOf(e, Events.TurnMemoryWritten);
        await trx.insertInto('written_back').values({ user_id: e.userId, message_id: w.messageId }).onConflict((oc) => oc.columns(['user_id', 'message_id']).doNothing()).execute();
        if (w.surfacedMemoryIds.length > 0) {
          await trx
            .updateTable('held_memories')
            .set((eb) => ({ access_count: eb('access_count', '+', 1) }))
            .where('memory_id', 'in', w.surfacedMemoryIds)
            .where('user_id', '=', e.userId)
            .execute();
        }
        return;
      }
      case Events.MessageChecked.name: {
        const c = payloadOf(e, Events.MessageChecked);
        await trx
          .insertInto('checks')
          .values({ message_id: c.messageId, user_id: e.userId, verdict: c.verdict, contradicted_memory_ids: c.contradictedMemoryIds, uncertainty_id: c.uncertaintyId, late: c.late, checked_at: e.occurredAt })
          .onConflict((oc) => oc.column('message_id').doNothing())
          .execute();
        return;
      }
      case Events.UncertaintyRecorded.name:
        return uncertaintyRecorded(trx, e);
      case Events.UncertaintySurfaced.name: {
        const s = payloadOf(e, Events.UncertaintySurfaced);
        await trx
          .updateTable('uncertainties')
          .set({
            surfaced_count: s.surfacedCount,
            last_surfaced_at: e.occurredAt,
            used_phrasing_ids: sql`array_append(used_phrasing_ids, ${s.phrasingId})`,
            state: sql`case when state = 'open' then 'surfaced' else state end`,
          })
          .where('uncertainty_id', '=', s.uncertaintyId)
          .where('user_id', '=', e.userId)
          .execute();
        return;
      }
      case Events.UncertaintyResolved.name: {
        const r = payloadOf(e, Events.UncertaintyResolved);
        await trx
          .updateTable('uncertainties')
          .set({ state: r.state || 'resolved', resolution_strategy: r.strategy, resolution_detail: r.detail, resolved_at: e.occurredAt })
          .where('uncertainty_id', '=', r.uncertaintyId)
          .where('user_id', '=', e.userId)
          .execute();
        return;
      }
      case Events.UncertaintySteppedDown.name: {
        const s = payloadOf(e, Events.UncertaintySteppedDown);
        await trx.updateTable('uncertainties').set({ severity: s.severityTo, stepped_down: true }).where('uncertainty_id', '=', s.uncertaintyId).where('user_id', '=', e.userId).execute();
        return;
      }
      case Events.ReliabilityChanged.name:
        return reliabilityChanged(trx, e);
      case Events.ToleranceAdjusted.name: {
        const t = payloadOf(e, Events.ToleranceAdjusted);
        await trx
          .insertInto('tolerances')
          .values({ user_id: e.userId, tolerance: t.to, updated_at: e.occurredAt })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ tolerance: t.to, updated_at: e.occurredAt }))
          .execute();
        return;
      }
      case Events.DriftCycled.name: {
        const d = payloadOf(e, Events.DriftCycled);
        await trx
          .insertInto('drift')
          .values({ user_id: e.userId, cycle: d.cycle, last_drift_at: e.occurredAt })
          .onConflict((oc) => oc.column('user_id').doUpdateSet({ cycle: d.cycle, last_drift_at: e.occurredAt }))
          .execute();
        return;
      }
      default:
        return;
    }
  },
  async erase(trx, userId) {
    for (const table of ['held_memories', 'reliability', 'uncertainties', 'checks', 'written_back', 'tolerances', 'drift'] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute();
    }
  },
};

async function recorded(trx: Trx, e: StoredEvent): Promise<void> {
  const m = payloadOf(e, Events.MemoryRecorded);
  if (m.supersedes) await trx.updateTable('held_memories').set({ status: 'SUPERSEDED', superseded_by: m.memoryId }).where('memory_id', '=', m.supersedes).where('user_id', '=', e.userId).execute();
  await trx
    .insertInto('held_memories')
    .values({
      memory_id: m.memoryId,
      user_id: e.userId,
      type: m.type,
      memory_key: m.memoryKey,
      memory_value: m.memoryValue,
      confidence: m.confidence,
      status: 'ACTIVE',
      superseded_by: null,
      extractor: m.extractor,
      topic_ids: m.topicIds,
      source_message_id: m.sourceMessageId,
      created_at: e.occurredAt,
      last_confirmed_at: e.occurredAt,
    })
    .onConflict((oc) => oc.column('memory_id').doNothing())
    .execute();
}

async function uncertaintyRecorded(trx: Trx, e: StoredEvent): Promise<void> {
  const u = payloadOf(e, Events.UncertaintyRecorded);
  const [a, b] = u.subjects;
  await trx
    .insertInto('uncertainties')
    .values({
      uncertainty_id: u.uncertaintyId,
      user_id: e.userId,
      memory_a_type: a?.store ?? '',
      memory_a_id: a?.id ?? '',
      memory_b_type: b ? b.store : null,
      memory_b_id: b ? b.id : null,
      uncertainty_type: u.uncertaintyType,
      severity: u.severity,
      detection_context: u.detectionContext,
      reasoning: u.reasoning,
      temporal_signal: u.temporalSignal,
      surface_context: u.surfaceContext,
      state: u.state || 'open',
      resolution_strategy: u.resolutionStrategy || null,
      resolution_detail: u.resolutionDetail || null,
      resolved_at: u.state === 'resolved' ? e.occurredAt : null,
      created_at: e.occurredAt,
      memory_key: a?.memoryKey ?? '',
      subjects: JSON.stringify(u.subjects.map((s) => ({ ...s }))),
      surface_cues: u.surfaceCues,
      source_message_ids: u.sourceMessageIds,
    })
    .onConflict((oc) => oc.column('uncertainty_id').doNothing())
    .execute();
}

/**
 * A subject's new state; when it names a side the record held only by its
 * message (the side memory had not written yet), the side gets its memory id.
 */
async function reliabilityChanged(trx: Trx, e: StoredEvent): Promise<void> {
  const r = payloadOf(e, Events.ReliabilityChanged);
  const s = r.subject;
  if (!s?.id) return;
  await trx
    .insertInto('reliability')
    .values({ user_id: e.userId, subject_kind: s.kind, subject_id: s.id, reliability: r.to, uncertainty_id: r.uncertaintyId, changed_at: e.occurredAt })
    .onConflict((oc) => oc.columns(['subject_kind', 'subject_id']).doUpdateSet({ reliability: r.to, uncertainty_id: r.uncertaintyId, changed_at: e.occurredAt }))
    .execute();
  if (!r.uncertaintyId) return;
  const row = await trx.selectFrom('uncertainties').select(['subjects', 'memory_b_id']).where('uncertainty_id', '=', r.uncertaintyId).where('user_id', '=', e.userId).executeTakeFirst();
  if (!row) return;
  const subjects = row.subjects as StoredSubject[];
  const i = subjects.findIndex((x) => x.id === '' && x.memoryKey === s.memoryKey && x.sourceMessageId === s.sourceMessageId);
  if (i < 0) return;
  subjects[i] = { ...subjects[i]!, id: s.id };
  await trx
    .updateTable('uncertainties')
    .set({ subjects: JSON.stringify(subjects), ...(i === 1 ? { memory_b_id: s.id } : { memory_a_id: s.id }) })
    .where('uncertainty_id', '=', r.uncertaintyId)
    .execute();
}
