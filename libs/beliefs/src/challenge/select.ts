import { BELIEF_CONFIG } from '../config.js';
import { ageDays, isBeliefChallengeAllowed } from './eligibility.js';
import { evaluateBelief } from './evaluator.js';
import { chooseStyle, generateBeliefChallenge } from './generator.js';
import type { ChallengeConsidered, ChallengeSafety, EligibilityReason, Perception, ProposedChallenge } from './types.js';

/** How a proposed challenge gets its id (deterministic in the caller, e.g. derived from the conversation and the belief). */
export interface ChallengeIds {
  challengeId(beliefId: string): string;
}

export interface ChallengeSelection {
  /** Set when the safety context stopped the whole flow before any perception was read (BC Integration step 1). */
  blocked: EligibilityReason | null;
  /** Each perception the flow decided about, in the order it did. */
  considered: ChallengeConsidered[];
  /** At most one per conversation (BC Integration step 5). */
  challenge: ProposedChallenge | null;
}

/**
 * Newest first: by the latest occurrence (a belief said again today is recent
 * even if first said long ago), then by creation, then by id for a stable order.
 */
function newestFirst(a: Perception, b: Perception): number {
  return b.lastAt.getTime() - a.lastAt.getTime() || b.createdAt.getTime() - a.createdAt.getTime() || (a.beliefId < b.beliefId ? -1 : a.beliefId > b.beliefId ? 1 : 0);
}

/**
 * The integration flow of belief-challenge.md, as a pure decision over the
 * user's perceptions at the turn's time `at`:
 * 1. shame, isolation or dependency fear → nothing is read or proposed;
 * 2. the 5 most recent perceptions;
 * 3. those at least 7 days old with confidence ≥ 0.3;
 * 4. of these the first 2, each through the lock (`isBeliefChallengeAllowed`,
 *    which nothing bypasses) and, when eligible, the evaluator; the first whose
 *    evaluation calls for it gets a challenge in the style `chooseStyle` picks
 *    (the spec's example uses 'curious', which is what repetition alone gives);
 * 5. one challenge at most.
 * `considered` records the lock's answer for every recent perception the flow
 * looked at, including those the pre-filter of step 3 dropped.
 */
export function selectChallenge(perceptions: readonly Perception[], safety: ChallengeSafety, at: Date, ids: ChallengeIds): ChallengeSelection {
  const flow = BELIEF_CONFIG.challengeIntegration;
  const lock = BELIEF_CONFIG.challengeLock;
  if (safety.shame || safety.isolation) return { blocked: 'shame_or_isolation', considered: [], challenge: null };
  if (safety.dependencyFear) return { blocked: 'dependency_fear', considered: [], challenge: null };

  const recent = [...perceptions].sort(newestFirst).slice(0, flow.recentPerceptions);
  const considered: ChallengeConsidered[] = [];
  const notEvaluated = (p: Perception): ChallengeConsidered => {
    const lockSays = isBeliefChallengeAllowed(p, safety, at);
    return {
      beliefId: p.beliefId,
      ...lockSays,
      evaluated: false,
      repetitionCount: 0,
      rewardCorrelation: 0,
      contradictingEvidence: 0,
      challenge: false,
      because: [],
    };
  };

  const candidates: Perception[] = [];
  for (const p of recent) {
    if (ageDays(p.createdAt, at) >= lock.minAgeDays && p.confidence >= lock.minConfidence) candidates.push(p);
    else considered.push(notEvaluated(p));
  }

  for (const p of candidates.slice(0, flow.evaluated)) {
    const entry = notEvaluated(p);
    considered.push(entry);
    if (!entry.eligible) continue;
    const evaluation = evaluateBelief(p, at);
    entry.evaluated = true;
    entry.repetitionCount = evaluation.repetitionCount;
    entry.rewardCorrelation = evaluation.rewardCorrelation;
    entry.contradictingEvidence = evaluation.contradictingEvidenceCount;
    entry.challenge = evaluation.challenge;
    entry.because = evaluation.because;
    if (!evaluation.challenge) continue;
    const { style, prompt } = generateBeliefChallenge(p, chooseStyle(evaluation), evaluation);
    return {
      blocked: null,
      considered,
      challenge: {
        challengeId: ids.challengeId(p.beliefId),
        beliefId: p.beliefId,
        canonicalText: p.canonicalText,
        rawText: p.rawText,
        style,
        prompt,
        because: evaluation.because,
      },
    };
  }
  return { blocked: null, considered, challenge: null };
}
