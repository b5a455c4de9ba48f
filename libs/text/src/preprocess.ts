import { heuristicFlags, type HeuristicFlag } from './heuristics.js';
import { TOPIC_LEXICON, type TopicLexicon } from './lexicon.js';
import { estimateTokens, normalizeUserText, type NormalizedText } from './normalize.js';
import { detectTopics, type TopicMatch } from './topics.js';

/** Stage A output (§5) for one user message. */
export interface Preprocessed extends NormalizedText {
  /** Estimated from `userTextNorm`, punctuation included: it costs tokens too. */
  tokenEstimate: number;
  heuristicFlags: Record<HeuristicFlag, boolean>;
  topicMatches: TopicMatch[];
}

/** Stage A — Preprocess (§5, §5.1): normalization, token estimate, heuristics, topics. */
export function preprocess(raw: string, lexicon: TopicLexicon = TOPIC_LEXICON): Preprocessed {
  const norm = normalizeUserText(raw);
  return {
    userTextNorm: norm.userTextNorm,
    normNoPunct: norm.normNoPunct,
    tokenEstimate: estimateTokens(norm.userTextNorm),
    heuristicFlags: heuristicFlags(norm.normNoPunct),
    topicMatches: detectTopics(norm.normNoPunct, lexicon),
  };
}
