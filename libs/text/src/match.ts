import { normalizeUserText, tokenize } from './normalize.js';

// Korean attaches particles and verb endings to the word itself ("정치는",
// "우울해", "죽고싶어"), so a Hangul keyword must match as a word prefix. A single
// syllable is too short for that ("약" would hit "약속", "술" would hit "술래"):
// it matches alone or followed by exactly one common particle. Only the last
// token of a phrase gets this leeway; earlier tokens must be whole words.
const KOREAN_PARTICLES: ReadonlySet<string> = new Set([
  '은', '는', '이', '가', '을', '를', '에', '에서', '도', '만', '랑', '이랑', '하고', '과', '와', '의', '로', '으로', '이나', '나',
]);
const HANGUL = /\p{Script=Hangul}/u;
const HANGUL_SYLLABLE = /^[\uAC00-\uD7A3]$/;
// Quote marks and emoji glued to a word ("'election'", "exam😭") are not part of it.
const TOKEN_EDGES = /^[\p{S}\p{Extended_Pictographic}\uFE0E\uFE0F\u20E3']+|[\p{S}\p{Extended_Pictographic}\uFE0E\uFE0F\u20E3']+$/gu;
const POSSESSIVE = "'s";

type TokenKind =
  /** Any non-Hangul word: whole-word equality. */
  | 'word'
  /** Hangul of two or more chars: the text word starts with it. */
  | 'hangul-prefix'
  /** One Hangul syllable: alone or plus one particle. */
  | 'hangul-syllable';

interface PhraseToken {
  readonly text: string;
  readonly kind: TokenKind;
}

/** A keyword or phrase, tokenized once so it can be matched against many texts. */
export interface CompiledPhrase {
  readonly tokens: readonly PhraseToken[];
}

/** A text's tokens as written, and with quote marks and emoji trimmed off their edges. */
export interface PreparedText {
  readonly raw: readonly string[];
  readonly core: readonly string[];
  /**
   * Where each word could start a match of a non-Hangul first token: its raw and
   * core forms, and the core without a possessive or a particle. Lets a phrase
   * look only at those positions instead of scanning every word of a long text.
   */
  readonly starts: ReadonlyMap<string, readonly number[]>;
}

/** Compiles a phrase that is already in `normNoPunct` form. */
export function compilePhrase(normalizedPhrase: string): CompiledPhrase {
  return {
    tokens: tokenize(normalizedPhrase).map((text) => ({ text, kind: tokenKind(text) })),
  };
}

// The router asks a dozen phrase lists about the same message: prepare it once.
let lastPrepared: { text: string; prepared: PreparedText } | undefined;

export function prepareText(normNoPunct: string): PreparedText {
  if (lastPrepared?.text === normNoPunct) return lastPrepared.prepared;
  const prepared = buildPrepared(normNoPunct);
  lastPrepared = { text: normNoPunct, prepared };
  return prepared;
}

function buildPrepared(normNoPunct: string): PreparedText {
  const raw = tokenize(normNoPunct);
  const core = raw.map((token) => token.replace(TOKEN_EDGES, ''));
  const starts = new Map<string, number[]>();
  for (let i = 0; i < core.length; i++) {
    const c = core[i]!;
    addStart(starts, raw[i]!, i);
    addStart(starts, c, i);
    if (c.endsWith(POSSESSIVE)) addStart(starts, c.slice(0, -POSSESSIVE.length), i);
    for (const particle of KOREAN_PARTICLES) if (c.length > particle.length && c.endsWith(particle)) addStart(starts, c.slice(0, -particle.length), i);
  }
  return { raw, core, starts };
}

function addStart(starts: Map<string, number[]>, key: string, i: number): void {
  const at = starts.get(key);
  if (at === undefined) starts.set(key, [i]);
  else if (at[at.length - 1] !== i) at.push(i);
}

/** True when the phrase's tokens occur consecutively in the text. An empty phrase never matches. */
export function matchesPhrase(text: PreparedText, phrase: CompiledPhrase): boolean {
  const n = phrase.tokens.length;
  if (n === 0) return false;
  const first = phrase.tokens[0]!;
  // Only a Hangul first token can match a longer word by prefix; any other
  // first token is found through the index. (Plain loops: this runs for every
  // keyword of every turn.)
  if (first.kind === 'word') {
    const starts = text.starts.get(first.text);
    if (starts === undefined) return false;
    for (const start of starts) if (matchesAt(text, phrase, start)) return true;
    return false;
  }
  for (let start = 0; start + n <= text.raw.length; start++) if (matchesAt(text, phrase, start)) return true;
  return false;
}

function matchesAt(text: PreparedText, phrase: CompiledPhrase, start: number): boolean {
  const n = phrase.tokens.length;
  if (start + n > text.raw.length) return false;
  for (let i = 0; i < n; i++) {
    if (!tokenMatches(text.raw[start + i] ?? '', text.core[start + i] ?? '', phrase.tokens[i]!, i === n - 1)) return false;
  }
  return true;
}

/**
 * Whole-word / phrase match of `phrase` in `normNoPunct` (§5.1): "ex" does not hit
 * "next", "cut" does not hit "cute". The phrase is normalized first, so "Credit-Card"
 * and "credit card" are the same phrase.
 */
export function containsPhrase(normNoPunct: string, phrase: string): boolean {
  return matchesPhrase(prepareText(normNoPunct), compiledFor(phrase));
}

/** The phrases that {@link containsPhrase} finds in `normNoPunct`, in the given order. */
export function containsAny(normNoPunct: string, phrases: readonly string[]): string[] {
  const text = prepareText(normNoPunct);
  const found: string[] = [];
  for (const phrase of phrases) if (matchesPhrase(text, compiledFor(phrase))) found.push(phrase);
  return found;
}

// Callers pass the same configured phrase lists on every turn: compile each once.
// Bounded so that phrases built from user input cannot grow it without limit.
const COMPILED_CACHE_MAX = 10_000;
const compiledCache = new Map<string, CompiledPhrase>();

function compiledFor(phrase: string): CompiledPhrase {
  let c = compiledCache.get(phrase);
  if (c === undefined) {
    c = compilePhrase(normalizeUserText(phrase).normNoPunct);
    if (compiledCache.size >= COMPILED_CACHE_MAX) compiledCache.clear();
    compiledCache.set(phrase, c);
  }
  return c;
}

function tokenKind(token: string): TokenKind {
  if (HANGUL_SYLLABLE.test(token)) return 'hangul-syllable';
  return HANGUL.test(token) ? 'hangul-prefix' : 'word';
}

function tokenMatches(raw: string, core: string, phrase: PhraseToken, last: boolean): boolean {
  if (raw === phrase.text || core === phrase.text) return true;
  if (!last || !core.startsWith(phrase.text)) return false;
  const rest = core.slice(phrase.text.length);
  switch (phrase.kind) {
    case 'hangul-prefix':
      return true;
    case 'hangul-syllable':
      return KOREAN_PARTICLES.has(rest);
    case 'word':
      // "mom's", and "kpop을" in Korean text: the word ends where the suffix starts.
      return rest === POSSESSIVE || KOREAN_PARTICLES.has(rest);
    default: {
      const unreachable: never = phrase.kind;
      return unreachable;
    }
  }
}
