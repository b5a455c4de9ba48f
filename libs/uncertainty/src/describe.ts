import { parseKey, stanceOf } from '@hearth/memory-rules';
import { UNCERTAINTY_CONFIG } from './config.js';

/** The words a stored value is named by: a stance's item, underscores as spaces ("like|sushi" → "sushi", "new_york" → "new york"). */
export function itemWords(value: string): string {
  const v = value.includes('|') ? value.slice(value.indexOf('|') + 1) : value;
  return v.replace(/_/g, ' ').trim();
}

/** itemWords, cut to a length a question can quote. */
export function valueWords(value: string): string {
  const words = itemWords(value);
  return words.length > UNCERTAINTY_CONFIG.quoteMaxChars ? `${words.slice(0, UNCERTAINTY_CONFIG.quoteMaxChars - 1).trimEnd()}…` : words;
}

const FACT_PAST: Record<string, (v: string) => string> = {
  current_city: (v) => `you lived in ${title(v)}`,
  home_city: (v) => `you were from ${title(v)}`,
  home_country: (v) => `you were from ${title(v)}`,
  occupation: (v) => `you worked as ${article(v)}`,
  school: (v) => `you went to ${title(v)}`,
  major: (v) => `you studied ${v}`,
  timezone: (v) => `you were on ${v.toUpperCase()} time`,
  language_primary: (v) => `your main language was ${title(v)}`,
};

const FACT_PRESENT: Record<string, (v: string) => string> = {
  current_city: (v) => `you live in ${title(v)}`,
  home_city: (v) => `you're from ${title(v)}`,
  home_country: (v) => `you're from ${title(v)}`,
  occupation: (v) => `you work as ${article(v)}`,
  school: (v) => `you go to ${title(v)}`,
  major: (v) => `you study ${v}`,
  timezone: (v) => `you're on ${v.toUpperCase()} time`,
  language_primary: (v) => `your main language is ${title(v)}`,
};

function title(v: string): string {
  return v.replace(/\b\p{Ll}/gu, (c) => c.toUpperCase());
}

function article(v: string): string {
  return /^[aeiou]/i.test(v) ? `an ${v}` : `a ${v}`;
}

/**
 * What the friend held, as a clause after "I thought": "you loved sushi",
 * "you lived in Seoul". Other keys: "you said <value>".
 */
export function heldClause(key: string, value: string): string {
  const parsed = parseKey(key);
  const words = valueWords(value);
  if (parsed?.type === 'PREFERENCE') return stanceOf(value) === 'dislike' ? `you weren't into ${words}` : `you loved ${words}`;
  if (parsed?.type === 'FACT') return (FACT_PAST[parsed.field] ?? ((v: string) => `it was ${v}`))(words);
  return `you said ${words}`;
}

/** One side as the user said it, in the present: "you love sushi", "you live in Busan". */
export function sideClause(key: string, value: string): string {
  const parsed = parseKey(key);
  const words = valueWords(value);
  if (parsed?.type === 'PREFERENCE') return stanceOf(value) === 'dislike' ? `you're not into ${words}` : `you love ${words}`;
  if (parsed?.type === 'FACT') return (FACT_PRESENT[parsed.field] ?? ((v: string) => `it's ${v}`))(words);
  return `"${words}"`;
}

const FACT_CUES: Record<string, string[]> = {
  current_city: ['live', 'living', 'city', 'move', 'moved', 'moving', 'home', 'apartment', 'flat', 'neighborhood', 'neighbourhood', 'town', 'commute'],
  home_city: ['hometown', 'from', 'grew', 'family', 'home', 'visit'],
  home_country: ['country', 'from', 'hometown', 'family', 'home', 'visit'],
  occupation: ['work', 'job', 'office', 'boss', 'career', 'shift', 'coworker', 'colleague'],
  school: ['school', 'class', 'classes', 'university', 'college', 'campus', 'semester'],
  major: ['major', 'study', 'studying', 'degree', 'class', 'classes', 'course'],
  timezone: ['time', 'timezone', 'morning', 'night'],
  language_primary: ['language', 'speak', 'speaking'],
};

const CATEGORY_CUES: Record<string, string[]> = {
  food: ['food', 'eat', 'eating', 'ate', 'dinner', 'lunch', 'breakfast', 'restaurant', 'meal', 'cook', 'cooking', 'hungry', 'snack', 'order'],
  drink: ['drink', 'drinking', 'coffee', 'tea', 'bar', 'thirsty', 'cafe'],
  music: ['music', 'song', 'songs', 'listen', 'listening', 'band', 'concert', 'album', 'playlist'],
  movie_genre: ['movie', 'movies', 'film', 'films', 'watch', 'watching', 'cinema'],
  game: ['game', 'games', 'gaming', 'play', 'playing'],
  sport: ['sport', 'sports', 'team', 'match', 'gym', 'workout', 'play', 'playing'],
  hobby: ['hobby', 'hobbies', 'weekend', 'free'],
  study_style: ['study', 'studying', 'exam', 'exams', 'homework'],
};

/**
 * "Surfacing Strategy" 1: when to raise it — a description, and the words of a
 * conversation that matches (the item or value itself, and its category's words).
 */
export function surfaceContextOf(key: string, values: readonly string[]): { description: string; cues: string[] } {
  const parsed = parseKey(key);
  const own = values.flatMap((v) => valueWords(v).toLowerCase().split(/\s+/)).filter((w) => w.length >= 3);
  if (parsed?.type === 'PREFERENCE') {
    const item = valueWords(values[0] ?? '');
    return { description: `the user talks about ${item} or ${parsed.category.replace('_', ' ')}`, cues: unique([...own, ...(CATEGORY_CUES[parsed.category] ?? [])]) };
  }
  if (parsed?.type === 'FACT') {
    return { description: `the user talks about their ${parsed.field.replace('_', ' ')}`, cues: unique([...own, ...(FACT_CUES[parsed.field] ?? [])]) };
  }
  return { description: 'the user talks about this again', cues: unique(own) };
}

function unique(words: readonly string[]): string[] {
  return [...new Set(words)];
}

/** Whether a message's words meet an uncertainty's cues. */
export function contextMatches(text: string, cues: readonly string[]): boolean {
  const words = new Set(text.toLowerCase().normalize('NFKC').split(/[^\p{L}\p{N}]+/u).filter(Boolean));
  return cues.some((c) => words.has(c));
}
