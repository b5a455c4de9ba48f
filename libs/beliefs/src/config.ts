// Every number of the belief graph, each with the section of the spec it comes
// from: self-belief-decomposer.md (§n) and belief-challenge.md (BC §n). One
// typed object, shared by the belief-graph service, the orchestrator's
// self-consistency gate and the evaluation scripts.

export const BELIEF_TYPES = ['TRAIT', 'VALUE', 'PREFERENCE', 'CAPABILITY_LIMIT', 'FEELING_STATE', 'META_BELIEF', 'RELATIONAL', 'BELIEF_ABOUT_SELF'] as const;
export type BeliefType = (typeof BELIEF_TYPES)[number];
export type Polarity = 'affirm' | 'deny';
export type Holder = 'user' | 'companion';
export const TEMPORAL_SCOPES = ['state', 'ongoing', 'habitual', 'transitional', 'past', 'unknown'] as const;
export type TemporalScope = (typeof TEMPORAL_SCOPES)[number];
export type Modality = 'certain' | 'likely' | 'possible' | 'unsure';
export type Stream = 'identity' | 'state' | 'meta' | 'relational';
export type NodeStatus = 'surface' | 'developing' | 'core';
export type SourceMode = 'journaling' | 'introspection' | 'normal_chat' | 'roleplay' | 'heated' | 'unknown';

export const BELIEF_CONFIG = {
  /** §4.1 source context. */
  sourceContext: {
    modeWeights: { journaling: 1.0, introspection: 0.95, normal_chat: 0.8, roleplay: 0.4, heated: 0.5, unknown: 0.7 } satisfies Record<SourceMode, number>,
    profanityPenalty: 0.15,
    capsPenalty: 0.1,
    exclaimPenalty: 0.05,
    /** "> 30% uppercase characters" */
    capsRatio: 0.3,
    /** "> 10% exclamation density" (of the sentence-ending marks). */
    exclaimDensity: 0.1,
    /** VAD arousal penalty: off (no VAD model in Hearth; §4.1 step 4 is optional). */
    arousalWeight: 0,
    /** Hearth, not spec: the caps ratio is only read over at least this many letters (a lone "I" or "OK" is not shouting). */
    capsMinLetters: 10,
  },
  /** §4.4 validator: an atom shorter than this many words is `too_short` ("I am"). */
  validator: { minWords: 3 },
  /** §4.7 epistemics. */
  epistemics: {
    llmFallbackThreshold: 0.6,
    /** Hearth, not spec: degree starts mid-scale; each intensifier adds `up`, each softener takes `down`. */
    degree: { base: 0.5, up: 0.2, down: 0.2 },
    /**
     * Hearth, not spec: the rules engine's confidence. `base` when the cues are clean;
     * minus `noCue` when no cue at all matched; minus `feelingNoTemporal` for a
     * FEELING_STATE with no temporal cue (state or habit cannot be told apart);
     * minus `mixedTemporal` / `mixedModality` when cues of different scopes / modalities
     * compete. Both the feeling and the mixed cases fall under llmFallbackThreshold.
     */
    confidence: { base: 0.9, noCue: 0.1, feelingNoTemporal: 0.4, mixedTemporal: 0.35, mixedModality: 0.35 },
    temporalSpecificity: { past: 6, transitional: 5, habitual: 4, ongoing: 3, state: 2, unknown: 1 } satisfies Record<TemporalScope, number>,
  },
  /** §5.2 embeddings; the local embedder's size when no endpoint is configured. */
  embeddings: { localModel: 'hearth-local', localDimensions: 256, batchSize: 32, linearScanMaxNodes: 50_000 },
  /** §5.3 resolution and §4.12 tentative links. */
  resolution: {
    topK: 10,
    matchThreshold: 0.9,
    noMatchThreshold: 0.75,
    verifierBand: [0.75, 0.9] as const,
    autoAcceptThreshold: 0.85,
    autoRejectThreshold: 0.15,
  },
  /** §3.3 link confidence = sigmoid(a·support_both − b·support_one − c·age_days). */
  tentativeLink: { a: 1.2, b: 0.9, c: 0.06 },
  /** Hearth, not spec: §4.13 stream confidence of an explicit (type, scope) entry, a type default, and a gap Hearth fills. */
  stream: { explicit: 0.9, typeDefault: 0.8, gapFill: 0.6 },
  /** §5.3 tension and §4.15. */
  conflict: { tensionEnabled: true, embeddingThreshold: 0.88, topK: 20 },
  /** §5.4 concurrency: unique_canonical_hash_retry. */
  concurrency: { maxRetries: 3, retryDelayMs: 100 },
  /** §4.16 activation half-lives (days) by stream. */
  halfLifeDays: { identity: 60, state: 7, meta: 30, relational: 30 } satisfies Record<Stream, number>,
  /** §4.17 core score. */
  coreScore: {
    kN: 10.0,
    spreadMidpointDays: 14.0,
    spreadTemperatureDays: 4.0,
    diversityMidpointContexts: 5.0,
    diversityTemperature: 1.5,
    conflictPenaltyWeight: 0.35,
    conflictWindowDays: 30,
    developing: 0.3,
    core: 0.6,
  },
  /** §4.14 migration state → identity, and the ratchet. */
  migration: {
    minSpread: 0.7,
    minDiversity: 0.6,
    minActivation: 0.35,
    ratchet: { enabled: true, allowDemotion: false, demotionTriggers: ['explicit_obsolescence', 'sustained_conflict_low_activation'] as const },
  },
  /** §5.1 extractor. */
  extractor: { temperature: 0, maxJsonRepairAttempts: 1 },
  /** BC §2 the hard safety lock. */
  challengeLock: { minConfidence: 0.3, strainMinConfidence: 0.5, minAgeDays: 7 },
  /** BC §3 evaluator and its 90-day window. */
  challengeEvaluator: { windowDays: 90, minRepetitions: 2, rewardCorrelationBelow: -0.3, contradictingEvidenceAbove: 0 },
  /** BC Integration: the last 5 perceptions, at most 2 evaluated, one challenge per conversation. */
  challengeIntegration: { recentPerceptions: 5, evaluated: 2, perConversation: 1 },
  /** BC §5 the bounded confidence updater. */
  confidence: { min: 0.1, max: 0.8, reinforced: 0.05, questioned: -0.05, contradicted: -0.1 },
} as const;

export type BeliefConfig = typeof BELIEF_CONFIG;

/**
 * The deterministic local embedder every service that embeds beliefs or aligns with
 * them uses when no embeddings endpoint is configured (belief-graph, trust, the
 * orchestrator's gate): one model name and width, so their vectors compare.
 */
export const LOCAL_BELIEF_EMBEDDING = { model: BELIEF_CONFIG.embeddings.localModel, dimensions: BELIEF_CONFIG.embeddings.localDimensions } as const;

/** Replies with fixed or generic words say nothing about the companion. */
const NOT_SELF_SPEECH: ReadonlySet<string> = new Set(['refusal', 'crisis_safe', 'correction', 'fallback']);

/**
 * Whether a completed turn's reply is the companion speaking of itself as it
 * composed it: a chat reply, with words, not a refusal, crisis, correction or
 * fallback. belief-graph decomposes these replies and trust reads their tags.
 */
export function isCompanionSpeech(t: { source: string; outcome: string; assistantText: string }): boolean {
  return t.source === 'chat' && !NOT_SELF_SPEECH.has(t.outcome) && t.assistantText.trim() !== '';
}
