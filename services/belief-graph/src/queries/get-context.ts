import { BELIEF_CONFIG, selectChallenge, type BeliefType, type Perception, type Polarity } from '@hearth/beliefs';
import { deriveId, isUuid } from '@hearth/events';
import { belief } from '@hearth/proto';
import { counter } from '@hearth/telemetry';
import { TRUST_CONFIG } from '@hearth/trust';
import type { Kysely } from 'kysely';
import { SERVICE } from '../config.js';
import type { BeliefDb } from '../db.js';
import { isHarmfulSelfBelief } from '../domain/harm.js';

const offered = counter('hearth_belief_challenges_offered_total', 'GetBeliefContext answers, by whether a challenge was offered and why not');

/**
 * GetBeliefContext: what the orchestrator asks before planning a turn.
 * - The companion's core beliefs (§8.2: identity stream and status core, by
 *   activation, at most 10), with the persona's seeded beliefs counted as core
 *   from the start: they are the persona's definition, the constraints a reply
 *   must keep before any evidence has accumulated. The trust gardener's levels
 *   (outcome-driven-trust.md) adjust that: a promoted belief (+1) is held as
 *   core too, a deprecated one (−1) is left out, seeded or not.
 * - When the conversation has not had its one challenge: the lock and the
 *   evaluator of belief-challenge.md over the user's harmful self-perceptions,
 *   newest first, and the challenge when one is called for. Reward correlation
 *   is the mean reward of the outcomes the trust service evaluated about the
 *   belief (0 without any: the evaluator reads 0 as no signal).
 */
export function createGetBeliefContextQuery(db: Kysely<BeliefDb>): (request: belief.GetBeliefContextRequest) => Promise<belief.GetBeliefContextResponse> {
  return async (request) => {
    const req = request;
    if (!isUuid(req.userId)) throw new Error(`GetBeliefContextRequest.user_id must be a uuid, got ${JSON.stringify(req.userId.slice(0, 64))}`);
    const at = req.at ?? new Date(0);
    const core = await db
      .selectFrom('nodes')
      .select(['belief_id', 'canonical_text', 'canonical_hash', 'polarity', 'belief_type', 'temporal_scope', 'stream', 'embedding_model', 'embedding_text'])
      .where('user_id', '=', req.userId)
      .where('holder', '=', 'companion')
      .where('deleted_at', 'is', null)
      .where('gardener_level', '>', TRUST_CONFIG.levels.min)
      .where((eb) => eb.or([eb.and([eb('status', '=', 'core'), eb('stream', '=', 'identity')]), eb('seeded', '=', true), eb('gardener_level', '>=', TRUST_CONFIG.levels.max)]))
      .orderBy('activation', 'desc')
      .orderBy('belief_id')
      .limit(SERVICE.coreBeliefLimit)
      .execute();
    const response: belief.GetBeliefContextResponse = {
      coreBeliefs: core.map((n) => ({
        beliefId: n.belief_id,
        canonicalText: n.canonical_text,
        canonicalHash: n.canonical_hash,
        polarity: n.polarity,
        beliefType: n.belief_type,
        temporalScope: n.temporal_scope,
        stream: n.stream,
        // Not sent: the gate compares only local vectors, which it makes again from the text.
        embedding: [],
        embeddingModel: n.embedding_model,
        embeddingText: n.embedding_text,
      })),
      challenge: undefined,
      considered: [],
      blocked: '',
    };
    if (req.challengeWanted) {
      const perceptions = await harmfulPerceptions(db, req.userId, at);
      const signals = req.signals ?? { shame: false, isolation: false, dependencyFear: false, relationalStrain: false };
      const chosen = selectChallenge(perceptions, signals, at, { challengeId: (beliefId) => deriveId('belief-graph', 'challenge', req.userId, req.conversationId, beliefId) });
      response.blocked = chosen.blocked ?? '';
      response.considered = chosen.considered.map((c) => ({
        beliefId: c.beliefId,
        eligible: c.eligible,
        reason: c.reason,
        risk: c.risk,
        repetitionCount: c.repetitionCount,
        rewardCorrelation: c.rewardCorrelation,
        contradictingEvidence: c.contradictingEvidence,
        challenge: c.challenge,
      }));
      if (chosen.challenge) {
        const { challengeId, beliefId, canonicalText, rawText, style, prompt } = chosen.challenge;
        response.challenge = { challengeId, beliefId, canonicalText, rawText, style, prompt };
      }
      offered.add(1, { offered: String(Boolean(chosen.challenge)), blocked: chosen.blocked ?? '' });
    }
    return response;
  };
}

/** The user's harmful self-perceptions, newest first, with what the evaluator needs. */
async function harmfulPerceptions(db: Kysely<BeliefDb>, userId: string, at: Date): Promise<Perception[]> {
  const rows = await db
    .selectFrom('nodes')
    .select(['belief_id', 'canonical_text', 'raw_text', 'polarity', 'belief_type', 'confidence', 'created_at', 'last_reinforced_at'])
    .where('user_id', '=', userId)
    .where('holder', '=', 'user')
    .where('deleted_at', 'is', null)
    .where('created_at', '<=', at)
    .orderBy('last_reinforced_at', 'desc')
    .limit(SERVICE.perceptionScan)
    .execute();
  const harmful = rows
    .filter((r) => isHarmfulSelfBelief({ canonicalText: r.canonical_text, polarity: r.polarity as Polarity, beliefType: r.belief_type as BeliefType }))
    .slice(0, BELIEF_CONFIG.challengeIntegration.recentPerceptions);
  if (harmful.length === 0) return [];
  const ids = harmful.map((r) => r.belief_id);
  const occ = await db.selectFrom('occurrences').select(['belief_id', 'created_at']).where('belief_id', 'in', ids).where('deleted_at', 'is', null).where('created_at', '<=', at).execute();
  const [conflicts, rewards] = await Promise.all([
    db
      .selectFrom('conflicts')
      .select(['node_a_id', 'node_b_id'])
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .where((eb) => eb.or([eb('node_a_id', 'in', ids), eb('node_b_id', 'in', ids)]))
      .execute(),
    db.selectFrom('belief_rewards').select(['belief_id', 'outcomes', 'reward_sum']).where('user_id', '=', userId).where('belief_id', 'in', ids).execute(),
  ]);
  const meanReward = new Map(rewards.map((r) => [r.belief_id, rewardCorrelationOf(r.outcomes, r.reward_sum)]));
  return harmful.map((r) => ({
    beliefId: r.belief_id,
    canonicalText: r.canonical_text,
    rawText: r.raw_text,
    polarity: r.polarity as Polarity,
    confidence: r.confidence,
    createdAt: r.created_at,
    lastAt: r.last_reinforced_at,
    occurrences: occ.filter((o) => o.belief_id === r.belief_id).map((o) => o.created_at),
    rewardCorrelation: meanReward.get(r.belief_id) ?? 0,
    contradictingEvidence: conflicts.filter((c) => c.node_a_id === r.belief_id || c.node_b_id === r.belief_id).length,
  }));
}

/** belief-challenge.md "Reward Correlation": the average reward of the outcomes about the belief, in [−1, 1]; 0 without any. */
export function rewardCorrelationOf(outcomes: number, rewardSum: number): number {
  if (outcomes <= 0 || !Number.isFinite(rewardSum)) return 0;
  return Math.min(1, Math.max(-1, rewardSum / outcomes));
}
