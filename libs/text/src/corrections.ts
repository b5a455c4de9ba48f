import { normalizeUserText } from './normalize.js';

/**
 * A user correction command of turn-pipeline §12.4. Memory acts on it (its
 * records, suppressed keys) and the orchestrator words the reply; both read the
 * message with this one parser so they never disagree about what was asked.
 */
export type CorrectionCommand =
  /** "That's not true" / "Not true" / "Wrong": the last surfaced memory, or ask which part. */
  | { command: 'not_true' }
  /** "Forget that" / "Don't remember that": the last surfaced memory. */
  | { command: 'forget_that' }
  /** "Forget X" / "Don't remember X": X by its key, else the last surfaced memory. */
  | { command: 'forget_target'; target: string }
  /** "Don't bring this topic up again": the topic joins suppressed_topics. */
  | { command: 'suppress_topic'; target: string };

// A polite or conversational lead-in before the command itself.
const LEAD = String.raw`^(?:(?:no|nope|ok|okay|hey|um|uh|well|please|pls|just|and|but|actually|honestly)\s+)*(?:(?:can|could|would|will)\s+you\s+(?:please\s+)?)?`;
const TAIL = String.raw`(?:\s+(?:please|pls|ok|okay|thanks|thank you))*$`;

const NOT_TRUE = new RegExp(`${LEAD}(?:(?:that's|thats|that is|it's|its|it is)\\s+)?(?:not true|wrong|incorrect|not right)${TAIL}`);
const FORGET_THAT = new RegExp(`${LEAD}(?:forget|don't remember|do not remember|dont remember|stop remembering)\\s+(?:that|this|it)${TAIL}`);
const FORGET_TARGET = new RegExp(`${LEAD}(?:forget|don't remember|do not remember|dont remember|stop remembering)\\s+(?:about\\s+)?(.+)$`);
const SUPPRESS = new RegExp(
  `${LEAD}(?:(?:don't|do not|dont|never|please don't)\\s+(?:ever\\s+)?(?:bring|brings)\\s+(?:(?:this|that|it)(?:\\s+topic)?|up\\s+(.+?))(?:\\s+up)?\\s+again` +
    `|(?:don't|do not|dont|never)\\s+(?:mention|talk about|ask about|ask me about)\\s+(?:(?:this|that|it)(?:\\s+topic)?|(.+?))\\s+again` +
    `|stop (?:bringing (?:this|that|it)(?:\\s+topic)? up|(?:bringing up|mentioning|talking about)\\s+(?:(?:this|that|it)(?:\\s+topic)?|(.+?))))${TAIL}`,
);

/**
 * The §12.4 command a message gives, or null. Only a message that is the command
 * (with a lead-in such as "please" or "no,") counts: "I don't remember that day"
 * or "what's wrong with me" is not one. Reads `norm_no_punct` (§2.8).
 */
export function parseCorrection(text: string): CorrectionCommand | null {
  const norm = normalizeUserText(text).normNoPunct;
  if (norm === '') return null;
  const suppress = SUPPRESS.exec(norm);
  if (suppress) return { command: 'suppress_topic', target: (suppress[1] ?? suppress[2] ?? suppress[3] ?? '').trim() };
  if (NOT_TRUE.test(norm)) return { command: 'not_true' };
  if (FORGET_THAT.test(norm)) return { command: 'forget_that' };
  const target = FORGET_TARGET.exec(norm);
  if (target?.[1]) return { command: 'forget_target', target: target[1].replace(new RegExp(TAIL), '').trim() };
  return null;
}
