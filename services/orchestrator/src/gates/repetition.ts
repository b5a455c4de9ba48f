import { normalizeUserText, tokenize } from '@hearth/text';
import { GATES } from '../config.js';
import { stripLeadingEmoji } from './emoji.js';
import type { GateVerdict } from './verdict.js';

/**
 * `opener_norm` of turn-pipeline §10.2: the first 12 tokens of the message after
 * 1) stripping leading emojis (and the whitespace between them), 2) lowercasing
 * ASCII only, 3) collapsing whitespace, 4) removing punctuation except
 * apostrophes — steps 2–4 are `normalizeUserText(...).normNoPunct`. Tokens are
 * joined by single spaces; '' when nothing is left.
 */
export function openerNorm(text: string): string {
  return tokenize(normalizeUserText(stripLeadingEmoji(text)).normNoPunct)
    .slice(0, GATES.openerTokens)
    .join(' ');
}

/**
 * §10.2: the reply's opener must not equal the opener of any of the recent
 * assistant messages (`recentOpeners` are `openerNorm` values; the caller passes
 * at most the last 20). An empty opener never matches.
 */
export function openerGate(text: string, recentOpeners: readonly string[]): GateVerdict {
  const opener = openerNorm(text);
  const index = opener === '' ? -1 : recentOpeners.indexOf(opener);
  return {
    gate: 'repeated_opener',
    pass: index < 0,
    detail: index < 0 ? 'opener not among the recent openers' : `opener "${opener}" repeats recent message ${index}`,
    measured: { opener, match_index: index, compared: recentOpeners.length },
  };
}

/** §10.3 G(msg): the set of token 3-grams of a `norm_no_punct` text; empty below 3 tokens. */
export function trigrams(normNoPunct: string): Set<string> {
  const tokens = tokenize(normNoPunct);
  const n = GATES.jaccard.n;
  const grams = new Set<string>();
  for (let i = 0; i + n <= tokens.length; i++) grams.add(tokens.slice(i, i + n).join(' '));
  return grams;
}

/** |a ∩ b| and |a ∪ b|, kept as integers so the threshold is compared exactly. */
export interface JaccardRatio {
  inter: number;
  union: number;
}

export function jaccard(a: ReadonlySet<string>, b: ReadonlySet<string>): JaccardRatio {
  let inter = 0;
  for (const g of a) if (b.has(g)) inter += 1;
  return { inter, union: a.size + b.size - inter };
}

/** §10.3: repetitive at Jaccard ≥ 0.70, as 100·|∩| ≥ 70·|∪|; two empty sets (union 0) are never repetitive. */
export function isRepetitive(ratio: JaccardRatio): boolean {
  return ratio.union > 0 && 100 * ratio.inter >= GATES.jaccard.thresholdPercent * ratio.union;
}

/**
 * §10.3: the reply is repetitive when its 3-gram Jaccard similarity with ANY of
 * `recent` (assistant texts; the caller passes at most the last 20) reaches 0.70.
 * Reports the highest similarity and the index of that message (-1 if none).
 */
export function similarityGate(text: string, recent: readonly string[]): GateVerdict {
  const mine = trigrams(normalizeUserText(text).normNoPunct);
  let best: JaccardRatio = { inter: 0, union: 0 };
  let bestIndex = -1;
  recent.forEach((other, i) => {
    const ratio = jaccard(mine, trigrams(normalizeUserText(other).normNoPunct));
    // a/b > c/d ⇔ a·d > c·b for positive denominators.
    if (ratio.union > 0 && (bestIndex < 0 || ratio.inter * best.union > best.inter * ratio.union)) {
      best = ratio;
      bestIndex = i;
    }
  });
  const similarity = best.union === 0 ? 0 : Math.round((best.inter / best.union) * 10_000) / 10_000;
  // The most similar message is repetitive iff any is.
  const pass = !isRepetitive(best);
  return {
    gate: 'similarity',
    pass,
    detail: pass ? `max 3-gram Jaccard ${similarity} below 0.70` : `3-gram Jaccard ${similarity} with recent message ${bestIndex} is at or above 0.70`,
    measured: { max_similarity: similarity, max_inter: best.inter, max_union: best.union, max_index: bestIndex, compared: recent.length },
  };
}
