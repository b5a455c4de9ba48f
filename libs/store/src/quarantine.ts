import type { Quarantine, StoredEvent } from '@hearth/bus';
import { advanceCheckpoint, positionsUpsert, runtimeDb, type AnyDb } from './runtime.js';

/** A quarantined event as the runner keeps it (see migrate.ts, `quarantined_events`). */
export interface QuarantinedEvent {
  projection: string;
  stream: string;
  seq: number;
  subject: string;
  eventId: string;
  type: string;
  consumer: string;
  error: string;
  deliveries: number;
  quarantinedAt: Date;
  redrivenAt: Date | null;
}

/**
 * Records that a projection or reactor gave up on an event and moves its
 * position on the event's subject past it, in one transaction, so that the
 * subject's later events are served (the position is what orders them).
 * A projection also moves its stream checkpoint (what replay reads up to).
 */
export async function recordQuarantine(db: AnyDb, name: string, q: Quarantine, opts: { checkpoint: boolean }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const t = runtimeDb(trx as AnyDb);
    const row = {
      projection: name,
      stream: q.stream,
      seq: q.seq,
      subject: q.subject,
      event_id: q.event?.id ?? `${q.stream}:${q.seq}`,
      type: q.event?.type ?? '',
      consumer: q.consumer,
      error: q.error,
      deliveries: q.deliveries,
      // Operational metadata of the runner, not projected state: wall time is right here.
      quarantined_at: new Date(),
      redriven_at: null,
    };
    await t
      .insertInto('quarantined_events')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['projection', 'stream', 'seq']).doUpdateSet({ error: row.error, deliveries: row.deliveries, quarantined_at: row.quarantined_at, redriven_at: null }),
      )
      .execute();
    await positionsUpsert(t, name, new Map([[q.subject, q.seq]])).execute();
    if (opts.checkpoint) await advanceCheckpoint(trx as AnyDb, name, q.stream, q.seq);
  });
}

/** Marks a quarantined event as applied after all (a redrive). */
export async function markQuarantineRedriven(db: AnyDb, name: string, e: StoredEvent): Promise<void> {
  await runtimeDb(db)
    .updateTable('quarantined_events')
    .set({ redriven_at: new Date() })
    .where('projection', '=', name)
    .where('stream', '=', e.stream)
    .where('seq', '=', e.seq)
    .execute();
}

/** Events a projection or reactor still has quarantined (not redriven), oldest first. */
export async function quarantinedEvents(db: AnyDb, name?: string): Promise<QuarantinedEvent[]> {
  let q = runtimeDb(db).selectFrom('quarantined_events').selectAll().where('redriven_at', 'is', null);
  if (name !== undefined) q = q.where('projection', '=', name);
  const rows = await q.orderBy('quarantined_at').execute();
  return rows.map((r) => ({
    projection: r.projection,
    stream: r.stream,
    seq: Number(r.seq),
    subject: r.subject,
    eventId: r.event_id,
    type: r.type,
    consumer: r.consumer,
    error: r.error,
    deliveries: r.deliveries,
    quarantinedAt: r.quarantined_at,
    redrivenAt: r.redriven_at,
  }));
}
