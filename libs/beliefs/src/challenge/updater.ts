import { affirmedPhrases, normalizeUserText, spellingVariants, tokenize } from '@hearth/text';
import { BELIEF_CONFIG, type Polarity } from '../config.js';
import type { ConfidenceSignal } from './types.js';

// Confidences are kept to six decimals so that 0.4 + 0.05 is 0.45 and a
// reinforced-then-questioned belief is back where it was (not a spec number).
const PRECISION = 1e6;
const round = (x: number): number => Math.round(x * PRECISION) / PRECISION;

/**
 * BC §5: one small step per signal (+0.05 reinforced, −0.05 questioned, −0.1
 * contradicted), kept in [0.1, 0.8] so a belief never becomes a "fact" and
 * never drops to zero. A confidence outside the bounds is brought into them;
 * one that is not a number is treated as the floor. `delta` is the change
 * actually applied, 0 at a bound.
 */
export function updateConfidence(current: number, signal: ConfidenceSignal): { confidence: number; delta: number } {
  const { min, max } = BELIEF_CONFIG.confidence;
  const from = Number.isFinite(current) ? current : min;
  const confidence = round(Math.min(max, Math.max(min, from + BELIEF_CONFIG.confidence[signal])));
  return { confidence, delta: round(confidence - from) };
}

/**
 * What the user's next message after a challenge says about the belief, as
 * phrase lists (normalized; spelling variants are derived). Checked in this
 * order, first hit wins: a clear counter, then doubt, then insistence, so "it's
 * not always true" is doubt and not "always true".
 */
export const REPLY_LEXICON: Readonly<Record<ConfidenceSignal, readonly string[]>> = Object.freeze({
  contradicted: Object.freeze([
    'actually they were',
    'actually they do',
    'actually they did',
    "actually it's not",
    "actually that's not",
    "that's not true anymore",
    "that's not true",
    "that isn't true",
    "it's not true",
    "that's not really true",
    'not true anymore',
    'not anymore',
    "that's not the case",
    "it's not like that",
    'they were proud of me',
    "they're proud of me",
    'they are proud of me',
    'they do respect me',
    'they respect me',
    'they do care',
    'they care about me',
    "i don't think that anymore",
    "i don't believe that anymore",
    'i was wrong about that',
    "that's changed",
    'things have changed',
  ]),
  questioned: Object.freeze([
    'maybe not always',
    'not always',
    'maybe not',
    'i guess sometimes',
    'i guess not',
    'maybe sometimes',
    'not all the time',
    "i'm not sure",
    'not so sure',
    'you might be right',
    'you may be right',
    "maybe you're right",
    'i never thought of it that way',
    "i haven't thought about it",
    "i hadn't thought about it",
    'there are moments',
    'there were times',
    'now that you mention it',
    'i suppose',
    'could be',
    'i wonder',
    'hard to say',
  ]),
  reinforced: Object.freeze([
    "it's always true",
    'always true',
    "it's true",
    "that's true",
    'it is true',
    'yes they do',
    'yes it is',
    'yes always',
    'they always do',
    'every single time',
    'every time',
    "that's just how it is",
    "that's how it is",
    'i know it',
    "i'm sure",
    'trust me',
    'definitely',
    'of course they do',
  ]),
});

const SIGNAL_ORDER = ['contradicted', 'questioned', 'reinforced'] as const satisfies readonly ConfidenceSignal[];
const EXPANDED = SIGNAL_ORDER.map((signal) => [signal, [...new Set(REPLY_LEXICON[signal].flatMap(spellingVariants))]] as const);

// Words that carry no content of a belief: pronouns, auxiliaries, articles,
// prepositions and the negators (polarity is read separately).
const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  (
    "i me my mine myself you your we our they them their he she it its am is are was were be been being do does did " +
    "don't doesn't didn't dont doesnt didnt not no never a an the for of to with in on at by from and or but so that this " +
    "i'm im i've ive have has had just really very always sometimes all still"
  ).split(' '),
);
const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'never',
  "don't",
  'dont',
  "doesn't",
  'doesnt',
  "didn't",
  'didnt',
  "isn't",
  'isnt',
  "aren't",
  'arent',
  "wasn't",
  'wasnt',
  "weren't",
  'werent',
]);
// A restatement shares at least this many of the belief's content words (all of
// them when it has fewer: "i am creative"), and at least this share of them (not spec numbers: "my family disrespects me" restates
// "my family disrespects me for not working with my hands").
const RESTATEMENT_MIN_WORDS = 2;
const RESTATEMENT_MIN_SHARE = 0.5;
// How far before a shared word a negator still negates it.
const NEGATION_WINDOW = 2;

/** A crude stem, enough to see "disrespects" and "disrespected" as one word. */
function stem(word: string): string {
  for (const suffix of ['ing', 'ed', 'es', 's']) {
    if (word.length > suffix.length + 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length);
  }
  return word;
}

/** Each content stem of `tokens` with whether a negator stands just before it. */
function contentWords(tokens: readonly string[]): Map<string, boolean> {
  const words = new Map<string, boolean>();
  tokens.forEach((t, i) => {
    if (FUNCTION_WORDS.has(t)) return;
    let negated = false;
    for (let j = Math.max(0, i - NEGATION_WINDOW); j < i; j++) if (NEGATORS.has(tokens[j] ?? '')) negated = true;
    words.set(stem(t), (words.get(stem(t)) ?? false) || negated);
  });
  return words;
}

/**
 * Whether `reply` restates the belief, and with which polarity: 'same' or
 * 'opposite', or null when it is not a restatement. The canonical text is the
 * affirmative form and `polarity` carries the negation (§4.3), so a reply that
 * negates a shared word the canonical text does not negate ("my family doesn't
 * disrespect me") says the canonical text's opposite.
 */
function restatement(reply: string, belief: { canonicalText: string; polarity: Polarity }): 'same' | 'opposite' | null {
  const beliefWords = contentWords(tokenize(normalizeUserText(belief.canonicalText).normNoPunct));
  if (beliefWords.size === 0) return null;
  const replyWords = contentWords(tokenize(normalizeUserText(reply).normNoPunct));
  let shared = 0;
  let flipped = false;
  for (const [word, negatedInReply] of replyWords) {
    const negatedInBelief = beliefWords.get(word);
    if (negatedInBelief === undefined) continue;
    shared++;
    if (negatedInReply !== negatedInBelief) flipped = true;
  }
  if (shared < Math.min(RESTATEMENT_MIN_WORDS, beliefWords.size) || shared / beliefWords.size < RESTATEMENT_MIN_SHARE) return null;
  return (flipped ? 'deny' : 'affirm') === belief.polarity ? 'same' : 'opposite';
}

/**
 * The confidence signal of the user's message right after a challenge (BC §5,
 * "driven by what the user says next"): a clear counter → contradicted, doubt →
 * questioned, insistence or a restatement → reinforced; a restatement with the
 * opposite polarity → contradicted; anything else → null (no update). Negated
 * cues do not count ("i don't think they were proud of me").
 */
export function replySignal(userText: string, belief: { canonicalText: string; polarity: Polarity }): ConfidenceSignal | null {
  for (const [signal, phrases] of EXPANDED) {
    if (signal === 'reinforced') {
      const restated = restatement(userText, belief);
      if (restated !== null) return restated === 'same' ? 'reinforced' : 'contradicted';
    }
    if (affirmedPhrases(userText, phrases).length > 0) return signal;
  }
  return null;
}
