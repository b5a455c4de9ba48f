import { TRUST_CONFIG, type Actor } from '@hearth/trust';

/** The user's challenged belief as belief-graph holds it when trust reads it. */
export interface ChallengedBelief {
  confidence: number;
  /** Open conflicts touching the belief (contradicting evidence, belief-challenge.md §3). */
  openConflicts: number;
}

export interface ChallengeInput {
  /** The challenge's time (BeliefChallengeIssued's, the reply's turn). */
  at: Date;
  challengeId: string;
  beliefId: string;
  /** The user message the reply carrying the challenge answered. */
  messageId: string;
  /** Null when belief-graph does not list the belief (any more). */
  belief: ChallengedBelief | null;
  decisionId: string;
}

/** A belief challenge as a decision trust judges (GardenerDecided, action challenge). */
export interface ChallengeDecision {
  decisionId: string;
  beliefId: string;
  action: 'challenge';
  reason: 'challenge_issued';
  /** The companion chose to challenge: all eligibility is the agent's. */
  contributions: Partial<Record<Actor, number>>;
  conflicts: number;
  confidence: number;
  /** A user belief has no gardener level. */
  level: 0;
  shortDueAt: Date;
  longDueAt: Date;
  sourceMessageId: string;
}

/**
 * A challenge the companion wove into a reply (belief-challenge.md), recorded
 * as a decision of the agent's with the user's belief's state it is judged
 * against: its confidence and open conflicts when belief-graph lists it (else
 * 0), its outcomes due at both horizons. Pure.
 */
export function decideChallenge(input: ChallengeInput): ChallengeDecision {
  const t = input.at.getTime();
  return {
    decisionId: input.decisionId,
    beliefId: input.beliefId,
    action: 'challenge',
    reason: 'challenge_issued',
    contributions: { agent: 1 },
    conflicts: input.belief?.openConflicts ?? 0,
    confidence: input.belief?.confidence ?? 0,
    level: 0,
    shortDueAt: new Date(t + TRUST_CONFIG.horizons['2h'].ms),
    longDueAt: new Date(t + TRUST_CONFIG.horizons['24h'].ms),
    sourceMessageId: input.messageId,
  };
}
