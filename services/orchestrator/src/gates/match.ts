import { containsAny, normalizeUserText, tokenize } from '@hearth/text';
import type { TermList } from './lists.js';

// Emoji, symbols (~ ♥) and quote marks glued to a word are not part of it.
const TOKEN_EDGES = /^[\p{S}\p{Extended_Pictographic}\uFE0E\uFE0F\u20E3']+|[\p{S}\p{Extended_Pictographic}\uFE0E\uFE0F\u20E3']+$/gu;
// Sentence delimiters and the punctuation that ends a clause inside one.
const CLAUSE_END = /[.!?…。．！？｡,;:，、；：—–\n]+/u;

function coreTokens(normNoPunct: string): string[] {
  return tokenize(normNoPunct)
    .map((t) => t.replace(TOKEN_EDGES, ''))
    .filter((t) => t.length > 0);
}

function phraseTokens(phrase: string): string[] {
  return tokenize(normalizeUserText(phrase).normNoPunct);
}

function occursAt(words: readonly string[], phrase: readonly string[], start: number): boolean {
  return phrase.every((p, k) => words[start + k] === p);
}

/** The entries of `exact` whose words occur, consecutively and whole, in `normNoPunct`. */
export function containsExact(normNoPunct: string, exact: readonly string[]): string[] {
  const words = coreTokens(normNoPunct);
  return exact.filter((entry) => {
    const phrase = phraseTokens(entry);
    if (phrase.length === 0) return false;
    for (let i = 0; i + phrase.length <= words.length; i++) if (occursAt(words, phrase, i)) return true;
    return false;
  });
}

/** The entries of a list found in `normNoPunct`: `phrases` by `containsAny`, `exact` by whole words. */
export function findTerms(normNoPunct: string, list: TermList): string[] {
  return [...containsAny(normNoPunct, list.phrases), ...containsExact(normNoPunct, list.exact ?? [])];
}

/** The phrases that end a clause of the raw `text` (a clause ends at a sentence delimiter, a comma, a colon, a dash or a newline). */
export function endingClause(text: string, phrases: readonly string[]): string[] {
  const clauses = text.split(CLAUSE_END).map((c) => coreTokens(normalizeUserText(c).normNoPunct));
  return phrases.filter((entry) => {
    const phrase = phraseTokens(entry);
    if (phrase.length === 0) return false;
    return clauses.some((words) => words.length >= phrase.length && occursAt(words, phrase, words.length - phrase.length));
  });
}
