import { stemmer } from 'stemmer';
import { embeddingText } from './describe.js';
import { parseKey } from '@hearth/memory-rules';
import { STOP_WORDS } from './relevance-stopwords.js';

/**
 * How much a memory is about a message (issue 15, within §13's retrieval):
 * the terms both share, weighted by how rare each is among the user's
 * memories, and the fusion of rankings into one. Pure: no index, no clock.
 */

const STOP: ReadonlySet<string> = new Set(STOP_WORDS);
const STOP_STEMS: ReadonlySet<string> = new Set(STOP_WORDS.map((w) => stemmer(w)));
const APOSTROPHES = /['’‘`]/g;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const HANGUL = /\p{Script=Hangul}/u;
const LATIN_LETTER = /^[a-z]$/;

/**
 * A word's index terms: an English word's Porter stem; a Hangul word's
 * syllable pairs, since its particles are glued on ("고양이를" shares 고양, 양이
 * with "고양이") and no stemmer here reads them.
 */
function termsOfWord(word: string): string[] {
  if (HANGUL.test(word)) {
    const chars = Array.from(word);
    if (chars.length <= 2) return [word];
    const pairs: string[] = [];
    for (let i = 0; i + 2 <= chars.length; i++) pairs.push(chars[i]! + chars[i + 1]!);
    return pairs;
  }
  const stem = stemmer(word);
  return STOP_STEMS.has(stem) ? [] : [stem];
}

/**
 * The distinct content terms of a text, in order of first appearance:
 * lowercased, apostrophes dropped ("don't" is "dont"), split at anything that
 * is not a letter or digit, stop words out (as words and as stems), stemmed.
 */
export function terms(text: string): string[] {
  const out = new Set<string>();
  for (const word of text.normalize('NFKC').toLowerCase().replace(APOSTROPHES, '').split(NOT_WORD)) {
    if (word === '' || STOP.has(word) || LATIN_LETTER.test(word)) continue;
    for (const t of termsOfWord(word)) out.add(t);
  }
  return [...out];
}

/**
 * The text a memory is searched by: what it is embedded from (its key read as
 * words, then its value) and the slug words of its key, which an event or a
 * preference may word differently from its value.
 */
export function memoryText(key: string, value: string): string {
  const k = parseKey(key);
  const slug = k?.type === 'PREFERENCE' ? k.item : k?.type === 'RELATIONSHIP_EVENT' ? k.slug : '';
  return `${embeddingText(key, value)} ${slug.replace(/_/g, ' ')}`.trim();
}

/** The memories a query's terms are weighed against: how many, and how many hold a term. */
export interface TermStats {
  documentCount: number;
  documentFrequency(term: string): number;
}

/**
 * A term's rarity among the user's memories, BM25's idf (always > 0): a term
 * no memory holds weighs the most, one every memory holds the least.
 */
export function idf(documentFrequency: number, documentCount: number): number {
  return Math.log(1 + (documentCount - documentFrequency + 0.5) / (documentFrequency + 0.5));
}

/**
 * Relevance of a memory to a query, in [0, 1]: the rarity of the terms they
 * share over the smaller of the two's total rarity, so a short memory wholly
 * named by a long message, or a short message wholly about a long memory, is 1.
 * 0 unless they share at least one content term (stop words never count).
 */
export function relevance(queryTerms: readonly string[], memoryTerms: readonly string[], stats: TermStats): number {
  const weight = (t: string) => idf(stats.documentFrequency(t), stats.documentCount);
  const memory = new Set(memoryTerms);
  let shared = 0;
  let query = 0;
  for (const t of new Set(queryTerms)) {
    const w = weight(t);
    query += w;
    if (memory.has(t)) shared += w;
  }
  if (shared === 0) return 0;
  let own = 0;
  for (const t of memory) own += weight(t);
  return Math.min(1, shared / Math.min(query, own));
}

/**
 * Relevance with a vector similarity besides (real embeddings only): the higher
 * of the two, the cosine clamped to [0, 1].
 */
export function withCosine(lexical: number, cosine: number | undefined): number {
  return cosine === undefined ? lexical : Math.max(lexical, Math.min(1, Math.max(0, cosine)));
}

/**
 * Reciprocal-rank fusion: each ranking (ids, best first) gives its i-th id
 * 1 / (k + i), i from 1; an id's fused score is the sum over the rankings.
 */
export function fuseRankings(rankings: readonly (readonly string[])[], k: number): Map<string, number> {
  const fused = new Map<string, number>();
  for (const ranking of rankings) {
    ranking.forEach((id, i) => fused.set(id, (fused.get(id) ?? 0) + 1 / (k + i + 1)));
  }
  return fused;
}

/** A memory being ranked: its score, and what breaks a tie. */
export interface Ranked {
  memoryId: string;
  score: number;
  /** Epoch milliseconds of its last confirmation. */
  lastConfirmedAt: number;
  confidence: number;
}

// Scores computed the same way from the same counts can still differ in the last bits.
const SAME_SCORE = 1e-9;

/**
 * Best first: the higher score; on a tie the more recently confirmed, then the
 * more confident, then the smaller id (so one state always answers alike).
 */
export function byRank(a: Ranked, b: Ranked): number {
  if (Math.abs(a.score - b.score) > SAME_SCORE * Math.max(1, Math.abs(a.score), Math.abs(b.score))) return b.score - a.score;
  if (a.lastConfirmedAt !== b.lastConfirmedAt) return b.lastConfirmedAt - a.lastConfirmedAt;
  if (a.confidence !== b.confidence) return b.confidence - a.confidence;
  return a.memoryId < b.memoryId ? -1 : a.memoryId > b.memoryId ? 1 : 0;
}
