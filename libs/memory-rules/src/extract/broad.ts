/**
 * The broad extractor (issue 15): what real talk tells about the user — what
 * they did, plan, feel, own, whom they spend time with — as §12.3.1 memories,
 * where the anchored rules of heuristic.ts find no key. compromise parses the
 * sentence (terms, tags, lemmas); chrono-node, through stated-time.ts, dates it;
 * the tables of broad-lexicon.ts decide the type and domain.
 *
 * One sentence gives at most one memory:
 * - EMOTIONAL_PATTERN when it states a coping activity, a work or school stress,
 *   or a long-run mood (§12.3.1 D's ids only);
 * - else a RELATIONSHIP_EVENT `event:<domain>:<yyyy_mm>:<slug>` (§12.3.1 C),
 *   the month being the stated one when the sentence names a time, the slug
 *   made of its content words, the value the user's own words.
 * Left out, for precision: questions, negations, sentences about the other
 * person rather than the user, thanks and small talk, and sentences with fewer
 * than two content words. Pure.
 */
import nlp from 'compromise';
import { BROAD } from '../config.js';
import type { EmotionPattern, EventDomain } from '../config.js';
import { canonicalText, emotionKey, eventKey, slugify } from '../keys.js';
import type { Candidate, StatedTime } from '../types.js';
import { COPING, DOMAIN_WORDS, FIRST_PERSON, HABIT, MOOD, PHATIC, PLAN, SECOND_PERSON, SLUG_STOP, STRESS } from './broad-lexicon.js';
import { statedDate, statedTime, type Tense } from './stated-time.js';

interface Term {
  text: string;
  normal: string;
  root: string;
  tags: ReadonlySet<string>;
}

/** One sentence as compromise reads it. */
export interface ParsedSentence {
  /** The sentence as written, trimmed. */
  text: string;
  terms: Term[];
}

// Leading fillers that are not part of what the sentence tells.
const LEAD_FILLER = /^(?:(?:yeah|yes|yep|yup|oh|ohh|wow|whoa|woah|woo+|yay|haha+|hah|hey|well|so|and|but|also|plus|anyway|anyways|honestly|aww*|omg|ah|lol|totally|definitely|absolutely|actually|btw|by the way|guess what|ok|okay|hmm+|um+|uh)\b[,!.…:;\s—–-]*)+/i;
const APOSTROPHES = /[\u2018\u2019\u201B\u02BC`]/g;
const EXPANSIONS: readonly [RegExp, string][] = [
  [/\bi'm\b/g, 'i am'],
  [/\bi've\b/g, 'i have'],
  [/\bi'll\b/g, 'i will'],
  [/\bi'd\b/g, 'i would'],
  [/\bwe're\b/g, 'we are'],
  [/\bwe've\b/g, 'we have'],
  [/\bcan't\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/n't\b/g, ' not'],
  [/\b(it|that|this|what|there|here)'s\b/g, '$1 is'],
];
const NEGATION = /\b(?:not|never|no longer|nothing|nobody|none|neither|nor)\b/;
// Verbs of talking to or about the other person: "I love that you…", "I hope your…".
const TOWARD_YOU = new Set(['love', 'like', 'think', 'hope', 'bet', 'wish', 'agree', 'know', 'feel', 'mean', 'appreciate', 'admire', 'miss', 'understand', 'remember', 'believe', 'guess', 'imagine', 'see', 'hear', 'glad', 'happy', 'proud', 'sorry', 'thank', 'tell', 'want', 'can', 'would']);

/** Splits a message into sentences and reads their terms (with lemmas). */
export function parseSentences(text: string): ParsedSentence[] {
  const doc = nlp(text.replace(APOSTROPHES, "'"));
  doc.compute('root');
  const out: ParsedSentence[] = [];
  for (const s of doc.json() as { text: string; terms: { text: string; normal: string; root?: string; implicit?: string; tags: string[] }[] }[]) {
    out.push({
      text: s.text.trim(),
      terms: s.terms.map((t) => ({ text: t.text, normal: t.implicit ?? t.normal, root: t.root ?? t.implicit ?? t.normal, tags: new Set(t.tags) })),
    });
  }
  return out;
}

/** Lowercase, apostrophes straight, contractions spelled out, punctuation to spaces. */
function plain(text: string): string {
  let s = text.toLowerCase().replace(APOSTROPHES, "'");
  for (const [re, to] of EXPANSIONS) s = s.replace(re, to);
  return s
    .replace(/[^\p{L}\p{N}'\s]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

function hits(words: readonly string[], joined: string, table: readonly string[]): number {
  let n = 0;
  for (const entry of table) {
    if (entry.includes(' ')) {
      if (joined.includes(entry.replace(/\*$/, ''))) n++;
    } else if (entry.endsWith('*')) {
      const stem = entry.slice(0, -1);
      if (words.some((w) => w.startsWith(stem))) n++;
    } else if (words.includes(entry)) n++;
  }
  return n;
}

/** §12.3.1 C: the domain whose words the sentence uses most; `other` when none. */
export function domainOf(words: readonly string[]): EventDomain {
  const joined = ` ${words.join(' ')} `;
  let best: EventDomain = 'other';
  let bestHits = 0;
  for (const [domain, table] of DOMAIN_WORDS) {
    const n = hits(words, joined, table);
    if (n > bestHits) {
      best = domain;
      bestHits = n;
    }
  }
  return best;
}

function isContent(t: Term): boolean {
  if (t.tags.has('Pronoun') || t.tags.has('Determiner') || t.tags.has('Preposition') || t.tags.has('Conjunction') || t.tags.has('Auxiliary') || t.tags.has('Copula')) return false;
  if (t.tags.has('Expression') || t.tags.has('QuestionWord') || t.tags.has('Adverb')) return false;
  const w = t.root || t.normal;
  return w.length > 1 && !SLUG_STOP.has(w) && !SLUG_STOP.has(t.normal) && /\p{L}/u.test(w);
}

/** The sentence's tense as far as dating it goes: a plan, a past event, or the present. */
function tenseOf(lower: string, terms: readonly Term[]): Tense {
  if (PLAN.test(lower)) return 'future';
  return terms.some((t) => t.tags.has('PastTense')) || /\b(?:yesterday|ago|last)\b/.test(lower) ? 'past' : 'present';
}

/** A sentence's tense and the time it states, read once (chrono) when first asked for. */
export interface SentenceTime {
  tense: Tense;
  stated(): StatedTime | null;
}

export function timeOf(s: ParsedSentence, at: Date): SentenceTime {
  const tense = tenseOf(plain(s.text.replace(LEAD_FILLER, '')), s.terms);
  let read: { stated: StatedTime | null } | undefined;
  return {
    tense,
    stated: () => (read ??= { stated: statedTime(s.text, at, tense) }).stated,
  };
}

/** Why a sentence gives no memory, or null when it gives one (exported for tests and the audit of misses). */
export function skipReason(s: ParsedSentence): string | null {
  const text = s.text.replace(LEAD_FILLER, '').trim();
  if (/\?\s*["')\]]*$/.test(text)) return 'question';
  const lower = plain(text);
  const words = lower.split(' ').filter(Boolean);
  if (words.length < BROAD.minWords) return 'short';
  if (PHATIC.some((re) => re.test(lower))) return 'phatic';
  const firstPerson = words.some((w) => FIRST_PERSON.has(w));
  const first = s.terms.find((t) => !t.tags.has('Expression') && !t.tags.has('Adverb'));
  // "Researching piano teachers", "Went hiking with the kids": the subject is the speaker.
  const implicit = !!first && first.tags.has('Verb') && (first.tags.has('Gerund') || first.tags.has('PastTense')) && !first.tags.has('Copula');
  // "Getting a puppy is so exciting!": a gerund subject said of anyone, not "(I am) winning".
  const copulaBeforeSelf = implicit && s.terms.slice(0, s.terms.findIndex((t) => FIRST_PERSON.has(t.normal)) >>> 0).some((t) => t.tags.has('Copula'));
  if (!firstPerson && !implicit) return 'not_first_person';
  if (copulaBeforeSelf) return 'not_first_person';
  if (NEGATION.test(lower)) return 'negated';
  if (words.some((w) => SECOND_PERSON.has(w)) && !words.some((w) => ['my', 'our', 'we', 'us', 'me', 'mine'].includes(w))) {
    const afterI = words[words.indexOf('i') + 1] ?? '';
    const afterAm = words[words.indexOf('i') + 2] ?? '';
    if (TOWARD_YOU.has(afterI) || (afterI === 'am' && TOWARD_YOU.has(afterAm)) || (afterI === 'really' && TOWARD_YOU.has(afterAm))) return 'about_them';
  }
  const content = s.terms.filter(isContent);
  if (content.length < BROAD.minContentWords) return 'no_content';
  if (!content.some((t) => t.tags.has('Noun') || t.tags.has('Gerund') || t.tags.has('Acronym'))) return 'no_content';
  return null;
}

/** The words of what happened, for an event's slug: content lemmas in order, the stated time left out. */
function slugWords(s: ParsedSentence, said: string): string[] {
  const skip = new Set(plain(said).split(' '));
  const out: string[] = [];
  for (const t of s.terms) {
    if (!isContent(t)) continue;
    const w = plain(t.root || t.normal).replace(/'/g, '');
    if (!w || skip.has(w) || out.includes(w)) continue;
    out.push(w);
    if (out.length >= BROAD.slugMaxWords) break;
  }
  return out;
}

/** The user's words as the value: fillers and a relative time dropped (the stated date keeps it). */
function valueOf(s: ParsedSentence, stated: StatedTime | null): string {
  let text = s.text.replace(LEAD_FILLER, '').trim();
  // "I went there yesterday" loses "yesterday"; "Today was long" keeps its subject.
  if (stated && text.includes(stated.text) && !new RegExp(`^\\s*(?:was|is|has|had|were|felt|seemed|will)\\b`, 'i').test(text.replace(stated.text, ''))) text = text.replace(stated.text, ' ');
  text = canonicalText(text.replace(/\s+([,.!;:])/g, '$1').replace(/[,;:—–-]\s*$/, ''));
  const chars = Array.from(text);
  if (chars.length <= BROAD.valueMaxChars) return text;
  const cut = chars.slice(0, BROAD.valueMaxChars).join('');
  const space = cut.lastIndexOf(' ');
  return space > BROAD.valueMaxChars / 2 ? cut.slice(0, space) : cut;
}

function emotionPatternOf(lower: string, domain: EventDomain): EmotionPattern | null {
  if (COPING.test(lower)) return 'coping_preference';
  if (STRESS.test(lower) && (domain === 'work' || domain === 'school') && HABIT.test(lower)) return domain === 'work' ? 'stress_trigger_work' : 'stress_trigger_school';
  if (MOOD.test(lower)) return /\b(?:introvert|extrovert|introverted|extroverted|people person)\b/.test(lower) ? 'social_energy' : 'baseline_mood';
  return null;
}

/**
 * The memory one sentence gives, or null. `at` is the turn's time: stated
 * times resolve against it, and an undated event is filed under its month.
 */
export function extractSentence(s: ParsedSentence, at: Date, before: StatedTime | null = null, time: SentenceTime = timeOf(s, at)): Candidate | null {
  const skip = skipReason(s);
  const lower = plain(s.text.replace(LEAD_FILLER, ''));
  const words = lower.split(' ');
  const domain = domainOf(words);
  const pattern = emotionPatternOf(lower, domain);
  // "I've been feeling down lately" names no thing, and is still a pattern.
  if (skip !== null && !(skip === 'no_content' && pattern)) return null;
  // "My cousin's wedding was last week. I gave a toast.": a past sentence
  // that names no time of its own is dated by the message's previous one.
  const stated = time.stated() ?? (time.tense === 'past' && before ? before : null);
  const value = valueOf(s, stated);
  if (value === '') return null;
  if (pattern) return { type: 'EMOTIONAL_PATTERN', key: emotionKey(pattern), value, extractor: 'heuristic' };
  const what = slugWords(s, stated?.text ?? '');
  if (what.length === 0) return null;
  const key = eventKey(domain, stated ? statedDate(stated) : at, what.join(' '));
  if (!key || !slugify(what.join(' '))) return null;
  return { type: 'RELATIONSHIP_EVENT', key, value, extractor: 'heuristic', ...(stated ? { occurred: stated } : {}) };
}
