export { TOPIC_IDS, isTopicId, type TopicId } from './topic-ids.js';
export { normalizeUserText, estimateTokens, tokenize, type NormalizedText } from './normalize.js';
export { containsPhrase, containsAny } from './match.js';
export { TopicLexiconError, type TopicLexiconProblem } from './errors.js';
export { TOPIC_LEXICON, parseTopicLexicon, type TopicLexicon } from './lexicon.js';
export { TOPIC_DETECTION, detectTopics, userInitiatedTopics, type TopicMatch } from './topics.js';
export { HEURISTIC_TRIGGERS, heuristicFlags, type HeuristicFlag } from './heuristics.js';
export { preprocess, type Preprocessed } from './preprocess.js';
export { PROTECTED_GROUPS } from './groups.js';
