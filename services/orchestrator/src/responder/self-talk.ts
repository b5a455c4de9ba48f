import { containsAny, tokenize } from '@hearth/text';
import { BELIEFS, SURFACING } from '../config.js';

/**
 * The offline responder speaking about itself (issue 16): now and then it says
 * one of its persona's self-statements, so the companion's belief graph grows
 * from its replies without an LLM. Pure: the same message and seed give the
 * same choice.
 */

// A message that asks about the friend ("what about you?", "do you like …",
// "how are you"): matched as words or phrases of norm_no_punct.
export const ASKS_ABOUT_FRIEND: readonly string[] = [
  'what about you',
  'how about you',
  'and you',
  'and yourself',
  'about yourself',
  'tell me about you',
  'how are you',
  'how have you been',
  "how's it going with you",
  'do you like',
  'do you love',
  'do you enjoy',
  'do you prefer',
  'are you into',
  'what do you like',
  'what do you enjoy',
  'what are you like',
  'what kind of person are you',
  'what kind of friend are you',
  'who are you',
  'tell me about yourself',
  'your favorite',
  'your favourite',
];

// Words that say nothing of what a statement is about.
const FUNCTION_WORDS = new Set([
  'i', 'im', "i'm", 'me', 'my', 'a', 'an', 'the', 'am', 'is', 'are', 'be', 'to', 'of', 'in', 'on', 'at', 'for', 'and', 'or', 'but',
  'do', 'dont', "don't", 'not', 'you', 'your', 'it', 'that', 'this', 'like', 'love', 'enjoy', 'prefer', 'value', 'believe', 'person', 'what', 'about', 'how',
]);

function contentWords(normNoPunct: string): Set<string> {
  return new Set(tokenize(normNoPunct).filter((t) => !FUNCTION_WORDS.has(t)));
}

function normalized(s: string): string {
  return s.toLowerCase().replace(/[\u2018\u2019]/g, "'").replace(/[^\p{L}\p{N}'\s-]/gu, ' ').replace(/\s+/g, ' ').trim();
}

/** True when the user's message asks about the friend itself. */
export function asksAboutFriend(normNoPunct: string): boolean {
  return containsAny(normNoPunct, ASKS_ABOUT_FRIEND).length > 0;
}

/** One element of `list` by a 32-bit mix of (seed, salt), as the renderer picks. */
function pickBy<T>(list: readonly T[], seed: number, salt: number): T {
  let h = (seed ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = (h ^ (h >>> 13)) >>> 0;
  return list[h % list.length]!;
}

/**
 * Which self-statement the offline reply says, or '' for none. Spoken when the
 * user asks about the friend, and otherwise on one turn in
 * BELIEFS.selfTalkEveryTurns (by the seed); never one `allowed` rejects (the
 * caller's check that it contradicts no core belief of the companion). A
 * statement about what the message itself is about is said only when the
 * friend was asked and the message takes no stance against it or changes it
 * (the rule that keeps a reply from contradicting the message it answers);
 * when asked, one about what was asked comes first.
 */
export function selfStatementFor(input: { statements: readonly string[]; normNoPunct: string; seed: number; allowed?: (statement: string) => boolean }): string {
  if (input.statements.length === 0) return '';
  const asked = asksAboutFriend(input.normNoPunct);
  if (!asked && input.seed % BELIEFS.selfTalkEveryTurns !== 0) return '';
  const said = contentWords(input.normNoPunct);
  const stance = SURFACING.stance;
  const disputed = containsAny(input.normNoPunct, [...stance.negative, ...stance.change]).length > 0;
  const about = (s: string) => [...contentWords(normalized(s))].some((w) => said.has(w));
  const onTopic = input.statements.filter(about);
  const offTopic = input.statements.filter((s) => !about(s));
  const pool = asked && !disputed && onTopic.length > 0 ? onTopic : offTopic;
  if (pool.length === 0) return '';
  // From the seed's pick on, the first the caller allows (asked lazily: the check decomposes text).
  const start = pool.indexOf(pickBy(pool, input.seed, 21));
  for (let i = 0; i < pool.length; i++) {
    const s = pool[(start + i) % pool.length]!;
    if (!input.allowed || input.allowed(s)) return s;
  }
  return '';
}
