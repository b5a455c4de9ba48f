import { GATES } from '../config.js';
import type { GateVerdict } from './verdict.js';

const PICTOGRAPHIC = /\p{Extended_Pictographic}/u;
const REGIONAL_INDICATOR = /[\u{1F1E6}-\u{1F1FF}]/u;
const KEYCAP_BASE = /[0-9#*]/;
const VS16 = '\uFE0F';
const KEYCAP = '\u20E3';
// Parts of an emoji sequence that are never emoji on their own: ZWJ, the
// presentation selectors, skin-tone modifiers and tag characters (subdivision flags).
// Alternation, not one class: eslint's no-misleading-character-class reads
// joiners and modifiers inside a class as combined characters.
const SEQUENCE_PART = /^(?:\u200D|\uFE0E|\uFE0F|[\u{1F3FB}-\u{1F3FF}]|[\u{E0020}-\u{E007F}])$/u;

/**
 * Extended_Pictographic code points that ordinary prose uses as typography:
 * ©, ®, ‼, ⁉, ™, ℹ and the arrows of U+2194–U+21AA (everything Extended_Pictographic
 * below U+2300), and the CJK wavy dash 〰 and part-alternation mark 〽. They count
 * as emoji only when U+FE0F asks for emoji presentation.
 */
function isTypographic(cp: number): boolean {
  return cp < 0x2300 || cp === 0x3030 || cp === 0x303d;
}

interface EmojiUnit {
  /** Code points consumed. */
  length: number;
  /** Emoji it counts for (§10.4 "emoji codepoints"). */
  count: number;
}

/**
 * The emoji unit starting at `cps[i]`, or null when `cps[i]` starts none:
 * a keycap ([0-9#*] + optional VS16 + U+20E3) counts 1; two regional
 * indicators (a flag) count 1, and so does an unpaired one (it has Emoji=Yes);
 * an Extended_Pictographic code point counts 1 (a typographic one only with VS16).
 */
function emojiUnitAt(cps: readonly string[], i: number): EmojiUnit | null {
  const c = cps[i]!;
  if (KEYCAP_BASE.test(c)) {
    if (cps[i + 1] === KEYCAP) return { length: 2, count: 1 };
    if (cps[i + 1] === VS16 && cps[i + 2] === KEYCAP) return { length: 3, count: 1 };
    return null;
  }
  if (REGIONAL_INDICATOR.test(c)) {
    const pair = cps[i + 1] !== undefined && REGIONAL_INDICATOR.test(cps[i + 1]!);
    return { length: pair ? 2 : 1, count: 1 };
  }
  if (PICTOGRAPHIC.test(c)) {
    if (isTypographic(c.codePointAt(0)!) && cps[i + 1] !== VS16) return null;
    return { length: 1, count: 1 };
  }
  return null;
}

/**
 * `emoji_count` of turn-pipeline §10.4, read as "emoji code points": every
 * Extended_Pictographic code point counts 1, so a ZWJ sequence counts each
 * pictographic member (👨‍👩‍👧 is 3) while ZWJ, VS16 and skin-tone modifiers add
 * nothing. A flag (regional-indicator pair) and a keycap sequence count 1 each.
 * © ® ™ ‼ ⁉ and arrows count only when followed by VS16.
 */
export function countEmoji(text: string): number {
  const cps = Array.from(text);
  let count = 0;
  for (let i = 0; i < cps.length; ) {
    const unit = emojiUnitAt(cps, i);
    if (unit === null) {
      i += 1;
    } else {
      count += unit.count;
      i += unit.length;
    }
  }
  return count;
}

/**
 * `text` without its leading emojis and the whitespace between them (§10.2 step 1):
 * pictographs, flags, keycaps and the ZWJ / VS16 / skin-tone / tag parts of
 * their sequences, by the same definition as {@link countEmoji}.
 */
export function stripLeadingEmoji(text: string): string {
  const cps = Array.from(text);
  let i = 0;
  while (i < cps.length) {
    const c = cps[i]!;
    if (/\s/u.test(c) || SEQUENCE_PART.test(c)) {
      i += 1;
      continue;
    }
    const unit = emojiUnitAt(cps, i);
    if (unit === null) break;
    i += unit.length;
  }
  return cps.slice(i).join('');
}

/** §10.4: emoji_count within the band of StableStyleParams.emoji_freq (inclusive). An unknown emoji_freq fails closed. */
export function emojiGate(text: string, emojiFreq: string): GateVerdict {
  const count = countEmoji(text);
  const band = Object.hasOwn(GATES.emojiBand, emojiFreq) ? GATES.emojiBand[emojiFreq] : undefined;
  if (band === undefined) {
    return { gate: 'emoji_band', pass: false, detail: `unknown emoji_freq '${emojiFreq}'`, measured: { emoji_count: count, emoji_freq: emojiFreq } };
  }
  const [min, max] = band;
  const pass = count >= min && count <= max;
  return {
    gate: 'emoji_band',
    pass,
    detail: `emoji_count ${count} ${pass ? 'in' : 'not in'} [${min},${max}] (${emojiFreq})`,
    measured: { emoji_count: count, emoji_freq: emojiFreq, min, max },
  };
}
