// The eval's own reading of "shares content" and "contains the answer": content
// words after lowercasing, stop-word removal and Porter stemming. Kept apart
// from the memory service's code on purpose, so the eval does not grade the
// retrieval with the retrieval's own tokenizer.
import { stemmer } from 'stemmer';

/**
 * Function words and chat filler that say nothing about what a message is about.
 * Data, not rules: widen it here when a report shows a word matching everything.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against ago all also am an and any are aren as at be because been before being below between both but by
  can could couldn did didn do does doesn doing don down during each else even ever every few for from further get gets getting got gonna
  had hadn has hasn have haven having he her here hers herself him himself his how i if in into is isn it its itself just
  let like ll lot lots me more most much must my myself no nor not now of off oh ok okay on once one only or other our ours ourselves out over own
  pretty quite re really remember s same shall she should shouldn so some such t than that the their theirs them themselves then there these they
  thing things this those through to too totally u under until up us ve very was wasn way we well were weren what when where which while who whom
  why will with won would wouldn ya yeah yes yet you your yours yourself yourselves
  actually always anyway awesome cool definitely great hey hi know lol maybe oh sure thanks thank think wow`
    .split(/\s+/)
    .filter((w) => w !== ''),
);

const WORD = /[\p{L}\p{N}]+/gu;
const DIGITS = /^\p{N}+$/u;

/** The content stems of a text: words lowercased, stop words and one-letter words left out, stemmed. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.toLowerCase().matchAll(WORD)) {
    const w = m[0];
    if (STOP_WORDS.has(w) || (w.length < 2 && !DIGITS.test(w))) continue;
    out.add(DIGITS.test(w) ? w : stemmer(w));
  }
  return out;
}

/** At least one content stem in common. */
export function sharesContent(a: string, b: string): boolean {
  const sa = contentStems(a);
  for (const s of contentStems(b)) if (sa.has(s)) return true;
  return false;
}

/** Share of an answer's content stems that appear in the reply at which the answer counts as present. */
export const ANSWER_PRESENT_SHARE = 0.5;

/**
 * Whether a reply contains a gold answer: at least half of the answer's content
 * stems appear in it. `undefined` when the answer has no content word ("Yes").
 */
export function answerPresent(answer: string, reply: string): boolean | undefined {
  const want = contentStems(answer);
  if (want.size === 0) return undefined;
  const have = contentStems(reply);
  let found = 0;
  for (const s of want) if (have.has(s)) found++;
  return found / want.size >= ANSWER_PRESENT_SHARE;
}
