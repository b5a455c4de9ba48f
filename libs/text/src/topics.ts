import { normalizeUserText } from './normalize.js';
import { TOPIC_LEXICON, type TopicLexicon } from './lexicon.js';
import { compilePhrase, matchesPhrase, prepareText, type CompiledPhrase } from './match.js';
import { TOPIC_IDS, type TopicId } from './topic-ids.js';

/** Topic detection numbers of turn-pipeline §5.1 and §2.8. */
export const TOPIC_DETECTION = Object.freeze({
  /** §5.1: confidence = min(1, 0.35 + 0.15 * distinct hits). */
  baseConfidence: 0.35,
  /** §5.1: added per distinct keyword entry hit. */
  perHit: 0.15,
  /** §2.8/§5.1: user-initiated iff confidence >= 0.70, i.e. 3+ distinct hits. */
  userInitiatedAt: 0.7,
} as const);

/** One detected topic of a message (§5.1 `topic_matches`). */
export interface TopicMatch {
  topicId: TopicId;
  /** 0..1, rounded to 6 decimals so 3 hits is exactly 0.8. */
  confidence: number;
  /** Distinct lexicon entries hit; an entry repeated in the text counts once. */
  hits: number;
  /** The canonical form of each entry hit, in lexicon order. */
  keywords: string[];
}

interface CompiledEntry {
  readonly canonical: string;
  readonly variants: readonly CompiledPhrase[];
}

type CompiledLexicon = ReadonlyArray<readonly [TopicId, readonly CompiledEntry[]]>;

// Lexicons are immutable, so each is tokenized once per process.
const compiled = new WeakMap<TopicLexicon, CompiledLexicon>();

function compileLexicon(lexicon: TopicLexicon): CompiledLexicon {
  let result = compiled.get(lexicon);
  if (result === undefined) {
    result = TOPIC_IDS.map((topicId) => [
      topicId,
      (lexicon.topics[topicId] ?? []).map((variants) => ({
        canonical: variants[0] ?? '',
        variants: variants.map(compilePhrase),
      })),
    ]);
    compiled.set(lexicon, result);
  }
  return result;
}

function confidenceFor(hits: number): number {
  const raw = TOPIC_DETECTION.baseConfidence + TOPIC_DETECTION.perHit * hits;
  return Math.min(1, Math.round(raw * 1e6) / 1e6);
}

/**
 * Keyword topic detection over `normNoPunct` (§5.1). Returns only topics with at
 * least one hit, by confidence descending, ties in TOPIC_IDS order.
 */
export function detectTopics(normNoPunct: string, lexicon: TopicLexicon = TOPIC_LEXICON): TopicMatch[] {
  const text = prepareText(normNoPunct);
  const matches: TopicMatch[] = [];
  for (const [topicId, entries] of compileLexicon(lexicon)) {
    // Plain loops: this runs over the whole lexicon on every turn.
    const keywords: string[] = [];
    for (const entry of entries) {
      for (const variant of entry.variants) {
        if (matchesPhrase(text, variant)) {
          keywords.push(entry.canonical);
          break;
        }
      }
    }
    if (keywords.length > 0) {
      matches.push({ topicId, confidence: confidenceFor(keywords.length), hits: keywords.length, keywords });
    }
  }
  // Array.prototype.sort is stable, so equal confidences keep TOPIC_IDS order.
  return matches.sort((a, b) => b.confidence - a.confidence);
}

/** The topics the user initiated in this message (§2.8): confidence >= 0.70. */
export function userInitiatedTopics(matches: readonly TopicMatch[]): TopicId[] {
  return matches.filter((m) => m.confidence >= TOPIC_DETECTION.userInitiatedAt).map((m) => m.topicId);
}

/**
 * The topics of one exchange (a user message and the reply to it), at any
 * confidence: what "this topic" means in "don't bring this topic up again" (§12.4).
 */
export function exchangeTopics(userText: string, assistantText: string, lexicon: TopicLexicon = TOPIC_LEXICON): TopicId[] {
  const found = new Set<TopicId>();
  for (const text of [userText, assistantText]) {
    for (const m of detectTopics(normalizeUserText(text).normNoPunct, lexicon)) found.add(m.topicId);
  }
  return [...found];
}
