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
}

/** Compiles a phrase that is already in `normNoPunct` form. */
export function compilePhrase(normalizedPhrase: string): CompiledPhrase {
  return {
    tokens: tokenize(normalizedPhrase).map((text) => ({ text, kind: tokenKind(text) })),
  };
}

export function prepareText(normNoPunct: string): PreparedText {
  const raw = tokenize(normNoPunct);
  return { raw, core: raw.map((token) => token.replace(TOKEN_EDGES, '')) };
}

/** True when the phrase's tokens occur consecutively in the text. An empty phrase never matches. */
export function matchesPhrase(text: PreparedText, phrase: CompiledPhrase): boolean {
  const n = phrase.tokens.length;
  if (n === 0) return false;
  for (let start = 0; start + n <= text.raw.length; start++) {
    let all = true;
    for (let i = 0; i < n && all; i++) {
      all = tokenMatches(text.raw[start + i] ?? '', text.core[start + i] ?? '', phrase.tokens[i]!, i === n - 1);
    }
    if (all) return true;
  }
  return false;
}

/**
 * Whole-word / phrase match of `phrase` in `normNoPunct` (§5.1): "ex" does not hit
 * "next", "cut" does not hit "cute". The phrase is normalized first, so "Credit-Card"
 * and "credit card" are the same phrase.
 */
export function containsPhrase(normNoPunct: string, phrase: string): boolean {
  return matchesPhrase(prepareText(normNoPunct), compilePhrase(normalizeUserText(phrase).normNoPunct));
}

/** The phrases that {@link containsPhrase} finds in `normNoPunct`, in the given order. */
export function containsAny(normNoPunct: string, phrases: readonly string[]): string[] {
  const text = prepareText(normNoPunct);
  return phrases.filter((phrase) => matchesPhrase(text, compilePhrase(normalizeUserText(phrase).normNoPunct)));
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
