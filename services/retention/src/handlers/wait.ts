import type { StoredEvent } from '@hearth/bus';
import { pollUntil, requirePosition } from '@hearth/store';
import type { Kysely } from 'kysely';
import { SCHEDULER } from '../config.js';
import type { RetentionDb } from '../db.js';
import type { RetentionRecord } from '../domain/types.js';
import { retentionProjection } from '../projections/retention.js';
import { loadRecords } from '../state.js';

/** Decide only on a projection that has applied the chain up to `last` (its own earlier decisions). */
export async function caughtUp(db: Kysely<RetentionDb>, last: StoredEvent | null): Promise<void> {
  await requirePosition(db, retentionProjection.name, last, { timeoutMs: SCHEDULER.catchUpWaitMs });
}

/**
 * The user's records once none that `pending` flags is left (the orchestrator's
 * delivery or decline arrives on another stream), or as they are after the wait.
 */
export async function recordsSettled(
  db: Kysely<RetentionDb>,
  userId: string,
  pending: (records: RetentionRecord[]) => boolean,
): Promise<RetentionRecord[]> {
  let records: RetentionRecord[] = [];
  await pollUntil(
    async () => {
      records = await loadRecords(db, userId);
      return !pending(records);
    },
    { timeoutMs: SCHEDULER.catchUpWaitMs, intervalMs: 50 },
  );
  return records;
}

/** A planned message at or before `at` whose delivery is not known yet. */
export function undeliveredBy(at: Date): (records: RetentionRecord[]) => boolean {
  return (records) => records.some((r) => r.deliveredAt === null && r.declinedReason === null && r.plannedAt !== null && r.plannedAt.getTime() <= at.getTime());
}
