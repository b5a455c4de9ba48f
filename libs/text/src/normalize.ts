/** The two normalized forms of one user message (turn-pipeline §2.8). */
export interface NormalizedText {
  /** `user_text_norm`: NFKC, zero-width stripped, whitespace collapsed, ASCII lowercased; punctuation kept. For logs and debugging. */
  userTextNorm: string;
  /** `norm_no_punct`: `userTextNorm` with punctuation except apostrophes turned into spaces. The only input of keyword matching. */
  normNoPunct: string;
}

// §2.8 step 2. The invisible joiners and spaces that carry no text. U+00AD (soft
// hyphen) is a visible-on-break format char, not zero-width, so it stays. ZWJ
// last: eslint's no-misleading-character-class flags a ZWJ between two members.
const ZERO_WIDTH = /[\u200B\u200C\u2060\uFEFF\u200D]/g;
// Unicode White_Space, not JS `\s`: it also covers U+0085 (NEL); U+FEFF is gone by now.
const WHITESPACE_RUN = /\p{White_Space}+/gu;
const ASCII_UPPER = /[A-Z]/g;
// Typographic apostrophes (’ ‘ ‛ ʼ) become ASCII `'` so "don’t" matches "don't".
// Full-width ＇ (U+FF07) is already `'` after NFKC.
const APOSTROPHE_VARIANTS = /[\u2018\u2019\u201B\u02BC]/g;
// Every Unicode punctuation char except `'` becomes a space, so "self-harm" keeps
// two words. Symbols (\p{S}: emoji, $, +) are not punctuation and stay.
const PUNCTUATION_EXCEPT_APOSTROPHE = /(?!')\p{P}/gu;
const SPACE_RUN = / {2,}/g;

/**
 * Normalizes one user message exactly as turn-pipeline §2.8 orders it: NFKC,
 * strip zero-width chars, collapse whitespace, trim, lowercase ASCII A–Z only
 * (É, Cyrillic, Greek and Hangul stay as they are).
 */
export function normalizeUserText(raw: string): NormalizedText {
  const userTextNorm = raw
    .normalize('NFKC')
    .replace(ZERO_WIDTH, '')
    .replace(WHITESPACE_RUN, ' ')
    .trim()
    .replace(ASCII_UPPER, (c) => String.fromCharCode(c.charCodeAt(0) + 32));
  const normNoPunct = userTextNorm
    .replace(APOSTROPHE_VARIANTS, "'")
    .replace(PUNCTUATION_EXCEPT_APOSTROPHE, ' ')
    .replace(SPACE_RUN, ' ')
    .trim();
  return { userTextNorm, normNoPunct };
}

/** Splits `normNoPunct` on its single spaces; never yields an empty token. */
export function tokenize(normNoPunct: string): string[] {
  return normNoPunct.split(' ').filter((token) => token.length > 0);
}

// Scripts a BPE tokenizer spends about one token per character on.
const DENSE_CHAR = /[\p{Script=Hangul}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * A fast, deterministic token estimate (§5 "token count estimate"), not a real
 * tokenizer: per whitespace-separated word, each Hangul/Han/kana char counts 1,
 * each run of other chars counts ceil(code points / 4), and a word counts at
 * least 1. The empty string counts 0.
 */
export function estimateTokens(text: string): number {
  let total = 0;
  for (const word of text.split(/\p{White_Space}+/u)) {
    if (word.length === 0) continue;
    let count = 0;
    let run = 0;
    for (const char of word) {
      if (DENSE_CHAR.test(char)) {
        count += 1 + Math.ceil(run / 4);
        run = 0;
      } else {
        run += 1;
      }
    }
    count += Math.ceil(run / 4);
    total += Math.max(1, count);
  }
  return total;
}
