import { HEURISTIC_TRIGGERS, normalizeUserText, tokenize } from '@hearth/text';
import {
  INTENSIFIERS,
  MODERATE_NEGATIVE,
  MODERATE_POSITIVE,
  NEGATORS,
  NOT_PAST_REFERENCE,
  PAST_REFERENCE,
  PREFERENCE_TRIGGERS,
  STRONG_NEGATIVE,
  STRONG_POSITIVE,
} from './lexicon.js';

const EMOTION_TERMS = [...STRONG_NEGATIVE, ...MODERATE_NEGATIVE, ...STRONG_POSITIVE, ...MODERATE_POSITIVE];
const TRIGGER_VARIANTS = PREFERENCE_TRIGGERS.flatMap((t) => t.variants);
const ALL = [...EMOTION_TERMS, ...INTENSIFIERS, ...NEGATORS, ...TRIGGER_VARIANTS, ...PAST_REFERENCE, ...NOT_PAST_REFERENCE];
const ONE_HANGUL_SYLLABLE = /^[\uAC00-\uD7A3]$/;

describe('the relationship lexicon', () => {
  it('given every entry, then it is already in normNoPunct form', () => {
    expect(ALL.filter((entry) => normalizeUserText(entry).normNoPunct !== entry)).toEqual([]);
  });

  it('given the emotion terms, then none appears twice or in two classes', () => {
    expect(EMOTION_TERMS.filter((t, i) => EMOTION_TERMS.indexOf(t) !== i)).toEqual([]);
  });

  it('given the emotion terms and triggers, then none ends on a lone Hangul syllable (it would miss the usual verb endings)', () => {
    const lastTokens = [...EMOTION_TERMS, ...TRIGGER_VARIANTS].map((t) => tokenize(t).at(-1) ?? '');

    expect(lastTokens.filter((t) => ONE_HANGUL_SYLLABLE.test(t))).toEqual([]);
  });

  it('given the §5 preference triggers, then each is a preference trigger here too', () => {
    expect(HEURISTIC_TRIGGERS.preference.filter((t) => !TRIGGER_VARIANTS.includes(t))).toEqual([]);
  });
});
