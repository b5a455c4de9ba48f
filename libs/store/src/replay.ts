import { sql } from 'kysely';
import type { Bus, ServiceName, StoredEvent } from '@hearth/bus';
import { KnownPositions } from './known-positions.js';
import { schemaDb, type Database } from './db.js';
import type { AnyDb } from './runtime.js';
import { dropSchema, migrateSchema, type Migrations } from './migrate.js';
import { applyEvents, checkpointOf, type Projection } from './projection.js';
import { quarantinedEvents } from './quarantine.js';

export interface TableDiff {
  table: string;
  liveRows: number;
  replayRows: number;
  /** Rows live has that the replay does not. */
  onlyLive: number;
  /** Rows the replay has that live does not. */
  onlyReplay: number;
  samples: unknown[];
}

export interface ReplayReport {
  projection: string;
  schema: string;
  replaySchema: string;
  events: number;
  /** Stream sequence each source was replayed up to (the live checkpoint). */
  upTo: Record<string, number>;
  tables: TableDiff[];
  equal: boolean;
  /** Wall time of each phase, in ms. */
  timings: ReplayTimings;
}

export interface ReplayTimings {
  /** Dropping and migrating the replay schema, reading the live checkpoints. */
  setupMs: number;
  /** Reading the sources and applying their events: what events/s is taken over. */
  rebuildMs: number;
  /** Of the rebuild, the summed time of the applyEvents calls (one at a time; the next batch is read meanwhile). */
  applyMs: number;
  /** Comparing the tables with live. */
  diffMs: number;
}

export interface ReplayOptions {
  bus: Bus;
  database: Database;
  service: ServiceName;
  /** The live schema of the service. */
  schema: string;
  projection: Projection;
  migrations: Migrations;
  /** @default `${schema}__replay` */
  replaySchema?: string;
  /** Keep the replay schema for inspection. @default false */
  keep?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Events per applyEvents transaction. @default 500 */
  batchSize?: number;
  /** Told as each timed phase starts (a benchmark counts the statements of the rebuild alone). */
  onPhase?: (phase: 'rebuild' | 'diff') => void;
}

/**
 * Rebuilds one projection from its streams into a fresh schema, up to the live
 * checkpoint of each source, and compares the rows table by table.
 */
export async function replayProjection(opts: ReplayOptions): Promise<ReplayReport> {
  const { bus, database, projection } = opts;
  const t0 = performance.now();
  const replaySchema = opts.replaySchema ?? `${opts.schema}__replay`;
  const live: AnyDb = schemaDb(database, opts.schema);
  await dropSchema(database, replaySchema);
  await migrateSchema(database, replaySchema, opts.migrations);
  const target: AnyDb = schemaDb(database, replaySchema);
  const upTo: Record<string, number> = {};
  for (const source of projection.sources) {
    upTo[source] = await checkpointOf(live, projection.name, bus.topology.stream(source));
  }
  // What live gave up on, replay passes over too (still quarantined: not redriven).
  const quarantined = new Set((await quarantinedEvents(live, projection.name)).map((q) => `${q.stream}:${q.seq}`));
  const skip = (e: StoredEvent): boolean => quarantined.has(`${e.stream}:${e.seq}`);
  const total = Object.values(upTo).reduce((a, b) => a + b, 0);
  const t1 = performance.now();
  opts.onPhase?.('rebuild');
  const { events, applyMs } = await rebuild(bus, target, projection, upTo, {
    skip,
    batchSize: opts.batchSize ?? 500,
    onBatch: (source, seq) => opts.onProgress?.(progressOf(upTo, source, seq, projection.sources), total),
  });
  opts.onProgress?.(total, total);
  const t2 = performance.now();
  opts.onPhase?.('diff');
  const tables: TableDiff[] = [];
  for (const table of projection.tables) tables.push(await diffTable(database.root, opts.schema, replaySchema, table));
  if (!opts.keep) await dropSchema(database, replaySchema);
  const t3 = performance.now();
  return {
    projection: projection.name,
    schema: opts.schema,
    replaySchema,
    events,
    upTo,
    tables,
    equal: tables.every((t) => t.onlyLive === 0 && t.onlyReplay === 0),
    timings: { setupMs: t1 - t0, rebuildMs: t2 - t1, applyMs, diffMs: t3 - t2 },
  };
}

/**
 * Reads each source up to its checkpoint and applies it in batches, reading
 * the next batch while the last one is applied (one apply at a time, in
 * order): the read costs CPU here while the database works on the apply.
 * Events of types the projection does not act on are not opened (their
 * payloads are not needed to move positions past them).
 */
async function rebuild(
  bus: Bus,
  target: AnyDb,
  projection: Projection,
  upTo: Record<string, number>,
  opts: { skip: (e: StoredEvent) => boolean; batchSize: number; onBatch: (source: ServiceName, seq: number) => void },
): Promise<{ events: number; applyMs: number }> {
  const types = projection.types === undefined ? undefined : new Set(projection.types);
  const opens = (type: string): boolean => !types || types.has(type);
  const known = new KnownPositions();
  let events = 0;
  let applyMs = 0;
  const apply = async (source: ServiceName, batch: StoredEvent[]): Promise<void> => {
    const a0 = performance.now();
    const { outcomes } = await applyEvents(target, projection, batch, { skip: opts.skip, known });
    applyMs += performance.now() - a0;
    const stuck = outcomes.findIndex((o) => o.kind !== 'ack');
    if (stuck >= 0) throw new Error(`replay of ${projection.name}: event seq ${batch[stuck]!.seq} is out of its chain`);
    events += batch.length;
    opts.onBatch(source, batch[batch.length - 1]!.seq);
  };
  let inFlight: Promise<void> = Promise.resolve();
  const hand = async (source: ServiceName, batch: StoredEvent[]): Promise<void> => {
    await inFlight;
    inFlight = apply(source, batch);
    // Its failure surfaces at the next hand-over or at the end, not as an unhandled rejection meanwhile.
    inFlight.catch(() => undefined);
  };
  try {
    for (const source of projection.sources) {
      const last = upTo[source]!;
      if (last === 0) continue;
      let batch: StoredEvent[] = [];
      for await (const e of bus.read(source, { toSeq: last, opens, ...(projection.key === undefined ? {} : { key: projection.key }) })) {
        batch.push(e);
        if (batch.length >= opts.batchSize) {
          await hand(source, batch);
          batch = [];
        }
      }
      if (batch.length > 0) await hand(source, batch);
    }
    await inFlight;
  } finally {
    // A read that failed leaves no apply running behind the caller's back.
    await inFlight.catch(() => undefined);
  }
  return { events, applyMs };
}

function progressOf(upTo: Record<string, number>, source: string, seq: number, sources: readonly string[]): number {
  let sum = 0;
  for (const s of sources) {
    if (s === source) return sum + seq;
    sum += upTo[s] ?? 0;
  }
  return sum;
}

/** One table of two schemas compared row for row (multiset difference both ways), with a few samples. */
export async function diffTable(db: AnyDb, live: string, replay: string, table: string): Promise<TableDiff> {
  const l = sql.table(`${live}.${table}`);
  const r = sql.table(`${replay}.${table}`);
  const count = async (q: ReturnType<typeof sql>): Promise<number> =>
    Number(((await q.execute(db)).rows[0] as { n: number | string }).n);
  const liveRows = await count(sql`select count(*) as n from ${l}`);
  const replayRows = await count(sql`select count(*) as n from ${r}`);
  const onlyLive = await count(sql`select count(*) as n from (select * from ${l} except all select * from ${r}) d`);
  const onlyReplay = await count(sql`select count(*) as n from (select * from ${r} except all select * from ${l}) d`);
  const samples =
    onlyLive + onlyReplay > 0
      ? (
          await sql`(select 'live' as side, to_jsonb(d) as row from (select * from ${l} except all select * from ${r}) d limit 3)
            union all (select 'replay' as side, to_jsonb(d) as row from (select * from ${r} except all select * from ${l}) d limit 3)`.execute(db)
        ).rows
      : [];
  return { table, liveRows, replayRows, onlyLive, onlyReplay, samples };
}
