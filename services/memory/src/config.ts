import { z } from 'zod';

/**
 * The memory service's numbers and fixed lists, each with its turn-pipeline section.
 */
export { BROAD, CONFIDENCE, MEMORY_KEYS, type EmotionPattern, type EventDomain, type FactField, type PreferenceCategory } from '@hearth/memory-rules';

/** §12.2: when the LLM extractor runs besides the heuristic one. */
export const LLM_EXTRACTION_GATE = {
  /** Message length in characters (code points). */
  minChars: 200,
  /** High emotion: abs(valence) at least this… */
  minAbsValence: 0.6,
  /** …or a strong emotion tag (the orchestrator's EmotionReading, recorded on TurnCompleted). */
  strongTags: ['strong_negative', 'strong_positive'],
  /** The same memory_key twice within this window is a pattern suspicion. */
  repeatWindowMs: 7 * 24 * 60 * 60 * 1000,
} as const;

/**
 * §13: retrieval. The surfacing thresholds on relevance live with the decision
 * that uses them, in the orchestrator's config (SURFACING).
 */
export const RETRIEVAL = {
  /** §13: topK. */
  topK: 4,
  /** §13 "short snippets": the longest value a snippet carries, in characters. */
  snippetMaxChars: 160,
  /** FindMemories (§7.1 step 2) when the request names no limit. */
  defaultLimit: 8,
  /** The most any query returns, whatever it asks. */
  maxLimit: 50,
  /**
   * How long a query with `after_message_id` waits for that turn's write-back
   * (normally milliseconds behind the reply); then it answers from what is there.
   * Within the orchestrator's query timeout (1500 ms).
   */
  writtenBackWaitMs: 1_000,
  /**
   * Issue 15 (hybrid ranking inside §13): reciprocal-rank fusion's k, the
   * customary 60 (not a spec number): a rank's weight is 1 / (k + rank).
   */
  rrfK: 60,
  /**
   * Issue 15: how deep each ranking (BM25, and vector with real embeddings)
   * goes before fusion (not a spec number: well past topK, so a memory second
   * in one ranking and absent from the other still competes).
   */
  fusionDepth: 50,
} as const;

/** The local embedder (no embeddings endpoint configured): dimensions of its hashed vectors. */
export const LOCAL_EMBEDDING = { model: 'hearth-hash-v1', dimensions: 256 } as const;

/** The offline stand-in for the LLM extractor, as LlmExchange records name it. */
export const OFFLINE_EXTRACTOR = { provider: 'offline-rules', model: 'memory-rules-v0' } as const;

/** Waiting for the memory projection before deciding on its rows. */
export const WRITEBACK = { projectionWaitMs: 10_000 } as const;

/**
 * Where vectors live (§13): Qdrant when QDRANT_URL is set, else the embedded
 * index rebuilt from the memory projection.
 */
export const memoryEnvSchema = z.object({
  /** Qdrant's REST URL, e.g. `http://127.0.0.1:6333`. @default undefined (embedded index) */
  QDRANT_URL: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL such as http://127.0.0.1:6333' }).optional(),
  /** @default undefined */
  QDRANT_API_KEY: z.string().min(1).optional(),
  /** @default 'hearth_memories' */
  QDRANT_COLLECTION: z.string().regex(/^[A-Za-z0-9_-]+$/, 'letters, digits, _ and - only').default('hearth_memories'),
});
export type MemoryEnv = z.output<typeof memoryEnvSchema>;
