/** Post-processing quality gates (turn-pipeline §10): pure functions over one assistant reply. */
export { GATE_NAMES, type GateName, type GateVerdict } from './verdict.js';
export { countEmoji, emojiGate, stripLeadingEmoji } from './emoji.js';
export { segmentSentences, sentenceStats, sentenceGate, wordsOf, type SentenceStats } from './sentences.js';
export { LEXICON_LEVELS, lexiconLevel, lexiconGate, type LexiconLevel, type LexiconReading } from './lexicon.js';
export { detectQuirks, allowedQuirkSet, quirksGate } from './quirks.js';
export { INTIMACY_CAP, intimacyReading, intimacyGate, type IntimacyReading } from './intimacy.js';
export { openerNorm, openerGate, trigrams, jaccard, isRepetitive, similarityGate, type JaccardRatio } from './repetition.js';
export { recallAsked, personalFactsGate, type ReplySource } from './facts.js';
export { isSensitive, sensitiveReason, sensitiveTopicsOf, sensitiveGate, type SurfacedMemory } from './sensitive.js';
export { replyTopics, initiatedWithin, tabooGate, type TabooContext } from './topics.js';
export { safetyReading, safetyGate, type SafetyReading } from './safety.js';
export { coreBeliefViews, LOCAL_EMBEDDING_MODEL, selfConsistencyGate } from './self-consistency.js';
export { namedBy, uncertainAssertionGate, type AskedUncertainty, type WithheldValue } from './uncertain-assertion.js';
export { evaluateReply, failedGates, type ExemptGate, type ReplyUnderReview } from './evaluate.js';
export {
  QUIRKS,
  RECALL_PHRASES,
  RETENTION_FACT_ALLOWLIST,
  RETENTION_SENSITIVE_FACT_KEYS,
  RETENTION_SENSITIVE_EVENT_DOMAINS,
  WARM_TERMS,
  INTIMATE_TERMS,
  DEPENDENCY_PHRASES,
  type Quirk,
  type TermList,
} from './lists.js';
