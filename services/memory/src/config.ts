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
  /**
   * Issue 20: how much deeper than fusionDepth SearchMemories searches before
   * it knows the user's suppressed keys (not a spec number): the row read drops
   * them, and only when it drops more than this are the indexes asked again.
   * Suppressed keys belong to INVALID memories, so it drops none in practice.
   */
  exclusionSlack: 8,
} as const;

/**
 * The embedded vector index (§13 without QDRANT_URL; issue 20: SearchMemories
 * p95 ≤ 5 ms at 10k memories, ≤ 10 ms at 100k, recall@4 ≥ 0.99 against an exact
 * scan). Not spec numbers: measured with bench:memory on 2 cores. A native
 * scan of int8 copies (usearch, SIMD) picks candidates, their float32 cosines
 * order them, and a bound on the int8 error tells when no other point can
 * enter (vector/shelf.ts): the exact answer in ~0.5 ms at 10k and ~3 ms at
 * 100k 256-d vectors, where a float32 scan takes ~9 ms at 100k and an HNSW
 * graph (approximate) 25–50 s of CPU to build for each user a process loads.
 */
export const VECTOR_INDEX = {
  /**
   * Candidates the int8 scan hands to the float32 re-score (at least twice
   * the hits wanted). Well-separated vectors are certain after a few dozen;
   * near-duplicates run out of them and fall back to the float32 scan.
   */
  candidates: 256,
  /** Threads of one scan: 1, on the query's own thread (a 2-core machine serves many queries at once). */
  threads: 1,
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
