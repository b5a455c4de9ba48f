import { normalizeUserText } from '@hearth/text';
import { INTERNET_SHORTHAND, INTERNET_SHORTHAND_LOWERCASE_ONLY, KOREAN_JAMO_SHORTHAND, SLANG } from './lists.js';
import { containsExact, findTerms } from './match.js';
import type { GateVerdict } from './verdict.js';

/** StableStyleParams.lexicon_bias (turn-pipeline §2.4), from cleanest to loosest. */
export const LEXICON_LEVELS = ['clean', 'slang', 'internet_shorthand'] as const;
export type LexiconLevel = (typeof LEXICON_LEVELS)[number];

export interface LexiconReading {
  /** The loosest level the text uses. */
  level: LexiconLevel;
  slang: string[];
  shorthand: string[];
}

// `norm_no_punct` without its ASCII lowercasing: for shorthand that must be written in lowercase to count.
function casedNoPunct(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201B\u02BC]/g, "'")
    .replace(/(?!')\p{P}/gu, ' ')
    .replace(/\p{White_Space}+/gu, ' ')
    .trim();
}

/** The slang and internet shorthand in a reply, and the level they put it at. */
export function lexiconLevel(text: string): LexiconReading {
  const { normNoPunct } = normalizeUserText(text);
  const slang = findTerms(normNoPunct, SLANG);
  const shorthand = [
    ...findTerms(normNoPunct, INTERNET_SHORTHAND),
    ...containsExact(casedNoPunct(text), INTERNET_SHORTHAND_LOWERCASE_ONLY),
    // NFKC turns compatibility jamo (ㅋ U+314B) into conjoining jamo (U+110F): compare both sides folded.
    ...KOREAN_JAMO_SHORTHAND.filter((j) => normNoPunct.includes(j.normalize('NFKC'))),
  ];
  const level: LexiconLevel = shorthand.length > 0 ? 'internet_shorthand' : slang.length > 0 ? 'slang' : 'clean';
  return { level, slang, shorthand };
}

/**
 * §10 "lexicon level within band": clean allows neither slang nor shorthand,
 * slang allows slang, internet_shorthand allows both. An unknown lexicon_bias fails closed.
 */
export function lexiconGate(text: string, lexiconBias: string): GateVerdict {
  const reading = lexiconLevel(text);
  const measured = { level: reading.level, lexicon_bias: lexiconBias, slang: reading.slang.join(','), shorthand: reading.shorthand.join(',') };
  const allowed = LEXICON_LEVELS.indexOf(lexiconBias as LexiconLevel);
  if (allowed < 0) return { gate: 'lexicon', pass: false, detail: `unknown lexicon_bias '${lexiconBias}'`, measured };
  const pass = LEXICON_LEVELS.indexOf(reading.level) <= allowed;
  const found = allowed === 0 ? [...reading.slang, ...reading.shorthand] : reading.shorthand;
  return {
    gate: 'lexicon',
    pass,
    detail: pass ? `level ${reading.level} within ${lexiconBias}` : `level ${reading.level} above ${lexiconBias} (${found.join(', ')})`,
    measured,
  };
}
