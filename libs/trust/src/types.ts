import type { Actor, FeedbackReason, GardenerAction, Horizon, Tag } from './config.js';

/** A companion belief as trust reads it (belief-graph's GetCompanionBeliefs). */
export interface BeliefView {
  beliefId: string;
  canonicalText: string;
  embedding: readonly number[];
  embeddingModel: string;
  /** identity | state | meta | relational */
  stream: string;
  activation: number;
  confidence: number;
  /** Seeded from the persona at assignment: anchor_origin's beliefs. */
  seeded: boolean;
  /** The gardener level: −1 deprecated, 0, +1 promoted. */
  level: number;
  openConflicts: number;
}

/** §1: T_actor and how many updates made it. */
export interface ActorTrust {
  actor: Actor;
  trust: number;
  updates: number;
  updatedAt: Date | null;
}

/** One EWMA step (TrustUpdated). */
export interface TrustStep {
  actor: Actor;
  trustBefore: number;
  trust: number;
  /** r_actor */
  reward: number;
  /** q = 0.5(r + 1) */
  target: number;
  alpha: number;
  updates: number;
}

/** A tag found in a text, before it is aligned with a belief. */
export interface TagCandidate {
  tag: Tag;
  actor: Actor;
  /** The lexicon cue that matched (or "llm"). */
  cue: string;
  /** The sentence the tag is about: what is aligned with the beliefs. */
  text: string;
}

/** The factors of one tag's weight (§3 Final Weight Calculation). */
export interface Weighting {
  precision: number;
  gConviction: number;
  gTrust: number;
  gAlign: number;
  baseWeight: number;
  /** Signed: base_weight · precision · g_conviction · g_trust · g_align. */
  weight: number;
}

/** A recorded tag, as the aggregator and the evaluator read the history. */
export interface FeedbackEntry {
  feedbackId: string;
  tag: Tag;
  actor: Actor;
  beliefId: string;
  alignment: number;
  weight: number;
  applied: boolean;
  reason: FeedbackReason;
  at: Date;
}

/** §3 score(belief_id). */
export interface BeliefScore {
  /** ∈ [−1, 1] */
  feedback: number;
  /** ∈ [0, 1] */
  neg: number;
  /** Eligibility per actor (decayed traces), shares summing to 1; empty when nothing counted. */
  contributions: Partial<Record<Actor, number>>;
}

/** §3 global_score(). */
export interface GlobalScore {
  feedback: number;
  neg: number;
}

export interface GardenerVerdict {
  action: GardenerAction;
  reason: 'above_promotion' | 'below_deprecation' | 'between_thresholds' | 'circuit_breaker' | 'at_ceiling' | 'at_floor';
}

/** The anchors of the awareness loop (specs/README.md). */
export interface Anchors {
  /** The persona's centroid at assignment; null without seeded beliefs. */
  origin: number[] | null;
  /** The activation-weighted centroid of current identity-stream beliefs; null without any. */
  live: number[] | null;
  /** No anchor history yet: the companion holds only its seeded beliefs (g_align = 1). */
  coldStart: boolean;
}

/** What a decision is judged against (GardenerDecided). */
export interface DecisionRecord {
  decisionId: string;
  beliefId: string;
  action: GardenerAction;
  at: Date;
  coherence: number;
  conflicts: number;
  confidence: number;
  /** The belief's gardener level before the decision. */
  level: number;
  doubtRate: number;
  contributions: Partial<Record<Actor, number>>;
}

/** belief-challenge.md §5: what the user's answer to a challenge said of the belief (belief-graph's BeliefConfidenceUpdated). */
export type AnswerSignal = 'reinforced' | 'questioned' | 'contradicted' | 'none';

/** The user's answer to one challenge of a belief. */
export interface ChallengeAnswer {
  challengeId: string;
  signal: AnswerSignal;
  at: Date;
}

/** Everything the evaluator needs at a horizon, read from trust's projection and the belief graph. */
export interface OutcomeInputs {
  decision: DecisionRecord;
  horizon: Horizon;
  /** The evaluation time (the decision's time + the horizon, or later on catch-up). */
  at: Date;
  /** The companion's coherence now (coherenceOf). */
  coherence: number;
  /** The decision's own move toward the persona, as it stands now (decisionCoherence). */
  coherenceOwn: number;
  /** Open conflicts touching the belief now, and the user's history of such counts (for the 95th percentile). */
  conflicts: number;
  conflictHistory: readonly number[];
  /** The gardener's promote/deprecate decisions on the belief (any time; the window is applied inside). */
  beliefDecisions: readonly { at: Date; action: GardenerAction }[];
  /** The user's tags (all beliefs) for the validation windows. */
  userFeedback: readonly FeedbackEntry[];
  /**
   * A challenge decision's own inputs (absent for the gardener's): the challenge
   * it is, and the user's answers to the challenges of the belief (any time; the
   * windows are applied inside). `conflicts` is then the open conflicts touching
   * the user's belief.
   */
  challenge?: { challengeId: string; answers: readonly ChallengeAnswer[] };
}

export interface OutcomeResult {
  reward: number;
  components: { coherence: number; confidence: number; stability: number; validation: number };
  validationExplicit: number;
  validationImplicit: number;
  /** The baseline drift subtracted from Δcoh (per the horizon). */
  coherenceBaseline: number;
  /** r_actor = share · r */
  credit: Partial<Record<Actor, number>>;
}

export type { Actor, FeedbackReason, GardenerAction, Horizon, Tag };
