import { activationOf, BELIEF_CONFIG, coreScoreOf, linkConfidence, linkStateOf, migrationOf, updateConfidence, type OccurrenceView, type Stream } from '@hearth/beliefs';
import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events, isUuid } from '@hearth/events';
import { lockUser, type Projection } from '@hearth/store';
import { RELIABILITY_STATES } from '@hearth/uncertainty';
import { sql, type Transaction } from 'kysely';
import { SERVICE } from '../config.js';
import type { BeliefDb } from '../db.js';

type Trx = Transaction<BeliefDb>;
const DAY_MS = 86_400_000;

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
 */
export const beliefsProjection: Projection<BeliefDb> = {
  name: 'beliefs',
  sources: ['belief-graph', 'uncertainty', 'trust'],
  tables: ['nodes', 'occurrences', 'links', 'conflicts', 'challenges', 'sources', 'belief_reliability', 'gardened', 'belief_rewards'],
  types: [Events.ReliabilityChanged.name, Events.BeliefsExtracted.name, Events.BeliefGardened.name, Events.OutcomeEvaluated.name, Events.BeliefsMerged.name, Events.ExtractorVersionRolledBack.name, Events.BeliefChallengeIssued.name, Events.BeliefConfidenceUpdated.name],
  async apply(trx, e) {
    switch (e.type) {
      case Events.ReliabilityChanged.name:
        return applyReliability(trx, e);
      case Events.BeliefsExtracted.name:
        return applyExtracted(trx, e);
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
      case Events.BeliefConfidenceUpdated.name: {
        const u = payloadOf(e, Events.BeliefConfidenceUpdated);
        // The step is applied to the confidence as the chain has it here (not the value the
        // decision saw), so the updater's steps and reinforcements from the other stream commute.
        const node = await trx.selectFrom('nodes').select('confidence').where('belief_id', '=', u.beliefId).where('user_id', '=', e.userId).executeTakeFirst();
        if (node && (u.signal === 'reinforced' || u.signal === 'questioned' || u.signal === 'contradicted')) {
          await trx.updateTable('nodes').set({ confidence: updateConfidence(node.confidence, u.signal).confidence }).where('belief_id', '=', u.beliefId).execute();
        }
        if (u.challengeId) {
          await trx.updateTable('challenges').set({ answered_message_id: u.sourceMessageId, answer_signal: u.signal }).where('challenge_id', '=', u.challengeId).execute();
        }
        return;
      }
      default:
        return;
    }
  },
  async erase(trx, userId) {
    for (const table of ['belief_rewards', 'gardened', 'belief_reliability', 'sources', 'challenges', 'conflicts', 'links', 'occurrences', 'nodes'] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute();
    }
  },
};

const STATES: ReadonlySet<string> = new Set(RELIABILITY_STATES);

/**
 * ReliabilityChanged about a belief (subject kind belief, id set): kept for the
 * user's id and set on the user's node if it is here. A memory's, an id not
 * written yet ("") and an unknown state are passed over.
 */
async function applyReliability(trx: Trx, e: StoredEvent): Promise<void> {
  const r = payloadOf(e, Events.ReliabilityChanged);
  if (r.subject?.kind !== 'belief' || !isUuid(r.subject.id) || !STATES.has(r.to)) return;
  await lockUser(trx, 'beliefs', e.userId);
  const beliefId = r.subject.id.toLowerCase();
  await trx
    .insertInto('belief_reliability')
    .values({ user_id: e.userId, belief_id: beliefId, reliability: r.to, changed_at: e.occurredAt })
    .onConflict((oc) => oc.columns(['user_id', 'belief_id']).doUpdateSet({ reliability: r.to, changed_at: e.occurredAt }))
    .execute();
  await trx.updateTable('nodes').set({ reliability: r.to }).where('belief_id', '=', beliefId).where('user_id', '=', e.userId).execute();
}

/**
 * What the graph made of a gardener decision: the audit row, and when applied
 * the node's level and confidence as decided on this chain (no event of the
 * chain came between the decision and its record).
 */
async function applyGardened(trx: Trx, e: StoredEvent): Promise<void> {
  const g = payloadOf(e, Events.BeliefGardened);
  await trx
    .insertInto('gardened')
    .values({ decision_id: g.decisionId, user_id: e.userId, belief_id: g.beliefId, action: g.action, applied: g.applied, reason: g.reason, level: g.level, confidence: g.confidence, at: e.occurredAt })
    .onConflict((oc) => oc.column('decision_id').doNothing())
    .execute();
  if (!g.applied) return;
  await trx.updateTable('nodes').set({ gardener_level: g.level, confidence: g.confidence }).where('belief_id', '=', g.beliefId).where('user_id', '=', e.userId).execute();
}

/** One outcome of a decision about a belief, at one horizon: counted into the belief's rewards. */
async function applyOutcome(trx: Trx, e: StoredEvent): Promise<void> {
  const o = payloadOf(e, Events.OutcomeEvaluated);
  if (!o.beliefId || !Number.isFinite(o.reward)) return;
  await trx
    .insertInto('belief_rewards')
    .values({ user_id: e.userId, belief_id: o.beliefId, outcomes: 1, reward_sum: o.reward })
    .onConflict((oc) =>
      oc.columns(['user_id', 'belief_id']).doUpdateSet({ outcomes: sql<number>`belief_rewards.outcomes + 1`, reward_sum: sql<number>`belief_rewards.reward_sum + ${o.reward}` }),
    )
    .execute();
}

async function applyExtracted(trx: Trx, e: StoredEvent): Promise<void> {
  const x = payloadOf(e, Events.BeliefsExtracted);
  const at = e.occurredAt;
  const touched = new Set<string>();
  // A node's state may be on its way on the uncertainty stream's consumer right now.
  if (x.atoms.some((a) => a.created)) await lockUser(trx, 'beliefs', e.userId);
  for (const a of x.atoms) {
    if (a.created) {
      // A state the uncertainty chain gave this id before the node was applied.
      const known = await trx.selectFrom('belief_reliability').select('reliability').where('user_id', '=', e.userId).where('belief_id', '=', a.beliefId).executeTakeFirst();
      await trx
        .insertInto('nodes')
        .values({
          belief_id: a.beliefId,
          user_id: e.userId,
          holder: x.holder,
          canonical_text: a.canonicalText,
          canonical_hash: a.canonicalHash,
          belief_type: a.beliefType,
          polarity: a.polarity,
          temporal_scope: a.frame?.temporalScope ?? 'unknown',
          embedding: a.embedding,
          embedding_model: x.embeddingModel,
          embedding_text: a.embeddingText,
          raw_text: a.atomText,
          confidence: SERVICE.initialConfidence(a.atomConfidence, x.sourceWeight),
          stream: a.primaryStream,
          secondary_stream: a.secondaryStream,
          stream_confidence: a.streamConfidence,
          migrated_from: null,
          migrated_at: null,
          seeded: x.sourceKind === 'persona_seed',
          created_at: at,
          last_reinforced_at: at,
          deleted_at: null,
          merged_into: null,
          reliability: known?.reliability ?? 'reliable',
        })
        .onConflict((oc) => oc.column('belief_id').doNothing())
        .execute();
    } else {
      // belief-challenge.md §5: new evidence for the belief reinforces it, in a small bounded step.
      const node = await trx.selectFrom('nodes').select('confidence').where('belief_id', '=', a.beliefId).executeTakeFirst();
      if (node) {
        await trx
          .updateTable('nodes')
          .set({ confidence: updateConfidence(node.confidence, 'reinforced').confidence, last_reinforced_at: at, raw_text: a.atomText })
          .where('belief_id', '=', a.beliefId)
          .execute();
      }
    }
    await trx
      .insertInto('occurrences')
      .values({
        occurrence_id: a.occurrenceId,
        belief_id: a.beliefId,
        user_id: e.userId,
        source_message_id: x.sourceMessageId,
        extractor_version: x.extractorVersion,
        raw_text: a.atomText,
        raw_span: JSON.stringify(a.spans),
        source_weight: x.sourceWeight,
        atom_confidence: a.atomConfidence,
        epistemic_frame: JSON.stringify(a.frame ?? {}),
        epistemic_confidence: a.epistemicConfidence,
        match_confidence: a.matchConfidence,
        context_id: x.contextId,
        created_at: at,
        deleted_at: null,
      })
      .onConflict((oc) => oc.columns(['belief_id', 'source_message_id', 'extractor_version']).doNothing())
      .execute();
    touched.add(a.beliefId);
  }
  for (const l of x.links) await applyLinkEvidence(trx, e, x.extractorVersion, l);
  for (const c of x.conflicts) {
    const inserted = await trx
      .insertInto('conflicts')
      .values({
        conflict_id: c.conflictId,
        user_id: e.userId,
        node_a_id: c.nodeAId,
        node_b_id: c.nodeBId,
        conflict_type: c.conflictType,
        detection_method: c.detectionMethod,
        evidence: JSON.stringify({ similarity: c.similarity, occurrence_ids: c.occurrenceIds }),
        source_message_ids: await sourcesOf(trx, [c.nodeAId, c.nodeBId], x.sourceMessageId),
        created_at: at,
        resolved_at: null,
        resolution_reason: null,
      })
      .onConflict((oc) => oc.columns(['node_a_id', 'node_b_id']).doNothing())
      .returning('conflict_id')
      .executeTakeFirst();
    if (!inserted) continue;
    await trx
      .updateTable('nodes')
      .set({ conflict_count: sql<number>`conflict_count + 1` })
      .where('belief_id', 'in', [c.nodeAId, c.nodeBId])
      .execute();
    // belief-challenge.md §5: the earlier belief is contradicted by the new evidence.
    for (const older of await trx.selectFrom('nodes').select(['belief_id', 'confidence']).where('belief_id', 'in', [c.nodeAId, c.nodeBId]).where('created_at', '<', at).execute()) {
      await trx.updateTable('nodes').set({ confidence: updateConfidence(older.confidence, 'contradicted').confidence }).where('belief_id', '=', older.belief_id).execute();
      touched.add(older.belief_id);
    }
    touched.add(c.nodeAId);
    touched.add(c.nodeBId);
  }
  for (const id of touched) await rescore(trx, id, at);
  await trx
    .insertInto('sources')
    .values({ user_id: e.userId, source_message_id: x.sourceMessageId, holder: x.holder, extractor_version: x.extractorVersion, atoms: x.atoms.length, processed_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'source_message_id', 'holder', 'extractor_version']).doNothing())
    .execute();
}

/** The source messages of the nodes' live occurrences, and the one that raised the conflict. */
async function sourcesOf(trx: Trx, beliefIds: string[], current: string): Promise<string[]> {
  const rows = await trx.selectFrom('occurrences').select('source_message_id').where('belief_id', 'in', beliefIds).where('deleted_at', 'is', null).orderBy('created_at').execute();
  return [...new Set([...rows.map((r) => r.source_message_id), current])];
}

async function applyLinkEvidence(trx: Trx, e: StoredEvent, version: string, l: { linkId: string; fromBeliefId: string; toBeliefId: string; support: string; similarity: number; reason: string }): Promise<void> {
  const at = e.occurredAt;
  const existing = await trx.selectFrom('links').selectAll().where('from_belief_id', '=', l.fromBeliefId).where('to_belief_id', '=', l.toBeliefId).executeTakeFirst();
  const both = (existing?.support_both ?? 0) + (l.support === 'both' ? 1 : 0);
  const one = (existing?.support_one ?? 0) + (l.support === 'one' ? 1 : 0);
  const createdAt = existing?.created_at ?? at;
  // §3.3: the age term counts from the link's creation to this evidence.
  const confidence = linkConfidence(both, one, (at.getTime() - createdAt.getTime()) / DAY_MS);
  // §4.12: auto-accept or auto-reject a pending link; accepted never merges by itself (§9.4).
  const state = existing && existing.state !== 'pending' ? existing.state : linkStateOf(confidence);
  const signal = { at: at.toISOString(), support: l.support, similarity: l.similarity, reason: l.reason };
  if (!existing) {
    await trx
      .insertInto('links')
      .values({
        link_id: l.linkId,
        user_id: e.userId,
        from_belief_id: l.fromBeliefId,
        to_belief_id: l.toBeliefId,
        confidence,
        state,
        support_both: both,
        support_one: one,
        last_support_at: at,
        signals: JSON.stringify([signal]),
        extractor_version: version,
        created_at: at,
        updated_at: at,
      })
      .execute();
    return;
  }
  await trx
    .updateTable('links')
    .set({ confidence, state, support_both: both, support_one: one, last_support_at: at, updated_at: at, signals: sql`signals || ${JSON.stringify([signal])}::jsonb` })
    .where('link_id', '=', existing.link_id)
    .execute();
}

/** §4.16, §4.17, §4.14: the node's scores and stream at `at`, from its live occurrences and recent conflicts. */
async function rescore(trx: Trx, beliefId: string, at: Date): Promise<void> {
  const node = await trx.selectFrom('nodes').select(['stream', 'migrated_from', 'migration_history', 'deleted_at']).where('belief_id', '=', beliefId).executeTakeFirst();
  if (!node || node.deleted_at) return;
  const occ = await trx
    .selectFrom('occurrences')
    .select(['created_at', 'source_weight', 'atom_confidence', 'context_id'])
    .where('belief_id', '=', beliefId)
    .where('deleted_at', 'is', null)
    .execute();
  const occurrences: OccurrenceView[] = occ.map((o) => ({ at: o.created_at, sourceWeight: o.source_weight, atomConfidence: o.atom_confidence, contextId: o.context_id }));
  const since = new Date(at.getTime() - BELIEF_CONFIG.coreScore.conflictWindowDays * DAY_MS);
  const recent = await trx
    .selectFrom('conflicts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where((eb) => eb.or([eb('node_a_id', '=', beliefId), eb('node_b_id', '=', beliefId)]))
    .where('status', '=', 'active')
    .where('created_at', '>=', since)
    .executeTakeFirstOrThrow();
  const stream = node.stream as Stream;
  const activation = activationOf(occurrences, stream, at);
  const score = coreScoreOf(occurrences, Number(recent.n), at);
  const migration = migrationOf({ stream, spread: score.spread, diversity: score.diversity, activation });
  const set: Record<string, unknown> = { activation, core_score: score.coreScore, status: score.status };
  if (migration.migrate) {
    const history: unknown[] = Array.isArray(node.migration_history) ? (node.migration_history as unknown[]) : [];
    Object.assign(set, {
      stream: migration.to,
      migrated_from: migration.from,
      migrated_at: at,
      migration_history: JSON.stringify([...history, { from: migration.from, to: migration.to, at: at.toISOString(), reason: migration.reason }]),
    });
  }
  await trx.updateTable('nodes').set(set).where('belief_id', '=', beliefId).execute();
}

async function applyMerged(trx: Trx, e: StoredEvent): Promise<void> {
  const m = payloadOf(e, Events.BeliefsMerged);
  const at = e.occurredAt;
  // An occurrence of the same source and version on both sides is evidence counted once.
  const kept = await trx.selectFrom('occurrences').select(['source_message_id', 'extractor_version']).where('belief_id', '=', m.keptBeliefId).execute();
  const keys = new Set(kept.map((k) => `${k.source_message_id}\u0000${k.extractor_version}`));
  for (const o of await trx.selectFrom('occurrences').select(['occurrence_id', 'source_message_id', 'extractor_version']).where('belief_id', '=', m.mergedBeliefId).execute()) {
    if (keys.has(`${o.source_message_id}\u0000${o.extractor_version}`)) {
      await trx.updateTable('occurrences').set({ deleted_at: at }).where('occurrence_id', '=', o.occurrence_id).execute();
    } else {
      await trx.updateTable('occurrences').set({ belief_id: m.keptBeliefId }).where('occurrence_id', '=', o.occurrence_id).execute();
    }
  }
  await trx.updateTable('nodes').set({ deleted_at: at, merged_into: m.keptBeliefId }).where('belief_id', '=', m.mergedBeliefId).execute();
  await trx.updateTable('links').set({ state: 'merged', updated_at: at }).where('link_id', '=', m.linkId).execute();
  await trx
    .updateTable('conflicts')
    .set({ status: 'resolved', resolved_at: at, resolution_reason: 'merged' })
    .where((eb) => eb.or([eb('node_a_id', '=', m.mergedBeliefId), eb('node_b_id', '=', m.mergedBeliefId)]))
    .where('status', '=', 'active')
    .execute();
  await rescore(trx, m.keptBeliefId, at);
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
      await rescore(trx, belief_id, at);
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
