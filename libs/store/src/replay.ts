import { sql } from 'kysely';
import type { Bus, ServiceName, StoredEvent } from '@hearth/bus';
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
  /** @default 500 */
  batchSize?: number;
}

/**
 * Rebuilds one projection from its streams into a fresh schema, up to the live
 * checkpoint of each source, and compares the rows table by table.
 */
export async function replayProjection(opts: ReplayOptions): Promise<ReplayReport> {
  const { bus, database, projection } = opts;
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
  let events = 0;
  const batchSize = opts.batchSize ?? 500;
  for (const source of projection.sources) {
    const last = upTo[source]!;
    if (last === 0) continue;
    let batch: StoredEvent[] = [];
    const flush = async (): Promise<void> => {
      if (batch.length === 0) return;
      const { outcomes } = await applyEvents(target, projection, batch, { skip });
      const stuck = outcomes.findIndex((o) => o.kind !== 'ack');
      if (stuck >= 0) throw new Error(`replay of ${projection.name}: event seq ${batch[stuck]!.seq} is out of its chain`);
      events += batch.length;
      opts.onProgress?.(progressOf(upTo, source, batch[batch.length - 1]!.seq, projection.sources), total);
      batch = [];
    };
    for await (const e of bus.read(source, { toSeq: last, ...(projection.key === undefined ? {} : { key: projection.key }) })) {
      batch.push(e);
      if (batch.length >= batchSize) await flush();
    }
    await flush();
  }
  opts.onProgress?.(total, total);
  const tables: TableDiff[] = [];
  for (const table of projection.tables) tables.push(await diffTable(database.root, opts.schema, replaySchema, table));
  if (!opts.keep) await dropSchema(database, replaySchema);
  return {
    projection: projection.name,
    schema: opts.schema,
    replaySchema,
    events,
    upTo,
    tables,
    equal: tables.every((t) => t.onlyLive === 0 && t.onlyReplay === 0),
  };
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
