import { updateConfidence } from '@hearth/beliefs';
import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events, isUuid, type OutcomeEvaluated, type ReliabilityChanged } from '@hearth/events';
import { lockUser, type Projection } from '@hearth/store';
import { RELIABILITY_STATES } from '@hearth/uncertainty';
import { sql, type Compilable, type RawBuilder, type Transaction } from 'kysely';
import { jsonArrayFrom } from 'kysely/helpers/postgres';
import type { BeliefDb } from '../db.js';
import {
  conflictWindowStart,
  foldExtracted,
  hasGraphChanges,
  occurrenceKey,
  pairKey,
  scoreChange,
  scoresOf,
  sliceQueryOf,
  type ExtractedEvent,
  type ExtractedWrites,
  type GraphSlice,
  type NodeChange,
  type SliceQuery,
  type SliceOccurrence,
} from './graph-slice.js';

type Trx = Transaction<BeliefDb>;

/**
 * The belief graph as its own events tell it (self-belief-decomposer.md §3).
 * Every decision — atoms, resolution, links, conflicts — is in the events; the
 * projection only derives what follows from them at the event's time:
 * confidence, activation, core score and status, and the state → identity
 * migration with its ratchet (§4.14, §4.16, §4.17).
 *
 * Besides, each node's reliability state (uncertainty-engine.md, issue 17),
 * owned by the uncertainty service: its ReliabilityChanged about a belief sets
 * it, touching nothing else, and a node created after its state takes it from
 * `belief_reliability` — so the two streams fold alike in any interleaving.
 *
 * And the trust service's part (outcome-driven-trust.md, issue 18): the
 * graph's own BeliefGardened sets a companion belief's gardener level and
 * confidence; trust's OutcomeEvaluated adds its reward to the belief's sum
 * (belief-challenge.md's reward correlation). Rewards touch only their own
 * table, so the trust stream folds alike whenever it is applied.
 *
 * Statements are few (issue 20): an event reads what it needs in one
 * statement, decides in memory (graph-slice.ts) and writes in one more, its
 * writes joined as data-modifying CTEs.
 */
export const beliefsProjection: Projection<BeliefDb> = {
  name: 'beliefs',
  sources: ['belief-graph', 'uncertainty', 'trust'],
  tables: ['nodes', 'occurrences', 'links', 'conflicts', 'challenges', 'sources', 'belief_reliability', 'gardened', 'belief_rewards'],
  types: [Events.ReliabilityChanged.name, Events.BeliefsExtracted.name, Events.BeliefGardened.name, Events.OutcomeEvaluated.name, Events.BeliefsMerged.name, Events.ExtractorVersionRolledBack.name, Events.BeliefChallengeIssued.name, Events.BeliefConfidenceUpdated.name],
  ignores(e) {
    switch (e.type) {
      case Events.ReliabilityChanged.name:
        return !aboutBelief(payloadOf(e, Events.ReliabilityChanged));
      case Events.OutcomeEvaluated.name:
        return !counted(payloadOf(e, Events.OutcomeEvaluated));
      case Events.ExtractorVersionRolledBack.name:
        return payloadOf(e, Events.ExtractorVersionRolledBack).occurrenceIds.length === 0;
      case Events.BeliefConfidenceUpdated.name: {
        const u = payloadOf(e, Events.BeliefConfidenceUpdated);
        return !u.challengeId && !isStep(u.signal);
      }
      default:
        return false;
    }
  },
  async apply(trx, e) {
    switch (e.type) {
      case Events.ReliabilityChanged.name:
        return applyReliability(trx, e);
      case Events.BeliefsExtracted.name:
        return applyExtracted(trx, [{ x: payloadOf(e, Events.BeliefsExtracted), userId: e.userId, at: e.occurredAt }]);
      case Events.BeliefGardened.name:
        return applyGardened(trx, e);
      case Events.OutcomeEvaluated.name:
        return applyOutcome(trx, e);
      case Events.BeliefsMerged.name:
        return applyMerged(trx, e);
      case Events.ExtractorVersionRolledBack.name:
        return applyRollback(trx, e);
      case Events.BeliefChallengeIssued.name: {
        const c = payloadOf(e, Events.BeliefChallengeIssued);
        await trx
          .insertInto('challenges')
          .values({
            challenge_id: c.challengeId,
            user_id: e.userId,
            belief_id: c.beliefId,
            style: c.style,
            message_id: c.messageId,
            assistant_message_id: c.assistantMessageId,
            conversation_id: c.conversationId,
            prompt: c.prompt,
            created_at: e.occurredAt,
            answered_message_id: null,
            answer_signal: null,
          })
          .onConflict((oc) => oc.column('challenge_id').doNothing())
          .execute();
        return;
      }
      case Events.BeliefConfidenceUpdated.name:
        return applyConfidenceUpdated(trx, e);
      default:
        return;
    }
  },
  // A run of BeliefsExtracted is read, folded and written together.
  applyBatch: (trx, events) => applyBeliefEvents(trx, events),
  async erase(trx, userId) {
    for (const table of ['belief_rewards', 'gardened', 'belief_reliability', 'sources', 'challenges', 'conflicts', 'links', 'occurrences', 'nodes'] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute();
    }
  },
};

/** Events, and atoms, links and conflicts, of one run at most: its write stays well under Postgres's 65,535 parameters. */
const RUN_ITEMS = 500;

/**
 * Applies events in order with the rows `apply` would write one by one, a run
 * of consecutive BeliefsExtracted read, folded and written together: the
 * projection's applyBatch, which the runner calls with the events of a batch
 * it applies (live and replay).
 */
export async function applyBeliefEvents(trx: Trx, events: readonly StoredEvent[]): Promise<void> {
  let run: ExtractedEvent[] = [];
  let items = 0;
  const flush = async (): Promise<void> => {
    if (run.length > 0) await applyExtracted(trx, run);
    run = [];
    items = 0;
  };
  for (const e of events) {
    if (e.type !== Events.BeliefsExtracted.name) {
      await flush();
      await beliefsProjection.apply(trx, e);
      continue;
    }
    const x = payloadOf(e, Events.BeliefsExtracted);
    const size = x.atoms.length + x.links.length + x.conflicts.length;
    if (items + size > RUN_ITEMS || run.length >= RUN_ITEMS) await flush();
    run.push({ x, userId: e.userId, at: e.occurredAt });
    items += size;
  }
  await flush();
}

const STATES: ReadonlySet<string> = new Set(RELIABILITY_STATES);

function aboutBelief(r: ReliabilityChanged): r is ReliabilityChanged & { subject: { id: string } } {
  return r.subject?.kind === 'belief' && isUuid(r.subject.id) && STATES.has(r.to);
}

const counted = (o: OutcomeEvaluated): boolean => o.beliefId !== '' && Number.isFinite(o.reward);

/** The signals that step a belief's confidence (belief-challenge.md §5). */
const isStep = (signal: string): signal is 'reinforced' | 'questioned' | 'contradicted' => signal === 'reinforced' || signal === 'questioned' || signal === 'contradicted';

/**
 * ReliabilityChanged about a belief (subject kind belief, id set): kept for the
 * user's id and set on the user's node if it is here. A memory's, an id not
 * written yet ("") and an unknown state are passed over.
 */
async function applyReliability(trx: Trx, e: StoredEvent): Promise<void> {
  const r = payloadOf(e, Events.ReliabilityChanged);
  if (!aboutBelief(r)) return;
  // Before the writes, in a statement of its own: they then see a node the other stream's consumer just committed.
  await lockUser(trx, 'beliefs', e.userId);
  const beliefId = r.subject.id.toLowerCase();
  const kept = trx
    .insertInto('belief_reliability')
    .values({ user_id: e.userId, belief_id: beliefId, reliability: r.to, changed_at: e.occurredAt })
    .onConflict((oc) => oc.columns(['user_id', 'belief_id']).doUpdateSet({ reliability: r.to, changed_at: e.occurredAt }));
  await withWrites([kept], trx.updateTable('nodes').set({ reliability: r.to }).where('belief_id', '=', beliefId).where('user_id', '=', e.userId)).execute(trx);
}

/**
 * What the graph made of a gardener decision: the audit row, and when applied
 * the node's level and confidence as decided on this chain (no event of the
 * chain came between the decision and its record).
 */
async function applyGardened(trx: Trx, e: StoredEvent): Promise<void> {
  const g = payloadOf(e, Events.BeliefGardened);
  const audit = trx
    .insertInto('gardened')
    .values({ decision_id: g.decisionId, user_id: e.userId, belief_id: g.beliefId, action: g.action, applied: g.applied, reason: g.reason, level: g.level, confidence: g.confidence, at: e.occurredAt })
    .onConflict((oc) => oc.column('decision_id').doNothing());
  if (!g.applied) {
    await audit.execute();
    return;
  }
  await withWrites([audit], trx.updateTable('nodes').set({ gardener_level: g.level, confidence: g.confidence }).where('belief_id', '=', g.beliefId).where('user_id', '=', e.userId)).execute(trx);
}

/** One outcome of a decision about a belief, at one horizon: counted into the belief's rewards. */
async function applyOutcome(trx: Trx, e: StoredEvent): Promise<void> {
  const o = payloadOf(e, Events.OutcomeEvaluated);
  if (!counted(o)) return;
  await trx
    .insertInto('belief_rewards')
    .values({ user_id: e.userId, belief_id: o.beliefId, outcomes: 1, reward_sum: o.reward })
    .onConflict((oc) =>
      oc.columns(['user_id', 'belief_id']).doUpdateSet({ outcomes: sql<number>`belief_rewards.outcomes + 1`, reward_sum: sql<number>`belief_rewards.reward_sum + ${o.reward}` }),
    )
    .execute();
}

/** The updater's step and the challenge's answer (belief-challenge.md §5). */
async function applyConfidenceUpdated(trx: Trx, e: StoredEvent): Promise<void> {
  const u = payloadOf(e, Events.BeliefConfidenceUpdated);
  const answered = u.challengeId
    ? [trx.updateTable('challenges').set({ answered_message_id: u.sourceMessageId, answer_signal: u.signal }).where('challenge_id', '=', u.challengeId)]
    : [];
  if (!isStep(u.signal)) {
    for (const q of answered) await q.execute();
    return;
  }
  // The step is applied to the confidence as the chain has it here (not the value the
  // decision saw), so the updater's steps and reinforcements from the other stream commute.
  const node = trx.selectFrom('nodes').select('confidence').where('belief_id', '=', u.beliefId).where('user_id', '=', e.userId);
  const [row] = (await withWrites(answered, node).execute(trx)).rows;
  if (row) await trx.updateTable('nodes').set({ confidence: updateConfidence(row.confidence, u.signal).confidence }).where('belief_id', '=', u.beliefId).execute();
}

/**
 * A run of BeliefsExtracted: the users' locks when a node is created, one
 * statement that reads the slice of the graph they touch, the fold, and one
 * statement that writes every row they change.
 */
async function applyExtracted(trx: Trx, events: readonly ExtractedEvent[]): Promise<void> {
  const changing = events.filter((e) => hasGraphChanges(e.x));
  let slice: GraphSlice = EMPTY_SLICE;
  if (changing.length > 0) {
    // A node's state may be on its way on the uncertainty stream's consumer right now.
    for (const userId of [...new Set(changing.filter((e) => e.x.atoms.some((a) => a.created)).map((e) => e.userId))].sort()) await lockUser(trx, 'beliefs', userId);
    slice = await readSlice(trx, sliceQueryOf(changing));
  }
  await writeExtracted(trx, foldExtracted(slice, events));
}

const EMPTY_SLICE: GraphSlice = { nodes: new Map(), occurrences: new Map(), sourced: new Set(), reliability: new Map(), links: new Map(), conflictPairs: new Set(), recentConflicts: [] };

/** The slice of the graph a run of events folds over, in one statement (a JSON array per part). */
async function readSlice(trx: Trx, q: SliceQuery): Promise<GraphSlice> {
  const ids = sql<string[]>`${q.beliefIds}::uuid[]`;
  const tuples = (cols: string, types: string, rows: readonly (readonly string[])[]) =>
    sql<boolean>`(${sql.raw(cols)}) in (select * from unnest(${sql.join(types.split(',').map((t, i) => sql`${rows.map((r) => r[i])}::${sql.raw(t)}[]`))}))`;
  const row = await trx
    .selectNoFrom((eb) => [
      jsonArrayFrom(
        eb
          .selectFrom('nodes')
          .select(['belief_id', 'confidence', 'created_at', 'deleted_at', 'stream', 'migration_history'])
          .where((w) => w('belief_id', '=', w.fn.any(ids))),
      ).as('nodes'),
      jsonArrayFrom(
        eb
          .selectFrom('occurrences')
          .select(['belief_id', 'source_message_id', 'extractor_version', 'created_at', 'deleted_at', 'source_weight', 'atom_confidence', 'context_id'])
          .where((w) => w('belief_id', '=', w.fn.any(ids)))
          .where((w) => w.or([w('deleted_at', 'is', null), ...(q.occurrenceKeys.length > 0 ? [tuples('belief_id, source_message_id, extractor_version', 'uuid,text,text', q.occurrenceKeys)] : [])])),
      ).as('occurrences'),
      jsonArrayFrom(
        eb
          .selectFrom('conflicts')
          .select(['node_a_id', 'node_b_id', 'created_at'])
          .where((w) => w.or([w('node_a_id', '=', w.fn.any(ids)), w('node_b_id', '=', w.fn.any(ids))]))
          .where('status', '=', 'active')
          .where('created_at', '>=', q.conflictsSince),
      ).as('recent_conflicts'),
    ])
    .$if(q.created.length > 0, (s) =>
      s.select((eb) => jsonArrayFrom(eb.selectFrom('belief_reliability').select(['user_id', 'belief_id', 'reliability']).where(tuples('user_id, belief_id', 'uuid,uuid', q.created))).as('reliability')),
    )
    .$if(q.linkPairs.length > 0, (s) =>
      s.select((eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('links')
            .select(['link_id', 'from_belief_id', 'to_belief_id', 'support_both', 'support_one', 'state', 'created_at'])
            .where(tuples('from_belief_id, to_belief_id', 'uuid,uuid', q.linkPairs)),
        ).as('links'),
      ),
    )
    .$if(q.conflictPairs.length > 0, (s) =>
      s.select((eb) => jsonArrayFrom(eb.selectFrom('conflicts').select(['node_a_id', 'node_b_id']).where(tuples('node_a_id, node_b_id', 'uuid,uuid', q.conflictPairs))).as('conflict_pairs')),
    )
    .executeTakeFirstOrThrow();
  const occurrences = new Map<string, SliceOccurrence[]>();
  const sourced = new Set<string>();
  for (const o of row.occurrences) {
    sourced.add(occurrenceKey(o.belief_id, o.source_message_id, o.extractor_version));
    if (o.deleted_at !== null) continue;
    const list = occurrences.get(o.belief_id) ?? [];
    list.push({ sourceMessageId: o.source_message_id, createdAt: new Date(o.created_at), sourceWeight: o.source_weight, atomConfidence: o.atom_confidence, contextId: o.context_id });
    occurrences.set(o.belief_id, list);
  }
  return {
    nodes: new Map(
      row.nodes.map((n) => [
        n.belief_id,
        { confidence: n.confidence, createdAt: new Date(n.created_at), deletedAt: n.deleted_at === null ? null : new Date(n.deleted_at), stream: n.stream, migrationHistory: n.migration_history },
      ]),
    ),
    occurrences,
    sourced,
    reliability: new Map((row.reliability ?? []).map((r) => [pairKey(r.user_id, r.belief_id), r.reliability])),
    links: new Map(
      (row.links ?? []).map((l) => [pairKey(l.from_belief_id, l.to_belief_id), { linkId: l.link_id, supportBoth: l.support_both, supportOne: l.support_one, state: l.state, createdAt: new Date(l.created_at) }]),
    ),
    conflictPairs: new Set((row.conflict_pairs ?? []).map((c) => pairKey(c.node_a_id, c.node_b_id))),
    recentConflicts: row.recent_conflicts.map((c) => ({ nodeAId: c.node_a_id, nodeBId: c.node_b_id, createdAt: new Date(c.created_at) })),
  };
}

/** Every row a run of BeliefsExtracted writes, in one statement. */
async function writeExtracted(trx: Trx, w: ExtractedWrites): Promise<void> {
  const writes: Compilable[] = [];
  if (w.newNodes.length > 0) writes.push(trx.insertInto('nodes').values(w.newNodes).onConflict((oc) => oc.column('belief_id').doNothing()));
  if (w.nodeChanges.length > 0) writes.push(changeNodes(trx, w.nodeChanges));
  if (w.occurrences.length > 0) writes.push(trx.insertInto('occurrences').values(w.occurrences).onConflict((oc) => oc.columns(['belief_id', 'source_message_id', 'extractor_version']).doNothing()));
  if (w.links.length > 0) {
    writes.push(
      trx
        .insertInto('links')
        .values(w.links)
        .onConflict((oc) =>
          oc.columns(['from_belief_id', 'to_belief_id']).doUpdateSet((eb) => ({
            confidence: eb.ref('excluded.confidence'),
            state: eb.ref('excluded.state'),
            support_both: eb.ref('excluded.support_both'),
            support_one: eb.ref('excluded.support_one'),
            last_support_at: eb.ref('excluded.last_support_at'),
            updated_at: eb.ref('excluded.updated_at'),
            signals: eb(eb.ref('links.signals'), '||', eb.ref('excluded.signals')),
          })),
        ),
    );
  }
  if (w.conflicts.length > 0) writes.push(trx.insertInto('conflicts').values(w.conflicts).onConflict((oc) => oc.columns(['node_a_id', 'node_b_id']).doNothing()));
  const sources = trx.insertInto('sources').values(w.sources).onConflict((oc) => oc.columns(['user_id', 'source_message_id', 'holder', 'extractor_version']).doNothing());
  await withWrites(writes, sources).execute(trx);
}

/** Existing nodes' changed columns, in one statement: each column given (not null) is set, conflicts are added to the count. */
function changeNodes(trx: Trx, changes: readonly NodeChange[]) {
  const col = <T>(f: (c: NodeChange) => T | undefined): (T | null)[] => changes.map((c) => f(c) ?? null);
  const v = sql<{
    belief_id: string;
    confidence: number | null;
    last_reinforced_at: Date | null;
    raw_text: string | null;
    conflicts_added: number;
    activation: number | null;
    core_score: number | null;
    status: string | null;
    stream: string | null;
    migrated_from: string | null;
    migrated_at: Date | null;
    migration_history: string | null;
  }>`unnest(${col((c) => c.beliefId)}::uuid[], ${col((c) => c.confidence)}::float8[], ${col((c) => c.lastReinforcedAt)}::timestamptz[], ${col((c) => c.rawText)}::text[],
    ${col((c) => c.conflictsAdded)}::int[], ${col((c) => c.activation)}::float8[], ${col((c) => c.coreScore)}::float8[], ${col((c) => c.status)}::text[],
    ${col((c) => c.stream)}::text[], ${col((c) => c.migratedFrom)}::text[], ${col((c) => c.migratedAt)}::timestamptz[], ${col((c) => c.migrationHistory)}::jsonb[])`.as<'v'>(
    sql`v(belief_id, confidence, last_reinforced_at, raw_text, conflicts_added, activation, core_score, status, stream, migrated_from, migrated_at, migration_history)`,
  );
  return trx
    .updateTable('nodes')
    .from(v)
    .set((eb) => ({
      confidence: eb.fn.coalesce('v.confidence', 'nodes.confidence'),
      last_reinforced_at: eb.fn.coalesce('v.last_reinforced_at', 'nodes.last_reinforced_at'),
      raw_text: eb.fn.coalesce('v.raw_text', 'nodes.raw_text'),
      conflict_count: eb('nodes.conflict_count', '+', eb.ref('v.conflicts_added')),
      activation: eb.fn.coalesce('v.activation', 'nodes.activation'),
      core_score: eb.fn.coalesce('v.core_score', 'nodes.core_score'),
      status: eb.fn.coalesce('v.status', 'nodes.status'),
      stream: eb.fn.coalesce('v.stream', 'nodes.stream'),
      migrated_from: eb.fn.coalesce('v.migrated_from', 'nodes.migrated_from'),
      migrated_at: eb.fn.coalesce('v.migrated_at', 'nodes.migrated_at'),
      migration_history: eb.fn.coalesce('v.migration_history', 'nodes.migration_history'),
    }))
    .whereRef('nodes.belief_id', '=', 'v.belief_id');
}

/**
 * Writes as one statement: each of `writes` a data-modifying CTE of `last`.
 * They run on one snapshot, so each must touch rows the others do not.
 */
function withWrites<R>(writes: readonly Compilable[], last: Compilable<R>): RawBuilder<R> {
  if (writes.length === 0) return sql<R>`${last}`;
  return sql<R>`with ${sql.join(writes.map((q, i) => sql`${sql.id(`w${i}`)} as (${q})`))} ${last}`;
}

/** §4.16, §4.17, §4.14: the scores and stream of live nodes at `at`, from their live occurrences and recent conflicts. */
async function rescore(trx: Trx, beliefIds: readonly string[], at: Date): Promise<void> {
  const since = conflictWindowStart(at);
  const slice = await readSlice(trx, { beliefIds: [...beliefIds], created: [], occurrenceKeys: [], linkPairs: [], conflictPairs: [], conflictsSince: since });
  const changes: NodeChange[] = [];
  for (const id of beliefIds) {
    const node = slice.nodes.get(id);
    if (!node || node.deletedAt) continue;
    const conflicts = slice.recentConflicts.filter((c) => c.nodeAId === id || c.nodeBId === id).length;
    changes.push(scoreChange(id, scoresOf(node, slice.occurrences.get(id) ?? [], conflicts, at)));
  }
  if (changes.length > 0) await changeNodes(trx, changes).execute();
}

async function applyMerged(trx: Trx, e: StoredEvent): Promise<void> {
  const m = payloadOf(e, Events.BeliefsMerged);
  const at = e.occurredAt;
  // An occurrence of the same source and version on both sides is evidence counted once:
  // the merged node's twins of the kept node's are deleted, its others move to the kept node.
  const mergedOccurrences = (twins: boolean) =>
    trx
      .updateTable('occurrences')
      .set(twins ? { deleted_at: at } : { belief_id: m.keptBeliefId })
      .where('belief_id', '=', m.mergedBeliefId)
      .where((eb) => {
        const twin = eb.exists(
          eb
            .selectFrom('occurrences as kept')
            .select(sql`1`.as('one'))
            .where('kept.belief_id', '=', m.keptBeliefId)
            .whereRef('kept.source_message_id', '=', 'occurrences.source_message_id')
            .whereRef('kept.extractor_version', '=', 'occurrences.extractor_version'),
        );
        return twins ? twin : eb.not(twin);
      });
  await withWrites(
    [
      mergedOccurrences(true),
      mergedOccurrences(false),
      trx.updateTable('nodes').set({ deleted_at: at, merged_into: m.keptBeliefId }).where('belief_id', '=', m.mergedBeliefId),
      trx.updateTable('links').set({ state: 'merged', updated_at: at }).where('link_id', '=', m.linkId),
    ],
    trx
      .updateTable('conflicts')
      .set({ status: 'resolved', resolved_at: at, resolution_reason: 'merged' })
      .where((eb) => eb.or([eb('node_a_id', '=', m.mergedBeliefId), eb('node_b_id', '=', m.mergedBeliefId)]))
      .where('status', '=', 'active'),
  ).execute(trx);
  await rescore(trx, [m.keptBeliefId], at);
}

async function applyRollback(trx: Trx, e: StoredEvent): Promise<void> {
  const r = payloadOf(e, Events.ExtractorVersionRolledBack);
  const at = e.occurredAt;
  if (r.occurrenceIds.length === 0) return;
  const affected = await trx.selectFrom('occurrences').select('belief_id').distinct().where('occurrence_id', 'in', r.occurrenceIds).execute();
  await trx.updateTable('occurrences').set({ deleted_at: at }).where('occurrence_id', 'in', r.occurrenceIds).where('user_id', '=', e.userId).execute();
  for (const { belief_id } of affected) {
    const live = await trx.selectFrom('occurrences').select('occurrence_id').where('belief_id', '=', belief_id).where('deleted_at', 'is', null).limit(1).executeTakeFirst();
    if (live) {
      await rescore(trx, [belief_id], at);
      continue;
    }
    // §6: a node only that version saw goes with it, and its edges are closed.
    await trx.updateTable('nodes').set({ deleted_at: at }).where('belief_id', '=', belief_id).execute();
    await trx
      .updateTable('conflicts')
      .set({ status: 'resolved', resolved_at: at, resolution_reason: 'rolled_back' })
      .where((eb) => eb.or([eb('node_a_id', '=', belief_id), eb('node_b_id', '=', belief_id)]))
      .where('status', '=', 'active')
      .execute();
    await trx
      .updateTable('links')
      .set({ state: 'rejected', updated_at: at })
      .where((eb) => eb.or([eb('from_belief_id', '=', belief_id), eb('to_belief_id', '=', belief_id)]))
      .where('state', '=', 'pending')
      .execute();
  }
}
