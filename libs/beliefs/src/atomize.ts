import { BELIEF_CONFIG, type BeliefType, type Holder, type Polarity } from './config.js';
import {
  CAPABILITY_PHRASES,
  COLLECTIVE_SUBJECTS,
  DROPPED_ADVERBS,
  DROPPED_PHRASES,
  ED_NOT_PAST,
  EMOTIONS,
  HEDGE_PREFIXES,
  ING_ADJECTIVES,
  IRREGULAR_PAST,
  META_PHRASES,
  NON_BELIEF_VERBS,
  OPENERS,
  PAST_MARKERS,
  PHATIC_PREFIXES,
  PLURAL_QUANTIFIERS,
  PREFERENCE_VERBS,
  RELATION_MODIFIERS,
  RELATIONS,
  SECOND_PERSON,
  SELF_EVALUATIONS,
  VALUE_VERBS,
} from './lexicon.js';
import { expandContractions, longestPrefix, phraseIndexes, startsWithPhrase, words } from './text.js';
import type { ClaimCandidate, RawAtom } from './types.js';

/**
 * Confidence of each rule (§4.3 offline). Higher where the surface form leaves
 * little doubt about the belief and its type ("i am worthless", "i hate x"),
 * lower where the rule is a catch-all ("i <verb> ..." facts, "my x is y").
 */
export const RULE_CONFIDENCE = {
  selfEvaluation: 0.85,
  trait: 0.8,
  traitLong: 0.65,
  identityNoun: 0.75,
  feeling: 0.8,
  feelLikeEvaluation: 0.7,
  capability: 0.8,
  value: 0.8,
  valueSuffix: 0.7,
  meta: 0.85,
  relational: 0.8,
  collective: 0.75,
  possession: 0.7,
  experience: 0.65,
  place: 0.7,
  favorite: 0.75,
  myFact: 0.6,
  habit: 0.6,
  usedTo: 0.6,
} as const;

type Atom = Omit<RawAtom, 'sourceIdx'>;

const set = (xs: readonly string[]) => new Set(xs);
const SECOND = set(SECOND_PERSON);
const OPENER = set(OPENERS);
const ADVERB = set(DROPPED_ADVERBS);
const PAST = set(IRREGULAR_PAST);
const ED_OK = set(ED_NOT_PAST);
const ING_ADJ = set(ING_ADJECTIVES);
const NON_BELIEF = set(NON_BELIEF_VERBS);
const RELATION = set(RELATIONS);
const RELATION_MOD = set(RELATION_MODIFIERS);
const QUESTION_OPENERS = set(['am', 'are', 'is', 'do', 'does', 'did', 'can', 'could', 'would', 'will', 'should', 'have', 'has', 'what', 'why', 'how', 'who', 'where', 'which']);
const PRONOUNS = set(['i', 'you', 'we', 'they', 'he', 'she', 'it', 'my', 'your', 'there', 'that', 'this']);
/** Small-talk answers ("i'm good") that a companion gives out of courtesy, not as a self-belief. */
const FINITE = set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'should', 'may', 'might', 'must']);
const COURTESY_STATES = set(['fine', 'good', 'great', 'okay', 'ok', 'alright', 'well', 'doing well', 'doing good', 'doing great', 'doing fine']);

/**
 * §4.3 offline: a rule-based first-person atomizer. One atom per claim at most,
 * its text in AFFIRMATIVE form with the negation carried by polarity ("i'm not
 * good enough" → "i am good enough", deny), so an affirmed and a denied statement
 * of one belief share a canonical hash (§4.15 contradiction). Degree and time
 * words are dropped from the atom: they belong to the epistemic frame (§4.7),
 * which reads the claim's own words. Skips questions, one-off past narration,
 * clauses about "you", phatic talk and anything under the validator's minimum.
 *
 * The rules are the same for both holders except one: a companion's courtesy
 * answer ("i'm good", "i am fine") is not a self-belief, while a user's is kept
 * as a momentary FEELING_STATE.
 */
export function atomizeRules(candidates: readonly ClaimCandidate[], holder: Holder): RawAtom[] {
  return candidates.flatMap((c, sourceIdx) => {
    const atom = atomizeClause(c.text, holder);
    return atom ? splitCoordinated(atom).map((a) => ({ ...a, sourceIdx })) : [];
  });
}

// "i have a dog and a cat" holds two beliefs (§4.3: one belief per atom): a
// coordinated object of these verbs is split, each part with the verb.
const COORDINATED = /^(i (?:have|like|like to|own|play|speak|collect|grow))( .+)$/;
const PART_MAX_WORDS = 4;

/** The atom once per coordinated object ("i have a dog and a cat" → "i have dog", "i have cat"); else itself. */
export function splitCoordinated(a: Atom): Atom[] {
  const m = COORDINATED.exec(a.atomText);
  if (!m || !m[2]!.includes(' and ')) return [a];
  const parts = m[2]!.trim().split(/ and /).map((p) => p.trim().split(' '));
  if (parts.length < 2 || parts.some((p) => p.length === 0 || p.length > PART_MAX_WORDS || p[0] === 'i')) return [a];
  const have = m[1] === 'i have';
  return parts.map((p) => ({ ...a, atomText: `${m[1]} ${(have ? genericPossession(p) : p).join(' ')}` }));
}

/** One claim's atom, or null when it is not a self-belief. */
export function atomizeClause(text: string, holder: Holder = 'user'): Atom | null {
  if (/\?\s*["')\]]*\s*$/.test(text)) return null;
  let ws = words(expandContractions(text));
  if (ws.length >= 2 && QUESTION_OPENERS.has(ws[0]!) && PRONOUNS.has(ws[1]!)) return null;
  ws = stripLead(ws);
  if (ws.length < BELIEF_CONFIG.validator.minWords) return null;
  if (ws.some((w) => SECOND.has(w))) return null;
  if (PAST_MARKERS.some((m) => phraseIndexes(ws, m).length > 0)) return null;
  const atom = valueSuffix(ws) ?? dispatch(ws);
  if (!atom || words(atom.atomText).length < BELIEF_CONFIG.validator.minWords) return null;
  if (holder === 'companion' && atom.beliefType === 'FEELING_STATE' && COURTESY_STATES.has(atom.atomText.replace(/^i feel /, ''))) return null;
  return atom;
}

function dispatch(ws: string[]): Atom | null {
  if (ws[0] === 'i') return iClause(ws.slice(1));
  if (ws[0] === 'my') return myClause(ws);
  const collective = longestPrefix(ws, COLLECTIVE_SUBJECTS);
  if (collective && (ws.includes('me') || ws.includes('myself'))) return collectiveClause(ws);
  return null;
}

/** Openers ("well,", "honestly") and hedges before an embedded clause ("i think i am …"). */
function stripLead(input: string[]): string[] {
  let ws = input;
  for (let changed = true; changed; ) {
    changed = false;
    if (ws.length > 1 && OPENER.has(ws[0]!) && !(ws[0] === 'no' && ws[1] === 'one')) {
      ws = ws.slice(1);
      changed = true;
      continue;
    }
    const hedge = longestPrefix(ws, HEDGE_PREFIXES);
    if (hedge) {
      const rest = ws.slice(hedge.split(' ').length);
      if (rest[0] === 'i' || rest[0] === 'my' || longestPrefix(rest, COLLECTIVE_SUBJECTS)) {
        ws = rest;
        changed = true;
      }
    }
  }
  return ws;
}

/**
 * Degree and frequency adverbs out of the proposition; "never" and "no longer"
 * out too, flipping polarity. "pretty" is kept when it ends the clause ("i am pretty").
 */
function cleanAdverbs(input: readonly string[]): { ws: string[]; neg: boolean } {
  let neg = false;
  const out: string[] = [];
  const phrases = [...DROPPED_PHRASES, 'no longer'].sort((a, b) => b.split(' ').length - a.split(' ').length);
  for (let i = 0; i < input.length; ) {
    const rest = input.slice(i);
    const phrase = phrases.find((p) => startsWithPhrase(rest, p));
    if (phrase) {
      if (phrase === 'no longer') neg = !neg;
      i += phrase.split(' ').length;
      continue;
    }
    const w = input[i]!;
    const keep = w === 'pretty' && i === input.length - 1;
    if (w === 'never') neg = !neg;
    else if (w === 'ever' || (ADVERB.has(w) && !keep)) {
      // dropped
    } else out.push(w);
    i++;
  }
  return { ws: out, neg };
}

const atom = (atomText: string, beliefType: BeliefType, neg: boolean, confidence: number): Atom => ({
  atomText,
  beliefType,
  polarity: (neg ? 'deny' : 'affirm') satisfies Polarity,
  confidence,
});
const join = (...parts: (string | readonly string[])[]) => parts.flatMap((p) => (typeof p === 'string' ? [p] : p)).join(' ');

/** An -ing form that is not an adjective ("i am reading"), but not "sing" or "bring". */
const BASE_ING = set(['bring', 'sing', 'swing', 'sting', 'ring', 'cling', 'fling', 'sling', 'spring', 'string', 'wring']);
function isProgressive(w: string): boolean {
  return w.length >= 5 && w.endsWith('ing') && !ING_ADJ.has(w) && !BASE_ING.has(w);
}

function isPastTense(w: string): boolean {
  return PAST.has(w) || (w.length > 4 && w.endsWith('ed') && !ED_OK.has(w));
}

function iClause(raw: string[]): Atom | null {
  const meta = metaClause(raw);
  if (meta) return meta;
  const cleaned = cleanAdverbs(raw);
  let ws = cleaned.ws;
  let neg = cleaned.neg;
  if (startsWithPhrase(ws, 'used to')) return ws.length > 2 ? atom(join('i', ws), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.usedTo) : null;
  if (ws[0] === 'do' && ws[1] === 'not') {
    ws = ws.slice(2);
    neg = !neg;
  }
  if (ws[0] === 'cannot' || (ws[0] === 'can' && ws[1] === 'not')) {
    ws = ['can', ...ws.slice(ws[0] === 'cannot' ? 1 : 2)];
    neg = !neg;
  }
  const head = ws[0];
  if (!head) return null;
  if (longestPrefix(['i', ...ws], PHATIC_PREFIXES)) return null;
  if (startsWithPhrase(ws, 'can stand')) return preference(ws.slice(2), PREFERENCE_VERBS['cannot stand']!, !neg);
  if (head === 'am') return copula(ws.slice(1), neg);
  if (head === 'feel') return feel(ws.slice(1), neg);
  if (head === 'have') return have(ws.slice(1), neg);
  if (head === 'can') return ws.length > 1 ? atom(join('i can', ws.slice(1)), 'CAPABILITY_LIMIT', neg, RULE_CONFIDENCE.capability) : null;
  if (NON_BELIEF.has(head) || isPastTense(head) || head === 'did' || isProgressive(head)) return null;
  const pref = PREFERENCE_VERBS[head];
  if (pref) return preference(ws.slice(1), pref, neg);
  const value = longestPrefix(ws, VALUE_VERBS);
  if (value) return ws.length > value.split(' ').length ? atom(join('i', ws), 'VALUE', neg, RULE_CONFIDENCE.value) : null;
  return ws.length > 1 ? atom(join('i', ws), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.habit) : null;
}

/** "i always second-guess myself", "i do not trust myself": a belief about one's own thinking. */
function metaClause(raw: readonly string[]): Atom | null {
  for (const phrase of [...META_PHRASES].sort((a, b) => b.length - a.length)) {
    const at = phraseIndexes(raw, phrase)[0];
    if (at === undefined || at > 3) continue;
    const before = raw.slice(0, at);
    if (before.some((w) => w !== 'not' && w !== 'never' && w !== 'do' && !ADVERB.has(w))) continue;
    const neg = before.filter((w) => w === 'not' || w === 'never').length % 2 === 1;
    const after = cleanAdverbs(raw.slice(at + phrase.split(' ').length)).ws;
    const text = join('i', phrase, after);
    // "i always second-guess" keeps its adverb rather than fall under the minimum length.
    const long = words(text).length >= BELIEF_CONFIG.validator.minWords ? text : join('i', raw.filter((w) => w !== 'not' && w !== 'never' && w !== 'do'));
    return atom(long, 'META_BELIEF', neg, RULE_CONFIDENCE.meta);
  }
  return null;
}

function preference(object: readonly string[], verb: { verb: string; deny: boolean; confidence: number }, neg: boolean): Atom | null {
  // "i don't hate x" is not "i like x": a double negation is left to the LLM path.
  if (verb.deny && neg) return null;
  if (object.length === 0) return null;
  return atom(join('i', verb.verb, object), 'PREFERENCE', verb.deny !== neg, verb.confidence);
}

function copula(input: string[], negIn: boolean): Atom | null {
  let ws = input;
  let neg = negIn;
  if (ws[0] === 'not') {
    ws = ws.slice(1);
    neg = !neg;
  }
  const head = ws[0];
  if (!head || head === 'going' || head === 'gonna' || head === 'about') return null;
  if (head === 'feeling') return feel(ws.slice(1), neg);
  const capability = longestPrefix(ws, Object.keys(CAPABILITY_PHRASES));
  if (capability) {
    const { text, deny } = CAPABILITY_PHRASES[capability]!;
    const object = ws.slice(capability.split(' ').length);
    if (object.length === 0) return null;
    return atom(text === 'can' ? join('i can', object) : join('i am', text, object), 'CAPABILITY_LIMIT', deny !== neg, RULE_CONFIDENCE.capability);
  }
  if (startsWithPhrase(ws, 'a fan of')) return preference(ws.slice(3), PREFERENCE_VERBS['am a fan of']!, neg);
  if (head === 'into') return preference(ws.slice(1), PREFERENCE_VERBS['am into']!, neg);
  const evaluation = longestPrefix(ws, SELF_EVALUATIONS);
  if (evaluation) return atom(join('i am', ws), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.selfEvaluation);
  const emotion = longestPrefix(ws, EMOTIONS);
  if (emotion) return atom(join('i feel', ws), 'FEELING_STATE', neg, RULE_CONFIDENCE.feeling);
  if (isProgressive(head)) return null;
  if (head === 'from') return atom(join('i am', ws), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.place);
  if (head === 'in' || head === 'at' || head === 'on') return atom(join('i am', ws), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.myFact);
  if (head === 'a' || head === 'an') return atom(join('i am', ws), 'TRAIT', neg, RULE_CONFIDENCE.identityNoun);
  return atom(join('i am', ws), 'TRAIT', neg, ws.length > 4 ? RULE_CONFIDENCE.traitLong : RULE_CONFIDENCE.trait);
}

function feel(ws: string[], neg: boolean): Atom | null {
  if (ws.length === 0 || ws[0] === 'that') return null;
  if (ws[0] === 'like') {
    // "i feel like a failure" is a judgement of the self; "i feel like pizza" is not a belief.
    const rest = ws.slice(1);
    if (longestPrefix(rest, SELF_EVALUATIONS) || rest[0] === 'a' || rest[0] === 'an') return atom(join('i am', rest), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.feelLikeEvaluation);
    return null;
  }
  return atom(join('i feel', ws), 'FEELING_STATE', neg, RULE_CONFIDENCE.feeling);
}

/**
 * "i have …": possession, life experience or a perfect-tense state. For
 * possession the counting word is dropped ("i have two cats" → "i have cats",
 * "i do not have any cats" → "i have cats", deny; "i have no cats" → deny), so the
 * affirmed and the negated forms hash the same and contradict (§4.15). The count
 * itself is lost: "two cats" and "three cats" are one node. "a"/"an" are kept
 * ("i have a dog" / "i do not have a dog" already agree).
 */
function have(input: string[], negIn: boolean): Atom | null {
  let ws = input;
  let neg = negIn;
  if (ws[0] === 'not') {
    ws = ws.slice(1);
    neg = !neg;
  }
  if (ws[0] === 'got') ws = ws.slice(1);
  const head = ws[0];
  if (!head || head === 'to') return null;
  if (head === 'been') {
    const rest = ws.slice(1);
    if (rest[0] === 'to' && rest.length > 1) return atom(join('i have been', rest), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.experience);
    if (rest[0] === 'feeling') return feel(rest.slice(1), neg);
    if (isProgressive(rest[0] ?? '')) return null;
    return copula(rest, neg);
  }
  if (isPastTense(head) || (head.length > 3 && head.endsWith('en'))) return atom(join('i have', ws), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.experience);
  const quantifier = longestPrefix(ws, PLURAL_QUANTIFIERS);
  if (quantifier) {
    ws = ws.slice(quantifier.split(' ').length);
    if (quantifier === 'no') neg = !neg;
  }
  ws = genericPossession(ws);
  return ws.length > 0 ? atom(join('i have', ws), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.possession) : null;
}

/** A possession of at most this many words is a noun phrase whose last word is its head ("older sister"). */
const POSSESSION_HEAD_WORDS = 2;

/**
 * A short possession in its generic plural form ("a dog", "two dogs", "any dog" →
 * "dogs"), so that "i have a dog" and "i do not have dogs" hash the same (§4.15);
 * a longer one ("a dog named rex") is left as said.
 */
function genericPossession(ws: readonly string[]): string[] {
  const bare = ws[0] === 'a' || ws[0] === 'an' ? ws.slice(1) : [...ws];
  if (bare.length === 0 || bare.length > POSSESSION_HEAD_WORDS) return [...ws];
  return [...bare.slice(0, -1), plural(singular(bare.at(-1)!))];
}

/** A singular noun's regular English plural ("dog" → "dogs", "puppy" → "puppies", "box" → "boxes"). */
export function plural(word: string): string {
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

/** A plural noun's singular, by the regular English endings ("cats" → "cat", "puppies" → "puppy"). */
export function singular(word: string): string {
  if (word.length <= 3 || word.endsWith('ss') || word.endsWith('us') || word.endsWith('is')) return word;
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (/(ches|shes|xes|sses|zes)$/.test(word)) return word.slice(0, -2);
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

/** "honesty matters to me", "family is important to me" → "i value …". */
function valueSuffix(ws: string[]): Atom | null {
  for (const suffix of ['matters to me', 'matter to me', 'is important to me', 'are important to me', 'means a lot to me', 'mean a lot to me']) {
    const n = suffix.split(' ').length;
    if (ws.length > n && ws.slice(-n).join(' ') === suffix) {
      const { ws: subject, neg } = negated(ws.slice(0, -n));
      return subject.length > 0 && subject[0] !== 'i' ? atom(join('i value', subject), 'VALUE', neg, RULE_CONFIDENCE.valueSuffix) : null;
    }
  }
  return null;
}

/** "my …": relational when a relation acts on "me", else a fact or favourite about oneself. */
function myClause(ws: string[]): Atom | null {
  const adverbless = cleanAdverbs(ws);
  const { ws: clean, neg } = negated(adverbless.ws, adverbless.neg);
  const noun = RELATION_MOD.has(clean[1] ?? '') ? clean[2] : clean[1];
  const aboutMe = clean.includes('me') || clean.includes('myself');
  if (noun && RELATION.has(noun) && aboutMe) return atom(clean.join(' '), 'RELATIONAL', neg, RULE_CONFIDENCE.relational);
  if (clean[1] === 'favorite' || clean[1] === 'favourite') return atom(clean.join(' '), 'PREFERENCE', neg, RULE_CONFIDENCE.favorite);
  if (!clean.slice(2).some((w) => w === 'is' || w === 'are' || /s$/.test(w))) return null;
  return atom(clean.join(' '), 'BELIEF_ABOUT_SELF', neg, RULE_CONFIDENCE.myFact);
}

/** "nobody listens to me", "everyone judges me". */
function collectiveClause(ws: string[]): Atom | null {
  const adverbless = cleanAdverbs(ws);
  const { ws: clean, neg } = negated(adverbless.ws, adverbless.neg);
  return atom(clean.join(' '), 'RELATIONAL', neg, RULE_CONFIDENCE.collective);
}

/**
 * A third-person clause in affirmative form: "does not respect" → "respects",
 * "do not understand" → "understand", "is not" → "is", "did not support" → "supported".
 */
function negated(input: readonly string[], negIn = false): { ws: string[]; neg: boolean } {
  const ws = [...input];
  let neg = negIn;
  for (let i = 0; i < ws.length; i++) {
    const w = ws[i]!;
    const next = ws[i + 1];
    if (w === 'cannot') {
      ws.splice(i, 1, 'can');
      neg = !neg;
    } else if (next === 'not' && (w === 'does' || w === 'do' || w === 'did') && ws[i + 2]) {
      const verb = ws[i + 2]!;
      ws.splice(i, 3, w === 'does' ? thirdPerson(verb) : w === 'did' ? pastOf(verb) : verb);
      neg = !neg;
    } else if (next === 'not' && FINITE.has(w)) {
      // Only a verb's "not": "disrespects me for not working" keeps its "not".
      ws.splice(i + 1, 1);
      neg = !neg;
    }
  }
  return { ws, neg };
}

export function thirdPerson(verb: string): string {
  if (verb === 'have') return 'has';
  if (/(s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

function pastOf(verb: string): string {
  if (verb.endsWith('e')) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}
