import type { Polarity } from '../config.js';

/** BC §1 */
export type BeliefRiskLevel = 'low' | 'medium' | 'high';

/** BC §1: the three ways of asking. */
export const BELIEF_CHALLENGE_STYLES = ['gentle', 'curious', 'reflective'] as const;
export type BeliefChallengeStyle = (typeof BELIEF_CHALLENGE_STYLES)[number];

/** The states that feed the lock (BC §2); `safetySignals` of @hearth/text reads them. */
export interface ChallengeSafety {
  shame: boolean;
  isolation: boolean;
  dependencyFear: boolean;
  relationalStrain: boolean;
}

/** Why the lock said no (BC §2, in its order), or `eligible`. */
export type EligibilityReason =
  | 'shame_or_isolation'
  | 'dependency_fear'
  | 'low_confidence'
  | 'relational_strain_low_confidence'
  | 'too_recent'
  | 'eligible';

/** BC §1 BeliefChallengeEligibility. */
export interface BeliefChallengeEligibility {
  eligible: boolean;
  reason: EligibilityReason;
  risk: BeliefRiskLevel;
}

/** BC §3: the pattern analysis of one perception. */
export interface BeliefEvaluation {
  /** Occurrences in the 90 days up to the evaluation time. */
  repetitionCount: number;
  /** −1..1; 0 until the trust service reports outcomes. */
  rewardCorrelation: number;
  contradictingEvidenceCount: number;
}

/** What made the evaluator call for a challenge (BC §3, each criterion). */
export type ChallengeTrigger = 'repetition' | 'negative_reward' | 'contradicting_evidence';

export interface BeliefEvaluationResult extends BeliefEvaluation {
  challenge: boolean;
  /** The criteria that held, in the spec's order (BC §3). */
  because: ChallengeTrigger[];
}

/** BC §1 BeliefChallenge. */
export interface BeliefChallenge {
  style: BeliefChallengeStyle;
  prompt: string;
}

/** The generator's reply-signals (BC §5). */
export type ConfidenceSignal = 'reinforced' | 'questioned' | 'contradicted';

/** A user self-perception as the challenge flow sees it (a `holder: user` node with its evidence). */
export interface Perception {
  beliefId: string;
  canonicalText: string;
  /** The user's own words of the latest occurrence. */
  rawText: string;
  polarity: Polarity;
  confidence: number;
  createdAt: Date;
  /** The latest occurrence. */
  lastAt: Date;
  occurrences: readonly Date[];
  rewardCorrelation: number;
  contradictingEvidence: number;
}

/** The lock's and the evaluator's answer for one perception (proto ChallengeConsidered). */
export interface ChallengeConsidered {
  beliefId: string;
  eligible: boolean;
  reason: EligibilityReason;
  risk: BeliefRiskLevel;
  /** False when the integration's pre-filter or the lock stopped it before evaluation. */
  evaluated: boolean;
  repetitionCount: number;
  rewardCorrelation: number;
  contradictingEvidence: number;
  challenge: boolean;
  because: ChallengeTrigger[];
}

/** The one challenge proposed for a turn (proto ProposedChallenge). */
export interface ProposedChallenge {
  challengeId: string;
  beliefId: string;
  canonicalText: string;
  rawText: string;
  style: BeliefChallengeStyle;
  prompt: string;
  because: ChallengeTrigger[];
}
