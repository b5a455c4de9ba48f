// First-person statements for bench:beliefs, generated from word lists (no
// dataset text): traits, preferences, values, capabilities, feelings and
// relations, affirmed and denied, some with a hedge or a time word and some two
// clauses joined by a coordinator, so every phase of the pipeline has work.

const TRAITS = [
  'patient', 'curious', 'stubborn', 'shy', 'generous', 'impatient', 'organized', 'messy', 'anxious', 'calm',
  'ambitious', 'lazy', 'honest', 'sensitive', 'funny', 'serious', 'loyal', 'forgetful', 'careful', 'reckless',
  'creative', 'practical', 'optimistic', 'pessimistic', 'independent', 'clingy', 'quiet', 'loud', 'gentle', 'competitive',
];
const ACTIVITIES = [
  'hiking', 'baking bread', 'painting', 'jazz', 'rainy mornings', 'crossword puzzles', 'horror films', 'gardening', 'long walks', 'board games',
  'spicy food', 'camping', 'swimming', 'poetry', 'thunderstorms', 'karaoke', 'chess', 'knitting', 'road trips', 'documentaries',
  'cold showers', 'street markets', 'bird watching', 'sushi', 'early mornings', 'loud parties', 'science fiction', 'cycling', 'pottery', 'opera',
];
const VALUES = ['honesty', 'kindness', 'loyalty', 'freedom', 'fairness', 'curiosity', 'patience', 'courage', 'privacy', 'family', 'humor', 'hard work'];
const SKILLS = ['swim', 'cook', 'sing', 'draw', 'dance', 'drive', 'focus for long', 'speak in public', 'fix things', 'keep a secret', 'say no', 'sleep well'];
const FEELINGS = ['lonely', 'hopeful', 'tired', 'restless', 'grateful', 'overwhelmed', 'proud', 'nervous', 'content', 'stuck'];
const RELATIONS = ['my sister', 'my brother', 'my mother', 'my father', 'my best friend', 'my boss', 'my partner', 'my neighbor'];
const RELATION_VERBS = ['understands', 'supports', 'listens to', 'respects', 'ignores', 'trusts'];
const HEDGES = ['', '', '', 'I think ', 'honestly ', 'maybe '];
const TIMES = ['', '', '', ' lately', ' these days', ' usually'];

type Maker = (i: number) => string;

const pick = <T>(xs: readonly T[], i: number): T => xs[i % xs.length]!;

/** Each template draws its words from different strides of `i`, so statements stay distinct for thousands of indices. */
const TEMPLATES: readonly Maker[] = [
  (i) => `${pick(HEDGES, i)}I am ${i % 2 ? 'not ' : ''}${pick(TRAITS, i >> 1)}${pick(TIMES, i >> 3)}`,
  (i) => `I ${pick(['love', 'like', 'hate', 'enjoy', "don't like", "can't stand"], i)} ${pick(ACTIVITIES, i >> 2)}`,
  (i) => `I ${i % 2 ? "don't " : ''}value ${pick(VALUES, i >> 1)} in ${pick(['friends', 'work', 'people', 'myself'], i >> 4)}`,
  (i) => `I ${i % 2 ? "can't" : 'can'} ${pick(SKILLS, i >> 1)}`,
  (i) => `I feel ${pick(FEELINGS, i)}${pick(TIMES, i >> 2)}`,
  (i) => `${pick(RELATIONS, i)} ${i % 3 === 0 ? 'never ' : ''}${pick(RELATION_VERBS, i >> 2)} me`,
  (i) => `I am ${pick(TRAITS, i)} but I ${pick(['love', 'hate'], i >> 1)} ${pick(ACTIVITIES, i >> 3)}`,
  (i) => `I am a ${pick(TRAITS, i)} person and I value ${pick(VALUES, i >> 2)}`,
];

/**
 * `n` distinct statements, deterministic. The word-list product is large but
 * finite; past its first duplicate a counter clause ("… number 12") keeps the
 * statements distinct, so `n` is always honoured.
 */
export function generateStatements(n: number): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (let k = 0; out.length < n; k++) {
    const template = TEMPLATES[k % TEMPLATES.length]!;
    const i = Math.floor(k / TEMPLATES.length);
    let s = template(i * 7 + (k % 5));
    if (seen.has(s.toLowerCase())) s = `${s} and I have ${k} reasons`;
    if (seen.has(s.toLowerCase())) continue;
    seen.add(s.toLowerCase());
    out.push(s);
  }
  return out;
}

const ADJECTIVES = [
  'spicy', 'quiet', 'old', 'cold', 'tiny', 'bright', 'wooden', 'rusty', 'sweet', 'noisy', 'gentle', 'slow', 'heavy', 'green', 'salty',
  'warm', 'wild', 'silver', 'strange', 'simple', 'crowded', 'empty', 'tall', 'round', 'fresh', 'dusty', 'soft', 'sharp', 'plain', 'shiny',
];
const NOUNS = [
  'soup', 'trains', 'rivers', 'bikes', 'books', 'gardens', 'boats', 'maps', 'songs', 'markets', 'bridges', 'candles', 'kites', 'lamps', 'clocks',
  'cafes', 'forests', 'stamps', 'shoes', 'radios', 'paintings', 'beaches', 'towers', 'puzzles', 'letters', 'coats', 'islands', 'bells', 'tents', 'ovens',
];
const PLACES = ['at night', 'in winter', 'near home', 'in the city', 'on weekends', 'by the sea', 'in spring', 'at work', 'on holiday', 'in the rain', 'after dinner', 'with friends'];
const NODE_VERBS = ['love', 'value', 'collect'];

/**
 * Statements whose atoms are all distinct canonical texts, for a big graph of
 * one holder: "I love quiet trains at night", "I value rusty bikes in winter"…
 * (preference, value and self-fact atoms). Deterministic; past the word-list
 * product a year keeps them distinct.
 */
export function generateNodeTexts(n: number): string[] {
  const out: string[] = [];
  const span = ADJECTIVES.length * NOUNS.length * PLACES.length;
  for (let k = 0; out.length < n; k++) {
    const verb = pick(NODE_VERBS, k);
    const j = Math.floor(k / NODE_VERBS.length);
    const phrase = `${pick(ADJECTIVES, j)} ${pick(NOUNS, Math.floor(j / ADJECTIVES.length))} ${pick(PLACES, Math.floor(j / (ADJECTIVES.length * NOUNS.length)))}`;
    const round = Math.floor(j / span);
    out.push(`I ${verb} ${phrase}${round ? ` in year ${round}` : ''}`);
  }
  return out;
}
