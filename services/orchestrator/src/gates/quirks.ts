import { QUIRKS, type Quirk } from './lists.js';
import type { GateVerdict } from './verdict.js';

// A tilde right before a digit means "about" (~5 min), not the playful quirk.
const TILDE = /~(?!\d)/;
// Two or more dots; NFKC has already turned … into "...".
const ELLIPSIS = /\.{2,}/;
const DOUBLE_BANG = /!{2,}/;
// An aside in parentheses has a letter in it: "(2)" and emoticons such as ":)" are not asides.
const PARENTHETICAL = /\([^()]*\p{L}[^()]*\)/u;
const ASCII_WORD = /[A-Za-z]+(?:'[A-Za-z]+)*/g;
const ASCII_UPPER = /[A-Z]/;
/** ≥ this many ASCII words and no ASCII uppercase letter is the lowercase quirk. */
const LOWERCASE_MIN_WORDS = 3;

/**
 * The punctuation quirks a reply shows, in QUIRKS order. The text is NFKC-folded
 * first, so full-width ～ ！ （ ） and … count as ~ ! ( ) and "...".
 * - `~`: a tilde not followed by a digit;
 * - `...`: two or more consecutive dots (… included);
 * - `!!`: two or more consecutive `!`;
 * - `!`: more than one `!` in the message (one `!` is ordinary punctuation);
 * - `()`: a parenthetical aside, i.e. parentheses around at least one letter;
 * - `lowercase`: at least 3 ASCII words and no ASCII uppercase letter.
 */
export function detectQuirks(text: string): Quirk[] {
  const t = text.normalize('NFKC').replace(/[\u2018\u2019]/g, "'");
  const found = new Set<Quirk>();
  if (TILDE.test(t)) found.add('~');
  if (ELLIPSIS.test(t)) found.add('...');
  if (DOUBLE_BANG.test(t)) found.add('!!');
  if ((t.match(/!/g)?.length ?? 0) > 1) found.add('!');
  if (PARENTHETICAL.test(t)) found.add('()');
  if ((t.match(ASCII_WORD)?.length ?? 0) >= LOWERCASE_MIN_WORDS && !ASCII_UPPER.test(t)) found.add('lowercase');
  return QUIRKS.filter((q) => found.has(q));
}

/** The quirks a persona's list allows: `!!` also allows `!`. */
export function allowedQuirkSet(allowedQuirks: readonly string[]): Set<string> {
  const allowed = new Set(allowedQuirks);
  if (allowed.has('!!')) allowed.add('!');
  return allowed;
}

/** §10 "punctuation quirks limited to allowed": every detected quirk must be in StableStyleParams.punctuation_quirks. */
export function quirksGate(text: string, allowedQuirks: readonly string[]): GateVerdict {
  const detected = detectQuirks(text);
  const allowed = allowedQuirkSet(allowedQuirks);
  const disallowed = detected.filter((q) => !allowed.has(q));
  return {
    gate: 'punctuation_quirks',
    pass: disallowed.length === 0,
    detail: disallowed.length === 0 ? `quirks [${detected.join(' ')}] allowed by [${allowedQuirks.join(' ')}]` : `quirks [${disallowed.join(' ')}] not allowed by [${allowedQuirks.join(' ')}]`,
    measured: { detected: detected.join(','), disallowed: disallowed.join(','), allowed: allowedQuirks.join(',') },
  };
}
