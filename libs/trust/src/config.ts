// Every number of the outcome-driven trust system, each with the section of
// outcome-driven-trust.md it comes from ("Hearth" where the spec leaves it open).
// One typed object, shared by the trust service, belief-graph's gardener step
// and the benchmarks.

export const ACTORS = ['user', 'agent'] as const;
export type Actor = (typeof ACTORS)[number];
export const TAGS = ['+keep', '+doubt', '+artifact'] as const;
export type Tag = (typeof TAGS)[number];
export const HORIZONS = ['2h', '24h'] as const;
export type Horizon = (typeof HORIZONS)[number];
/**
 * What the gardener asks belief-graph for, or (challenge) a decision of the
 * companion's that trust judges like one: a belief challenge woven into a reply
 * (belief-challenge.md), about the user's own belief.
 */
export type GardenerAction = 'promote' | 'deprecate' | 'hold' | 'challenge';
/** Why a tag counts or not ("Negative Tag Gating", "Tag Storm Deduplication"). */
export type FeedbackReason = 'counted' | 'duplicate' | 'off_target' | 'no_belief';

const HOUR_MS = 3_600_000;

export const TRUST_CONFIG = {
  /** §1 ProvenanceTrust: every actor starts at T = 0.5. */
  initialTrust: 0.5,
  /** §1 / Configuration TRUST_ALPHA_0: the initial EWMA step. */
  alpha0: 0.3,
  /** §1 / TRUST_K_SAMPLES: α = α₀ / (1 + n/k), half a step by ~50 samples. */
  kSamples: 50,
  /** §1 / TRUST_R_MIN, Safety Rails 1: update only when |r| ≥ r_min. */
  rMin: 0.1,
  /** §1 get_trust_multiplier: T ∈ [0, 1] → [0.5, 1.5]. */
  multiplierBase: 0.5,

  /** §2 / OUTCOME_W_*: r = w₁·Δcoh + w₂·Δconf + w₃·stab + w₄·val. */
  rewardWeights: { coherence: 0.4, confidence: 0.2, stability: 0.2, validation: 0.2 },
  /** §2 Dual horizons / OUTCOME_HORIZON_SHORT, _LONG (hours) and their step multipliers (α_short = 0.15·α). */
  horizons: {
    '2h': { ms: 2 * HOUR_MS, alphaScale: 0.15 },
    '24h': { ms: 24 * HOUR_MS, alphaScale: 1.0 },
  } satisfies Record<Horizon, { ms: number; alphaScale: number }>,
  /**
   * §2 Coherence: Δcoh normalized to [−1, 1]. Hearth: the decision's own move
   * toward the persona (decisionCoherence: weight change × how much more the
   * belief agrees with the origin anchor than what was picked up beyond it)
   * that is full credit — a gardener step (0.15) of a fully active belief half
   * aligned with the origin, as a four-statement persona's own beliefs are
   * (about 0.5 with the local embedder).
   */
  coherenceScale: 0.075,
  /** §2 Conflict: Δconf is normalized by the 95th percentile of the user's open-conflict counts (at least 1). */
  conflictPercentile: 0.95,
  /** §2 Stability: reversals are looked for in a 7-day window. */
  stabilityWindowMs: 7 * 24 * HOUR_MS,
  /** §2 Stability: this many direction changes in the window is ping-pong (−1); one is inconclusive (0) (Hearth). */
  pingPongReversals: 2,
  /**
   * §2 User validation: explicit tags in the 24 h after the decision; combined
   * 0.7·explicit + 0.3·implicit, over the parts that have a signal (Hearth: a
   * part with none — no tag on the belief; no +doubt on either side — is left
   * out and the other counts alone, rather than averaged in as a 0).
   */
  validationWindowMs: 24 * HOUR_MS,
  validationMix: { explicit: 0.7, implicit: 0.3 },
  /** Future enhancement 3 (implicit validation): the user's +doubt rate is compared over this window before and after (Hearth: the validation window). */
  implicitWindowMs: 24 * HOUR_MS,
  /** Future enhancement 6 (temporal decay of traces): an eligibility trace halves every this many hours (Hearth). */
  traceHalfLifeHours: 12,

  /** §3 g_align = ((a_live − a_origin + 1)/2)^α, FEEDBACK_ALPHA_ALIGN. Cold start (no anchor history): 1.0 (Expected Behavior). */
  alphaAlign: 1.5,
  /** §3 g_conviction = 0.5 + 1.5·confidence ∈ [0.5, 2.0]. */
  conviction: { base: 0.5, slope: 1.5 },
  /** §3 g_trust = 0.5 + T_actor ∈ [0.5, 1.5]. */
  trustBase: 0.5,
  /** §3 Final Weight Calculation: precision = |alignment|^β. */
  precisionBeta: 1.2,
  /** §3 base_tag_weight, signed: +keep supports, +doubt and +artifact count against (Hearth: equal magnitudes). */
  baseTagWeight: { '+keep': 1, '+doubt': -1, '+artifact': -1 } satisfies Record<Tag, number>,
  /** §3 Tag Storm Deduplication / FEEDBACK_DEDUP_WINDOW: identical (belief, actor, tag) within 120 s collapse. */
  dedupWindowMs: 120_000,
  /** §3 Negative Tag Gating, Safety Rails 2: +doubt/+artifact with alignment < 0.2 are ignored. */
  negativeGateAlignment: 0.2,
  /** Hearth: a tag aligned below this with every belief names none (no_belief). */
  minAlignment: 0.05,
  /** Hearth: the feedback a belief's score sums, over this window, each weight decayed like a trace. */
  feedbackWindowMs: 7 * 24 * HOUR_MS,
  /** Hearth: the prior mass in feedback = (P − N)/(P + N + prior), so one faint tag does not decide. */
  feedbackPrior: 1,

  /** §Integration 2 Belief Gardener (Hearth's thresholds): promote at feedback ≥ 0.5, deprecate at ≤ −0.5. */
  promotionThreshold: 0.5,
  deprecationThreshold: -0.5,
  /** Safety Rails 4: promotions freeze when global_neg > 0.6. */
  circuitBreakerNeg: 0.6,
  /** Hearth: the gardener's confidence step and its level bounds (−1 deprecated … +1 promoted); belief-graph applies them. */
  gardenerStep: 0.15,
  levels: { min: -1, max: 1 },
} as const;

export type TrustConfig = typeof TRUST_CONFIG;
