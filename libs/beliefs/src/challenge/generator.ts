import { toSecondPerson } from '@hearth/text';
import { challengeTriggers } from './evaluator.js';
import type { BeliefChallenge, BeliefChallengeStyle, BeliefEvaluation, ChallengeTrigger } from './types.js';

/** BC §4: each style's opening line, as the spec words it. */
export const CHALLENGE_OPENINGS: Readonly<Record<BeliefChallengeStyle, string>> = Object.freeze({
  gentle: 'I might be wrong, but can we look at this gently together?',
  curious: 'Can I ask something, just to understand better?',
  reflective: "I'm noticing a pattern here. How does this belief affect how you see yourself?",
});

/**
 * What the prompt notices, by the criterion behind it: a question about the
 * pattern, never a verdict on the belief (BC §4: no confrontation, no
 * correction, no authority). The repetition line is the spec's own (Example Flow).
 */
export const PATTERN_QUESTIONS: Readonly<Record<ChallengeTrigger | 'none', string>> = Object.freeze({
  repetition: "You've mentioned this a few times — do you feel it's always true, or are there moments when it might not be?",
  negative_reward: 'When this thought shows up, what do you notice it does to the rest of your day?',
  contradicting_evidence: "You've also told me about times that seemed to go a different way — how do those sit alongside this for you?",
  none: "What's it like for you to carry this thought?",
});

/**
 * When several criteria hold, the one the prompt speaks to: what the user said
 * against the belief is the most concrete ground, then its outcomes, then
 * repetition (the weakest: saying a thing often says little about its truth).
 */
export const TRIGGER_PRIORITY: readonly ChallengeTrigger[] = Object.freeze(['contradicting_evidence', 'negative_reward', 'repetition']);

function leadingTrigger(evaluation: BeliefEvaluation): ChallengeTrigger | 'none' {
  const held = challengeTriggers(evaluation);
  return TRIGGER_PRIORITY.find((t) => held.includes(t)) ?? 'none';
}

/**
 * The style for an evaluation, deterministic:
 * - contradicting evidence → gentle: the criterion closest to a correction
 *   gets the humblest opening ("I might be wrong…");
 * - negative reward → reflective: its opening asks how the belief affects the
 *   user, which is what a negative outcome is about;
 * - repetition → curious: the pairing of the spec's Example Flow;
 * - nothing → curious, the style the spec's integration uses.
 */
export function chooseStyle(evaluation: BeliefEvaluation): BeliefChallengeStyle {
  const trigger = leadingTrigger(evaluation);
  switch (trigger) {
    case 'contradicting_evidence':
      return 'gentle';
    case 'negative_reward':
      return 'reflective';
    case 'repetition':
    case 'none':
      return 'curious';
    default: {
      const unreachable: never = trigger;
      return unreachable;
    }
  }
}

// Trailing sentence punctuation and quote marks around the user's words.
const EDGES = /^[\s"'“”‘’]+|[\s"'“”‘’.!?…,;:]+$/gu;

/** The user's words of the belief, said back in the second person, or '' when there are none. */
export function quoteBack(perception: { rawText: string; canonicalText: string }): string {
  const words = (perception.rawText.trim() === '' ? perception.canonicalText : perception.rawText).replace(EDGES, '');
  if (words === '') return '';
  return toSecondPerson(words);
}

/**
 * BC §4: an optional question in the given style: its opening, the belief in
 * the user's own words turned to the second person (so that it is clearly
 * theirs and not the friend's claim), then the question about the pattern the
 * evaluation found.
 */
export function generateBeliefChallenge(
  perception: { beliefId: string; rawText: string; canonicalText: string },
  style: BeliefChallengeStyle,
  evaluation: BeliefEvaluation,
): BeliefChallenge {
  // The quote goes before the question, so the prompt ends on the question it asks.
  const quote = quoteBack(perception);
  const parts = [CHALLENGE_OPENINGS[style], ...(quote === '' ? [] : [`I'm thinking of when you said ${quote}.`]), PATTERN_QUESTIONS[leadingTrigger(evaluation)]];
  return { style, prompt: parts.join(' ') };
}
