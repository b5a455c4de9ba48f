import { z } from 'zod';

export type Stage = 'STRANGER' | 'ACQUAINTANCE' | 'FRIEND' | 'CLOSE_FRIEND';

/**
 * The retention service's numbers, each with its turn-pipeline section (§14, the
 * v0.1 defaults of §15).
 */
export const RETENTION = {
  /** §14.0: eligibility is evaluated once per hour, on the hour (UTC). */
  cadenceMs: 3_600_000,
  /** §14.1, §15: quiet hours, local wall time [start, end) in minutes; never a message. */
  quietHours: { startMinute: 0, endMinute: 8 * 60 },
  /** §14.0: only attempt within 10:00–21:00 local; 21:00 itself is outside (no late pings). */
  attemptWindow: { startMinute: 10 * 60, endMinute: 21 * 60 },
  /** §14.1, §15: stage caps — at most `cap` proactive messages in any rolling window. */
  caps: {
    STRANGER: { cap: 0, windowHours: 24 },
    ACQUAINTANCE: { cap: 1, windowHours: 72 },
    FRIEND: { cap: 1, windowHours: 24 },
    CLOSE_FRIEND: { cap: 2, windowHours: 24 },
  } satisfies Record<Stage, { cap: number; windowHours: number }>,
  /**
   * §14.0: minimum inactivity before an attempt, by stage (STRANGER never gets one).
   * Measured from the later of the user's last message and the last proactive
   * message: the wait between attempts, which the backoff doubles (§14.2).
   */
  minInactiveHours: { STRANGER: Infinity, ACQUAINTANCE: 48, FRIEND: 24, CLOSE_FRIEND: 12 } satisfies Record<Stage, number>,
  /** §14.2, §15: a delivered message with no reply and no attributed app open within this is ignored. */
  ignoredWindowHours: 24,
  /** §14.2, §15: each ignored message in a row multiplies the wait by this. */
  backoffFactor: 2,
} as const;

/** How the scheduler runs; not spec numbers. */
export const SCHEDULER = {
  /** Users a replica leases at a time (SKIP LOCKED: replicas take disjoint ones). */
  batchSize: 25,
  /** How long a lease on a user holds; a replica that dies mid-way frees its users after this. */
  leaseSeconds: 120,
  /** How long an evaluation waits for its projection to catch up with the streams, or a planned message to be delivered. */
  catchUpWaitMs: 3_000,
  /** Hours older than this are not evaluated after an outage: a proactive message for a long-gone hour helps nobody. */
  maxCatchUpHours: 24 * 90,
} as const;

/** The retention service's environment. */
export const retentionEnvSchema = z.object({
  /** How often the scheduler looks for users with hours to evaluate, in ms. @default 1000 */
  RETENTION_POLL_MS: z.coerce.number().int().min(50).max(600_000).default(1_000),
});
export type RetentionEnv = z.output<typeof retentionEnvSchema>;
