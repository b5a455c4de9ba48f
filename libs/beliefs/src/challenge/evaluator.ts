import { BELIEF_CONFIG } from '../config.js';
import { ageDays } from './eligibility.js';
import type { BeliefEvaluation, BeliefEvaluationResult, ChallengeTrigger } from './types.js';

/** What the evaluator needs of a perception (BC §3). */
export interface EvaluationInput {
  /** When the belief was expressed: its occurrences. */
  occurrences: readonly Date[];
  /**
   * Average reward of actions the belief influenced, −1..1. The trust service
   * does not report outcomes per belief yet, so callers pass 0 (neutral) until
   * it does; a value that is not a number counts as 0.
   */
  rewardCorrelation: number;
  /** Entries that explicitly contradict the perception. */
  contradictingEvidence: number;
}

/**
 * The pattern intelligence of belief-challenge.md §3. A challenge is called for
 * when the belief was repeated more than twice in the 90 days up to `at`, when
 * it goes with negative outcomes (correlation below −0.3), or when something
 * the user said contradicts it. Occurrences after `at` (a replay's future) do
 * not count; one exactly 90 days old does.
 */
export function evaluateBelief(input: EvaluationInput, at: Date): BeliefEvaluationResult {
  const rules = BELIEF_CONFIG.challengeEvaluator;
  let repetitionCount = 0;
  for (const when of input.occurrences) {
    const age = ageDays(when, at);
    if (age >= 0 && age <= rules.windowDays) repetitionCount++;
  }
  const rewardCorrelation = Number.isFinite(input.rewardCorrelation) ? input.rewardCorrelation : 0;
  const contradictingEvidenceCount = Number.isFinite(input.contradictingEvidence) ? input.contradictingEvidence : 0;

  const evaluation = { repetitionCount, rewardCorrelation, contradictingEvidenceCount };
  const because = challengeTriggers(evaluation);
  return { ...evaluation, challenge: because.length > 0, because };
}

/** The BC §3 criteria an evaluation meets, in the spec's order; none means no challenge. */
export function challengeTriggers(evaluation: BeliefEvaluation): ChallengeTrigger[] {
  const rules = BELIEF_CONFIG.challengeEvaluator;
  const because: ChallengeTrigger[] = [];
  if (evaluation.repetitionCount > rules.minRepetitions) because.push('repetition');
  if (evaluation.rewardCorrelation < rules.rewardCorrelationBelow) because.push('negative_reward');
  if (evaluation.contradictingEvidenceCount > rules.contradictingEvidenceAbove) because.push('contradicting_evidence');
  return because;
}
