// The persona's style bands of turn-pipeline §10.4 and §10.5, measured here
// again from the spec's words, so the eval does not grade the orchestrator's
// gates with the orchestrator's own code.

/** §10.4: emoji_count bounds by StableStyleParams.emoji_freq, inclusive. */
export const EMOJI_BANDS: Readonly<Record<string, readonly [number, number]>> = { none: [0, 0], light: [0, 2], frequent: [1, 6] };

/** §10.5: sentence_count and avg_words_per_sentence bounds by StableStyleParams.msg_length_pref, inclusive. */
export const SENTENCE_BANDS: Readonly<Record<string, { count: readonly [number, number]; avgWords: readonly [number, number] }>> = {
  short: { count: [1, 3], avgWords: [0, 14] },
  medium: { count: [2, 5], avgWords: [10, 22] },
  long: { count: [3, 8], avgWords: [15, Number.POSITIVE_INFINITY] },
};

// §10.4 "Unicode emoji codepoints": a code point with default emoji presentation,
// or an Extended_Pictographic one that is also an emoji (so the digits, # and *,
// which are Emoji only as keycap bases, and unassigned pictographic blocks are not).
const EMOJI_CODE_POINT = /\p{Emoji_Presentation}|(?=\p{Emoji})\p{Extended_Pictographic}/gu;

// §10.5: `.`, `!`, `?`, `…` and their full-width / CJK forms; a run of them is one delimiter.
const DELIMITER_RUN = /[.!?…。．！？｡]+/u;
const LETTER_OR_NUMBER = /[\p{L}\p{N}]/u;

export function emojiCount(text: string): number {
  return text.match(EMOJI_CODE_POINT)?.length ?? 0;
}

export interface SentenceMeasure {
  sentenceCount: number;
  avgWordsPerSentence: number;
}

/**
 * §10.5 sentence_count and avg_words_per_sentence (words tokenized on whitespace).
 * `strict: false` (the eval's reading): a segment without a letter or number is
 * empty (a trailing " 🙂" is not a sentence) and a word is a whitespace token
 * with a letter or number in it. `strict: true`: only a blank segment is empty
 * and every whitespace token is a word; reported beside it, to show where the
 * spec's words leave room.
 */
export function measureSentences(text: string, strict = false): SentenceMeasure {
  const segments = text
    .split(DELIMITER_RUN)
    .map((s) => s.trim())
    .filter((s) => (strict ? s !== '' : LETTER_OR_NUMBER.test(s)));
  const words = segments.reduce((n, s) => n + s.split(/\s+/u).filter((w) => w !== '' && (strict || LETTER_OR_NUMBER.test(w))).length, 0);
  return { sentenceCount: segments.length, avgWordsPerSentence: segments.length === 0 ? 0 : words / segments.length };
}

/** The persona's bands (GET /v1/me `persona.stable_style_params`), as far as §10.4 and §10.5 read them. */
export interface StyleBands {
  emoji_freq: string;
  msg_length_pref: string;
}

export interface StyleCheck {
  emojiCount: number;
  emojiOk: boolean;
  sentences: SentenceMeasure;
  sentencesOk: boolean;
  /** The sentence band under the strict reading of {@link measureSentences}. */
  strictSentencesOk: boolean;
}

function inBand(sentences: SentenceMeasure, pref: string): boolean {
  const band = Object.hasOwn(SENTENCE_BANDS, pref) ? SENTENCE_BANDS[pref] : undefined;
  if (!band) return false;
  const { sentenceCount: n, avgWordsPerSentence: avg } = sentences;
  // Compared with a hair of tolerance: an average of 14 words is 14, not 14.000000001.
  const eps = 1e-9;
  return n >= band.count[0] && n <= band.count[1] && avg >= band.avgWords[0] - eps && avg <= band.avgWords[1] + eps;
}

/** Whether `text` fits the persona's emoji band (§10.4) and sentence band (§10.5); an unknown band value fits nothing. */
export function checkStyle(text: string, bands: StyleBands): StyleCheck {
  const count = emojiCount(text);
  const emojiBand = Object.hasOwn(EMOJI_BANDS, bands.emoji_freq) ? EMOJI_BANDS[bands.emoji_freq] : undefined;
  const sentences = measureSentences(text);
  return {
    emojiCount: count,
    emojiOk: emojiBand !== undefined && count >= emojiBand[0] && count <= emojiBand[1],
    sentences,
    sentencesOk: inBand(sentences, bands.msg_length_pref),
    strictSentencesOk: inBand(measureSentences(text, true), bands.msg_length_pref),
  };
}
