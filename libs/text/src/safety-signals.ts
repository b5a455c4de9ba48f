import { containsAny } from './match.js';
import { normalizeUserText, tokenize } from './normalize.js';

/**
 * The four states that feed the belief-challenge lock (belief-challenge.md §2
 * and its Integration step 1). A signal only ever blocks a challenge, so the
 * lexicons lean wide: a false alarm costs one skipped question, a miss could
 * question a belief while the user is at their most fragile.
 */
export interface SafetySignals {
  shame: boolean;
  isolation: boolean;
  dependencyFear: boolean;
  relationalStrain: boolean;
  /** What set them, `<signal>:<phrase>` (or `router:<flag>`), for the audit trail. */
  cues: string[];
}

export type SafetySignal = 'shame' | 'isolation' | 'dependencyFear' | 'relationalStrain';

const SIGNALS = ['shame', 'isolation', 'dependencyFear', 'relationalStrain'] as const satisfies readonly SafetySignal[];

/**
 * The lexicons, in `normNoPunct` form with apostrophes. Spelling variants are
 * derived below (`i'm` → `i am`, `im`; `don't` → `do not`, `dont`…), so each
 * entry is written once.
 */
export const SAFETY_SIGNAL_LEXICON: Readonly<Record<SafetySignal, readonly string[]>> = Object.freeze({
  shame: Object.freeze([
    "i'm so ashamed",
    "i'm ashamed",
    'ashamed',
    'ashamed of myself',
    'so ashamed',
    'i feel ashamed',
    'i feel so ashamed',
    "i'm disgusting",
    "i'm pathetic",
    "i'm worthless",
    'worthless',
    "i'm such a failure",
    "i'm a failure",
    "i'm an embarrassment",
    'i hate myself',
    'i hate who i am',
    'i disgust myself',
    'disgusted with myself',
    'humiliated',
    'humiliating',
    'so embarrassed of myself',
    "i can't look at myself",
    "i can't face anyone",
    'what is wrong with me',
    "what's wrong with me",
    'i deserve nothing',
    'i deserve to feel this way',
  ]),
  isolation: Object.freeze([
    'no one cares',
    'nobody cares',
    "no one cares about me",
    "i'm all alone",
    "i'm alone",
    "i'm so alone",
    'i feel alone',
    'i feel so alone',
    'completely alone',
    "i'm lonely",
    'lonely',
    "i'm so lonely",
    'i feel lonely',
    'i feel so lonely',
    'i have nobody',
    'i have no one',
    'i have no friends',
    "i don't have anyone",
    "i don't have anybody",
    'nobody would notice',
    'no one would notice',
    'nobody would miss me',
    'no one would miss me',
    'no one to talk to',
    'nobody to talk to',
    'no one understands me',
    'nobody understands me',
    'nobody likes me',
    'no one likes me',
    'everyone left me',
    'everyone leaves me',
  ]),
  dependencyFear: Object.freeze([
    "you're the only one i have",
    "you're all i have",
    "you're the only one who",
    'you are my only friend',
    "you're my only friend",
    "please don't leave me",
    "don't leave me",
    'promise you won\'t leave',
    "i can't live without you",
    "i can't do this without you",
    "i don't know what i'd do without you",
    'what if you disappear',
    'what if you leave',
    'what if you go away',
    'what if you stop talking to me',
    'what if you forget me',
    'if you disappear',
    'if you ever leave',
    "i'm scared you'll leave",
    "i'm afraid you'll leave",
    "i'm scared of losing you",
    "i'm afraid of losing you",
    'i need you to stay',
  ]),
  relationalStrain: Object.freeze([
    'we had a fight',
    'we had a big fight',
    'we got into a fight',
    'we had an argument',
    'we keep fighting',
    'we keep arguing',
    'keep arguing',
    'we argued',
    'we broke up',
    "we're not talking",
    "we're not speaking",
    "we haven't talked",
    "we haven't spoken",
    "they're not talking to me",
    "she's not talking to me",
    "he's not talking to me",
    'stopped talking to me',
    'is angry with me',
    'is angry at me',
    'are angry with me',
    'are angry at me',
    'is mad at me',
    'are mad at me',
    'is furious with me',
    'are furious with me',
    "isn't speaking to me",
    "aren't speaking to me",
    'my partner and i keep arguing',
    'my family is angry with me',
    'kicked me out',
    'gave me the silent treatment',
    'the silent treatment',
    'falling out with',
  ]),
});

// Contractions people also write in full or without the apostrophe. Each entry:
// the contraction and its alternatives.
const CONTRACTIONS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  "i'm": ['i am', 'im'],
  "i'd": ['i would', 'id'],
  "i've": ['i have', 'ive'],
  "you're": ['you are', 'youre', 'ur'],
  "you'll": ['you will', 'youll'],
  "we're": ['we are'],
  "they're": ['they are', 'theyre'],
  "she's": ['she is', 'shes'],
  "he's": ['he is', 'hes'],
  "what's": ['what is', 'whats'],
  "don't": ['do not', 'dont'],
  "can't": ['cannot', 'can not', 'cant'],
  "won't": ['will not', 'wont'],
  "isn't": ['is not', 'isnt'],
  "aren't": ['are not', 'arent'],
  "haven't": ['have not', 'havent'],
});

/** `phrase` and every spelling of it that swaps its contractions for their alternatives. */
export function spellingVariants(phrase: string): string[] {
  let out = [''];
  for (const token of tokenize(phrase)) {
    const forms = [token, ...(CONTRACTIONS[token] ?? [])];
    out = out.flatMap((prefix) => forms.map((f) => (prefix === '' ? f : `${prefix} ${f}`)));
  }
  return [...new Set(out)];
}

// Each variant points back to the lexicon entry it came from, so cues name the entry.
const EXPANDED: readonly (readonly [SafetySignal, readonly string[], ReadonlyMap<string, string>])[] = SIGNALS.map((signal) => {
  const origin = new Map<string, string>();
  for (const phrase of SAFETY_SIGNAL_LEXICON[signal]) for (const v of spellingVariants(phrase)) if (!origin.has(v)) origin.set(v, phrase);
  return [signal, [...origin.keys()], origin] as const;
});

// A negator at most this many words before a cue turns it off ("i'm not ashamed",
// "i don't feel humiliated", "i'm no longer lonely"). Kept short so a negation in
// an earlier clause does not reach it ("i don't know why i hate myself"). Bare
// "no" is not one: "no, i hate myself" is a cue, and a missed cue is the unsafe
// mistake.
const NEGATION_WINDOW = 2;
const NEGATORS: ReadonlySet<string> = new Set([
  'not',
  'never',
  "don't",
  'dont',
  "didn't",
  'didnt',
  "doesn't",
  'doesnt',
  "isn't",
  'isnt',
  "wasn't",
  'wasnt',
  "aren't",
  'arent',
  "ain't",
  'aint',
  'hardly',
  'barely',
]);
// "never felt so humiliated" says the opposite of a negation: it intensifies.
const INTENSIFYING_NEVER: readonly (readonly string[])[] = [
  ['felt', 'so'],
  ['felt', 'this'],
  ['felt', 'more'],
  ['been', 'so'],
  ['been', 'this'],
  ['been', 'more'],
];

function isNegator(tokens: readonly string[], i: number): boolean {
  const t = tokens[i] ?? '';
  if (t === 'longer') return tokens[i - 1] === 'no';
  if (!NEGATORS.has(t)) return false;
  if (t === 'never') return !INTENSIFYING_NEVER.some(([a, b]) => tokens[i + 1] === a && tokens[i + 2] === b);
  return true;
}

function negatedAt(tokens: readonly string[], start: number): boolean {
  for (let i = Math.max(0, start - NEGATION_WINDOW); i < start; i++) if (isNegator(tokens, i)) return true;
  return false;
}

/**
 * True when some occurrence of `phrase` is not negated. The phrase was already
 * found by `containsAny`; when its exact tokens cannot be located again (a glued
 * emoji, a possessive) it counts as present, failing towards the lock.
 */
function affirmedIn(tokens: readonly string[], phrase: string): boolean {
  const p = tokenize(phrase);
  let located = false;
  for (let s = 0; s + p.length <= tokens.length; s++) {
    if (!p.every((w, k) => tokens[s + k] === w)) continue;
    located = true;
    if (!negatedAt(tokens, s)) return true;
  }
  return !located;
}

/**
 * The phrases (normalized, as `containsAny` takes them) that occur in `text`
 * at least once without a negator just before them: "i'm not ashamed" does not
 * affirm "ashamed", "i don't know why i hate myself" affirms "i hate myself".
 */
export function affirmedPhrases(text: string, phrases: readonly string[]): string[] {
  const norm = normalizeUserText(text).normNoPunct;
  const tokens = tokenize(norm);
  return containsAny(norm, phrases).filter((phrase) => affirmedIn(tokens, phrase));
}

/** The lock's four signals in one message (or a conversation's recent user text joined). */
export function safetySignals(text: string): SafetySignals {
  // A conversation's recent messages are read again on every turn: the answer is kept.
  const known = READ.get(text);
  if (known) return { ...known, cues: [...known.cues] };
  const result = readSignals(text);
  if (READ.size >= READ_CAPACITY) READ.delete(READ.keys().next().value!);
  READ.set(text, result);
  return { ...result, cues: [...result.cues] };
}

/** Texts read lately and their signals (insertion order: the oldest goes first). */
const READ = new Map<string, SafetySignals>();
const READ_CAPACITY = 2_000;

function readSignals(text: string): SafetySignals {
  const result: SafetySignals = { shame: false, isolation: false, dependencyFear: false, relationalStrain: false, cues: [] };
  for (const [signal, phrases, origin] of EXPANDED) {
    const seen = new Set<string>();
    for (const phrase of affirmedPhrases(text, phrases)) {
      result[signal] = true;
      const entry = origin.get(phrase) ?? phrase;
      if (!seen.has(entry)) result.cues.push(`${signal}:${entry}`);
      seen.add(entry);
    }
  }
  return result;
}

// Router flags (services/router routeTurn) that carry a matched phrase; their
// phrase is read with the lexicons above: "distress:i hate myself" is shame.
const PHRASE_FLAG_PREFIXES = ['distress:', 'comfort:'] as const;
// A self-harm turn is the most fragile state there is; the lock has no crisis
// input, so it is reported as its highest block, shame and isolation together.
const CRISIS_FLAG_PREFIXES = ['safety:self_harm_intent', 'safety_signal:self_harm_intent:'] as const;
// "i need someone" (the router's asks_for_comfort) is reaching out from being alone.
const ISOLATION_FLAGS: ReadonlySet<string> = new Set(['comfort:i need someone']);

/** The signals the router's flags carry (TurnRouted.flags). */
export function signalsFromFlags(flags: readonly string[]): SafetySignals {
  const result: SafetySignals = { shame: false, isolation: false, dependencyFear: false, relationalStrain: false, cues: [] };
  for (const flag of flags) {
    if (CRISIS_FLAG_PREFIXES.some((p) => flag.startsWith(p))) {
      result.shame = true;
      result.isolation = true;
      result.cues.push(`router:${flag}`);
      continue;
    }
    if (ISOLATION_FLAGS.has(flag)) {
      result.isolation = true;
      result.cues.push(`router:${flag}`);
      continue;
    }
    const prefix = PHRASE_FLAG_PREFIXES.find((p) => flag.startsWith(p));
    if (prefix === undefined) continue;
    const found = safetySignals(flag.slice(prefix.length));
    let any = false;
    for (const s of SIGNALS) {
      if (!found[s]) continue;
      result[s] = true;
      any = true;
    }
    if (any) result.cues.push(`router:${flag}`);
  }
  return result;
}

/** Any of several readings (the flags, each recent message): a signal set in one is set. */
export function mergeSafetySignals(...parts: readonly SafetySignals[]): SafetySignals {
  const result: SafetySignals = { shame: false, isolation: false, dependencyFear: false, relationalStrain: false, cues: [] };
  for (const part of parts) {
    for (const s of SIGNALS) result[s] ||= part[s];
    for (const cue of part.cues) if (!result.cues.includes(cue)) result.cues.push(cue);
  }
  return result;
}
