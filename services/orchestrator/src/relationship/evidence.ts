import { containsAny, tokenize } from '@hearth/text';
import { RELATIONSHIP } from '../config.js';
import {
  KOREAN_OBJECT_PARTICLES,
  NOT_PAST_REFERENCE,
  OBJECT_BOUNDARIES,
  OBJECT_END_PHRASES,
  OBJECT_MAX_WORDS,
  PAST_REFERENCE,
  PREFERENCE_TRIGGERS,
} from './lexicon.js';

/** The §11.2 detectors on one user message (proto `RelationshipEvidence`). */
export interface Evidence {
  /** Distinct preferences stated (the larger of the heuristic count and the extractor's). */
  preferences: number;
  /** The previous assistant message asked a question and this reply has ≥ 10 tokens and is not disengaged. */
  meaningfulResponse: boolean;
  /** abs(valence) ≥ 0.6, or a strong emotion tag. */
  emotionalDisclosure: boolean;
  /** The user points back at an earlier conversation. */
  pastReference: boolean;
  /** A short or throw-away reply (§11.2 disengaged detection); whether it costs points is §11.3's call. */
  disengaged: boolean;
  /** Words of `normNoPunct` (see {@link countTokens}). */
  tokens: number;
}

export interface EvidenceInput {
  normNoPunct: string;
  /** Whether the assistant message this reply answers asked the user a question. */
  previousAssistantAskedQuestion: boolean;
  emotion: { valence: number; tags: readonly string[] };
  /** Preferences the memory extractor found in this message, when it ran (§11.2 "or extractor output"). */
  extractorPreferences?: number;
}

/**
 * §11.2 counts "tokens" of a user reply: here the words of `normNoPunct`, not the
 * BPE-like `estimateTokens` of §5, which counts each Hangul syllable and would
 * make "응 알겠어" (2 words, 4 estimated) an engaged reply.
 */
export function countTokens(normNoPunct: string): number {
  return tokenize(normNoPunct).length;
}

/** §11.2 disengaged: fewer than 4 words, or exactly one of "k", "ok", "idk", "lol", "sure". */
export function isDisengaged(normNoPunct: string): boolean {
  return countTokens(normNoPunct) < RELATIONSHIP.disengagedMaxTokensExclusive || (RELATIONSHIP.disengagedExact as readonly string[]).includes(normNoPunct);
}

/** §11.2 past reference ("remember", "last time", "지난번"), except "remember" in "don't remember (that)". */
export function isPastReference(normNoPunct: string): boolean {
  const words = tokenize(normNoPunct);
  const cores = words.map(core);
  const masked = [...words];
  for (const phrase of NOT_PAST_REFERENCE) {
    const tokens = tokenize(phrase);
    for (let start = 0; start + tokens.length <= words.length; start++) {
      if (matchesAt(words, cores, tokens, start)) masked.fill(MASK, start, start + tokens.length);
    }
  }
  return containsAny(masked.join(' '), PAST_REFERENCE).length > 0;
}

/**
 * The number of DISTINCT preferences stated in the message: each occurrence of a
 * preference trigger is keyed by its canonical trigger and its object, so
 * "i like cats and i like cats" is 1 and "i love sushi and i hate rain" is 2.
 *
 * - English objects are the up to 3 words after the trigger, ending early at a
 *   conjunction, a new subject ("i", "i'm"), a filler ("too", "a lot") or the next
 *   trigger. Korean objects are the one word before the trigger (Korean puts the
 *   object first), with a trailing 을/를/은/는/도/만 dropped.
 * - A trigger with no object ("yes, i like") still counts once, so the count is
 *   positive exactly when a trigger is present.
 * - Occurrences never overlap: longer triggers claim their words first, so
 *   "제일 좋아해" is one preference, not also "좋아해".
 * - Different triggers on one object are different keys ("i like cats, i love cats" is 2).
 */
export function countPreferences(normNoPunct: string): number {
  const words = tokenize(normNoPunct);
  const cores = words.map(core);
  const claimed = new Array<boolean>(words.length).fill(false);
  const found: Array<{ trigger: CompiledTrigger; start: number; end: number }> = [];

  for (const trigger of COMPILED_TRIGGERS) {
    const n = trigger.tokens.length;
    for (let start = 0; start + n <= words.length; start++) {
      if (claimed.slice(start, start + n).some(Boolean) || !matchesAt(words, cores, trigger.tokens, start)) continue;
      claimed.fill(true, start, start + n);
      found.push({ trigger, start, end: start + n });
    }
  }

  const keys = new Set<string>();
  for (const { trigger, start, end } of found) {
    const object = trigger.object === 'after' ? objectAfter(cores, claimed, end) : objectBefore(cores, claimed, start);
    keys.add(`${trigger.canonical}\u0000${object}`);
  }
  return keys.size;
}

/** Runs the §11.2 detectors on one user message. */
export function detectEvidence(input: EvidenceInput): Evidence {
  const { normNoPunct, emotion } = input;
  const tokens = countTokens(normNoPunct);
  const disengaged = isDisengaged(normNoPunct);
  const extractor = input.extractorPreferences !== undefined && Number.isFinite(input.extractorPreferences) ? Math.max(0, Math.floor(input.extractorPreferences)) : 0;
  return {
    preferences: Math.max(countPreferences(normNoPunct), extractor),
    meaningfulResponse: input.previousAssistantAskedQuestion && tokens >= RELATIONSHIP.meaningfulMinTokens && !disengaged,
    emotionalDisclosure:
      Math.abs(emotion.valence) >= RELATIONSHIP.disclosureMinAbsValence || emotion.tags.includes('strong_negative') || emotion.tags.includes('strong_positive'),
    pastReference: isPastReference(normNoPunct),
    disengaged,
    tokens,
  };
}

interface CompiledTrigger {
  readonly canonical: string;
  readonly tokens: readonly string[];
  readonly object: 'after' | 'before';
}

// Longest first (stable sort keeps list order among equals), so longer triggers claim their words.
const COMPILED_TRIGGERS: readonly CompiledTrigger[] = PREFERENCE_TRIGGERS.flatMap((trigger) =>
  trigger.variants.map((variant) => ({ canonical: trigger.variants[0] ?? variant, tokens: tokenize(variant), object: trigger.object })),
).sort((a, b) => b.tokens.length - a.tokens.length);

// Underscore is punctuation, so it never survives into `normNoPunct`: a masked word matches nothing.
const MASK = '_';
// As `@hearth/text` matches: quote marks and emoji glued to a word are not part of it.
const TOKEN_EDGES = /^[\p{S}\p{Extended_Pictographic}\uFE0E\uFE0F\u20E3']+|[\p{S}\p{Extended_Pictographic}\uFE0E\uFE0F\u20E3']+$/gu;
const HANGUL = /\p{Script=Hangul}/u;

function core(word: string): string {
  return word.replace(TOKEN_EDGES, '');
}

/**
 * The phrase's words at `start`: whole words, except that a Hangul last word
 * matches as a prefix ("좋아해" hits "좋아해요"), as `@hearth/text` does.
 */
function matchesAt(words: readonly string[], cores: readonly string[], phrase: readonly string[], start: number): boolean {
  if (phrase.length === 0 || start + phrase.length > words.length) return false;
  return phrase.every((p, i) => {
    const raw = words[start + i] ?? '';
    const c = cores[start + i] ?? '';
    if (raw === p || c === p) return true;
    return i === phrase.length - 1 && HANGUL.test(p) && c.startsWith(p);
  });
}

function objectAfter(cores: readonly string[], claimed: readonly boolean[], from: number): string {
  const object: string[] = [];
  for (let i = from; i < cores.length && object.length < OBJECT_MAX_WORDS; i++) {
    const word = cores[i] ?? '';
    if (claimed[i] === true || OBJECT_BOUNDARIES.has(word)) break;
    if (OBJECT_END_PHRASES.some(([first, second]) => word === first && cores[i + 1] === second)) break;
    if (word.length > 0) object.push(word);
  }
  return object.join(' ');
}

function objectBefore(cores: readonly string[], claimed: readonly boolean[], start: number): string {
  const i = start - 1;
  if (i < 0 || claimed[i] === true) return '';
  const word = cores[i] ?? '';
  const particle = KOREAN_OBJECT_PARTICLES.find((p) => word.length > p.length && word.endsWith(p));
  return particle === undefined ? word : word.slice(0, -particle.length);
}
