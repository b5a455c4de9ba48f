import { TRUST_CONFIG, type Actor, type FeedbackReason, type Tag } from './config.js';
import { clamp } from './math.js';
import { trustMultiplier } from './provenance.js';
import type { BeliefScore, FeedbackEntry, GardenerVerdict, GlobalScore, Weighting } from './types.js';

const HOUR_MS = 3_600_000;

/** +doubt and +artifact count against a belief (Negative Tag Gating). */
export function isNegativeTag(tag: Tag): boolean {
  return TRUST_CONFIG.baseTagWeight[tag] < 0;
}

/**
 * §3 Final Weight Calculation: weight = base_tag_weight · precision · g_conviction
 * · g_trust · g_align, with precision = |alignment|^β, g_conviction = 0.5 + 1.5·confidence
 * and g_trust = 0.5 + T_actor (learned, not a hardcoded provenance factor).
 */
export function weighFeedback(i: { tag: Tag; alignment: number; beliefConfidence: number; trust: number; gAlign: number }): Weighting {
  const precision = Math.abs(clamp(i.alignment, -1, 1)) ** TRUST_CONFIG.precisionBeta;
  const gConviction = TRUST_CONFIG.conviction.base + TRUST_CONFIG.conviction.slope * clamp(i.beliefConfidence, 0, 1);
  const gTrust = trustMultiplier(i.trust);
  const gAlign = clamp(i.gAlign, 0, 1);
  const baseWeight = TRUST_CONFIG.baseTagWeight[i.tag];
  return { precision, gConviction, gTrust, gAlign, baseWeight, weight: baseWeight * precision * gConviction * gTrust * gAlign };
}

/**
 * Whether a tag counts (Safety Rails 2 and 3): `no_belief` when it aligned with
 * none; `off_target` when a +doubt/+artifact is aligned below 0.2 (a vague
 * challenge must not deprecate a misunderstood belief); `duplicate` when an
 * applied tag with the same (belief, actor, tag) is within 120 s before it.
 * Compared with applied tags only, so a storm collapses into one per window
 * rather than into one forever. An entry with the candidate's own feedbackId
 * (a redelivery) is not its own duplicate.
 */
export function gateFeedback(
  c: { tag: Tag; actor: Actor; beliefId: string; alignment: number; at: Date; feedbackId?: string },
  history: readonly FeedbackEntry[],
): { applied: boolean; reason: FeedbackReason } {
  if (c.beliefId === '') return { applied: false, reason: 'no_belief' };
  if (isNegativeTag(c.tag) && c.alignment < TRUST_CONFIG.negativeGateAlignment) return { applied: false, reason: 'off_target' };
  const at = c.at.getTime();
  const duplicate = history.some((e) => {
    if (!e.applied || e.beliefId !== c.beliefId || e.actor !== c.actor || e.tag !== c.tag) return false;
    if (c.feedbackId !== undefined && e.feedbackId === c.feedbackId) return false;
    const age = at - e.at.getTime();
    return age >= 0 && age < TRUST_CONFIG.dedupWindowMs;
  });
  return duplicate ? { applied: false, reason: 'duplicate' } : { applied: true, reason: 'counted' };
}

/**
 * §3 score(belief_id): the belief's applied tags of the last feedbackWindowMs
 * (none after `at`), each |weight| decayed like an eligibility trace (halving
 * every traceHalfLifeHours, Future enhancement 6). P and N sum the supporting and
 * opposing magnitudes: feedback = (P − N)/(P + N + prior), neg = N/(P + N + prior).
 * Contributions are each actor's share of the decayed magnitude ({} with none).
 */
export function scoreBelief(beliefId: string, history: readonly FeedbackEntry[], at: Date): BeliefScore {
  return score(history.filter((e) => e.beliefId === beliefId), at);
}

/** §3 global_score(): the same over every belief (the circuit breaker reads its neg). */
export function globalScore(history: readonly FeedbackEntry[], at: Date): GlobalScore {
  const { feedback, neg } = score(history, at);
  return { feedback, neg };
}

function score(entries: readonly FeedbackEntry[], at: Date): BeliefScore {
  let positive = 0;
  let negative = 0;
  const byActor = new Map<Actor, number>();
  for (const e of entries) {
    if (!e.applied || e.weight === 0) continue;
    const age = at.getTime() - e.at.getTime();
    if (age < 0 || age > TRUST_CONFIG.feedbackWindowMs) continue;
    const magnitude = Math.abs(e.weight) * 0.5 ** (age / HOUR_MS / TRUST_CONFIG.traceHalfLifeHours);
    if (e.weight > 0) positive += magnitude;
    else negative += magnitude;
    byActor.set(e.actor, (byActor.get(e.actor) ?? 0) + magnitude);
  }
  const mass = positive + negative;
  const denominator = mass + TRUST_CONFIG.feedbackPrior;
  const contributions: Partial<Record<Actor, number>> = {};
  if (mass > 0) for (const [actor, m] of [...byActor].sort(([a], [b]) => (a < b ? -1 : 1))) contributions[actor] = m / mass;
  return { feedback: (positive - negative) / denominator, neg: negative / denominator, contributions };
}

/**
 * Integration 2, the gardener's step for one belief: promote at feedback ≥ the
 * promotion threshold unless the circuit breaker is open (global neg > 0.6,
 * Safety Rails 4: it freezes promotions only) or the belief is at the top level;
 * deprecate at ≤ the deprecation threshold unless it is already at the floor;
 * otherwise hold.
 */
export function gardenerVerdict(score: BeliefScore, global: GlobalScore, level: number): GardenerVerdict {
  const { promotionThreshold, deprecationThreshold, circuitBreakerNeg, levels } = TRUST_CONFIG;
  if (score.feedback >= promotionThreshold) {
    if (global.neg > circuitBreakerNeg) return { action: 'hold', reason: 'circuit_breaker' };
    if (level >= levels.max) return { action: 'hold', reason: 'at_ceiling' };
    return { action: 'promote', reason: 'above_promotion' };
  }
  if (score.feedback <= deprecationThreshold) {
    if (level <= levels.min) return { action: 'hold', reason: 'at_floor' };
    return { action: 'deprecate', reason: 'below_deprecation' };
  }
  return { action: 'hold', reason: 'between_thresholds' };
}

