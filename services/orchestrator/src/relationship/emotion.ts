import { containsAny, containsPhrase } from '@hearth/text';
import { INTENSIFIERS, MODERATE_NEGATIVE, MODERATE_POSITIVE, NEGATORS, STRONG_NEGATIVE, STRONG_POSITIVE } from './lexicon.js';

/** The emotion analysis of one user message (turn-pipeline §7.1 step 4, §11.2; proto `EmotionReading`). */
export interface EmotionReading {
  /** −1 (most negative) .. 1 (most positive); 0 when no emotion term counts. */
  valence: number;
  /** 0 .. 1: the strongest counted term's magnitude (in v0.1 always `abs(valence)`). */
  intensity: number;
  /**
   * `strong_negative` / `strong_positive` when a strong term counts, `negative` /
   * `positive` when any term of that sign counts, then `emotion:<term>` for each
   * counted term, in lexicon order.
   */
  tags: string[];
}

export type EmotionTag = 'strong_negative' | 'strong_positive' | 'negative' | 'positive';

interface TermClass {
  readonly terms: readonly string[];
  readonly sign: 1 | -1;
  readonly strong: boolean;
}

const CLASSES: readonly TermClass[] = [
  { terms: STRONG_NEGATIVE, sign: -1, strong: true },
  { terms: MODERATE_NEGATIVE, sign: -1, strong: false },
  { terms: STRONG_POSITIVE, sign: 1, strong: true },
  { terms: MODERATE_POSITIVE, sign: 1, strong: false },
];

/*
 * The arithmetic, in integer tenths so that 0.4 + 0.2 is exactly 0.6:
 *
 *   base       = 8 for a strong term, 4 for a moderate one
 *   k          = intensifiers standing directly before the term, counted up to 2
 *                ("really really sad": k = 2; "so so so sad": k = 2)
 *   magnitude  = min(10, base + k)          strong 0.8..1.0, moderate 0.4..0.6
 *   negation   = a negator directly before the term or its intensifier run:
 *                - a negated POSITIVE term flips to negative at half its base,
 *                  intensifiers ignored: "not happy" −0.2, "not thrilled" −0.4,
 *                  and it never counts as strong;
 *                - a negated NEGATIVE term is cancelled (counts 0, no tag):
 *                  "not sad" is not happiness.
 *   valence    = the counted term of largest magnitude, with its sign; on a tie
 *                between signs the negative one wins (a disclosure of distress
 *                is the one not to miss). Terms do not add up.
 *   intensity  = that largest magnitude.
 *
 * Hence: any counted strong term gives |valence| ≥ 0.8 and its strong tag; moderate
 * terms alone give |valence| ≤ 0.5, and exactly 0.6 with two intensifiers, the
 * §11.2 disclosure line. Each distinct term counts once, however often it occurs;
 * it is negated when any occurrence is (phrase matching sees no positions), and its
 * k is the longest intensifier run found before any occurrence.
 */
const TENTHS = 10;
const BASE = { strong: 8, moderate: 4 } as const;
const MAX_INTENSIFIERS = 2;

/**
 * Deterministic EN/KO lexicon analyzer over `normNoPunct` (whole-word / phrase
 * matching, as §5.1). No I/O, no model: the same text always reads the same.
 */
export function analyzeEmotion(normNoPunct: string): EmotionReading {
  let best = 0; // signed tenths
  const polarity = { strong_negative: false, strong_positive: false, negative: false, positive: false };
  const words: string[] = [];

  for (const cls of CLASSES) {
    for (const term of containsAny(normNoPunct, cls.terms)) {
      let tenths: number;
      let strong = cls.strong;
      if (isNegated(normNoPunct, term)) {
        if (cls.sign < 0) continue;
        tenths = -(cls.strong ? BASE.strong : BASE.moderate) / 2;
        strong = false;
      } else {
        const base = cls.strong ? BASE.strong : BASE.moderate;
        tenths = cls.sign * Math.min(TENTHS, base + intensifierRun(normNoPunct, term));
      }
      if (tenths < 0) polarity.negative = true;
      else polarity.positive = true;
      if (strong) polarity[tenths < 0 ? 'strong_negative' : 'strong_positive'] = true;
      words.push(`emotion:${term}`);
      if (Math.abs(tenths) > Math.abs(best) || (Math.abs(tenths) === Math.abs(best) && tenths < best)) best = tenths;
    }
  }

  const tags: string[] = (['strong_negative', 'strong_positive', 'negative', 'positive'] as const).filter((tag) => polarity[tag]);
  return { valence: best / TENTHS, intensity: Math.abs(best) / TENTHS, tags: [...tags, ...words] };
}

/** The longest run (up to 2) of intensifiers directly before `phrase`. */
function intensifierRun(text: string, phrase: string): number {
  let run = 0;
  let current = phrase;
  while (run < MAX_INTENSIFIERS) {
    const longer = INTENSIFIERS.map((word) => `${word} ${current}`).find((candidate) => containsPhrase(text, candidate));
    if (longer === undefined) break;
    current = longer;
    run += 1;
  }
  return run;
}

/** True when a negator stands directly before `term` or before an intensifier run in front of it. */
function isNegated(text: string, term: string): boolean {
  const fronts = [term];
  let layer = [term];
  for (let depth = 0; depth < MAX_INTENSIFIERS && layer.length > 0; depth++) {
    layer = layer.flatMap((front) => INTENSIFIERS.map((word) => `${word} ${front}`)).filter((candidate) => containsPhrase(text, candidate));
    fronts.push(...layer);
  }
  return fronts.some((front) => NEGATORS.some((negator) => containsPhrase(text, `${negator} ${front}`)));
}
