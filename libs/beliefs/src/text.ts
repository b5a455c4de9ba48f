import { BARE_CONTRACTIONS, CONTRACTIONS } from './lexicon.js';

const APOSTROPHES = /[\u2018\u2019\u02bc`]/g;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CONTRACTION_RES = CONTRACTIONS.map(([from, to]) => [new RegExp(from.startsWith("'") || from === "n't" ? `${escape(from)}\\b` : `\\b${escape(from)}\\b`, 'g'), to] as const);
const BARE = new RegExp(`\\b(${Object.keys(BARE_CONTRACTIONS).join('|')})\\b`, 'g');

/** Lowercase with contractions expanded (§4.5 steps 1–2): "I'm" → "i am", "dont" → "do not". */
export function expandContractions(text: string): string {
  let s = text.replace(APOSTROPHES, "'").toLowerCase();
  for (const [re, to] of CONTRACTION_RES) s = s.replace(re, to);
  return s.replace(BARE, (w) => BARE_CONTRACTIONS[w] ?? w);
}

/** The words of an already lowercased text (letters, digits, inner hyphens and apostrophes). */
export function words(text: string): string[] {
  return text.match(/[\p{L}\p{N}]+(?:['-][\p{L}\p{N}]+)*/gu) ?? [];
}

/** Where a phrase occurs as whole words, as word indexes into `ws`. */
export function phraseIndexes(ws: readonly string[], phrase: string): number[] {
  const p = phrase.split(' ');
  const out: number[] = [];
  for (let i = 0; i + p.length <= ws.length; i++) if (p.every((w, j) => ws[i + j] === w)) out.push(i);
  return out;
}

/** Whether `ws` starts with the phrase, as whole words. */
export function startsWithPhrase(ws: readonly string[], phrase: string): boolean {
  const p = phrase.split(' ');
  return p.length <= ws.length && p.every((w, j) => ws[j] === w);
}

/** The longest phrase of `phrases` that `ws` starts with, or undefined. */
export function longestPrefix(ws: readonly string[], phrases: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const p of phrases) if (startsWithPhrase(ws, p) && (best === undefined || p.split(' ').length > best.split(' ').length)) best = p;
  return best;
}

/** A text's words with every occurrence of the phrases removed (longest first). */
export function removePhrases(ws: readonly string[], phrases: readonly string[]): string[] {
  const sorted = [...phrases].sort((a, b) => b.split(' ').length - a.split(' ').length);
  const out: string[] = [];
  for (let i = 0; i < ws.length; ) {
    const hit = sorted.find((p) => startsWithPhrase(ws.slice(i), p));
    if (hit) i += hit.split(' ').length;
    else out.push(ws[i++]!);
  }
  return out;
}
