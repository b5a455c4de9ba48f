import { LOCAL_BELIEF_EMBEDDING } from '@hearth/beliefs';
import { TRUST_CONFIG } from '@hearth/trust';
import { z } from 'zod';

// The trust service's operational numbers; the spec's numbers are TRUST_CONFIG in
// libs/trust (shared with belief-graph's gardener step and the benchmarks).

export const SERVICE = {
  /** How long a decision waits for the projection to apply the user's earlier trust events. */
  projectionWaitMs: 10_000,
  /** How long a turn waits for belief-graph's GetCompanionBeliefs; a turn that gets no answer is retried by its consumer. */
  beliefsTimeoutMs: 5_000,
  /**
   * The tag labeller's time box (the task's ~450 ms, as uncertainty's classifier):
   * one attempt, no retries and no JSON repair; when it is late or wrong the rules decide.
   */
  llmTimeoutMs: 450,
  /** The most sentences of one text the labeller is asked about (a long reply is not a list of tags). */
  llmSentencesPerText: 6,
  /**
   * The history a turn's decision reads: the widest of the aggregator's windows
   * (feedback window, dedup window, the implicit validation's window).
   */
  historyMs: Math.max(TRUST_CONFIG.feedbackWindowMs, TRUST_CONFIG.dedupWindowMs, TRUST_CONFIG.implicitWindowMs),
  /** The user's most recent decisions whose open-conflict counts make Δconf's 95th percentile (§2 Conflict). */
  conflictHistoryLimit: 500,
  /** What GetTrust lists at most of outcomes and of feedback (the most recent, oldest first). */
  listLimit: 1_000,
} as const;

/** How the outcome scheduler runs; not spec numbers (retention's shape). */
export const SCHEDULER = {
  /** Users a replica leases at a time (SKIP LOCKED: replicas take disjoint ones). */
  batchSize: 25,
  /** How long a lease on a user holds; a replica that dies mid-way frees its users after this. */
  leaseSeconds: 120,
  /** How long a pass waits for the projection to catch up with the trust stream before evaluating. */
  catchUpWaitMs: 3_000,
} as const;

/**
 * The local embedder when no embeddings endpoint is configured: the same name and
 * size as belief-graph's, so a tag's vector and a belief's compare (alignTag
 * checks the model name and skips beliefs embedded by another model).
 */
export const LOCAL_EMBEDDING = LOCAL_BELIEF_EMBEDDING;

/** The trust service's environment. */
export const trustEnvSchema = z.object({
  /** How often the scheduler looks for users with outcomes due, in ms. @default 1000 */
  TRUST_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(1_000),
});
export type TrustEnv = z.output<typeof trustEnvSchema>;
