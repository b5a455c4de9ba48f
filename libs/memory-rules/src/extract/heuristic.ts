/**
 * Rule-based memory extraction (turn-pipeline §12.2, §12.3.1, §12.4 #3).
 *
 * `extractHeuristic` is the always-on extractor: anchored patterns over
 * first-person English statements ("I live in Seoul", "I love sushi"). Anchoring
 * every pattern at the start of a clause is what keeps it precise: "I don't live
 * in X", "I used to live in X", "I'd love to visit X" and "do you like X" simply
 * do not match, so negation, the past, wishes and questions yield nothing without
 * a separate guard. A wrong memory is worse than none, so anything that does not
 * map cleanly to one of the four key formats is dropped.
 *
 * `extractOffline` stands in for the LLM extractor when none is configured: the
 * same patterns plus broader, riskier ones ("I play X", "I eat X", "I've been to X").
 *
 * Readings of the spec made here (see also the notes on each rule):
 * - "I live in <country>" and "I live in <state/region>" store nothing: current_city
 *   is a city, and home_country is where someone is from, which an expat's
 *   country of residence is not.
 * - "I'm vegan/vegetarian" stores nothing: it is a diet, not a like|dislike of an item.
 * - Events are bucketed by the month the statement names ("last May"), else the turn's (`at`).
 * - What no rule keys, the broad extractor (broad.ts) may still keep as an event or pattern.
 */
import { normalizeUserText } from '@hearth/text';
import { BROAD, type EmotionPattern, type EventDomain, type FactField, type PreferenceCategory } from '../config.js';
import { canonicalText, emotionKey, eventKey, factKey, parseKey, preferenceKey, preferenceValue } from '../keys.js';
import type { Candidate, Extractor, MemoryType, StatedTime } from '../types.js';
import { extractSentence, parseSentences, timeOf } from './broad.js';
import { extractKorean } from './korean.js';
import { PLAN } from './broad-lexicon.js';
import * as L from './lexicon.js';
import { statedDate, statedTime } from './stated-time.js';

type Mode = 'heuristic' | 'offline';
type Stance = 'like' | 'dislike';

/** Event summaries are short (§13 "small snippets"). */
const EVENT_VALUE_MAX_CHARS = 120;

// ---------------------------------------------------------------------------
// Text forms

/**
 * The comparison form of a phrase: `normNoPunct` (punctuation to spaces,
 * apostrophes kept), fully lowercased, symbols and emoji dropped, stray quotes
 * removed. Lexicon entries and extracted items are compared in this form.
 */
function phrase(text: string): string {
  return normalizeUserText(text)
    .normNoPunct.toLowerCase()
    .replace(/\p{S}+/gu, ' ')
    .replace(/(?<!\p{L})'|'(?!\p{L})/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function words(p: string): string[] {
  return p === '' ? [] : p.split(' ');
}

/** At most `max` characters, cut at a word boundary when there is one. */
function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return (space > max / 2 ? cut.slice(0, space) : cut).trim();
}

// ---------------------------------------------------------------------------
// Lexicon lookups (built once, in comparison form)

function forms(entry: L.LexiconEntry): { canonical: string; all: string[] } {
  const list = typeof entry === 'string' ? [entry] : [...entry];
  return { canonical: list[0]!, all: list };
}

/** form → canonical. The first list to claim a form keeps it. */
function aliasMap(list: readonly L.LexiconEntry[], into = new Map<string, string>()): Map<string, string> {
  for (const entry of list) {
    const { canonical, all } = forms(entry);
    for (const form of all) {
      const key = phrase(form);
      if (!into.has(key)) into.set(key, canonical);
    }
  }
  return into;
}

interface Pref {
  category: PreferenceCategory;
  item: string;
}

// Precedence: the narrower lists first, so "cartoons" is a genre before anything else.
const PREF_LISTS: readonly [PreferenceCategory, readonly L.LexiconEntry[]][] = [
  ['study_style', L.STUDY_STYLES],
  ['game', L.GAMES],
  ['sport', L.SPORTS],
  ['movie_genre', L.MOVIE_GENRES_BARE],
  ['music', L.MUSIC_GENRES],
  ['drink', L.DRINKS],
  ['food', L.FOODS],
  ['hobby', L.HOBBIES],
  ['hobby', L.INSTRUMENTS],
];

const PREF_LEXICON = new Map<string, Pref>();
for (const [category, list] of PREF_LISTS) {
  for (const [form, item] of aliasMap(list)) if (!PREF_LEXICON.has(form)) PREF_LEXICON.set(form, { category, item });
}

const MOVIE_GENRE = aliasMap(L.MOVIE_GENRES);
const INSTRUMENT = aliasMap(L.INSTRUMENTS);
const COUNTRY = aliasMap(L.COUNTRIES);
const LANGUAGE = aliasMap(L.LANGUAGES);
const REGION = new Set(L.REGIONS.map(phrase));
const CITY = new Set(L.CITIES.map(phrase));
const NOT_PLACE = new Set(L.NOT_PLACE_WORDS);
const OCCUPATION = new Set(L.OCCUPATIONS.map(phrase));
const NOT_OCCUPATION = new Set(L.NOT_OCCUPATIONS);
const NOT_OCCUPATION_MOD = new Set(L.NOT_OCCUPATION_MODIFIERS);
const FIELD_OF_STUDY = new Set(L.FIELDS_OF_STUDY.map(phrase));
const SCHOOL_WORD = new Set(L.SCHOOL_WORDS);
const GENERIC_SCHOOL_WORD = new Set(L.GENERIC_SCHOOL_WORDS);
const MUSIC_NOUN = new Set(L.MUSIC_NOUNS);
const FAVORITE_NOUN = new Map(Object.entries(L.FAVORITE_NOUNS));
const MOOD_ALT = [...L.MOODS].sort((a, b) => b.length - a.length).map(escapeRe).join('|');

/** Multi-word lexicon forms joined by "and" ("mac and cheese"), which list splitting must not cut. */
const AND_PHRASES: readonly [RegExp, string][] = [...PREF_LEXICON.keys()]
  .filter((p) => p.includes(' and '))
  .sort((a, b) => b.length - a.length)
  .map((p) => [new RegExp(`(?<!\\p{L})${escapeRe(p)}(?!\\p{L})`, 'gu'), p.replaceAll(' and ', ' _and_ ')]);

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// ---------------------------------------------------------------------------
// Sentences and clauses

/** One clause, ready for the anchored patterns. */
interface Clause {
  /** As written, fillers and end punctuation stripped: event summaries quote it. */
  raw: string;
  /** Contractions expanded, a trailing "…, not Y" correction dropped; casing kept for proper nouns. */
  text: string;
  /** The message never capitalizes a word mid-sentence, so lowercase says nothing about proper nouns. */
  lowercaseStyle: boolean;
}

// Typographic apostrophes fold to ' so "I’m" is "I'm" (as @hearth/text does).
const APOSTROPHES = /[\u2018\u2019\u201B\u02BC]/g;
// "Dr. Pepper", "St. Louis": a title's period ends no sentence.
const SENTENCE_BREAK = /(?<=[.!?…])(?<!\b(?:dr|mr|mrs|ms|st|mt|jr|sr|vs|etc|prof)\.)\s+|[\r\n]+|;\s*/iu;
const QUESTION_END = /\?[^\p{L}\p{N}]*$/u;
// Splits "…, and I…", "… but my…", "…, I…": a new first-person clause. A list's
// ", and tacos" is not split (no subject follows).
// "I'm an introvert and exams stress me out": a new subject before "stress/make/help me".
// "I love tacos and hate spaghetti": a second preference verb is a new clause (of "I").
const CLAUSE_BREAK =
  /\s*,?\s+(?:and|but|so|because|cause|since|plus|although|though|while|whereas)\s+(?=(?:i|im|my|we)\b|(?:also\s+|really\s+)?(?:love|like|hate|enjoy|dislike|adore|prefer|despise|detest)\s|(?:[\p{L}']+\s+){1,3}(?:stress(?:es)?|makes?|helps?|gives?) me\b)|,\s*(?:and|but|so|plus)\s+(?=(?:i|im|my|we|it|that|this|he|she|they|there)\b)|,\s*(?=(?:i|im|my)\b)/iu;
// A subordinate clause ("When I'm stressed, I read") is rejoined to what follows.
const SUBORDINATE = /^(?:when|whenever|if|after|before|once|unless|although|though|because|since|while|to)\b/i;
const LEADING_FILLER =
  /^(?:actually|no|nope|nah|well|oh|ok|okay|so|yeah|yes|yep|yup|also|and|but|honestly|btw|by the way|anyway|anyways|um+|uh+|lol|haha+|hey|hi|hello|hmm+|plus|fun fact|fyi|like|basically|in fact|to be honest|tbh|i mean|wait|oh and|and also|then again|right|true|sure)\b[\s,!.:…-]*/i;

const CONTRACTIONS: readonly [RegExp, string][] = [
  [/\bi'?m\b/gi, 'i am'],
  [/\bi'?ve\b/gi, 'i have'],
  [/\bi'd\b/gi, 'i would'],
  [/\bi'll\b/gi, 'i will'],
  [/\bcan'?t\b/gi, 'cannot'],
  [/\bcan not\b/gi, 'cannot'],
  [/\bwon't\b/gi, 'will not'],
  [/\b(do|does|did|is|are|was|were|have|has|had|would|could|should|must|need)n'?t\b/gi, '$1 not'],
  [/\b(it|that|what|there|he|she|who)'s\b/gi, '$1 is'],
  [/\b(we|they|you)'re\b/gi, '$1 are'],
  [/\bgonna\b/gi, 'going to'],
  [/\bwanna\b/gi, 'want to'],
];

// "Busan, not Seoul" / "Busan not Seoul" / "sushi rather than pizza": the
// correction's rejected half goes. A "not" after an auxiliary is a negation
// ("I do not like…") and stays.
const TRAILING_CORRECTION = [
  /\s*(?:,|\s-+|—)\s*(?:and\s+|but\s+)?not\s+.+$/i,
  /\s+(?:rather than|instead of)\s+.+$/i,
  /(?<!\b(?:do|does|did|am|is|are|was|were|have|has|had|can|could|would|will|should|really|just|i|actually|definitely|certainly|still|simply|probably|honestly|may|might|must|need|why|or|if|whether))\s+(?:and\s+)?not\s+(?:in\s+|at\s+|from\s+|a\s+|an\s+|the\s+)?[\p{L}\s']+$/iu,
];

function clausesOf(text: string): Clause[] {
  const normalized = text.normalize('NFKC').replace(APOSTROPHES, "'");
  const lowercaseStyle = lowercaseStyleOf(normalized);
  const out: Clause[] = [];
  for (const sentence of normalized.split(SENTENCE_BREAK)) {
    const s = sentence.trim();
    if (s === '' || QUESTION_END.test(s)) continue;
    const body = s.replace(/[^\p{L}\p{N})]+$/u, '');
    const parts = rejoinSubjects(body, body.split(CLAUSE_BREAK).map((p) => p.trim()).filter((p) => p !== ''));
    for (let i = 0; i < parts.length; i++) {
      let part = parts[i]!;
      while (SUBORDINATE.test(part) && i + 1 < parts.length) part = `${part}, ${parts[++i]!}`;
      const clause = prepare(/^(?:also\s+|really\s+)?(?:love|like|hate|enjoy|dislike|adore|prefer|despise|detest)\s/i.test(part) ? `I ${part}` : part, lowercaseStyle);
      if (clause) out.push(clause);
    }
  }
  return out;
}

/**
 * "My girlfriend and I broke up": a short noun phrase before "and I" is part of
 * the subject, not a clause, so the split is undone.
 */
function rejoinSubjects(body: string, parts: string[]): string[] {
  const out: string[] = [];
  for (const part of parts) {
    const prev = out.at(-1);
    if (prev !== undefined && /^(?:my|our|me|his|her|the|a)\s/i.test(prev) && prev.split(/\s+/).length <= 4 && /^i\b/i.test(part) && body.includes(`${prev} and ${part}`)) {
      out[out.length - 1] = `${prev} and ${part}`;
    } else {
      out.push(part);
    }
  }
  return out;
}

/** True when no word but a sentence's first (and "I") is capitalized: then casing marks no proper noun. */
function lowercaseStyleOf(text: string): boolean {
  return text.split(SENTENCE_BREAK).every((sentence) =>
    sentence
      .trim()
      .split(/\s+/)
      .slice(1)
      .every((w) => !/^\p{Lu}/u.test(w) || /^I(?:'|$)/u.test(w)),
  );
}

function prepare(part: string, lowercaseStyle: boolean): Clause | null {
  let raw = part;
  for (let prev = ''; prev !== raw; ) {
    prev = raw;
    raw = raw.replace(LEADING_FILLER, '').trim();
  }
  if (raw === '') return null;
  let text = raw;
  for (const [re, to] of CONTRACTIONS) text = text.replace(re, to);
  for (const re of TRAILING_CORRECTION) text = text.replace(re, '');
  text = text.replace(/\s+/g, ' ').trim();
  return text === '' ? null : { raw, text, lowercaseStyle };
}

// ---------------------------------------------------------------------------
// Shared pattern pieces

/** Adverbs allowed between "I" and the verb: "I really love", "I just moved". */
const ADV = String.raw`(?:(?:really|also|just|actually|still|totally|absolutely|truly|definitely|genuinely|currently|now|recently|mostly|kind of|kinda|sort of|sorta|do|especially|honestly|simply|seriously|so|usually|always|often|sometimes|only|even|personally|pretty much|literally|certainly|finally|officially|absolutely|deeply|generally|typically|normally)\s+)*`;

/** Anchored, case-insensitive, built from a template with `${ADV}`. */
function re(source: string): RegExp {
  return new RegExp(`^${source}$`, 'iu');
}

// A value ends where a new phrase begins: "Seoul with my wife", "nurse at a hospital".
const VALUE_TAIL =
  /\s+(?:with|near|and|but|because|cause|since|where|which|who|whose|for|now|currently|right now|at the moment|these days|anymore|when|after|before|until|while|so|though|although|as|by|on|at|to|from|in|of|last|this|next|a few|years?|ago|since|that|if|or|like|during|every|full time|part time|too|as well|once|twice|many times|several times|a lot|often|recently|lately|originally|permanently|temporarily|part|close|nearby|right|just|most|half|mostly)\b.*$/i;

// A liked item ends at the same kind of boundary, but "to", "of", "and" and "or"
// belong to items ("listening to jazz", "lots of fruit", lists).
const ITEM_TAIL =
  /\s+(?:because|cause|since|when|whenever|while|with|especially|but|more than|than|on|at|in|during|every|after|before|if|as|for|from|like|such as|so|until|though|although|which|that|who|whose|where|unless|instead|rather|over|around|nowadays|these days|right now|about|except|apart from|other than|besides)\b.*$/i;

const ITEM_LEAD = new RegExp(
  `^(?:${[
    'the', 'a', 'an', 'some', 'all', 'any', 'most', 'many', 'lots of', 'a lot of', 'all kinds of', 'all sorts of', 'all types of',
    'any kind of', 'any type of', 'any sort of', 'kind of', 'type of', 'sort of', 'different kinds of', 'different types of',
    'many kinds of', 'many types of', 'a variety of', 'all genres of', 'various', 'good', 'great', 'really good', 'nice',
    'delicious', 'tasty', 'yummy', 'fresh', 'my', 'especially', 'just', 'mostly', 'mainly', 'pretty much', 'a glass of',
    'a cup of', 'cups of', 'glasses of', 'a bottle of', 'a bowl of', 'a slice of', 'a piece of', 'the taste of',
    'the smell of', 'the flavor of', 'also', 'only', 'even', 'usually', 'sometimes', 'mainly', 'too much', 'so much',
    'way too much', 'too many', 'so many',
  ]
    // Longest first: "all kinds of" before "all".
    .sort((a, b) => b.length - a.length)
    .join('|')})\\s+`,
);
const ITEM_TRAIL =
  /\s+(?:a lot|alot|so much|very much|too|as well|a ton|the most|more|most|in general|lol|haha|now|these days|lately|sometimes|often|every day|everyday|daily|all the time|always|also|really|best|frequently|regularly|occasionally|a bunch|much|anymore|at all|either)$/;
// Someone else's thing, a pronoun or a clause: not an item.
const NOT_ITEM =
  /\b(?:i|me|you|your|yours|he|she|him|her|his|it|its|they|them|their|we|us|our|this|that|these|those|everything|anything|something|nothing|everyone|anyone|someone|somebody|people|others|when|if|because|not|no|never|myself|yourself|ones|one|stuff|things|thing)\b|'s\b/;

function stripItem(p: string): string {
  let out = p;
  for (let prev = ''; prev !== out; ) {
    prev = out;
    out = out.replace(ITEM_LEAD, '').replace(ITEM_TRAIL, '').trim();
  }
  return out;
}

// ---------------------------------------------------------------------------
// Preference items

/** Words ending in -ing that are not gerunds. */
const NOT_GERUND = new Set(['thing', 'things', 'something', 'anything', 'nothing', 'everything', 'king', 'spring', 'morning', 'evening', 'ring', 'string', 'wedding', 'building', 'ceiling', 'clothing', 'pudding', 'sibling', 'darling', 'bring', 'sing', 'sting', 'swing', 'wing', 'wings', 'duckling', 'dumpling', 'stuffing', 'icing', 'frosting', 'filling', 'topping', 'seasoning', 'dressing']);
/** Gerund hobbies that keep their meaning whatever follows ("reading mystery novels"). */
const OBJECT_OK = new Set(['reading', 'writing', 'cooking', 'baking', 'painting', 'drawing', 'sketching', 'knitting', 'sewing', 'singing', 'dancing', 'crocheting', 'quilting', 'fishing', 'hunting', 'hiking', 'camping', 'swimming', 'surfing', 'skiing', 'snowboarding', 'gardening', 'coding', 'programming', 'blogging', 'journaling', 'collecting', 'woodworking', 'kayaking', 'sailing']);
/** Adjunct starts: "swimming in the ocean", "running every morning". */
const ADJUNCT = /^(?:in|at|on|with|around|outside|outdoors|inside|during|every|for|by|alone|together|near|through|along|under|early|late|at night)\b/;
/** Gerunds that are no hobby on their own ("I like sleeping", "I love eating"). */
const NOT_HOBBY_GERUND = new Set(['being', 'having', 'getting', 'doing', 'going', 'making', 'feeling', 'seeing', 'eating', 'sleeping', 'drinking', 'working', 'living', 'learning', 'helping', 'spending', 'trying', 'looking', 'taking', 'talking', 'staying', 'winning', 'losing', 'meeting', 'thinking', 'using', 'giving', 'saying', 'telling', 'knowing', 'buying', 'paying', 'waking', 'sitting', 'laying', 'lying', 'relaxing', 'resting', 'teaching', 'laughing', 'crying', 'smiling', 'driving', 'cleaning', 'waiting', 'watching', 'listening', 'playing', 'partying', 'dating', 'kissing', 'cuddling', 'hanging', 'chilling', 'studying', 'wearing', 'keeping', 'owning', 'raising', 'growing', 'exploring']);

/** "hike" → "hiking", "swim" → "swimming", "travel" → "traveling". */
function gerund(verb: string): string {
  const v = verb.toLowerCase();
  if (v.endsWith('ing') && v.length > 4) return v;
  if (v === 'be') return 'being';
  if (v === 'workout') return 'working out';
  if (v.endsWith('ie')) return `${v.slice(0, -2)}ying`;
  if (/[^aeiou]e$/.test(v) || v.endsWith('ue')) return `${v.slice(0, -1)}ing`;
  // One syllable ending consonant-vowel-consonant doubles: swim, run, jog, knit.
  if ((v.match(/[aeiou]+/g) ?? []).length === 1 && /[^aeiou][aeiou][^aeiouwxy]$/.test(v)) return `${v}${v.at(-1)}ing`;
  return `${v}ing`;
}

function known(p: string, category?: PreferenceCategory): Pref | null {
  const hit = PREF_LEXICON.get(p);
  return hit && (!category || hit.category === category) ? hit : null;
}

/** A short noun phrase that could name an item: no pronoun, no digits, few words. */
function nounish(p: string, maxWords: number): boolean {
  const w = words(p);
  return (
    w.length > 0 &&
    w.length <= maxWords &&
    !NOT_ITEM.test(p) &&
    !/\d/.test(p) &&
    w.every((x) => /^[\p{L}\p{M}'&]+$/u.test(x)) &&
    !ADJUNCT.test(p) &&
    !w.some((x) => FUNCTION_WORD.has(x))
  );
}

/** Words no item name is made of alone or around ("the", "of", "except"): a sign of a phrase, not a name. */
const FUNCTION_WORD = new Set(['the', 'a', 'an', 'of', 'about', 'except', 'by', 'to', 'on', 'in', 'at', 'for', 'from', 'with', 'and', 'or', 'but', 'as', 'than', 'like', 'also', 'only', 'other', 'different', 'some', 'any', 'all', 'every', 'new', 'sometimes', 'mix', 'genres', 'types', 'kinds', 'sorts', 'variety', 'watch', 'play', 'go', 'teach', 'love', 'hate', 'enjoy', 'listen', 'eat', 'drink', 'is', 'are', 'be']);

// A word that makes an open (unlisted) item a clause or an adjunct: "love hamburgers", "at outback".
const CLAUSE_WORD = /\b(?:love|loves|like|likes|stay|stays|sleep|go|goes|get|gets|have|has|make|makes|am|is|are|was|do|does|play|watch|work|read|sing|want|need|while|at|in|on|with|by|for|from|before|after|during|terribly|healthy|once|twice|lot)\b/;

/** An unlisted item the offline extractor may keep: a short noun phrase. */
function openItem(x: string, maxWords: number): boolean {
  return nounish(x, maxWords) && !CLAUSE_WORD.test(x) && !ADJUNCT.test(x);
}

const MUSIC_REJECT = new Set(['podcast', 'audiobook', 'sermon', 'lecture', 'podcasts', 'audiobooks', 'books', 'the radio', 'radio', 'stories', 'nature', 'the rain', 'rain', 'birds', 'news', 'the news', 'talk radio', 'music', 'sermons', 'lectures', 'advice', 'others', 'records', 'vinyl', 'the sound', 'the ocean', 'the waves', 'asmr', 'white noise']);
const FOOD_REJECT = new Set(['out', 'healthy', 'well', 'alone', 'clean', 'late', 'food', 'fast', 'right', 'lunch', 'dinner', 'meals', 'a meal', 'organic', 'less', 'more', 'slowly', 'quickly', 'a lot', 'vegan', 'vegetarian', 'kosher', 'halal', 'junk', 'everything', 'plants', 'breakfast', 'too much', 'much']);
const DRINK_REJECT = new Set(['a lot', 'socially', 'responsibly', 'heavily', 'too much', 'much', 'occasionally', 'alone', 'sometimes', 'every day', 'on weekends', 'anymore', 'at all']);
const GAME_REJECT = new Set(['music', 'outside', 'sports', 'sport', 'games', 'game', 'around', 'along', 'it', 'dead', 'pretend', 'house', 'hard', 'well', 'fair', 'safe', 'ball', 'catch', 'hooky', 'favorites', 'lottery', 'jokes', 'pranks', 'tricks', 'shortstop', 'quarterback', 'goalie', 'linebacker', 'pitcher', 'catcher', 'defense', 'offense', 'forward', 'center', 'guard', 'positions', 'roles', 'instruments', 'professionally', 'outdoors', 'together', 'alone', 'online', 'songs', 'shows', 'gigs', 'sometimes', 'often', 'daily', 'everyday', 'music', 'piano', 'laser', 'with', 'in', 'on', 'at']);

function musicItem(p: string, mode: Mode): Pref | null {
  const x = stripItem(p).replace(/^(?:music|songs) (?:by |from )?(?=\S)/, '');
  const hit = known(x, 'music') ?? (known(x)?.item === 'music' ? known(x) : null);
  if (hit) return hit;
  const m = /^(.+?) (?:music|songs)$/.exec(x);
  if (m && known(m[1]!, 'music')) return known(m[1]!, 'music');
  if (m && nounish(m[1]!, 4)) return { category: 'music', item: m[1]! };
  const head = /^(.+?) (?:band|singer|rapper|artist|musician)$/.exec(x);
  if (head && nounish(head[1]!, 4) && !/^(?:a|the|my|favorite)$/.test(head[1]!)) return { category: 'music', item: head[1]! };
  // "listening to my neighbors fight" is not music: an unknown item someone owns is not a genre or artist.
  if (mode === 'offline' && openItem(x, 4) && !MUSIC_REJECT.has(x) && !/^(?:my|his|her|our|their|your) /.test(p.trim())) return { category: 'music', item: x };
  return null;
}

function foodItem(p: string, mode: Mode): Pref | null {
  const x = stripItem(p);
  const hit = known(x, 'food') ?? foodPhrase(x) ?? headMatch(x, ['food']);
  if (hit) return hit;
  if (mode === 'offline' && openItem(x, 3) && !FOOD_REJECT.has(x)) return { category: 'food', item: x };
  return null;
}

function drinkItem(p: string, mode: Mode): Pref | null {
  const x = stripItem(p);
  const hit = known(x, 'drink') ?? headMatch(x, ['drink']);
  if (hit) return hit;
  if (mode === 'offline' && openItem(x, 3) && !DRINK_REJECT.has(x)) return { category: 'drink', item: x };
  return null;
}

/** What follows "play": a sport, a game, or an instrument (a hobby). */
function playedItem(p: string, mode: Mode): Pref | null {
  const x = stripItem(p).replace(/\s+(?:professionally|competitively|for fun|once|twice|every \w+|on \w+)$/, '');
  if (x === 'bass') return { category: 'hobby', item: 'bass guitar' };
  const instrument = INSTRUMENT.get(x);
  if (instrument) return { category: 'hobby', item: instrument };
  const hit = known(x, 'sport') ?? known(x, 'game') ?? gamesPhrase(x);
  if (hit) return hit;
  // An unknown one-word title ("Fallout", "roulette"); longer objects, and "a clown", are roles, positions, teams.
  // "I play basketball and run": a verb that names an activity is a second predicate, not a title.
  if (mode === 'offline' && nounish(x, 1) && !GAME_REJECT.has(x) && !/^(?:a|an)\s/.test(p.trim()) && !known(gerund(x))) return { category: 'game', item: x };
  return null;
}

/** What follows "watch": a sport or a movie genre; watching anything else is not a category. */
function watchedItem(p: string): Pref | null {
  const x = stripItem(p);
  return known(`watching ${x}`) ?? known(x, 'sport') ?? known(x, 'movie_genre') ?? genrePhrase(x) ?? (known(x)?.category === 'hobby' && /^(?:tv|movies|anime)$/.test(known(x)!.item) ? known(x) : null);
}

/** "italian food", "spicy cuisine". */
function foodPhrase(x: string): Pref | null {
  const m = /^([\p{L}'-]+(?: [\p{L}'-]+)?) (?:food|cuisine)$/u.exec(x);
  if (!m || /^(?:dog|cat|pet|baby|bird|fish|good|real|the|some|my|no|any|favorite|favourite|fave|fav|most|all|other|people's)$/.test(m[1]!)) return known(x, 'food');
  return known(m[1]!, 'food') ?? { category: 'food', item: `${m[1]!} food` };
}

/** "horror movies" → horror. */
function genrePhrase(x: string): Pref | null {
  const m = /^(.+?) (?:movies|films|flicks|movie|film)$/.exec(x);
  const genre = m ? MOVIE_GENRE.get(m[1]!) : undefined;
  return genre ? { category: 'movie_genre', item: genre } : null;
}

/** "strategy games", "racing games". */
function gamesPhrase(x: string): Pref | null {
  const m = /^([\p{L}-]+(?: [\p{L}-]+)?) games$/u.exec(x);
  if (!m || /^(?:olympic|hunger|mind|head|the|some|any|all|these|those|my|video|sports|ball|fun|word)$/.test(m[1]!)) return null;
  // "hockey games" are matches of the sport.
  return known(m[1]!, 'sport') ?? { category: 'game', item: `${m[1]!} games` };
}

/** "spicy ramen", "iced coffee", "college football": a known head with plain modifiers. */
function headMatch(x: string, categories: readonly PreferenceCategory[]): Pref | null {
  const w = words(x);
  if (w.length < 2 || w.length > 3) return null;
  for (const cut of [1, 2]) {
    if (w.length - cut < 1) continue;
    const head = known(w.slice(-cut).join(' '));
    const mods = w.slice(0, w.length - cut);
    if (head && categories.includes(head.category) && mods.every((m) => /^\p{L}+$/u.test(m) && !BAD_MODIFIER.has(m) && !FUNCTION_WORD.has(m))) {
      return { category: head.category, item: x };
    }
  }
  return null;
}
const BAD_MODIFIER = new Set(['my', 'your', 'no', 'not', 'own', 'pet', 'toy', 'fake', 'dog', 'cat', 'baby', 'free', 'cheap', 'bad', 'hot', 'cold', 'making', 'selling', 'growing', 'raising', 'eating', 'drinking', 'soap', 'books', 'podcasts', 'shows', 'videos', 'smell', 'taste', 'flavor', 'shirts', 'tickets', 'posters']);

/**
 * The preference one listed item names, or null. `hint` is the category a frame
 * fixes ("my favorite band is X" → music): then any noun phrase is accepted.
 */
function classify(raw: string, mode: Mode, hint?: PreferenceCategory): Pref | null {
  const artist = namedArtist(phrase(raw));
  if (artist) return artist;
  let x = stripItem(phrase(raw));
  if (x === '' || NOT_ITEM.test(x)) return null;
  if (x.startsWith('to ')) {
    const [verb, ...rest] = words(x.slice(3));
    if (!verb) return null;
    x = [gerund(verb), ...rest].join(' ');
  }
  if (hint) return hinted(x, hint, mode);

  x = x.replace(/^(?:go|going) (?=\S+ing\b)/, '');
  const exact = known(x);
  if (exact) return exact;

  const [first, ...restWords] = words(x);
  const rest = restWords.join(' ');
  if (first && first.endsWith('ing') && first.length > 4 && !NOT_GERUND.has(first)) {
    switch (first) {
      case 'playing':
        return playedItem(rest, mode);
      case 'watching':
        return watchedItem(rest);
      case 'listening':
        return rest.startsWith('to ') ? musicItem(rest.slice(3), mode) : null;
      case 'eating':
        return foodItem(rest, mode);
      case 'drinking':
        return drinkItem(rest, mode);
      case 'going':
        return rest.endsWith('ing') && words(rest).length === 1 ? classify(rest, mode) : null;
      case 'doing':
        return rest === '' ? null : classify(rest, mode);
    }
    const head = known(first);
    if (head && (head.category === 'hobby' || head.category === 'sport')) {
      if (rest === '' || OBJECT_OK.has(first) || ADJUNCT.test(rest)) return head;
      return null;
    }
    return null;
  }
  return musicPhrase(x) ?? genrePhrase(x) ?? foodPhrase(x) ?? gamesPhrase(x) ?? headMatch(x, ['food', 'drink', 'music', 'sport']);
}

function musicPhrase(x: string): Pref | null {
  const m = /^(.+?) music$/.exec(x);
  if (m && known(m[1]!, 'music')) return known(m[1]!, 'music');
  if (m && nounish(m[1]!, 3)) return { category: 'music', item: m[1]! };
  return null;
}

/** "the band Muse", "the singer Adele": a name the noun marks as music. */
function namedArtist(p: string): Pref | null {
  const m = /^(?:the )?(?:band|singer|rapper|group) (.+)$/.exec(p);
  if (!m || !/^the /.test(p) || !nounish(m[1]!.replace(/^the /, ''), 5)) return null;
  return { category: 'music', item: m[1]!.replace(/^the /, '') };
}

/** An item under a frame that names its category. */
function hinted(x: string, hint: PreferenceCategory, mode: Mode): Pref | null {
  switch (hint) {
    case 'music': {
      const y = x.replace(/^(?:by|from) /, '');
      return known(y, 'music') ?? musicPhrase(y) ?? (nounish(y, 5) ? { category: 'music', item: y } : null);
    }
    case 'movie_genre':
      return known(x, 'movie_genre') ?? genrePhrase(x) ?? (MOVIE_GENRE.has(x) ? { category: 'movie_genre', item: MOVIE_GENRE.get(x)! } : null);
    case 'hobby': {
      // "go fishing", "read": an activity named by a verb is its gerund.
      const w = words(x.replace(/^(?:go|going) (?=\w+ing\b)/, ''));
      const first = w[0] ?? '';
      const act = w.some((y) => /ing$/.test(y)) || known(first) ? w.join(' ') : [gerund(first), ...w.slice(1)].join(' ');
      const hit = classify(act, mode);
      if (hit) return hit;
      return nounish(act, 4) && !NOT_HOBBY_GERUND.has(words(act)[0] ?? '') ? { category: 'hobby', item: act } : null;
    }
    case 'sport':
    case 'game':
    case 'food':
    case 'drink':
    case 'study_style':
      return known(x, hint) ?? (hint === 'game' ? gamesPhrase(x) : null) ?? (nounish(x, 4) ? { category: hint, item: x } : null);
  }
}

/** "pizza, sushi and tacos" → each item; "mac and cheese" stays one. */
function listItems(object: string, stripTail = true): string[] {
  let o = object.normalize('NFKC').toLowerCase();
  if (stripTail) o = o.replace(ITEM_TAIL, '');
  for (const [re, protectedForm] of AND_PHRASES) o = o.replace(re, protectedForm);
  const parts = o
    .split(/\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|&|plus|as well as)\s+|\s*\/\s*/)
    .map((p) => p.replaceAll('_and_', 'and').trim())
    .filter((p) => p !== '');
  // "to read and write": later verbs share the infinitive; "to watch football and
  // hockey": later objects share the verb.
  const first = parts[0];
  if (first?.startsWith('to ')) {
    const [verb, ...object] = words(first.slice(3));
    // "to play soccer, read, and draw": a part that is itself a known activity is a verb.
    const isVerb = (p: string): boolean => object.length === 0 || known(gerund(words(p)[0] ?? '')) !== null;
    return parts.map((p, i) => (i === 0 || p.startsWith('to ') || /^\S+ing\b/.test(p) ? p : isVerb(p) ? `to ${p}` : `to ${verb} ${p}`));
  }
  return parts;
}

// ---------------------------------------------------------------------------
// Places, occupations, schools

type Place = { kind: 'country'; name: string } | { kind: 'city'; name: string; country?: string } | { kind: 'region' };

/** Words that begin city names but are none alone ("New", "San", "Little"). */
const CITY_PREFIX = /^(?:new|old|north|south|east|west|upper|lower|little|big|san|santa|los|las|st|saint|fort|port|mount|mt|lake|el|le|great|grand|palm|cape)$/;

const PLACE_STOP = new Set(['and', 'or', 'with', 'where', 'who', 'which', 'because', 'but', 'so', 'not', 'i', 'me', 'you', 'he', 'she', 'it', 'we', 'they', 'him', 'them', 'us', 'there', 'here', 'now', 'when', 'to', 'of', 'for', 'by', 'on', 'at', 'from', 'is', 'are', 'was', 'be', 'have', 'has', 'my', 'your', 'our', 'their', 'his', 'her', 'a', 'an', 'the', 'this', 'that', 'some', 'one', 'every', 'any', 'no', 'same', 'love', 'peace', 'many', 'several', 'different', 'various', 'lots', 'places', 'both', 'two', 'three']);

/** A place named after "live in", "from", "moved to"…; null when it names none. */
function placeOf(rawValue: string, lowercaseStyle: boolean): Place | null {
  const value = rawValue.replace(/^the (?:city|town) of /i, '').replace(VALUE_TAIL, '');
  const [first = '', second = ''] = value.split(',').map((s) => s.trim());
  if (first === 'US' || first === 'U.S.' || first === 'U.S') return { kind: 'country', name: 'united states' };
  let p = phrase(first);
  const country = COUNTRY.get(p);
  if (country) return { kind: 'country', name: country };
  if (REGION.has(p)) return { kind: 'region' };
  let inCountry = COUNTRY.get(phrase(second));
  // "Portland Oregon", "Busan Korea", "Dallas TX": a trailing state or country is
  // not part of the city ("Little Cuba" keeps its country word: "little" is no city).
  const w0 = words(p);
  for (const n of [2, 1]) {
    const tail = w0.slice(-n).join(' ');
    const head = w0.slice(0, -n).join(' ');
    if (w0.length > n && (REGION.has(tail) || COUNTRY.has(tail)) && !CITY_PREFIX.test(head)) {
      inCountry ??= COUNTRY.get(tail);
      p = head;
      if (COUNTRY.has(p)) return { kind: 'country', name: COUNTRY.get(p)! };
      if (REGION.has(p)) return { kind: 'region' };
      break;
    }
  }
  if (CITY.has(p)) return { kind: 'city', name: p, ...(inCountry ? { country: inCountry } : {}) };
  const w = words(p);
  if (w.length === 0 || w.length > 4 || /\d/.test(p)) return null;
  // A lone two-letter token is a state code ("MI", "OR"), not a city ("LA" is listed);
  // "Washington D" and "New" are cut-off names.
  if ((w.length === 1 && p.length <= 2) || w.at(-1)!.length === 1 || CITY_PREFIX.test(p)) return null;
  if (w.some((x) => NOT_PLACE.has(x) || PLACE_STOP.has(x))) return null;
  // A proper noun: capitalized, unless the writer capitalizes nothing.
  if (!lowercaseStyle && !/^\p{Lu}/u.test(first)) return null;
  return { kind: 'city', name: p, ...(inCountry ? { country: inCountry } : {}) };
}

const SUFFIXES = L.OCCUPATION_SUFFIXES;

/**
 * An occupation phrase ("art teacher"), or null. Its head (last word or two) must
 * be a known job; with `allowSuffix` also a noun with a job suffix ("juggler")
 * that is not a known non-job ("mother", "christian"). Modifiers that make it a
 * skill, a wish or the past ("good cook", "aspiring writer", "former nurse") reject it.
 */
function occupationOf(rawValue: string, allowSuffix: boolean): string | null {
  const whole = phrase(rawValue);
  const stayHome = /^stay at home (mom|dad|parent|mother|father)\b/.exec(whole.replace(/^(?:an?|the)\s+/, ''));
  if (stayHome) return `stay at home ${stayHome[1]!}`;
  const p = stripOccupation(phrase(rawValue.replace(VALUE_TAIL, '')));
  const w = words(p);
  if (w.length === 0 || w.length > 4 || /\d/.test(p) || NOT_ITEM.test(p)) return null;
  if (w.some((x) => NOT_OCCUPATION_MOD.has(x))) return null;
  const last = w.at(-1)!;
  const lastTwo = w.slice(-2).join(' ');
  const lastThree = w.slice(-3).join(' ');
  if (OCCUPATION.has(lastThree) || OCCUPATION.has(lastTwo) || OCCUPATION.has(last)) return p;
  if (allowSuffix && w.length <= 3 && !NOT_OCCUPATION.has(last) && !w.some((x) => NOT_OCCUPATION.has(x)) && SUFFIXES.some((s) => last.endsWith(s) && last.length > s.length + 3)) return p;
  return null;
}

function stripOccupation(p: string): string {
  return p.replace(/^(?:an?|the|full time|part time|full-time|part-time)\s+/, '').replace(/\s+(?:by trade|by profession|for a living)$/, '');
}

const SCHOOL_NAME_REJECT = new Set(['church', 'mass', 'class', 'classes', 'school', 'college', 'university', 'work', 'studies', 'study', 'meetings', 'services', 'lessons', 'events', 'therapy', 'practice', 'rehab', 'concerts', 'games', 'parties', 'seminars', 'workshops', 'lectures', 'courses', 'camp', 'daycare', 'kindergarten', 'preschool', 'homeschool', 'online']);

/**
 * A school's name ("Seoul National University", "the University of Alabama",
 * "UCLA"), not a kind of school ("high school", "a community college") nor a
 * place ("school in Florida"). With `allowBareName`, a single capitalized word
 * with no institution word is taken as a name ("I attend UCLA").
 */
function schoolOf(rawValue: string, allowBareName: boolean): string | null {
  let p = phrase(rawValue);
  if (/\d/.test(p)) return null;
  // "college at Michigan State" names it; "school in Florida" only places it.
  const kind = /^(?:the )?(?:school|college|university|uni|classes|grad school|law school|med school|high school) (at|in) (.+)$/.exec(p);
  if (kind) {
    if (kind[1] === 'in') return null;
    p = kind[2]!;
  }
  const w = words(p.replace(/^the /, ''));
  const at = w.findIndex((x) => SCHOOL_WORD.has(x));
  if (at >= 0) {
    // The name runs to its institution word, plus "of <place>" ("university of alabama").
    let end = at + 1;
    if (w[end] === 'of') end = Math.min(w.length, end + (w[end + 2] && !/^(?:in|at|on|for|to|and|with|where|since)$/.test(w[end + 2]!) ? 3 : 2));
    const name = w.slice(0, end);
    const generic = name.every((x) => GENERIC_SCHOOL_WORD.has(x));
    if (generic || name.length > 7 || /^(?:a|an|my|some|any|this|that|which)$/.test(name[0]!) || NOT_ITEM.test(name.join(' '))) return null;
    return name.join(' ');
  }
  const bare = rawValue.trim().split(/\s+/)[0] ?? '';
  if (!allowBareName || w.length === 0) return null;
  const name = w[0]!;
  const rest = w.slice(1).join(' ');
  if (rest !== '' && !/^(?:in|on|at|for|and|since|now|this|next|every|with|where|to)\b/.test(rest)) return null;
  if (!/^\p{Lu}/u.test(bare) || SCHOOL_NAME_REJECT.has(name) || COUNTRY.has(name) || CITY.has(name) || REGION.has(name) || NOT_ITEM.test(name)) return null;
  return name;
}

const MAJOR_REJECT = /^(?:hard|abroad|a lot|online|part time|full time|at night|to\b|for\b|in\b|at\b|with\b|every\b|all\b|late|alone|together|daily|there|here|now|harder|well)/;

function majorOf(rawValue: string): string | null {
  const p = phrase(rawValue.replace(VALUE_TAIL, '')).replace(/^(?:a|an|the)\s+/, '').replace(/\s+(?:major|degree)$/, '');
  if (!nounish(p, 4) || MAJOR_REJECT.test(p)) return null;
  return p;
}

// ---------------------------------------------------------------------------
// Emission

class Out {
  readonly list: Candidate[] = [];
  /** The clauses (as written) that gave a candidate, so the broad extractor leaves their sentences alone. */
  readonly sources: string[] = [];
  private readonly seen = new Set<string>();
  private clause = '';
  constructor(
    private readonly extractor: Extractor,
    private readonly at: Date,
  ) {}

  /** The clause the next candidates come from. */
  from(c: Clause): void {
    this.clause = c.raw;
  }

  push(type: MemoryType, key: string | null, value: string, occurred?: StatedTime): void {
    if (!key || value === '' || parseKey(key) === null) return;
    const id = `${key}\u0000${value}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.list.push({ type, key, value, extractor: this.extractor, ...(occurred ? { occurred } : {}) });
    this.sources.push(this.clause);
  }

  fact(field: FactField, value: string): void {
    this.push('FACT', factKey(field), canonicalText(value));
  }

  pref(stance: Stance, p: Pref): void {
    this.push('PREFERENCE', preferenceKey(p.category, p.item), preferenceValue(stance, p.item));
  }

  /** An event is filed under the month it happened when the clause says ("last May"), else the turn's. */
  event(domain: EventDomain, what: string, clause: Clause): void {
    const stated = statedTime(clause.raw, this.at, PLAN.test(clause.text.toLowerCase()) ? 'future' : 'past');
    this.push('RELATIONSHIP_EVENT', eventKey(domain, stated ? statedDate(stated) : this.at, what), clip(canonicalText(clause.raw), EVENT_VALUE_MAX_CHARS), stated ?? undefined);
  }

  emotion(pattern: EmotionPattern, value: string): void {
    this.push('EMOTIONAL_PATTERN', emotionKey(pattern), clip(canonicalText(value), EVENT_VALUE_MAX_CHARS));
  }
}

interface Rule {
  re: RegExp;
  /** Only the offline stand-in for the LLM runs it. */
  offline?: true;
  run(m: RegExpExecArray, c: Clause, out: Out, mode: Mode): void;
}

// ---------------------------------------------------------------------------
// FACT rules

function livesIn(m: RegExpExecArray, c: Clause, out: Out): void {
  const place = placeOf(m[1]!, c.lowercaseStyle);
  // A country or region of residence fits no key (see the module comment).
  if (place?.kind === 'city') out.fact('current_city', place.name);
}

function isFrom(m: RegExpExecArray, c: Clause, out: Out): void {
  const place = placeOf(m[1]!, c.lowercaseStyle);
  if (place?.kind === 'country') out.fact('home_country', place.name);
  if (place?.kind === 'city') {
    out.fact('home_city', place.name);
    if (place.country) out.fact('home_country', place.country);
  }
}

function speaks(value: string, out: Out): void {
  const p = phrase(value.replace(/\s+(?:fluently|natively|at home|well|perfectly|every day|mostly|mainly)\b.*$/i, '')).replace(/^(?:fluent|native)\s+/, '');
  const language = LANGUAGE.get(p);
  if (language) out.fact('language_primary', language);
}

const TIMEZONE_WORDS = /^(?:pacific|eastern|central|mountain|atlantic|alaska|hawaii|korean?|korea|japan|japanese|china|chinese|india|indian|british|european|central european|eastern european|gmt|utc|greenwich)(?: standard| daylight)?(?: time)?$/i;
const TIMEZONE_ABBR = /^(?:pst|pdt|mst|mdt|cst|cdt|est|edt|akst|hst|ast|gmt|utc|bst|cet|cest|eet|eest|ist|jst|kst|sgt|hkt|aest|aedt|acst|awst|nzst|nzdt|wet|msk)$/i;
const TIMEZONE_OFFSET = /^(?:utc|gmt)\s*[+-]\s*\d{1,2}(?::?\d{2})?$/i;
const TIMEZONE_IANA = /^[a-z]+(?:\/[a-z_-]+){1,2}$/i;

function timezone(value: string, out: Out): void {
  const v = value.trim().replace(/\s+(?:time ?zone|timezone)$/i, '');
  if (TIMEZONE_IANA.test(v) || TIMEZONE_OFFSET.test(v) || TIMEZONE_ABBR.test(v) || TIMEZONE_WORDS.test(v)) out.fact('timezone', v);
}

const FACT_RULES: Rule[] = [
  // "I live in Seoul", "I'm living in Busan now", "I'm based in Seoul". Not "staying" (a visit).
  { re: re(`i ${ADV}(?:live|am living|am based|reside|have been living|have lived)(?: right now| now| currently)? in (.+)`), run: livesIn },
  { re: re(`i ${ADV}(?:live|am living) with .+? in (.+)`), run: livesIn },
  { re: re(`i ${ADV}(?:moved|have moved|relocated)(?: back)?(?: here)? to (.+)`), run: livesIn },
  { re: re(`i ${ADV}(?:moved|have moved|relocated) from .+? to (.+)`), run: livesIn },
  // "I'm from Korea", "I grew up in Busan", "I was born in Seoul, Korea".
  { re: re(`i ${ADV}(?:am|come) (?:originally )?from (.+)`), run: isFrom },
  { re: re(`i ${ADV}(?:grew up|was born(?: and raised)?|was raised) in (.+)`), run: isFrom },
  { re: re(`my (?:hometown|home town) is (.+)`), run: isFrom },
  { re: re(`my (?:home country|country of origin|birth country) is (.+)`), run: (m, c, out) => { const p = placeOf(m[1]!, c.lowercaseStyle); if (p?.kind === 'country') out.fact('home_country', p.name); } },
  // Occupation: "I work as a nurse" (the frame says job); "I'm a teacher" (the noun must).
  {
    re: re(`i ${ADV}(?:work|am working)(?: full time| part time)? as (?:an? )?(.+)`),
    run: (m, _c, out) => {
      const job = occupationOf(m[1]!, true);
      if (job) out.fact('occupation', job);
    },
  },
  {
    re: re(`i am ${ADV}(?:an? )(.+)`),
    run: (m, _c, out, mode) => {
      const job = occupationOf(m[1]!, mode === 'offline');
      if (job) out.fact('occupation', job);
    },
  },
  {
    re: re(`my (?:job|occupation|profession|career|day job) is (?:being |as )?(?:an? )?(.+)`),
    run: (m, _c, out) => {
      const job = occupationOf(m[1]!, true);
      if (job) out.fact('occupation', job);
    },
  },
  {
    re: re(`i ${ADV}am employed as (?:an? )?(.+)`),
    run: (m, _c, out) => {
      const job = occupationOf(m[1]!, true);
      if (job) out.fact('occupation', job);
    },
  },
  // Major: explicit "major", or studying something at a college.
  { re: re(`i ${ADV}(?:major|am majoring|am double majoring) in (.+)`), run: (m, _c, out) => { const v = majorOf(m[1]!); if (v) out.fact('major', v); } },
  { re: re(`my (?:college |university )?major is (.+)`), run: (m, _c, out) => { const v = majorOf(m[1]!); if (v) out.fact('major', v); } },
  { re: re(`i am ${ADV}an? (.+?) major(?: (?:at|in) .+)?`), run: (m, _c, out) => { const v = majorOf(m[1]!); if (v) out.fact('major', v); } },
  {
    re: re(`i ${ADV}(?:study|am studying) (.+?) (?:at|in) (?:the |a )?(?:university|college|uni|grad school|graduate school)(?: .*)?`),
    run: (m, _c, out) => {
      const v = majorOf(m[1]!);
      if (v) out.fact('major', v);
    },
  },
  {
    re: re(`i ${ADV}(?:study|am studying) (.+?) at (.+)`),
    run: (m, _c, out) => {
      const school = schoolOf(m[2]!, true);
      if (!school) return;
      out.fact('school', school);
      const v = majorOf(m[1]!);
      if (v) out.fact('major', v);
    },
  },
  // School: a named institution.
  { re: re(`i ${ADV}(?:go to|attend|am attending|am enrolled at|am enrolled in|study at|am studying at|am a student at|am in school at|am in college at) (.+)`), run: (m, _c, out) => { const s = schoolOf(m[1]!, !/go to/i.test(m[0])); if (s) out.fact('school', s); } },
  { re: re(`i am ${ADV}an? (?:\\w+ )?(?:student|freshman|sophomore|junior|senior|undergrad|undergraduate|grad student|graduate student|phd student|phd candidate|major) (?:at|in) (.+)`), run: (m, _c, out) => { const s = schoolOf(m[1]!, true); if (s) out.fact('school', s); } },
  { re: re(`my (?:school|university|college|uni) is (.+)`), run: (m, _c, out) => { const s = schoolOf(m[1]!, true); if (s) out.fact('school', s); } },
  // Timezone.
  { re: re(`my time ?zone is (.+)`), run: (m, _c, out) => timezone(m[1]!, out) },
  { re: re(`i am (?:in|on) (?:the )?(.+?) time ?zone`), run: (m, _c, out) => timezone(m[1]!, out) },
  { re: re(`i am on (.+? time|[a-z]{3,4})`), run: (m, _c, out) => timezone(m[1]!, out) },
  // Language: "I speak Korean" (one language, unhedged; "I also speak X" is a second one).
  { re: re(`i (?:(?:really|actually|mostly|mainly|only|usually)\\s+)*speak (?!a little|a bit|some|basic|broken|conversational|little|enough)(.+?)(?: fluently| natively| at home| every day)?`), run: (m, _c, out) => speaks(m[1]!, out) },
  { re: re(`my (?:native|first|primary|main|mother) (?:language|tongue) is (.+)`), run: (m, _c, out) => speaks(m[1]!, out) },
  { re: re(`(.+?) is my (?:native|first|primary|main|mother) (?:language|tongue)`), run: (m, _c, out) => speaks(m[1]!, out) },
  { re: re(`i am an? native (.+?) speaker`), run: (m, _c, out) => speaks(m[1]!, out) },
  { re: re(`i am a native speaker of (.+)`), run: (m, _c, out) => speaks(m[1]!, out) },
  // Offline only: a bare field of study, a past major, a degree.
  {
    re: re(`i ${ADV}(?:study|am studying|majored in|have a degree in|got my degree in|have a (?:bachelor's|bachelors|master's|masters|phd) in|am getting (?:a|my) degree in)\\s+(.+)`),
    offline: true,
    run: (m, _c, out) => {
      const p = phrase(m[1]!.replace(VALUE_TAIL, ''));
      if (FIELD_OF_STUDY.has(p)) out.fact('major', p);
    },
  },
];

// ---------------------------------------------------------------------------
// PREFERENCE rules

const LIKE_VERB = String.raw`(?:like|love|enjoy|adore|prefer|dig|am (?:really |totally |so |very |absolutely )?(?:into|obsessed with|crazy about|passionate about|addicted to|in love with|fond of)|am (?:a )?(?:big |huge |massive |major |die hard |diehard |real |true |great )?fan of|have a (?:passion|soft spot|thing|weakness) for|cannot get enough of|live for)`;
const DISLIKE_VERB = String.raw`(?:hate|dislike|detest|despise|loathe|abhor|cannot stand|cannot bear|do not ${ADV}(?:like|enjoy|care for|love)|am not ${ADV}(?:a )?(?:big |huge )?fan of|am not ${ADV}(?:into|fond of)|have never liked|never liked)`;

function prefer(object: string, verb: string): string {
  // "I prefer tea to coffee": the rejected half goes.
  if (!/prefer/i.test(verb) || /^(?:to |\S+ing\b)/i.test(object)) return object.replace(/\s+(?:rather than|instead of|over|than)\s+.+$/i, '');
  return object.replace(/\s+(?:rather than|instead of|over|than|to)\s+.+$/i, '');
}

function emitItems(object: string, stance: Stance, out: Out, mode: Mode, hint?: PreferenceCategory): void {
  // A listed phrase with a preposition in it ("studying in groups") before the tail is cut.
  const whole = hint ? null : known(stripItem(phrase(object)));
  if (whole) return out.pref(stance, whole);
  for (const item of listItems(object)) {
    const p = classify(item, mode, hint);
    if (p) out.pref(stance, p);
  }
}

const GENRE_WORD = /^(?:country|gospel|christian|house|latin|musical|music|female|male|rock|pop|rap|jazz|classical|metal|indie|k pop|hip hop|r b|punk|folk|edm|techno|blues)$/;

function favorite(out: Out, mode: Mode, nounRaw: string | undefined, object: string): void {
  const noun = nounRaw ? phrase(nounRaw) : '';
  let hint = noun ? FAVORITE_NOUN.get(noun) : undefined;
  // "country artist", "rock band", "metal singer": a music noun after a genre.
  if (!hint && noun) {
    const w = words(noun);
    const last = w.at(-1) ?? '';
    // "rock band", "female singer": music. "artist"/"group" alone could be a painter or a gang.
    if (MUSIC_NOUN.has(last)) hint = 'music';
    else if ((last === 'artist' || last === 'group') && w.length > 1 && (known(w.slice(0, -1).join(' '), 'music') || GENRE_WORD.test(w.slice(0, -1).join(' ')))) hint = 'music';
    const genre = genrePhrase(noun);
    if (!hint && (noun === 'movie' || noun === 'movies' || noun === 'film' || noun === 'films' || genre)) {
      // A favorite movie is a title; only a genre maps ("my favorite movies are horror movies").
      for (const item of listItems(object)) {
        const g = known(stripItem(phrase(item)), 'movie_genre') ?? genrePhrase(stripItem(phrase(item)));
        if (g) out.pref('like', g);
      }
      return;
    }
  }
  if (noun && !hint) return;
  emitItems(object, 'like', out, mode, hint);
}

const PREF_RULES: Rule[] = [
  {
    re: re(`i ${ADV}(${LIKE_VERB})\\s+(.+)`),
    run: (m, _c, out, mode) => emitItems(prefer(m[2]!, m[1]!), 'like', out, mode),
  },
  {
    re: re(`i ${ADV}${DISLIKE_VERB}\\s+(?:${ADV})(.+)`),
    run: (m, _c, out, mode) => emitItems(m[1]!, 'dislike', out, mode),
  },
  // "I'm a huge coffee lover", "I'm a baseball fan".
  {
    re: re(`i am ${ADV}an? (?:(?:big|huge|massive|major|die hard|diehard|real|true|total|great|avid)\\s+)*(.+?) (?:fan|lover|addict|enthusiast|fanatic|junkie|nut|buff)`),
    run: (m, _c, out, mode) => emitItems(m[1]!, 'like', out, mode),
  },
  // "My favorite food is sushi", "my favourite band is Metallica".
  {
    re: re(`my ${ADV}(?:absolute |all time |all-time |most |personal )?(?:favou?rite|fave|fav) (.+?) (?:is|are|has to be|have to be|would be|would have to be|is probably|is definitely|of all time is) (.+)`),
    run: (m, _c, out, mode) => favorite(out, mode, m[1], m[2]!),
  },
  // "Sushi is my favorite (food)".
  {
    re: re(`(.+?) (?:is|are) ${ADV}(?:probably |definitely )?my (?:absolute |all time |all-time |most |personal )?(?:favou?rite|fave|fav)(?: (.+?))?(?: of all time| ever)?`),
    run: (m, _c, out, mode) => {
      if (words(phrase(m[1]!)).length > 5) return;
      favorite(out, mode, m[2], m[1]!);
    },
  },
  // "I listen to jazz" / "I only listen to country music": listening is liking.
  { re: re(`i ${ADV}listen to (.+)`), run: (m, _c, out, mode) => { for (const item of listItems(m[1]!)) { const p = musicItem(phrase(item), mode); if (p) out.pref('like', p); } } },
  // "I learn best with flashcards".
  {
    re: re(`i ${ADV}(?:learn|study|remember things) (?:best|better) (?:with|by|when|using|through|in) (.+)`),
    run: (m, _c, out) => {
      const x = stripItem(phrase(m[1]!));
      const hit = known(x, 'study_style') ?? known(`studying ${x}`, 'study_style');
      if (hit) out.pref('like', hit);
      else if (nounish(x, 5)) out.pref('like', { category: 'study_style', item: x });
    },
  },
  // Offline only: habits read as liking.
  { re: re(`i ${ADV}play (.+)`), offline: true, run: (m, _c, out, mode) => { for (const i of listItems(m[1]!)) { const p = playedItem(phrase(i), mode); if (p) out.pref('like', p); } } },
  { re: re(`i ${ADV}eat (?:a lot of |lots of |mostly |mainly |so much |plenty of )?(.+)`), offline: true, run: (m, _c, out, mode) => { for (const i of listItems(m[1]!)) { const p = foodItem(phrase(i), mode); if (p) out.pref('like', p); } } },
  { re: re(`i ${ADV}drink (?:a lot of |lots of |mostly |mainly )?(.+)`), offline: true, run: (m, _c, out, mode) => { for (const i of listItems(m[1]!)) { const p = drinkItem(phrase(i), mode); if (p) out.pref('like', p); } } },
  { re: re(`i ${ADV}watch (?:a lot of |lots of )?(.+)`), offline: true, run: (m, _c, out) => { for (const i of listItems(m[1]!)) { const p = watchedItem(phrase(i)); if (p) out.pref('like', p); } } },
];

// ---------------------------------------------------------------------------
// RELATIONSHIP_EVENT rules

const FAMILY = String.raw`(mom|mother|mum|dad|father|parents|sister|brother|grandma|grandmother|grandpa|grandfather|grandparents|son|daughter|wife|husband|aunt|uncle|cousin|niece|nephew|stepmom|stepdad|stepmother|stepfather|baby|kids|children|little brother|little sister|older brother|older sister|big brother|big sister|younger brother|younger sister)`;
const FAMILY_EVENT: readonly [RegExp, string][] = [
  [/^(?:passed away|died|passed)\b/i, 'passed_away'],
  [/^(?:got|is getting) married\b/i, 'married'],
  [/^(?:got|is getting) divorced\b|^(?:split up|separated|divorced)\b/i, 'divorced'],
  [/^(?:had|is having|just had) a baby\b|^(?:is|got) pregnant\b/i, 'baby'],
  [/^(?:got|is|has been|was) (?:really |very )?sick\b(?! of)/i, 'sick'],
  [/^(?:is|was|has been|went|ended up) (?:in|to) the hospital\b/i, 'hospital'],
  [/^(?:got|is) engaged\b/i, 'engaged'],
  [/^graduated\b/i, 'graduated'],
  [/^(?:has|got|was diagnosed with) cancer\b/i, 'cancer'],
  [/^(?:was|got) diagnosed with\b/i, 'diagnosis'],
  [/^had (?:an? )?(?:\w+ )?surgery\b/i, 'surgery'],
  [/^moved (?:in|out|away|back)\b/i, 'moved'],
  [/^(?:got|started) a new job\b/i, 'new_job'],
  [/^(?:lost (?:his|her|their) job|got fired|got laid off)\b/i, 'lost_job'],
  [/^retired\b/i, 'retired'],
];

const BODY = String.raw`(arm|leg|wrist|ankle|foot|hand|finger|toe|nose|rib|ribs|collarbone|back|knee|hip|shoulder|neck|elbow|jaw)`;
const ILLNESS = String.raw`(flu|the flu|a cold|covid|coronavirus|a fever|fever|a migraine|migraine|a concussion|concussion|an infection|food poisoning|pneumonia|strep throat|strep|chickenpox|mono|bronchitis)`;
const EXAM_MOD = String.raw`(?:(?:big|final|important|huge|math|history|chemistry|chem|biology|bio|physics|english|science|midterm|entrance|bar|calculus|statistics|spanish|french|korean|school|college|university)\s+)?`;
const EXAM_NOUN = String.raw`(?:exams?|tests?|finals|midterms?|quiz|quizzes)(?! results| scores)`;
const EXAMS = String.raw`(?:an? |my |the |all my |our |two |three |some |another )?${EXAM_MOD}${EXAM_NOUN}`;

function slugWord(s: string): string {
  return phrase(s).replace(/^(?:an?|the)\s+/, '');
}

/** "went to X", "visited X": a destination, or null. */
function destination(raw: string, strict: boolean): string | null {
  // Never a lowercase guess: "got back from vacation" names no place.
  const place = placeOf(raw.replace(/^(?:the )?(?=\p{Lu})/u, ''), false);
  if (!place) return null;
  if (place.kind === 'country' || place.kind === 'city') {
    // "went to X" names a trip only for a known place; a capitalized name could be a shop.
    if (strict && place.kind === 'city' && !CITY.has(place.name)) return null;
    return place.name;
  }
  // A state or region is a destination too ("I went to Texas"), though not a city.
  const p = phrase(raw.replace(VALUE_TAIL, '').split(',')[0] ?? '');
  return REGION.has(p) && !p.startsWith('the ') && p.length > 2 ? p : null;
}

const EVENT_RULES: Rule[] = [
  // work
  { re: re(`i ${ADV}(?:got|landed|found|have|started|start|am starting|began) (?:a |my )?new job(?: .*)?`), run: (_m, c, out) => out.event('work', 'new job', c) },
  { re: re(`i ${ADV}(?:got|landed) (?:a|the) job(?! offer)(?: .*)?`), run: (_m, c, out) => out.event('work', 'new job', c) },
  { re: re(`i ${ADV}(?:got|received|have) (?:a|the) job offer(?: .*)?`), run: (_m, c, out) => out.event('work', 'job offer', c) },
  { re: re(`i ${ADV}started (?:working|work) (?:at|for) .+`), run: (_m, c, out) => out.event('work', 'new job', c) },
  { re: re(`i ${ADV}(?:got|was) promoted(?: .*)?|i ${ADV}got (?:a|my) promotion(?: .*)?`), run: (_m, c, out) => out.event('work', 'promotion', c) },
  { re: re(`i ${ADV}(?:quit|left) my job(?: .*)?`), run: (_m, c, out) => out.event('work', 'quit job', c) },
  { re: re(`i ${ADV}(?:got|was) (?:fired|laid off|let go)(?: .*)?|i ${ADV}lost my job(?: .*)?`), run: (_m, c, out) => out.event('work', 'lost job', c) },
  { re: re(`i ${ADV}(?:have|had|got|am having) (?:a |an |my )?(?:job )?interview(?: .*)?`), run: (_m, c, out) => out.event('work', 'job interview', c) },
  { re: re(`i ${ADV}(?:just )?retired(?: .*)?`), run: (_m, c, out) => out.event('work', 'retired', c) },
  // school
  { re: re(`i ${ADV}(?:have|had|got|am taking|took) ${EXAMS}(?: .*)?`), run: (_m, c, out) => out.event('school', 'exam', c) },
  { re: re(`my ${EXAM_MOD}${EXAM_NOUN} (?:is|are|was|were|went|starts|start|begins?)(?: .*)?`), run: (_m, c, out) => out.event('school', 'exam', c) },
  {
    re: re(`i ${ADV}(finished|completed|am done with|passed|failed|aced|bombed|flunked) ${EXAMS}(?: .*)?`),
    run: (m, c, out) => {
      const verb = m[1]!.toLowerCase();
      const what = verb === 'passed' || verb === 'aced' ? 'passed exam' : verb === 'failed' || verb === 'bombed' || verb === 'flunked' ? 'failed exam' : 'finished exams';
      out.event('school', what, c);
    },
  },
  { re: re(`i ${ADV}graduated(?: .*)?`), run: (_m, c, out) => out.event('school', 'graduated', c) },
  { re: re(`i ${ADV}(?:got into|got accepted (?:in)?to|was accepted (?:in)?to|got admitted to|was admitted to) .+`), run: (_m, c, out) => out.event('school', 'admission', c) },
  { re: re(`i ${ADV}(?:started|start|am starting|began) (?:college|university|uni|grad school|graduate school|high school|school|classes|my (?:first )?(?:semester|year) .*|my (?:first )?semester)(?: .*)?`), run: (_m, c, out) => out.event('school', 'started school', c) },
  { re: re(`i ${ADV}dropped out(?: .*)?`), run: (_m, c, out) => out.event('school', 'dropped out', c) },
  // travel: a known place after "went to"; traveled/visited also take a capitalized name.
  { re: re(`i ${ADV}(?:went|am going|will go|will be going) (?:on (?:a )?(?:trip|vacation|holiday) )?to (.+)`), run: (m, c, out) => { const d = destination(m[1]!, true); if (d) out.event('travel', d, c); } },
  { re: re(`i ${ADV}(?:traveled|travelled|flew|took a trip|went on a trip|went on vacation|went on holiday|am traveling|am travelling|am flying|will be traveling|will be travelling|am going on a trip|am heading) to (.+)`), run: (m, c, out) => { const d = destination(m[1]!, false); if (d) out.event('travel', d, c); } },
  { re: re(`i ${ADV}visited (.+)`), run: (m, c, out) => { const d = destination(m[1]!, false); if (d) out.event('travel', d, c); } },
  { re: re(`i ${ADV}(?:got|came) back from (?:a trip to |my trip to |vacation in )?(.+)`), run: (m, c, out) => { const d = destination(m[1]!, false); if (d) out.event('travel', d, c); } },
  { re: re(`i am ${ADV}(?:on (?:a )?(?:vacation|trip|holiday)|traveling|travelling) (?:in|to|around) (.+)`), run: (m, c, out) => { const d = destination(m[1]!, false); if (d) out.event('travel', d, c); } },
  { re: re(`i have ${ADV}(?:been|traveled|travelled) to (.+)`), offline: true, run: (m, c, out) => { const d = destination(m[1]!, false); if (d) out.event('travel', d, c); } },
  // relationship
  { re: re(`i ${ADV}broke up with .+|(?:my (?:girlfriend|boyfriend|partner|gf|bf|ex) and i|we) ${ADV}broke up(?: .*)?|i ${ADV}(?:got|was) dumped(?: .*)?|i ${ADV}broke up(?: .*)?`), run: (_m, c, out) => out.event('relationship', 'breakup', c) },
  { re: re(`i ${ADV}got married(?: .*)?|(?:my (?:wife|husband|partner|girlfriend|boyfriend|fiance|fiancee) and i|we) ${ADV}got married(?: .*)?`), run: (_m, c, out) => out.event('relationship', 'married', c) },
  { re: re(`i ${ADV}(?:got|am|just got) engaged(?: .*)?`), run: (_m, c, out) => out.event('relationship', 'engaged', c) },
  { re: re(`i am ${ADV}getting married(?: .*)?`), run: (_m, c, out) => out.event('relationship', 'getting married', c) },
  { re: re(`i ${ADV}(?:got|am getting) (?:a )?divorce(?:d)?(?: .*)?`), run: (_m, c, out) => out.event('relationship', 'divorced', c) },
  { re: re(`i ${ADV}(?:started|began) (?:dating|seeing|going out with) .+`), run: (_m, c, out) => out.event('relationship', 'started dating', c) },
  { re: re(`i ${ADV}(?:have|got) a new (?:girlfriend|boyfriend|partner|gf|bf)(?: .*)?`), run: (_m, c, out) => out.event('relationship', 'new partner', c) },
  // family
  {
    re: re(`my ${FAMILY} ${ADV}(.+)`),
    run: (m, c, out) => {
      const member = slugWord(m[1]!);
      for (const [what, slug] of FAMILY_EVENT) if (what.test(m[2]!)) return out.event('family', `${member} ${slug}`, c);
    },
  },
  { re: re(`i ${ADV}(?:had|am having|just had) a baby(?: .*)?|i am ${ADV}pregnant(?: .*)?|we ${ADV}(?:had|are having) a baby(?: .*)?`), run: (_m, c, out) => out.event('family', 'baby', c) },
  { re: re(`i ${ADV}lost my ${FAMILY}(?: .*)?`), run: (m, c, out) => out.event('family', `${slugWord(m[1]!)} passed_away`, c) },
  // health
  { re: re(`i ${ADV}(?:got|am|was|have been|feel|am feeling) (?:really |very |so |super |a bit |kind of )?sick(?! of| and tired)(?: .*)?`), run: (_m, c, out) => out.event('health', 'sick', c) },
  { re: re(`i ${ADV}(?:have|got|caught|had|have got|came down with) ${ILLNESS}(?: .*)?`), run: (m, c, out) => out.event('health', slugWord(m[1]!), c) },
  { re: re(`i ${ADV}broke my ${BODY}(?: .*)?`), run: (m, c, out) => out.event('health', `broke ${m[1]!}`, c) },
  { re: re(`i ${ADV}(?:sprained|twisted|hurt|injured|tore a ligament in|dislocated) my ${BODY}(?: .*)?`), run: (m, c, out) => out.event('health', `injured ${m[1]!}`, c) },
  { re: re(`i ${ADV}(?:had|have|am having|got|need|am getting) (?:an? )?(?:(\\w+) )?surgery(?: .*)?`), run: (m, c, out) => out.event('health', m[1] && !/^(?:emergency|major|minor|big|my|some)$/i.test(m[1]) ? `${m[1]} surgery` : 'surgery', c) },
  { re: re(`i am ${ADV}in the hospital(?: .*)?|i ${ADV}(?:went to|ended up in|was in|got out of) the (?:hospital|er|emergency room)(?: .*)?`), run: (_m, c, out) => out.event('health', 'hospital', c) },
  { re: re(`i ${ADV}(?:was|got|have been) diagnosed with (.+)`), run: (m, c, out) => { const p = phrase(m[1]!.replace(VALUE_TAIL, '')).replace(/^(?:an?|the)\s+/, ''); if (nounish(p, 4)) out.event('health', `diagnosed ${p}`, c); } },
  // Physical injury only: "I was hurt by my friend" is not health.
  { re: re(`i ${ADV}(?:got|was) (?:badly |seriously )?(?:hurt|injured)(?: (?:at|in|during|while|playing|last|yesterday|today|this)\b.*)?`), run: (_m, c, out) => out.event('health', 'injured', c) },
];

// ---------------------------------------------------------------------------
// EMOTIONAL_PATTERN rules

const SCHOOL_STRESS = new Set(L.SCHOOL_STRESSORS.map(phrase));
const WORK_STRESS = new Set(L.WORK_STRESSORS.map(phrase));
const SCHOOL_STRESS_WORDS = new Set(L.SCHOOL_STRESSORS.filter((w) => !w.includes(' ')));
const WORK_STRESS_WORDS = new Set(L.WORK_STRESSORS.filter((w) => !w.includes(' ')));

function stressTrigger(raw: string, out: Out): void {
  const value = phrase(raw.replace(/\s+(?:so much|a lot|really bad|sometimes|all the time|too|lately|recently)$/i, ''))
    .replace(/^(?:all (?:of )?|all the )/, '')
    .replace(/^(?:(?:sometimes|often|always|usually|honestly|lately|recently|really) )+/, '');
  const p = value.replace(/^(?:the |my |upcoming |all my |all the )+/, '');
  if (p === '' || words(p).length > 5 || NOT_ITEM.test(p.replace(/\bmy\b/g, ''))) return;
  const w = words(p);
  // "being a school teacher" is work: a job word outweighs the school words.
  const work = WORK_STRESS.has(p) || w.some((x) => WORK_STRESS_WORDS.has(x) || (OCCUPATION.has(x) && !/^(?:student|undergrad|undergraduate)$/.test(x)));
  const school = !work && (SCHOOL_STRESS.has(p) || w.some((x) => SCHOOL_STRESS_WORDS.has(x)));
  if (school) out.emotion('stress_trigger_school', value);
  else if (work) out.emotion('stress_trigger_work', value);
}

const NEG_STATE = String.raw`(?:stressed|anxious|sad|down|upset|overwhelmed|angry|mad|frustrated|nervous|depressed|worried|tense|lonely|low|blue|burnt out|burned out)`;
const RELAX = String.raw`(?:relax|unwind|de stress|de-stress|destress|cope|decompress|clear my head|deal with stress|relieve stress|calm down|calm myself down|chill out|feel calm|blow off steam|feel better|recharge|reset)`;
/** A coping action is something done, not a state or a reaction ("I can't sleep", "I get headaches"). */
const NOT_COPING = /^(?:am|get|gets|feel|feels|cannot|can|do not|have|has|tend|want|need|start|started|become|lose|stop|just want|went|got|had|took|did|was|were|used|like|love|would|will|overthink|shut down|freak out|panic|break down|try|trying|know|learned|learnt|forgot|remember|decided|began|wanted|needed|managed|choose|chose|refuse|hate|should|must|could|might|may|always|never|not|usually|go crazy|lash out|snap|turned|found|moved|came|left|quit)\b/i;

function coping(raw: string, out: Out): void {
  const p = phrase(raw.replace(/^(?:when|whenever|if)\b[^,]*,\s*/i, '').replace(/\s+(?:to (?:relax|unwind|calm down|feel better|cope)|and it helps|which helps|it helps|when|whenever|if)\b.*$/i, '')).replace(/^(?:(?:usually|often|always|just|tend to|like to|love to|try to|prefer to|will)\s+)+/, '');
  if (p === '' || NOT_COPING.test(p) || words(p).length > 8 || /\b(?:you|your)\b/.test(p)) return;
  out.emotion('coping_preference', p);
}

const EMOTION_RULES: Rule[] = [
  // social_energy: only an explicit self-description (§12.3.1 D).
  {
    re: re(`i am ${ADV}(?:an? |a bit of an? |kind of an? |sort of an? |more of an? |such an? |an? (?:total|complete|huge|big|real|true|bit of an?) )?(?:(?:very|pretty|really|quite|super|extremely|definitely|mostly)\\s+)?(introvert|introverted|extrovert|extroverted|extravert|extraverted|ambivert)(?: person| type)?(?: at heart| by nature| for sure| mostly)?`),
    run: (m, _c, out) => {
      const w = m[1]!.toLowerCase();
      out.emotion('social_energy', w.startsWith('intro') ? 'introvert' : w.startsWith('ambi') ? 'ambivert' : 'extrovert');
    },
  },
  {
    re: re(`i (?:would )?(?:consider|call) myself (?:an? )?(?:(?:very|pretty|really|quite|bit of an?)\\s+)*(introvert|introverted|extrovert|extroverted|ambivert)`),
    run: (m, _c, out) => {
      const w = m[1]!.toLowerCase();
      out.emotion('social_energy', w.startsWith('intro') ? 'introvert' : w.startsWith('ambi') ? 'ambivert' : 'extrovert');
    },
  },
  // baseline_mood: habitual ("usually", "a … person"), not how they feel today.
  { re: re(`i am (?:(?:just|also|really|honestly) )?(?:usually|generally|mostly|typically|normally|always|often|naturally|basically|overall|pretty much always)\\s+(?:an? )?(?:(?:very|pretty|really|quite|super|fairly|so)\\s+)?(${MOOD_ALT})(?:\\s+(?:person|guy|girl|woman|man|individual|people))?(?:\\s+(?:in general|most of the time|all the time|by nature|overall))?`), run: (m, _c, out) => out.emotion('baseline_mood', m[1]!) },
  { re: re(`i am ${ADV}(?:an? )(?:(?:very|pretty|really|quite|super|fairly|generally|naturally|mostly)\\s+)?(${MOOD_ALT}) (?:person|guy|girl|woman|man|individual|soul)(?:\\s+(?:in general|most of the time|overall|by nature))?`), run: (m, _c, out) => out.emotion('baseline_mood', m[1]!) },
  { re: re(`i ${ADV}tend to be (?:(?:very|pretty|really|quite|super|fairly|a bit|a little)\\s+)?(${MOOD_ALT})`), run: (m, _c, out) => out.emotion('baseline_mood', m[1]!) },
  { re: re(`i am (?:(?:very|pretty|really|quite|super|fairly)\\s+)?(${MOOD_ALT}) (?:most of the time|in general|by nature|all the time|pretty much all the time)`), run: (m, _c, out) => out.emotion('baseline_mood', m[1]!) },
  // stress triggers: a habit ("X stresses me out", "I get stressed about X").
  { re: re(`(?:all )?(.+?) ${ADV}(?:stress|stresses|stressed|is stressing|are stressing|has been stressing|have been stressing) me out(?: .*)?`), run: (m, _c, out) => stressTrigger(m[1]!, out) },
  { re: re(`(.+?) ${ADV}(?:make|makes|give|gives) me (?:so |really |very |super |a lot of |so much )?(?:stressed|anxious|nervous|anxiety|stress|worried)(?: out)?(?: .*)?`), run: (m, _c, out) => stressTrigger(m[1]!, out) },
  { re: re(`(.+?) (?:is|are|has been|have been|gets|get) ${ADV}(?:so |really |very |super |extremely |pretty )?stressful(?: for me)?(?: .*)?`), run: (m, _c, out) => stressTrigger(m[1]!, out) },
  { re: re(`i ${ADV}(?:get|feel|always get|often get|usually get) (?:so |really |very |super |a bit |a little |pretty |quite )?(?:stressed|anxious|nervous|worried)(?: out)? (?:about|over|during|before|because of|with|at|by|from) (.+)`), run: (m, _c, out) => stressTrigger(m[1]!, out) },
  { re: re(`i am ${ADV}(?:always|constantly|often|usually) (?:so |really )?(?:stressed|anxious|worried|nervous)(?: out)? (?:about|over|because of|with|by) (.+)`), run: (m, _c, out) => stressTrigger(m[1]!, out) },
  { re: re(`i am (?:so |really |very |super |pretty |a bit |a little )?(?:stressed|anxious|worried)(?: out)? (?:about|over|because of|with|by) (.+)`), offline: true, run: (m, _c, out) => stressTrigger(m[1]!, out) },
  // coping_preference: what they do about stress.
  { re: re(`(?:when|whenever|if) (?:i am|i get|i feel|i am feeling) ${ADV}(?:\\w+ )?${NEG_STATE}(?: out)?,? i (.+)`), run: (m, _c, out) => coping(m[1]!, out) },
  {
    re: re(`(?:i (?:find that|think|feel like) )?(.+?) ${ADV}(?:helps|help) me (?:to )?${RELAX}(?: .*)?`),
    run: (m, _c, out) => {
      // The subject is the coping activity ("Running helps me relax"), not "I …" or a pronoun.
      if (!/^(?:i|it|that|this|she|he|they|you|which|who)\b/i.test(m[1]!.trim()) && !/\b(?:not|never)\b/i.test(m[1]!)) coping(m[1]!, out);
    },
  },
  { re: re(`i ${ADV}(?:(?:like|love|tend|try|prefer) to\\s+)?(.+?) to (?:help me )?${RELAX}`), run: (m, _c, out) => coping(m[1]!.replace(/^use (.+?) as (?:a way|an outlet|a means)$/i, '$1'), out) },
  { re: re(`to ${RELAX},? i ${ADV}(?:(?:like|love|tend|try) to\\s+)?(.+)`), run: (m, _c, out) => coping(m[1]!, out) },
  { re: re(`i ${ADV}(?:cope|deal) with (?:stress|anxiety|it|my stress) by (.+)`), run: (m, _c, out) => coping(m[1]!, out) },
];

const RULES: readonly Rule[] = [...FACT_RULES, ...PREF_RULES, ...EVENT_RULES, ...EMOTION_RULES];

// ---------------------------------------------------------------------------
// Entry points

function extractRules(text: string, at: Date, mode: Mode): Out {
  const out = new Out(mode, at);
  for (const clause of clausesOf(text)) {
    out.from(clause);
    for (const rule of RULES) {
      if (rule.offline && mode !== 'offline') continue;
      const m = rule.re.exec(clause.text);
      if (m) rule.run(m, clause, out, mode);
    }
  }
  out.from({ raw: '', text: '', lowercaseStyle: false });
  for (const c of extractKorean(text)) out.push(c.type, c.key, c.value);
  return out;
}

/**
 * The anchored rules, then the broad extractor on the sentences no rule keyed
 * (at most BROAD.maxPerMessage of them, the most wordy first), so "I love
 * sushi" stays a preference and "I went to a book club yesterday" becomes
 * a dated event.
 */
function extract(text: string, at: Date, mode: Mode): Candidate[] {
  const out = extractRules(text, at, mode);
  const folded = (s: string) => s.normalize('NFKC').replace(APOSTROPHES, "'").toLowerCase();
  const sources = out.sources.map(folded).filter((s) => s !== '');
  const broad: Candidate[] = [];
  let before: StatedTime | null = null;
  for (const sentence of parseSentences(text)) {
    const f = folded(sentence.text);
    const time = timeOf(sentence, at);
    if (!sources.some((src) => f.includes(src))) {
      const c = extractSentence(sentence, at, before, time);
      if (c) broad.push(c);
    }
    if (time.tense === 'past') before = time.stated() ?? before;
  }
  broad.sort((a, b) => b.value.length - a.value.length);
  for (const c of broad.slice(0, BROAD.maxPerMessage)) out.push(c.type, c.key, c.value, c.occurred);
  return out.list;
}

/** The anchored rules alone (no broad extraction), for the rules' own tests. */
export function extractRulesOnly(text: string, at: Date, mode: Mode = 'heuristic'): Candidate[] {
  return extractRules(text, at, mode).list;
}

/**
 * The always-on heuristic extractor (§12.2): deterministic, anchored patterns
 * over first-person statements. `at` is the turn time; events are bucketed by
 * its UTC month. Every key satisfies `parseKey`.
 */
export function extractHeuristic(text: string, at: Date): Candidate[] {
  // The write-back reads the same message twice (its reads, then its decision):
  // the last answer is kept so compromise parses it once. Same inputs, same output.
  if (lastHeuristic?.text !== text || lastHeuristic.at !== at.getTime()) lastHeuristic = { text, at: at.getTime(), out: extract(text, at, 'heuristic') };
  return lastHeuristic.out.map((c) => ({ ...c }));
}

let lastHeuristic: { text: string; at: number; out: Candidate[] } | null = null;

/**
 * The offline stand-in for the LLM extractor (used when no LLM is configured and
 * the §12.2 gate fires): the heuristic patterns plus broader ones ("I play X",
 * "I eat X", "I've been to X", job-suffix occupations).
 */
export function extractOffline(text: string, at: Date): Candidate[] {
  return extract(text, at, 'offline');
}

// ---------------------------------------------------------------------------
// "Forget X" (§12.4 #3)

const TARGET_LEAD = /^(?:about |that |the fact that |everything about |all about |what i (?:said|told you) about |what you know about |my info about |info about )+/;
const TARGET_TRAIL = /\s+(?:please|pls|anymore|ok|okay|thanks|thank you|too|as well|for me|from your memory|forever|thing|stuff|part|bit)$/;

/** Phrases that name a fact without its value ("where I live", "my job"). */
const TARGET_DESCRIPTORS: readonly [readonly string[], readonly string[]][] = [
  [['where i live', 'where i am living', 'my city', 'my current city', 'the city i live in', 'my location', 'my address', 'where i moved', 'where i moved to', 'my place of residence', 'where i stay'], [factKey('current_city')]],
  [['my hometown', 'my home town', 'where i am from', 'where i come from', 'where i grew up', 'where i was born', 'my birthplace', 'my origin', 'my origins'], [factKey('home_city'), factKey('home_country')]],
  [['my country', 'my home country', 'my nationality', 'my country of origin'], [factKey('home_country')]],
  [['my job', 'what i do', 'what i do for work', 'what i do for a living', 'my occupation', 'my work', 'my profession', 'my career', 'where i work', 'my employer'], [factKey('occupation')]],
  [['my school', 'my university', 'my college', 'my uni', 'where i study', 'where i go to school', 'which school i go to', 'my high school'], [factKey('school')]],
  [['my major', 'what i study', 'what i am studying', 'my degree', 'my field of study', 'my field'], [factKey('major')]],
  [['my timezone', 'my time zone'], [factKey('timezone')]],
  [['my language', 'my native language', 'my first language', 'my mother tongue', 'what language i speak', 'the language i speak', 'my primary language'], [factKey('language_primary')]],
  [['my mood', 'my usual mood', 'my baseline mood', 'how i usually feel'], [emotionKey('baseline_mood')]],
  [['that i am an introvert', 'that i am an extrovert', 'my social energy', 'my personality type', 'whether i am an introvert or extrovert', 'being an introvert', 'being an extrovert'], [emotionKey('social_energy')]],
  [['how i cope', 'how i cope with stress', 'how i deal with stress', 'what helps me relax', 'my coping'], [emotionKey('coping_preference')]],
  [['what stresses me out', 'my stress', 'my stress triggers', 'what stresses me'], [emotionKey('stress_trigger_school'), emotionKey('stress_trigger_work')]],
  [['my school stress', 'that school stresses me out', 'that exams stress me out'], [emotionKey('stress_trigger_school')]],
  [['my work stress', 'that work stresses me out', 'that my job stresses me out'], [emotionKey('stress_trigger_work')]],
];

const CATEGORIES: readonly PreferenceCategory[] = ['food', 'drink', 'music', 'movie_genre', 'game', 'sport', 'hobby', 'study_style'];

/**
 * "Forget X" (§12.4 #3): the memory keys X can name, for the caller to match
 * against ACTIVE memories. A described fact ("my job") maps to its key; a
 * statement ("that I live in Seoul") to the keys it would extract; a bare item
 * ("sushi") to its preference key, or, when its category is unknown, to that
 * slug under every category. [] when nothing maps.
 */
export function keysForTarget(target: string, at: Date): string[] {
  let p = phrase(target);
  for (let prev = ''; prev !== p; ) {
    prev = p;
    p = p.replace(TARGET_LEAD, '').replace(TARGET_TRAIL, '').trim();
  }
  if (p === '') return [];
  for (const [phrases, keys] of TARGET_DESCRIPTORS) {
    if (phrases.some((d) => p === d || p.startsWith(`${d} `))) return [...keys];
  }
  // A statement: whatever it would store now.
  const stated = [...new Set(extractOffline(p, at).map((c) => c.key))];
  if (stated.length > 0) return stated;
  // "my favorite food", "my ex": a slot or a person, not an item; the caller falls back to the last surfaced memory.
  if (/^(?:my|our|his|her|their) /.test(p) && !known(stripItem(p))) return [];
  // "my love of sushi", "sushi": the item.
  const item = stripItem(p.replace(/^(?:that i (?:like|love|hate)|my (?:love|hatred|dislike) (?:of|for)|how much i (?:like|love|hate))\s+/, ''));
  const hit = classify(item, 'heuristic');
  if (hit) return [preferenceKey(hit.category, hit.item)].filter((k): k is string => k !== null);
  if (!nounish(item, 4) || /^(?:that|it|this|everything|all|what|where|who|how|why|when)$/.test(item)) return [];
  return CATEGORIES.map((c) => preferenceKey(c, item)).filter((k): k is string => k !== null);
}
