import { GATES } from '../config.js';
import type { GateVerdict } from './verdict.js';

// §10.5: `.` `!` `?` `…` and the CJK / full-width forms (。 ． ！ ？ ｡); a run of
// them is one delimiter. A `.` between two digits is a decimal point ("3.5"), not
// the end of a sentence.
const DELIMITER_RUN = /(?:[!?…。！？｡]|(?<!\d)[.．]|[.．](?!\d))+/u;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;
const WHITESPACE = /\s+/u;

/**
 * The sentences of `text` (§10.5). "Ignore empty segments" is read as: a segment
 * with no letter or digit is empty, so a trailing " 🙂" or "~" is not a sentence.
 */
export function segmentSentences(text: string): string[] {
  return text
    .split(DELIMITER_RUN)
    .map((s) => s.trim())
    .filter((s) => LETTER_OR_DIGIT.test(s));
}

/** The words of one sentence: whitespace tokens, not counting tokens without a letter or digit (an emoji, a dash). */
export function wordsOf(sentence: string): string[] {
  return sentence.split(WHITESPACE).filter((w) => LETTER_OR_DIGIT.test(w));
}

export interface SentenceStats {
  sentenceCount: number;
  /** Words in all sentences. */
  wordCount: number;
  /** wordCount / sentenceCount; 0 when there is no sentence. */
  avgWordsPerSentence: number;
}

export function sentenceStats(text: string): SentenceStats {
  const sentences = segmentSentences(text);
  const wordCount = sentences.reduce((sum, s) => sum + wordsOf(s).length, 0);
  return { sentenceCount: sentences.length, wordCount, avgWordsPerSentence: sentences.length === 0 ? 0 : wordCount / sentences.length };
}

/**
 * §10.5: sentence_count and avg_words_per_sentence within the band of
 * StableStyleParams.msg_length_pref, bounds inclusive. The average is compared
 * as `words ≥ lo·sentences` / `words ≤ hi·sentences`, so 14.0 is exactly 14.
 * An unknown msg_length_pref fails closed.
 */
export function sentenceGate(text: string, msgLengthPref: string): GateVerdict {
  const stats = sentenceStats(text);
  const avg = Math.round(stats.avgWordsPerSentence * 100) / 100;
  const measured = { sentence_count: stats.sentenceCount, word_count: stats.wordCount, avg_words_per_sentence: avg, msg_length_pref: msgLengthPref };
  const band = Object.hasOwn(GATES.sentenceBand, msgLengthPref) ? GATES.sentenceBand[msgLengthPref] : undefined;
  if (band === undefined) return { gate: 'sentence_band', pass: false, detail: `unknown msg_length_pref '${msgLengthPref}'`, measured };
  const [minCount, maxCount] = band.sentences;
  const [minAvg, maxAvg] = band.avgWords;
  const { sentenceCount: n, wordCount: words } = stats;
  const countOk = n >= minCount && n <= maxCount;
  // With no sentence the average is 0 (and the count is out of every band anyway).
  const avgOk = n === 0 ? (minAvg === null || minAvg <= 0) && (maxAvg === null || maxAvg >= 0) : (minAvg === null || words >= minAvg * n) && (maxAvg === null || words <= maxAvg * n);
  const problems: string[] = [];
  if (!countOk) problems.push(`sentence_count ${n} not in [${minCount},${maxCount}]`);
  if (!avgOk) problems.push(`avg_words_per_sentence ${avg} not in [${minAvg ?? '-'},${maxAvg ?? '-'}]`);
  return {
    gate: 'sentence_band',
    pass: countOk && avgOk,
    detail: problems.length === 0 ? `${n} sentences, avg ${avg} words (${msgLengthPref})` : `${problems.join('; ')} (${msgLengthPref})`,
    measured,
  };
}
