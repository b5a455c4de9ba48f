import { UNCERTAINTY_CONFIG } from '@hearth/uncertainty';

// The uncertainty service's operational numbers. The spec's numbers are in
// libs/uncertainty (UNCERTAINTY_CONFIG), shared with memory and the orchestrator.

export const SERVICE = {
  /** How long a decision waits for the projection to apply the user's earlier uncertainty events. */
  projectionWaitMs: 10_000,
  /**
   * Context 1 races the reply: the check waits at most this long for its mirror of
   * memory to hold the previous turn's write-back, then checks against what is there
   * (well inside the 600 ms time box).
   */
  writtenBackWaitMs: 250,
  /** The time box of the check as a whole (uncertainty-engine.md Phase 2: 600 ms). */
  timeBoxMs: UNCERTAINTY_CONFIG.ingestionTimeBoxMs,
  /** The classifier's timeout: inside the time box, with room for the reads and the append. */
  classifierTimeoutMs: 450,
  /** The most GET /v1/admin/users/{id}/uncertainties lists, oldest first. */
  listLimit: 500,
  /** The memory types Context 1 checks a message against: traits (specs/README.md). */
  traitTypes: ['FACT', 'PREFERENCE'] as readonly string[],
} as const;
