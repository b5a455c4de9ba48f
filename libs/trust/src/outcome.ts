import { TRUST_CONFIG, type Actor, type GardenerAction } from './config.js';
import { isNegativeTag } from './aggregate.js';
import { clamp } from './math.js';
import type { AnswerSignal, FeedbackEntry, OutcomeInputs, OutcomeResult } from './types.js';

/**
 * §2 OutcomeEvaluator, one decision at one horizon: r = w₁·Δcoh + w₂·Δconf +
 * w₃·stab + w₄·val, each component in [−1, 1], and r_actor = share · r over the
 * decision's eligibility (its contributions).
 */
export function evaluateOutcome(i: OutcomeInputs): OutcomeResult {
  if (i.decision.action === 'challenge') return challengeOutcome(i);
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
  const components = { coherence, confidence, stability, validation };
  const reward = rewardOf(components);
  return { reward, components, validationExplicit, validationImplicit, coherenceBaseline: baseline, credit: creditOf(i, reward) };
}

/**
 * A belief challenge (belief-challenge.md) judged as a decision of the
 * companion's (contributions {agent: 1}), about the user's belief:
 * - coherence 0: a challenge moves none of the companion's own beliefs, so
 *   there is no move toward or away from its persona to credit;
 * - Δconf: the open conflicts touching the user's belief now minus at the
 *   challenge, normalized as §2 Conflict does. The sign is the gardener's turned
 *   round: a conflict on a harmful belief is contradicting evidence the user
 *   voiced (belief-challenge.md §3 challenges for it), which a challenge exists
 *   to make room for;
 * - stability: the same rule as the gardener's over the belief's confidence
 *   updates (the user's answers), the challenge itself a move down;
 * - validation: the user's answer to this challenge within the validation
 *   window — questioned or contradicted +1 (they reconsidered), reinforced −1,
 *   none or no answer yet: no signal.
 */
function challengeOutcome(i: OutcomeInputs): OutcomeResult {
  const { decision } = i;
  const confidence = clamp((i.conflicts - decision.conflicts) / Math.max(1, percentile(i.conflictHistory, TRUST_CONFIG.conflictPercentile)), -1, 1);
  const answers = i.challenge?.answers ?? [];
  const moves: Move[] = answers.flatMap((a) => (a.signal === 'none' ? [] : [{ t: a.at.getTime(), up: a.signal === 'reinforced' }]));
  // The challenge first on a tie: the answer follows it.
  const stability = stabilityOf([{ t: decision.at.getTime(), up: false }, ...moves], i.at.getTime());
  const answer = challengeAnswer(i);
  const components = { coherence: 0, confidence, stability, validation: answer ?? 0 };
  const reward = rewardOf(components);
  return { reward, components, validationExplicit: answer ?? 0, validationImplicit: 0, coherenceBaseline: 0, credit: creditOf(i, reward) };
}

/** The user's first answer to the decision's challenge in the validation window (up to now) as +1 / −1; null when there is none that says anything. */
function challengeAnswer(i: OutcomeInputs): number | null {
  const challengeId = i.challenge?.challengeId;
  if (!challengeId) return null;
  const from = i.decision.at.getTime();
  const until = Math.min(from + TRUST_CONFIG.validationWindowMs, i.at.getTime());
  const first = (i.challenge?.answers ?? [])
    .filter((a) => a.challengeId === challengeId && a.at.getTime() >= from && a.at.getTime() <= until)
    .sort((a, b) => a.at.getTime() - b.at.getTime())[0];
  return first ? ANSWER_VALUE[first.signal] : null;
}

const ANSWER_VALUE: Readonly<Record<AnswerSignal, number | null>> = { questioned: 1, contradicted: 1, reinforced: -1, none: null };

/** r = w₁·Δcoh + w₂·Δconf + w₃·stab + w₄·val */
function rewardOf(c: OutcomeResult['components']): number {
  const w = TRUST_CONFIG.rewardWeights;
  return w.coherence * c.coherence + w.confidence * c.confidence + w.stability * c.stability + w.validation * c.validation;
}

/** r_actor = share · r over the decision's eligibility. */
function creditOf(i: OutcomeInputs, reward: number): Partial<Record<Actor, number>> {
  const credit: Partial<Record<Actor, number>> = {};
  for (const [actor, share] of Object.entries(i.decision.contributions) as [Actor, number | undefined][]) {
    if (share !== undefined && share > 0) credit[actor] = share * reward;
  }
  return credit;
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
  const moves: Move[] = i.beliefDecisions.filter((d) => d.action === 'promote' || d.action === 'deprecate').map((d) => ({ t: d.at.getTime(), up: d.action === 'promote' }));
  const own = i.decision.action;
  if (own === 'promote' || own === 'deprecate') {
    const t = i.decision.at.getTime();
    if (!moves.some((m) => m.t === t && m.up === (own === 'promote'))) moves.push({ t, up: own === 'promote' });
  }
  const stability = stabilityOf(moves, i.at.getTime());
  return stability === 1 && own === 'hold' ? 0 : stability;
}

/** A move of a belief's confidence: a decision's or the user's answer's direction. */
interface Move {
  t: number;
  up: boolean;
}

/** §2 Stability over the moves in the stabilityWindowMs up to `until`: no reversal +1, one 0, pingPongReversals or more −1. */
function stabilityOf(all: readonly Move[], until: number): number {
  const from = until - TRUST_CONFIG.stabilityWindowMs;
  // Stable: moves at one time keep their given order.
  const moves = all.filter((m) => m.t >= from && m.t <= until).sort((a, b) => a.t - b.t);
  let reversals = 0;
  for (let k = 1; k < moves.length; k++) if (moves[k]!.up !== moves[k - 1]!.up) reversals += 1;
  if (reversals >= TRUST_CONFIG.pingPongReversals) return -1;
  return reversals > 0 ? 0 : 1;
}

/**
 * §2 User validation, explicit: the user's applied tags on the decided belief in
 * the 24 h after it (up to now): those that go the action's way (+keep for a
 * promotion, +doubt/+artifact for a deprecation) against those that do not.
 */
function explicitValidation(i: OutcomeInputs): number | null {
  const { decision } = i;
  if (decision.action !== 'promote' && decision.action !== 'deprecate') return null;
  const action = decision.action;
  const from = decision.at.getTime();
  const until = Math.min(from + TRUST_CONFIG.validationWindowMs, i.at.getTime());
  let agree = 0;
  let disagree = 0;
  for (const e of i.userFeedback) {
    const t = e.at.getTime();
    if (e.actor !== 'user' || !e.applied || e.beliefId !== decision.beliefId || t <= from || t > until) continue;
    if (agrees(action, e)) agree += 1;
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

function agrees(action: Extract<GardenerAction, 'promote' | 'deprecate'>, e: FeedbackEntry): boolean {
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

