import { BELIEF_CONFIG, LOCAL_BELIEF_EMBEDDING } from '@hearth/beliefs';
import { z } from 'zod';

/**
 * The belief-graph service's own numbers; the specs' numbers are BELIEF_CONFIG
 * in libs/beliefs (shared with the orchestrator's gate and the eval scripts).
 */
export const SERVICE = {
  /** How long a decision waits for the projection to apply the user's earlier belief events. */
  projectionWaitMs: 10_000,
  /** §8.2 belief surfacing: at most 10 core companion beliefs, by activation. */
  coreBeliefLimit: 10,
  /** What GET /v1/admin/users/{id}/beliefs lists at most, newest first. */
  listLimit: 500,
  /**
   * The user's most recently reinforced beliefs the challenge flow reads to find
   * the 5 most recent harmful ones (BC Integration step 2): a bound on the scan.
   */
  perceptionScan: 200,
  /** Source ids kept per node in the admin view. */
  sourceIdsPerNode: 50,
  /**
   * A node's first confidence (belief-challenge.md §5 keeps it in [0.1, 0.8]):
   * how sure the atomizer was, weighted by how much the source counts (§4.1).
   */
  initialConfidence(atomConfidence: number, sourceWeight: number): number {
    const { min, max } = BELIEF_CONFIG.confidence;
    return Math.min(max, Math.max(min, atomConfidence * sourceWeight));
  },
} as const;

/** The local embedder's model name, recorded with every vector it gives. */
export const LOCAL_EMBEDDING = LOCAL_BELIEF_EMBEDDING;

export const beliefEnvSchema = z.object({});
