import { AUXILIARIES, COORDINATORS, NON_VERBS, POSSESSIVES, SUBJECT_PRONOUNS } from './lexicon.js';
import type { ClaimCandidate } from './types.js';

interface Token {
  /** Lowercased, without edge punctuation. */
  word: string;
  start: number;
  end: number;
}

const ABBREVIATIONS = new Set(['mr', 'mrs', 'ms', 'dr', 'st', 'vs', 'etc', 'e.g', 'i.e', 'jr', 'sr', 'prof']);
const COORD = new Set(COORDINATORS);
const SUBJECTS = new Set(SUBJECT_PRONOUNS);
const POSS = new Set(POSSESSIVES);
const AUX = new Set(AUXILIARIES);
const NOT_VERB = new Set(NON_VERBS);
/** "i'm", "they're", "she's": a subject glued to its verb. */
const SUBJECT_WITH_VERB = /^(i|you|he|she|we|they|it|there|that|nobody|everyone)'(m|re|ve|ll|d|s)$/;

/**
 * §4.2: split on . ! ? and ;, then on a coordinating word when the words after it
 * form an independent clause (a subject and a verb). Subordinating words
 * (because, since, when, if, that, …) never split, so a dependent clause stays
 * with its claim. Each candidate keeps its span in the original text.
 */
export function segment(text: string): ClaimCandidate[] {
  return sentences(text).flatMap((s) => splitClauses(text, s));
}

function sentences(text: string): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c !== '.' && c !== '!' && c !== '?' && c !== ';') continue;
    if (c === '.' && isInnerDot(text, i)) continue;
    let end = i + 1;
    while (end < text.length && /[.!?;]/.test(text[end]!)) end++;
    out.push({ start, end });
    start = end;
    i = end - 1;
  }
  if (start < text.length) out.push({ start, end: text.length });
  return out;
}

/** A decimal point ("3.5") or an abbreviation's dot ("Dr.") does not end a sentence. */
function isInnerDot(text: string, i: number): boolean {
  if (/\d/.test(text[i - 1] ?? '') && /\d/.test(text[i + 1] ?? '')) return true;
  const before = /([\p{L}.]+)$/u.exec(text.slice(Math.max(0, i - 6), i))?.[1]?.toLowerCase() ?? '';
  return ABBREVIATIONS.has(before);
}

function tokens(text: string, from: number, to: number): Token[] {
  const out: Token[] = [];
  const re = /\S+/g;
  const slice = text.slice(from, to);
  for (let m = re.exec(slice); m; m = re.exec(slice)) {
    const word = m[0].replace(/[\u2018\u2019]/g, "'").toLowerCase().replace(/^[^\p{L}\p{N}']+|[^\p{L}\p{N}']+$/gu, '');
    out.push({ word, start: from + m.index, end: from + m.index + m[0].length });
  }
  return out;
}

function splitClauses(text: string, s: { start: number; end: number }): ClaimCandidate[] {
  const toks = tokens(text, s.start, s.end);
  const cuts: { at: number; resume: number }[] = [];
  let clauseStart = 0;
  for (let i = 1; i < toks.length; i++) {
    if (!COORD.has(toks[i]!.word) || i - clauseStart < 2) continue;
    if (!startsIndependentClause(toks.slice(i + 1).map((t) => t.word))) continue;
    cuts.push({ at: toks[i]!.start, resume: toks[i + 1]!.start });
    clauseStart = i + 1;
  }
  const pieces: { start: number; end: number }[] = [];
  let from = s.start;
  for (const cut of cuts) {
    pieces.push({ start: from, end: cut.at });
    from = cut.resume;
  }
  pieces.push({ start: from, end: s.end });
  return pieces.map((p) => trimmed(text, p)).filter((c): c is ClaimCandidate => c !== null);
}

/** A subject (pronoun, or possessive + noun) followed by a verb-like word. */
export function startsIndependentClause(ws: readonly string[]): boolean {
  const [w0 = '', w1 = '', w2 = '', w3 = ''] = ws;
  if (SUBJECT_WITH_VERB.test(w0)) return true;
  if (SUBJECTS.has(w0)) return w1 !== '' && !NOT_VERB.has(w1) && !COORD.has(w1);
  if (w0 === 'no' && w1 === 'one') return isVerbLike(w2);
  if (POSS.has(w0) && w1 !== '') return isVerbLike(w2) || (w2 !== '' && !NOT_VERB.has(w2) && isVerbLike(w3));
  return false;
}

function isVerbLike(w: string): boolean {
  if (w === '') return false;
  if (AUX.has(w) || /n't$/.test(w)) return true;
  return /(s|ed)$/.test(w) && !/(ss|ous|is|us)$/.test(w) && !NOT_VERB.has(w);
}

/** The piece without surrounding spaces, commas and dashes; null when empty. */
function trimmed(text: string, p: { start: number; end: number }): ClaimCandidate | null {
  let { start, end } = p;
  while (start < end && /[\s,—–-]/.test(text[start]!)) start++;
  while (end > start && /[\s,—–-]/.test(text[end - 1]!)) end--;
  if (!/[\p{L}\p{N}]/u.test(text.slice(start, end))) return null;
  return { text: text.slice(start, end), span: { start, end } };
}
