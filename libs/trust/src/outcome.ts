import { TRUST_CONFIG, type Actor, type GardenerAction } from './config.js';
import { isNegativeTag } from './aggregate.js';
import { clamp } from './math.js';
import type { FeedbackEntry, OutcomeInputs, OutcomeResult } from './types.js';

/**
 * §2 OutcomeEvaluator, one decision at one horizon: r = w₁·Δcoh + w₂·Δconf +
 * w₃·stab + w₄·val, each component in [−1, 1], and r_actor = share · r over the
 * decision's eligibility (its contributions).
 */
export function evaluateOutcome(i: OutcomeInputs): OutcomeResult {
  const { decision } = i;
  const { coherence, baseline } = coherenceComponent(i);
  const confidence = clamp((decision.conflicts - i.conflicts) / Math.max(1, percentile(i.conflictHistory, TRUST_CONFIG.conflictPercentile)), -1, 1);
  const stability = stabilityComponent(i);
  const explicit = explicitValidation(i);
  const implicit = implicitValidation(i);
  const validation = combine([
    [TRUST_CONFIG.validationMix.explicit, explicit],
    [TRUST_CONFIG.validationMix.implicit, implicit],
  ]);
  const validationExplicit = explicit ?? 0;
  const validationImplicit = implicit ?? 0;
  const w = TRUST_CONFIG.rewardWeights;
  const reward = w.coherence * coherence + w.confidence * confidence + w.stability * stability + w.validation * validation;
  const credit: Partial<Record<Actor, number>> = {};
  for (const [actor, share] of Object.entries(decision.contributions) as [Actor, number | undefined][]) {
    if (share !== undefined && share > 0) credit[actor] = share * reward;
  }
  return { reward, components: { coherence, confidence, stability, validation }, validationExplicit, validationImplicit, coherenceBaseline: baseline, credit };
}

/**
 * §2 Coherence with Safety Rails 5: the decision's own move toward the persona
 * (decisionCoherence), normalized by coherenceScale. The change of the
 * companion's coherence since the decision is the baseline drift: recorded,
 * left out. (A trend fitted to the few samples before a decision and
 * extrapolated over 24 h swamped the decision it was to isolate; the change of
 * a weighted mean moved up or down with the promoted belief's place among the
 * persona's others, not with whether it was the persona's.)
 */
function coherenceComponent(i: OutcomeInputs): { coherence: number; baseline: number } {
  return { coherence: clamp(i.coherenceOwn / TRUST_CONFIG.coherenceScale, -1, 1), baseline: i.coherence - i.decision.coherence };
}

/**
 * §2 Stability (ping-pong detection, Safety Rails 6): the direction changes among
 * the belief's promote/deprecate decisions of the last stabilityWindowMs. None →
 * +1 (stable), one → 0 (inconclusive), pingPongReversals or more → −1. A hold
 * with no reversal around it decided nothing to stay: 0.
 */
function stabilityComponent(i: OutcomeInputs): number {
  const until = i.at.getTime();
  const from = until - TRUST_CONFIG.stabilityWindowMs;
  const moves = i.beliefDecisions.filter((d) => d.action !== 'hold' && d.at.getTime() >= from && d.at.getTime() <= until).map((d) => ({ t: d.at.getTime(), action: d.action }));
  const own = { t: i.decision.at.getTime(), action: i.decision.action };
  if (own.action !== 'hold' && own.t >= from && !moves.some((m) => m.t === own.t && m.action === own.action)) moves.push(own);
  moves.sort((a, b) => a.t - b.t);
  let reversals = 0;
  for (let k = 1; k < moves.length; k++) if (moves[k]!.action !== moves[k - 1]!.action) reversals += 1;
  if (reversals >= TRUST_CONFIG.pingPongReversals) return -1;
  if (reversals > 0) return 0;
  return i.decision.action === 'hold' ? 0 : 1;
}

/**
 * §2 User validation, explicit: the user's applied tags on the decided belief in
 * the 24 h after it (up to now): those that go the action's way (+keep for a
 * promotion, +doubt/+artifact for a deprecation) against those that do not.
 */
function explicitValidation(i: OutcomeInputs): number | null {
  const { decision } = i;
  if (decision.action === 'hold') return null;
  const from = decision.at.getTime();
  const until = Math.min(from + TRUST_CONFIG.validationWindowMs, i.at.getTime());
  let agree = 0;
  let disagree = 0;
  for (const e of i.userFeedback) {
    const t = e.at.getTime();
    if (e.actor !== 'user' || !e.applied || e.beliefId !== decision.beliefId || t <= from || t > until) continue;
    if (agrees(decision.action, e)) agree += 1;
    else disagree += 1;
  }
  return agree + disagree === 0 ? null : (agree - disagree) / (agree + disagree);
}

/** The validation mix over the parts that have a signal (null: none); 0 when neither has. */
function combine(parts: readonly (readonly [number, number | null])[]): number {
  const present = parts.filter((p): p is readonly [number, number] => p[1] !== null);
  const total = present.reduce((s, [w]) => s + w, 0);
  return total === 0 ? 0 : present.reduce((s, [w, v]) => s + w * v, 0) / total;
}

function agrees(action: Exclude<GardenerAction, 'hold'>, e: FeedbackEntry): boolean {
  return action === 'promote' ? !isNegativeTag(e.tag) : isNegativeTag(e.tag);
}

/**
 * §2 User validation, implicit (Future enhancement 3): the user's doubt rate
 * before the decision minus after it. A user who doubts less since is a good
 * sign whatever the action. No signal (null) when either window has no tag of
 * the user, or neither has a doubt: a rate that is 0 on both sides cannot change.
 */
function implicitValidation(i: OutcomeInputs): number | null {
  const t = i.decision.at.getTime();
  const before = doubtRateIn(i.userFeedback, t - TRUST_CONFIG.implicitWindowMs, t, false);
  const after = doubtRateIn(i.userFeedback, t, i.at.getTime(), true);
  if (before === null || after === null || (before === 0 && after === 0)) return null;
  return clamp(before - after, -1, 1);
}

/**
 * The user's doubt rate in the implicitWindowMs before `at`: the share of their
 * applied tags (any belief) that are +doubt or +artifact; 0 without any tag.
 * Recorded as DecisionRecord.doubtRate.
 */
export function doubtRateBefore(userFeedback: readonly FeedbackEntry[], at: Date): number {
  return doubtRateIn(userFeedback, at.getTime() - TRUST_CONFIG.implicitWindowMs, at.getTime(), false) ?? 0;
}

/** Over [from, until) or, with `afterFrom`, (from, until]; null when the user tagged nothing there. */
function doubtRateIn(entries: readonly FeedbackEntry[], from: number, until: number, afterFrom: boolean): number | null {
  let tags = 0;
  let doubts = 0;
  for (const e of entries) {
    const t = e.at.getTime();
    const inside = afterFrom ? t > from && t <= until : t >= from && t < until;
    if (e.actor !== 'user' || !e.applied || !inside) continue;
    tags += 1;
    if (isNegativeTag(e.tag)) doubts += 1;
  }
  return tags === 0 ? null : doubts / tags;
}

/** The p-quantile (p ∈ [0, 1]) with linear interpolation between ranks; 0 for no values. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return 0;
  const rank = clamp(p, 0, 1) * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo);
}

