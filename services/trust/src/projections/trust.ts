import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events, type ActorShare } from '@hearth/events';
import type { Projection } from '@hearth/store';
import { HORIZONS, type Horizon } from '@hearth/trust';
import type { Transaction } from 'kysely';
import type { TrustDb } from '../db.js';
import { challengeDecisionId, outcomeId } from '../ids.js';

type Trx = Transaction<TrustDb>;

/** A list of actor shares as the jsonb columns hold it: {"user": 0.7, "agent": 0.3}. */
export function sharesToJson(shares: readonly ActorShare[]): string {
  return JSON.stringify(Object.fromEntries(shares.map((s) => [s.actor, s.share])));
}

/**
 * Trust's read model, folded from its own events (replay computes nothing:
 * every number is in the events): the tags of each turn and the coherence at it,
 * the gardener's decisions and the two outcomes a promote, deprecate or
 * challenge opens, their evaluation, and T_actor. `schedule.next_due_at`
 * follows the earliest pending outcome; the lease columns are the scheduler's
 * (the table is not compared by replay).
 *
 * From belief-graph's stream, the belief challenges and the user's answers to
 * them, which a challenge decision is judged by; they touch only `challenges`,
 * so the two streams fold alike in any interleaving. Every other belief-graph
 * event is passed over on its type alone.
 */
export const trustProjection: Projection<TrustDb> = {
  name: 'trust',
  sources: ['trust', 'belief-graph'],
  tables: ['actors', 'feedback', 'decisions', 'outcomes', 'challenges'],
  types: [Events.BeliefChallengeIssued.name, Events.BeliefConfidenceUpdated.name, Events.FeedbackRecorded.name, Events.GardenerDecided.name, Events.OutcomeEvaluated.name, Events.TrustUpdated.name],
  async apply(trx, e) {
    switch (e.type) {
      case Events.BeliefChallengeIssued.name:
        return challengeIssued(trx, e);
      case Events.BeliefConfidenceUpdated.name:
        return challengeAnswered(trx, e);
      case Events.FeedbackRecorded.name:
        return feedbackRecorded(trx, e);
      case Events.GardenerDecided.name:
        return gardenerDecided(trx, e);
      case Events.OutcomeEvaluated.name:
        return outcomeEvaluated(trx, e);
      case Events.TrustUpdated.name: {
        const t = payloadOf(e, Events.TrustUpdated);
        await trx
          .insertInto('actors')
          .values({ user_id: e.userId, actor: t.actor, trust: t.trust, updates: t.updates, updated_at: e.occurredAt })
          .onConflict((oc) => oc.columns(['user_id', 'actor']).doUpdateSet({ trust: t.trust, updates: t.updates, updated_at: e.occurredAt }))
          .execute();
        return;
      }
      default:
        return;
    }
  },
  async erase(trx, userId) {
    for (const table of ['actors', 'feedback', 'decisions', 'outcomes', 'schedule', 'challenges'] as const) {
      await trx.deleteFrom(table).where('user_id', '=', userId).execute();
    }
  },
};

async function feedbackRecorded(trx: Trx, e: StoredEvent): Promise<void> {
  const f = payloadOf(e, Events.FeedbackRecorded);
  if (f.tags.length > 0) {
    await trx
      .insertInto('feedback')
      .values(
        f.tags.map((t, position) => ({
          feedback_id: t.feedbackId,
          user_id: e.userId,
          source_message_id: t.sourceMessageId,
          position,
          tag: t.tag,
          actor: t.actor,
          belief_id: t.beliefId,
          alignment: t.alignment,
          cue: t.cue,
          precision: t.precision,
          g_conviction: t.gConviction,
          g_trust: t.gTrust,
          g_align: t.gAlign,
          base_weight: t.baseWeight,
          weight: t.weight,
          applied: t.applied,
          reason: t.reason,
          text: t.text,
          created_at: e.occurredAt,
        })),
      )
      .onConflict((oc) => oc.column('feedback_id').doNothing())
      .execute();
  }
}

async function gardenerDecided(trx: Trx, e: StoredEvent): Promise<void> {
  const d = payloadOf(e, Events.GardenerDecided);
  await trx
    .insertInto('decisions')
    .values({
      decision_id: d.decisionId,
      user_id: e.userId,
      belief_id: d.beliefId,
      action: d.action,
      reason: d.reason,
      feedback: d.feedback,
      neg: d.neg,
      contributions: sharesToJson(d.contributions),
      global_feedback: d.globalFeedback,
      global_neg: d.globalNeg,
      coherence: d.coherence,
      conflicts: d.conflicts,
      confidence: d.confidence,
      level: d.level,
      doubt_rate: d.doubtRate,
      source_message_id: d.sourceMessageId,
      created_at: e.occurredAt,
    })
    .onConflict((oc) => oc.column('decision_id').doNothing())
    .execute();
  // A hold decided nothing: there is no outcome to judge.
  if (d.action === 'hold') return;
  const due: Record<Horizon, Date | undefined> = { '2h': d.shortDueAt, '24h': d.longDueAt };
  const rows = HORIZONS.flatMap((horizon) => {
    const at = due[horizon];
    return at ? [{ outcome_id: outcomeId(d.decisionId, horizon), user_id: e.userId, decision_id: d.decisionId, belief_id: d.beliefId, horizon, due_at: at, evaluated_at: null }] : [];
  });
  if (rows.length === 0) return;
  await trx.insertInto('outcomes').values(rows).onConflict((oc) => oc.column('outcome_id').doNothing()).execute();
  await scheduleNext(trx, e.userId);
}

async function outcomeEvaluated(trx: Trx, e: StoredEvent): Promise<void> {
  const o = payloadOf(e, Events.OutcomeEvaluated);
  const evaluated = {
    evaluated_at: e.occurredAt,
    reward: o.reward,
    components: JSON.stringify(o.components ?? { coherence: 0, confidence: 0, stability: 0, validation: 0 }),
    credit: sharesToJson(o.credit),
    validation_explicit: o.validationExplicit,
    validation_implicit: o.validationImplicit,
    coherence_baseline: o.coherenceBaseline,
    alpha_scale: o.alphaScale,
  };
  await trx
    .insertInto('outcomes')
    .values({ outcome_id: o.outcomeId, user_id: e.userId, decision_id: o.decisionId, belief_id: o.beliefId, horizon: o.horizon, due_at: o.dueAt ?? e.occurredAt, ...evaluated })
    .onConflict((oc) => oc.column('outcome_id').doUpdateSet(evaluated))
    .execute();
  await scheduleNext(trx, e.userId);
}

async function challengeIssued(trx: Trx, e: StoredEvent): Promise<void> {
  const c = payloadOf(e, Events.BeliefChallengeIssued);
  if (!c.challengeId || !c.beliefId) return;
  await trx
    .insertInto('challenges')
    .values({
      challenge_id: c.challengeId,
      user_id: e.userId,
      belief_id: c.beliefId,
      decision_id: challengeDecisionId(c.challengeId),
      message_id: c.messageId,
      issued_at: e.occurredAt,
      answer_signal: null,
      answer_message_id: null,
      answer_delta: null,
      answer_confidence: null,
      answered_at: null,
    })
    .onConflict((oc) => oc.column('challenge_id').doNothing())
    .execute();
}

/**
 * The user's answer to a challenge (belief-challenge.md §5). It follows its
 * BeliefChallengeIssued on the same chain (belief-graph answers only a
 * challenge its projection holds), so the row is there; only the first answer
 * counts, as in belief-graph.
 */
async function challengeAnswered(trx: Trx, e: StoredEvent): Promise<void> {
  const u = payloadOf(e, Events.BeliefConfidenceUpdated);
  if (!u.challengeId) return;
  await trx
    .updateTable('challenges')
    .set({ answer_signal: u.signal, answer_message_id: u.sourceMessageId, answer_delta: u.delta, answer_confidence: u.confidence, answered_at: e.occurredAt })
    .where('challenge_id', '=', u.challengeId)
    .where('user_id', '=', e.userId)
    .where('answered_at', 'is', null)
    .execute();
}

/** The scheduler's next look at the user: its earliest pending outcome (null when none). */
async function scheduleNext(trx: Trx, userId: string): Promise<void> {
  const row = await trx.selectFrom('outcomes').select((eb) => eb.fn.min('due_at').as('next')).where('user_id', '=', userId).where('evaluated_at', 'is', null).executeTakeFirst();
  const next = row?.next ? new Date(row.next) : null;
  await trx
    .insertInto('schedule')
    .values({ user_id: userId, next_due_at: next, claimed_by: null, claimed_until: null })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ next_due_at: next }))
    .execute();
}
