import { BELIEF_CONFIG, LOCAL_BELIEF_EMBEDDING } from '@hearth/beliefs';
import { UNCERTAINTY_CONFIG } from '@hearth/uncertainty';

/**
 * The orchestrator's numbers and fixed lists, each with its spec section.
 * Later issues (quality gates, relationships) add theirs here.
 */
export const PERSONA = {
  /** turn-pipeline §3.2: library size. */
  librarySize: 24,
  /** turn-pipeline §3.2.1: the ten archetypes. */
  archetypes: [
    'Calm Listener',
    'Warm Caregiver',
    'Blunt Honest',
    'Dry Humor',
    'Playful Tease',
    'Chaotic Internet Friend',
    'Gentle Coach',
    'Soft Nerd',
    'Hype Bestie',
    'Low-Key Companion',
  ],
  /** turn-pipeline §3.2.1: the modifier categories sampling may mutate, in draw order. */
  categories: ['speech_style', 'humor_mode', 'friend_energy'],
  /** turn-pipeline §3.2.1: exactly two categories are mutated unless the cap forces a third. */
  mutatedCategories: 2,
  /** turn-pipeline §3.4, §3.4.1: the anti-cloning cap on combo keys. */
  antiCloning: {
    /** §3.4.1: rolling 24 h window of earlier assignments. */
    windowMs: 24 * 60 * 60 * 1000,
    /** §3.4: no combo key above 7% of new assignments. */
    maxShare: 0.07,
    /** §3.4.1: MAX_RESAMPLES after the first sample, then the fallback. */
    maxResamples: 50,
  },
  /**
   * Issue 16: the first-person statements a template gives its persona (not a
   * spec number: enough to seed a few identity beliefs, few enough to stay a
   * recognisable voice).
   */
  selfStatements: { min: 3, max: 5 },
  /**
   * Tries at appending to the global assignment log when other replicas keep
   * winning the race (not a spec number: enough for many replicas onboarding
   * at once, since each process queues its own assignments).
   */
  assignAttempts: 100,
} as const;

/** The offline provider's name and model, recorded in every LlmExchange. */
export const OFFLINE_PROVIDER = { provider: 'offline-template', model: 'template-v0' } as const;

/**
 * Riding out an LLM outage (not spec numbers). A failed call answers its turn
 * from the offline responder at once. But each failed call first waits out the
 * client (up to LLM_TIMEOUT_MS per try, 1 + LLM_MAX_RETRIES tries: a minute by
 * default) while the user's chat request waits 30 s at most; so after
 * `openAfterFailures` failed calls in a row the provider is skipped for
 * `coolDownMs`, then one turn probes it. Three: one 429 or dropped connection
 * is a blip, three in a row is an outage. Thirty seconds: short enough that
 * replies come from the LLM soon after it is back.
 */
export const LLM_FAILOVER = {
  openAfterFailures: 3,
  coolDownMs: 30_000,
} as const;

/** Relationship stages in promotion order (turn-pipeline §2.5). */
export const STAGES = ['STRANGER', 'ACQUAINTANCE', 'FRIEND', 'CLOSE_FRIEND'] as const;
export type Stage = (typeof STAGES)[number];

export function isStage(s: string | undefined): s is Stage {
  return (STAGES as readonly string[]).includes(s ?? '');
}

/** turn-pipeline §11 and §15: the relationship numbers, exactly. */
export const RELATIONSHIP = {
  /** §11.1: a new session starts when the last user message is more than 4 h old. */
  sessionGapMs: 4 * 60 * 60 * 1000,
  /** §11.2: a meaningful response has at least this many tokens. */
  meaningfulMinTokens: 10,
  /** §11.2: a reply shorter than this many tokens is disengaged. */
  disengagedMaxTokensExclusive: 4,
  /** §11.2: replies that are disengaged when they are exactly one of these. */
  disengagedExact: ['k', 'ok', 'idk', 'lol', 'sure'],
  /** §11.2, §11.3: the negative evidence fires from the 3rd disengaged reply in a session. */
  disengagedRepeat: 3,
  /** §11.2: emotional disclosure at abs(valence) ≥ 0.6. */
  disclosureMinAbsValence: 0.6,
  /** §11.3: the exact deltas. */
  delta: {
    preferenceOne: 1,
    preferenceTwoOrMore: 2,
    meaningfulResponse: 1,
    emotionalDisclosure: 4,
    pastReference: 4,
    disengaged: -2,
  },
  /** §11.3: per-message delta clamp. */
  deltaClamp: { min: -2, max: 5 },
  /** §11.3: rapport clamp. */
  rapportClamp: { min: 0, max: 100 },
  /** §11.4: −1 rapport per 7 days of inactivity. */
  decay: { points: 1, everyMs: 7 * 24 * 60 * 60 * 1000 },
  /** §11.4: decay never takes rapport below the stage's floor. */
  stageFloor: { STRANGER: 0, ACQUAINTANCE: 15, FRIEND: 40, CLOSE_FRIEND: 75 } satisfies Record<Stage, number>,
  /** §11.5, §15: rapport needed to enter each stage above STRANGER. */
  promotionThreshold: { ACQUAINTANCE: 15, FRIEND: 40, CLOSE_FRIEND: 75 },
  /** §11.5: sessions needed for any promotion. */
  promotionMinSessions: 3,
  /** §11.5, §15: promotion cooldown. */
  promotionCooldownMs: 7 * 24 * 60 * 60 * 1000,
} as const;

/** turn-pipeline §10: the quality gates' numbers. */
export const GATES = {
  /** §10.4: emoji_count bands by StableStyleParams.emoji_freq, inclusive. */
  emojiBand: { none: [0, 0], light: [0, 2], frequent: [1, 6] } as Record<string, readonly [number, number]>,
  /** §10.5: sentence bands by msg_length_pref; avg words inclusive bounds (null = open). */
  sentenceBand: {
    short: { sentences: [1, 3], avgWords: [null, 14] },
    medium: { sentences: [2, 5], avgWords: [10, 22] },
    long: { sentences: [3, 8], avgWords: [15, null] },
  } as Record<string, { sentences: readonly [number, number]; avgWords: readonly [number | null, number | null] }>,
  /** §10.2: opener length in tokens. */
  openerTokens: 12,
  /** §10.2, §10.3: how many earlier assistant messages are compared. */
  recentAssistantMessages: 20,
  /** §10.3: 3-gram Jaccard; repetitive at or above 0.70 (compared as 100·|∩| ≥ 70·|∪|). */
  jaccard: { n: 3, thresholdPercent: 70 },
  /** §10.1: distinct surfaced memories allowed per message. */
  personalFacts: { chat: 2, retention: 1 },
  /** §10: at most one rewrite pass, then the fallback. */
  rewritePasses: 1,
} as const;

/** turn-pipeline §14.6: sensitive TopicIDs, never surfaced uninvited. */
export const SENSITIVE_TOPICS = [
  'SEXUAL_CONTENT',
  'SELF_HARM',
  'MENTAL_HEALTH',
  'MEDICAL_HEALTH',
  'PERSONAL_FINANCE',
  'HATE_HARASSMENT',
  'ILLEGAL_ACTIVITY',
  'VIOLENCE',
] as const;

/** turn-pipeline §2.8: an assistant mention is unsolicited unless the topic was user-initiated in this or the previous 2 user messages. */
export const UNSOLICITED_LOOKBACK_USER_MESSAGES = 2;

/** turn-pipeline §7.1 and §13: what a turn loads. */
export const RECIPE = {
  /** §7.1 step 2: memories loaded by memory_read_policy (not spec numbers: LIGHT a few, FULL more, both "limited"). */
  memoryLimit: { NONE: 0, LIGHT: 3, FULL: 8 } as Record<string, number>,
  /** §13: vector retrieval topK. */
  vectorTopK: 4,
  /** The longest query text sent to memory, in UTF-16 units (not a spec number: a message's gist fits). */
  queryTextMaxChars: 512,
  /** How long a turn waits for the memory service before going on without memories (not a spec number). */
  memoryQueryTimeoutMs: 1_500,
  /** §9: earlier turns quoted in the prompt (not a spec number: "recent turns"). */
  promptRecentTurns: 6,
  /** How long a turn waits for its own projections to catch up before deciding anyway. */
  projectionWaitMs: 10_000,
} as const;

/**
 * Which retrieved memories a reply may surface (issue 15, inside §10.1 and §13):
 * a memory is surfaced only when it is about what the user just said, by the
 * relevance the memory service reports (0..1: rarity-weighted shared words, or
 * cosine with real embeddings). Not spec numbers: defaults to be tuned on
 * LoCoMo conversations 1–5 with `pnpm eval:recall`.
 */
export const SURFACING = {
  /** An ordinary turn surfaces a memory from this relevance up (at most GATES.personalFacts.chat). */
  relevanceThreshold: 0.4,
  /** A recall question ("do you remember …") searches: a lower bar, up to RECIPE.vectorTopK. */
  recallThreshold: 0.2,
  /**
   * An ordinary turn does not say back a memory one of the conversation's last
   * this-many replies already said (a friend does not repeat "I remember …" every
   * turn); a recall question may.
   */
  notAgainWithinReplies: 5,
  /**
   * "A reply must not contradict the message it answers": a memory the message
   * is about is not said back when the message changes or denies it. Words of a
   * negative stance (against a `like|` memory), of a positive one (against a
   * `dislike|` memory), and of change or correction (against any FACT or
   * PREFERENCE), matched as words or phrases of norm_no_punct (@hearth/text containsAny). The
   * uncertainty service (issue 17) will raise such a conflict gently; until then
   * the reply simply does not assert the old memory.
   */
  stance: {
    negative: ['hate', 'hated', 'dislike', 'disliked', 'detest', 'despise', 'loathe', "don't like", 'dont like', 'do not', "can't stand", 'cant stand', 'not a', 'not into', 'not really', 'sick of', 'tired of', 'gross', 'disgusting', 'awful'],
    positive: ['love', 'loved', 'like', 'liked', 'enjoy', 'enjoyed', 'adore', 'into', 'fan', 'favorite', 'favourite'],
    change: ['actually', 'not', 'no', 'anymore', 'longer', 'moved', 'move', 'switched', 'switch', 'changed', 'quit', 'stopped', 'now', 'used', 'wrong', 'instead', 'former', 'ex'],
  },
} as const;

/** turn-pipeline §14.3–§14.5: rendering a planned proactive message. */
export const RETENTION = {
  /** §14.5 step 1: a follow-up only when the user has not replied for at least 24 h. */
  followUpAfterMs: 24 * 60 * 60 * 1000,
  /** §14.5 step 2: the light context nudge is for these stages only. */
  nudgeStages: ['FRIEND', 'CLOSE_FRIEND'] as readonly Stage[],
  /** §14.5 anti-repetition: never repeat the opener of the last 10 retention messages. */
  recentOpeners: 10,
  /** §14.5 anti-repetition: re-renders after the first, then the shortest neutral opener. */
  maxRerenders: 5,
  /** §14.5 step 3: at most 2 sentences and at most 1 question (held by every step). */
  maxSentences: 2,
  maxQuestions: 1,
  /** §14.5 step 2: memories are read as memory_read_policy LIGHT. */
  memoryReadPolicy: 'LIGHT',
  /**
   * Memories asked for the nudge: the memory service's maximum (not a spec number:
   * the allowlisted facts can sit behind many more recently confirmed memories).
   */
  memoryLimit: 50,
  /** A fact value longer than this is no light reference (not a spec number: §14.5 "short"). */
  nudgeValueMaxWords: 6,
} as const;

/**
 * The routing of a retention turn (§2.2 RoutingDecision): the friend pipeline,
 * a LIGHT read for the nudge, no vector search, no memory write, no relationship
 * update; retention_policy SEND, or SKIP when the orchestrator declines (§14.4).
 */
export const RETENTION_ROUTING = {
  pipeline: 'FRIEND_CHAT',
  safetyPolicy: 'ALLOW',
  memoryReadPolicy: 'LIGHT',
  vectorSearchPolicy: 'OFF',
  memoryWritePolicy: 'NONE',
  relationshipUpdatePolicy: 'OFF',
  retentionPolicy: 'SEND',
  retrievalQueryText: '',
  notes: '',
  safetyReason: '',
  crisisSafe: false,
} as const;

/**
 * The belief graph at turn time (issue 16; belief-challenge.md "Integration").
 * Not spec numbers unless cited.
 */
export const BELIEFS = {
  /**
   * How long a turn waits for GetBeliefContext before going on without it. The
   * graph answers from its projection (no LLM, no embedding call on that path),
   * so 300 ms is ample; a slower answer costs the turn more than the challenge
   * or the core beliefs are worth, and the turn goes on without them.
   */
  queryTimeoutMs: 300,
  /** The pipelines whose chat turns ask the graph: a friend's talk, not onboarding, answers or refusals. */
  pipelines: ['FRIEND_CHAT', 'EMOTIONAL_SUPPORT'] as readonly string[],
  /**
   * The lock's signals are read over the current message and this many earlier
   * user messages of the conversation: the window of the Integration's "last 5
   * perceptions" (BC Integration step 2), for the state they are said in.
   */
  recentUserTexts: BELIEF_CONFIG.challengeIntegration.recentPerceptions,
  /**
   * The offline responder says something about itself from its persona's
   * self-statements when the user asks about it, and otherwise on one turn in
   * this many (by the turn's seed), so a companion graph grows without an LLM.
   */
  selfTalkEveryTurns: 5,
  /** The embedder whose vectors the gate may compare with a core belief's (BELIEF_CONFIG.embeddings.localDimensions wide). */
  localEmbeddingModel: LOCAL_BELIEF_EMBEDDING.model,
} as const;

/**
 * The uncertainty engine at turn time (issue 17; uncertainty-engine.md).
 * Not spec numbers unless cited.
 */
export const UNCERTAINTY = {
  /**
   * How long a turn waits for CheckMessage before going on without it:
   * uncertainty-engine.md "Context 1" and Implementation Status Phase 2, the
   * 600 ms time box of the ingestion check. A late answer is not woven in ("if
   * response already sent, contradiction is queued for drift"); the turn's own
   * guard (turn/withhold.ts) still keeps the message's contradictions unsaid.
   */
  timeoutMs: UNCERTAINTY_CONFIG.ingestionTimeBoxMs,
  /** The pipelines whose chat turns ask uncertainty: those that ask the belief graph (a friend's talk). */
  pipelines: BELIEFS.pipelines,
  /**
   * "Context 3: Pre-Action" before a retention nudge names a memory
   * (CheckReliability). Not in a user's wait: as long as a memory query.
   */
  reliabilityTimeoutMs: RECIPE.memoryQueryTimeoutMs,
  /** "Memory Reliability Model": the one state a reply may assert a memory in (the others are withheld, Context 3). */
  assertable: 'reliable',
  /**
   * "Real-time generation": the phrasings of a surface's question the offline
   * reply may close with, the turn's own first (libs/uncertainty questionFor by
   * seed, seed + 1, …): a phrasing of short sentences may not fit a persona's
   * sentence band where another does. Not a spec number: each kind has three.
   */
  phrasingsOffered: 3,
} as const;
