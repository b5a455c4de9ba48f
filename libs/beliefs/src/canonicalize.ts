import { createHash } from 'node:crypto';
import { expandContractions } from './text.js';

export interface Canonical {
  canonicalText: string;
  /** SHA256(canonical_text)[:32], hex. */
  canonicalHash: string;
}

const TRAILING_PUNCTUATION = /[\s.,!?;:…"'\u201c\u201d)\]]+$/u;

/**
 * §4.5, in the spec's order: lowercase, expand contractions, strip trailing
 * punctuation, collapse whitespace, trim, NFC. Nothing else: quantifiers and
 * adverbs are the atomizer's business (it writes the affirmative form), so an
 * LLM atom and a rules atom of the same words hash the same.
 */
export function canonicalize(text: string): Canonical {
  const canonicalText = expandContractions(text).replace(TRAILING_PUNCTUATION, '').replace(/\s+/g, ' ').trim().normalize('NFC');
  return { canonicalText, canonicalHash: hashOf(canonicalText) };
}

/** SHA256 hex of a canonical text, first 32 characters (§3.1). */
export function hashOf(canonicalText: string): string {
  return createHash('sha256').update(canonicalText, 'utf8').digest('hex').slice(0, 32);
}
