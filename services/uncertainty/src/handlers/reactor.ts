import { appendDecided, draft, payloadOf, type EventDraft, type StoredEvent } from '@hearth/bus';
import { deriveId, Events, type BeliefsExtracted } from '@hearth/events';
import { requirePosition, type Reactor } from '@hearth/store';
import { sql } from 'kysely';
import { counter } from '@hearth/telemetry';
import { reconcile, severityOf, surfaceContextOf, UNCERTAINTY_CONFIG, type NewUncertainty, type Side } from '@hearth/uncertainty';
import { loadAllHeld, loadRecords, loadTolerance } from '../adapters/state.js';
import { SERVICE } from '../config.js';
import { uncertaintiesProjection } from '../projections/uncertainties.js';
import { runCheck, type CheckDeps } from './check.js';
import { recordedDraft, reliabilityDrafts, resolvedDraft, subjectOf, type Meta } from './drafts.js';

const surfacings = counter('hearth_uncertainty_surfaced_total', 'Uncertainties a reply asked about, by why (contradiction just now, or a matching context later)');
const driftCycles = counter('hearth_uncertainty_drift_cycles_total', 'Drift (RECONCILE) cycles run, by domain');

/**
 * What the rest of a turn gives uncertainty, after the reply:
 * - TurnCompleted: the uncertainty the reply asked about (UncertaintySurfaced);
 *   when the orchestrator got no answer in time, the check runs now (late:
 *   queued for drift and a matching context, never woven into a past reply);
 * - MemoryRecorded: the memory a contradicting message wrote becomes the
 *   contradicted side it was waiting for;
 * - MemoriesInvalidated: the user said one side is not so (user_clarified);
 * - TurnMemoryWritten: a drift cycle when the cooldown has passed (Context 2);
 * - BeliefsExtracted: the belief graph's contradictions between nodes, recorded
 *   as concept-vs-concept uncertainties (Context 4).
 */
export function createUncertaintyReactor(deps: CheckDeps): Reactor {
  return {
    name: 'uncertainty',
    sources: ['orchestrator', 'memory', 'belief-graph'],
    types: [Events.TurnCompleted.name, Events.MemoryRecorded.name, Events.MemoriesInvalidated.name, Events.TurnMemoryWritten.name, Events.BeliefsExtracted.name],
    async react(event: StoredEvent) {
      switch (event.type) {
        case Events.TurnCompleted.name:
          return turnCompleted(deps, event);
        case Events.MemoryRecorded.name:
          return memoryRecorded(deps, event);
        case Events.MemoriesInvalidated.name:
          return invalidated(deps, event);
        case Events.TurnMemoryWritten.name:
          return drift(deps, event);
        case Events.BeliefsExtracted.name:
          return beliefConflicts(deps, event, payloadOf(event, Events.BeliefsExtracted));
        default:
          return;
      }
    },
  };
}

function metaOf(event: StoredEvent, basis: string): Meta {
  return { userId: event.userId, causationId: event.id, correlationId: event.correlationId, occurredAt: event.occurredAt, basis };
}

/** Decides on the user's uncertainty chain once the projection has applied it. */
async function decide(deps: CheckDeps, userId: string, fn: () => Promise<EventDraft[]>): Promise<void> {
  await appendDecided(deps.bus, 'uncertainty', userId, async (last) => {
    await requirePosition(deps.db, uncertaintiesProjection.name, last, { timeoutMs: SERVICE.projectionWaitMs });
    return fn();
  });
}

async function turnCompleted(deps: CheckDeps, event: StoredEvent): Promise<void> {
  const t = payloadOf(event, Events.TurnCompleted);
  const u = t.uncertainty;
  if (t.source !== 'chat' || !u) return;
  if (u.surfacedUncertaintyId) {
    const id = deriveId('uncertainty', 'surfaced', event.id);
    await decide(deps, event.userId, async () => {
      const row = await deps.db.selectFrom('uncertainties').select(['surfaced_count', 'last_surfaced_at', 'state']).where('uncertainty_id', '=', u.surfacedUncertaintyId).where('user_id', '=', event.userId).executeTakeFirst();
      // Asked about once per reply; a record already resolved in between stays as it is.
      if (!row || row.state === 'resolved' || row.state === 'decayed' || (row.last_surfaced_at && row.last_surfaced_at >= event.occurredAt)) return [];
      surfacings.add(1, { reason: t.uncertainty?.verdict === 'contradiction' ? 'contradiction' : 'surfacing' });
      return [
        draft(
          Events.UncertaintySurfaced,
          { uncertaintyId: u.surfacedUncertaintyId, messageId: t.messageId, assistantMessageId: t.assistantMessageId, conversationId: t.conversationId, phrasingId: u.phrasingId, surfacedCount: row.surfaced_count + 1, at: event.occurredAt },
          { userId: event.userId, causationId: event.id, correlationId: t.messageId, occurredAt: event.occurredAt, id },
        ),
      ];
    });
  }
  // The orchestrator asked and got no answer in time: the check still happens, after the reply.
  if ((u.status === 'timeout' || u.status === 'unavailable') && t.userText.trim()) {
    await runCheck(deps, {
      userId: event.userId,
      messageId: t.messageId,
      conversationId: t.conversationId,
      text: t.userText,
      afterMessageId: '',
      answersUncertaintyId: u.answersUncertaintyId,
      at: event.occurredAt,
      late: true,
      causationId: event.id,
    });
  }
}

async function memoryRecorded(deps: CheckDeps, event: StoredEvent): Promise<void> {
  const m = payloadOf(event, Events.MemoryRecorded);
  if (!m.sourceMessageId) return;
  const waiting = await deps.db
    .selectFrom('uncertainties')
    .select('uncertainty_id')
    .where('user_id', '=', event.userId)
    .where('state', 'in', ['open', 'surfaced'])
    .where('memory_key', '=', m.memoryKey)
    .where(sql<boolean>`source_message_ids @> array[${m.sourceMessageId}]::text[]`)
    .executeTakeFirst();
  if (!waiting) return;
  await decide(deps, event.userId, async () => {
    const [u] = (await loadRecords(deps.db, event.userId, ['open', 'surfaced'])).filter((r) => r.uncertaintyId === waiting.uncertainty_id);
    // The projection may not have folded this MemoryRecorded yet: the side is matched by its message and key.
    const found = u?.sides.find((s) => (s.id === '' || s.id === m.memoryId) && s.key === m.memoryKey && s.sourceMessageId === m.sourceMessageId);
    const side = found ? { ...found, id: m.memoryId, confidence: m.confidence } : undefined;
    const known = await deps.db.selectFrom('reliability').select('reliability').where('subject_kind', '=', 'memory').where('subject_id', '=', m.memoryId).executeTakeFirst();
    if (!u || !side || known) return [];
    return reliabilityDrafts(metaOf(event, `link|${m.memoryId}`), [{ side, from: 'reliable', to: 'contradicted', reason: 'contradiction', uncertaintyId: u.uncertaintyId }]);
  });
}

async function invalidated(deps: CheckDeps, event: StoredEvent): Promise<void> {
  const m = payloadOf(event, Events.MemoriesInvalidated);
  if (m.memoryIds.length === 0) return;
  const gone = new Set(m.memoryIds);
  await decide(deps, event.userId, async () => {
    const open = (await loadRecords(deps.db, event.userId, ['open', 'surfaced'])).filter((u) => u.sides.some((s) => gone.has(s.id)));
    const drafts: EventDraft[] = [];
    const meta = metaOf(event, `invalidated|${event.id}`);
    for (const u of open) {
      const loser = u.sides.find((s) => gone.has(s.id))!;
      const winner = u.sides.find((s) => !gone.has(s.id)) ?? null;
      drafts.push(resolvedDraft(meta, { uncertaintyId: u.uncertaintyId, strategy: 'user_clarified', state: 'resolved', detail: `the user asked to forget ${loser.value}`, winnerId: winner?.id ?? '', loserId: loser.id }, m.sourceMessageId));
      if (winner) drafts.push(...reliabilityDrafts({ ...meta, basis: `invalidated|${event.id}|${u.uncertaintyId}` }, [{ side: winner, from: 'contradicted', to: 'reliable', reason: 'user_clarified', uncertaintyId: u.uncertaintyId }]));
    }
    return drafts;
  });
}

/** Context 2 on the virtual clock: at most one cycle per cooldown, after a write-back. */
async function drift(deps: CheckDeps, event: StoredEvent): Promise<void> {
  const row = await deps.db.selectFrom('drift').select(['cycle', 'last_drift_at']).where('user_id', '=', event.userId).executeTakeFirst();
  // The first cycle comes a cooldown after the user's first memory: drift works on what there is to reconcile.
  const since = row?.last_drift_at ?? (await deps.db.selectFrom('held_memories').select((eb) => eb.fn.min('created_at').as('first')).where('user_id', '=', event.userId).executeTakeFirst())?.first;
  if (!since || event.occurredAt.getTime() - new Date(since).getTime() < UNCERTAINTY_CONFIG.drift.cooldownMs) return;
  await decide(deps, event.userId, async () => {
    const now = await deps.db.selectFrom('drift').select(['cycle', 'last_drift_at']).where('user_id', '=', event.userId).executeTakeFirst();
    if (now && (now.cycle !== row?.cycle || event.occurredAt.getTime() - now.last_drift_at.getTime() < UNCERTAINTY_CONFIG.drift.cooldownMs)) return [];
    const cycle = (now?.cycle ?? -1) + 1;
    const basis = `drift|${event.userId}|${cycle}`;
    const [memories, records, tolerance] = await Promise.all([loadAllHeld(deps.db, event.userId), loadRecords(deps.db, event.userId, ['open', 'surfaced']), loadTolerance(deps.db, event.userId)]);
    const d = reconcile({ cycle, memories, records, tolerance, at: event.occurredAt, newId: (x) => deriveId('uncertainty', 'uncertainty', basis, x) });
    driftCycles.add(1, { domain: d.domain });
    const meta = metaOf(event, basis);
    return [
      draft(Events.DriftCycled, { cycle, domain: d.domain, sampledMemoryIds: d.sampled, pairsChecked: d.pairsChecked, at: event.occurredAt }, { userId: event.userId, causationId: event.id, correlationId: event.correlationId, occurredAt: event.occurredAt, id: deriveId('uncertainty', 'drift', basis) }),
      ...d.records.map((u) => recordedDraft(meta, u)),
      ...d.resolutions.map((r) => resolvedDraft(meta, r, '')),
      ...reliabilityDrafts(meta, d.reliability),
    ];
  });
}

/**
 * Context 4: a contradiction the belief graph found between two nodes (the
 * same meaning, opposite polarity, or one attribute with two values) is a
 * concept-vs-concept uncertainty; both nodes become contradicted.
 */
async function beliefConflicts(deps: CheckDeps, event: StoredEvent, x: BeliefsExtracted): Promise<void> {
  const conflicts = x.conflicts.filter((c) => c.conflictType === 'contradiction');
  if (conflicts.length === 0) return;
  const texts = new Map(x.atoms.filter((a) => a.beliefId).map((a) => [a.beliefId, a.canonicalText]));
  await decide(deps, event.userId, async () => {
    const drafts: EventDraft[] = [];
    for (const c of conflicts) {
      const id = deriveId('uncertainty', 'uncertainty', 'belief-conflict', c.conflictId);
      const known = await deps.db.selectFrom('uncertainties').select('uncertainty_id').where('uncertainty_id', '=', id).executeTakeFirst();
      if (known) continue;
      const side = (beliefId: string): Side => ({ kind: 'belief', id: beliefId, store: 'concept', key: '', value: texts.get(beliefId) ?? '', confidence: 0, source: 'explicit', sourceMessageId: x.sourceMessageId, statements: 1 });
      const sides = [side(c.nodeAId), side(c.nodeBId)];
      const context = surfaceContextOf('', sides.map((s) => s.value));
      const record: NewUncertainty = {
        uncertaintyId: id,
        type: 'contradiction',
        sides,
        severity: severityOf('concept', 'concept'),
        detectionContext: 'consolidation',
        reasoning: `the belief graph found a ${c.detectionMethod.replace('_', ' ')} between ${x.holder} beliefs`,
        temporalSignal: false,
        surfaceContext: context.description,
        surfaceCues: context.cues,
        state: 'open',
        strategy: '',
        detail: '',
        sourceMessageIds: [x.sourceMessageId].filter(Boolean),
      };
      const meta = metaOf(event, `belief-conflict|${c.conflictId}`);
      drafts.push(recordedDraft(meta, record), ...reliabilityDrafts(meta, sides.map((s) => ({ side: s, from: 'reliable' as const, to: 'contradicted' as const, reason: 'contradiction', uncertaintyId: id }))));
    }
    return drafts;
  });
}

export { subjectOf };
