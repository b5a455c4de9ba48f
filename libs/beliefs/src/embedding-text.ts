import { EMBEDDING_STOP_PHRASES, EMBEDDING_STOPWORDS, EMBEDDING_SYNONYMS, PLURAL_QUANTIFIERS } from './lexicon.js';
import { expandContractions, removePhrases, words } from './text.js';

// Counting words go too ("have two cat" ≈ "have cat"); "no" stays, it negates.
const STOP = new Set([...EMBEDDING_STOPWORDS, ...PLURAL_QUANTIFIERS.filter((q) => !q.includes(' ') && q !== 'no')]);

/**
 * What the belief is about, for the embedder: no holder, copula, articles,
 * hedges, intensifiers or counting words, love/enjoy folded into like, plurals singular
 * ("i am really a patient person" → "patient", "i have cats" → "have cat").
 * The local hashing embedder only sees shared words, so the shorter and more
 * contentful this text, the closer near-paraphrases land (§4.9, §4.10). "my",
 * "me" and negations stay: they are part of what is believed.
 */
export function embeddingTextOf(canonicalText: string): string {
  const ws = removePhrases(words(expandContractions(canonicalText)), EMBEDDING_STOP_PHRASES)
    .filter((w) => !STOP.has(w))
    .map((w) => EMBEDDING_SYNONYMS[w] ?? singular(w));
  return ws.length > 0 ? ws.join(' ') : words(canonicalText.toLowerCase()).join(' ');
}

function singular(w: string): string {
  if (w.length <= 3 || /(ss|us|is|ous)$/.test(w)) return w;
  if (w.endsWith('ies') && w.length > 4) return `${w.slice(0, -3)}y`;
  return w.endsWith('s') ? w.slice(0, -1) : w;
}
