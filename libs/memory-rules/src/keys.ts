import { MEMORY_KEYS, type EmotionPattern, type EventDomain, type FactField, type PreferenceCategory } from './config.js';

const FACTS: ReadonlySet<string> = new Set(MEMORY_KEYS.factFields);
const CATEGORIES: ReadonlySet<string> = new Set(MEMORY_KEYS.preferenceCategories);
const DOMAINS: ReadonlySet<string> = new Set(MEMORY_KEYS.eventDomains);
const PATTERNS: ReadonlySet<string> = new Set(MEMORY_KEYS.emotionPatterns);

const WHITESPACE_RUN = /\p{White_Space}+/gu;
// Letters, numbers and combining marks of every script stay (no romanization);
// punctuation goes, and so do symbols and emoji, which are not words.
const NOT_SLUG_CHAR = /[^\p{L}\p{N}\p{M}_]/gu;
const UNDERSCORE_RUN = /_{2,}/g;
const EDGE_UNDERSCORES = /^_+|_+$/g;

/**
 * §12.3.1 slug rules: NFKC, trim, spaces to underscores, punctuation removed
 * (underscores kept), non-Latin kept, at most 48 characters. Lowercased too, so
 * "Sushi" and "sushi" are one key. Truncation keeps the first 48 code points, so
 * a Hangul syllable or an astral character is never split. "" when nothing is left.
 */
export function slugify(text: string): string {
  const slug = text
    .normalize('NFKC')
    .trim()
    .toLowerCase()
    .replace(WHITESPACE_RUN, '_')
    .replace(NOT_SLUG_CHAR, '')
    .replace(UNDERSCORE_RUN, '_')
    .replace(EDGE_UNDERSCORES, '');
  return Array.from(slug).slice(0, MEMORY_KEYS.slugMaxChars).join('').replace(EDGE_UNDERSCORES, '');
}

/** §12.3.1 A. */
export function factKey(field: FactField): string {
  return `fact:${field}`;
}

/** §12.3.1 B: null when the item has no slug. */
export function preferenceKey(category: PreferenceCategory, item: string): string | null {
  const slug = slugify(item);
  return slug ? `pref:${category}:${slug}` : null;
}

/**
 * §12.3.1 C: bucketed by the UTC month of `at` — the day the user stated it
 * happened when they stated one (`new Date(occurred.on)`, UTC midnight), else
 * the turn's time. Null when the event has no slug.
 */
export function eventKey(domain: EventDomain, at: Date, what: string): string | null {
  const slug = slugify(what);
  if (!slug) return null;
  const month = `${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
  return `event:${domain}:${month}:${slug}`;
}

/** §12.3.1 D. */
export function emotionKey(pattern: EmotionPattern): string {
  return `emotion:${pattern}`;
}

export type ParsedKey =
  | { type: 'FACT'; field: FactField }
  | { type: 'PREFERENCE'; category: PreferenceCategory; item: string }
  | { type: 'RELATIONSHIP_EVENT'; domain: EventDomain; month: string; slug: string }
  | { type: 'EMOTIONAL_PATTERN'; pattern: EmotionPattern };

const MONTH = /^\d{4}_(0[1-9]|1[0-2])$/;

/** Reads a key back; null when it is not exactly one of the four formats (§12.3.1). */
export function parseKey(key: string): ParsedKey | null {
  const parts = key.split(':');
  switch (parts[0]) {
    case 'fact':
      return parts.length === 2 && FACTS.has(parts[1]!) ? { type: 'FACT', field: parts[1] as FactField } : null;
    case 'pref':
      return parts.length === 3 && CATEGORIES.has(parts[1]!) && isSlug(parts[2]!)
        ? { type: 'PREFERENCE', category: parts[1] as PreferenceCategory, item: parts[2]! }
        : null;
    case 'event':
      return parts.length === 4 && DOMAINS.has(parts[1]!) && MONTH.test(parts[2]!) && isSlug(parts[3]!)
        ? { type: 'RELATIONSHIP_EVENT', domain: parts[1] as EventDomain, month: parts[2]!, slug: parts[3]! }
        : null;
    case 'emotion':
      return parts.length === 2 && PATTERNS.has(parts[1]!) ? { type: 'EMOTIONAL_PATTERN', pattern: parts[1] as EmotionPattern } : null;
    default:
      return null;
  }
}

function isSlug(s: string): boolean {
  return s !== '' && slugify(s) === s;
}

/** A value as stored: NFKC, whitespace collapsed, trimmed, lowercased. */
export function canonicalText(value: string): string {
  return value.normalize('NFKC').replace(WHITESPACE_RUN, ' ').trim().toLowerCase();
}

/** §12.3.2: a PREFERENCE value is `like|<value>` or `dislike|<value>`. */
export function preferenceValue(stance: 'like' | 'dislike', item: string): string {
  return `${stance}|${canonicalText(item)}`;
}

/** The stance of a PREFERENCE value, or null when it is not one. */
export function stanceOf(value: string): 'like' | 'dislike' | null {
  if (value.startsWith('like|')) return 'like';
  if (value.startsWith('dislike|')) return 'dislike';
  return null;
}
