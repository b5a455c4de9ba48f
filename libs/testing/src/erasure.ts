// The erasure check of ARCHITECTURE.md's invariant 9 for one service's
// projections, against real Postgres: after `erase` no row of the user is left
// while another user's rows are intact, and the tables equal a replay that
// passes over the erased user's (unreadable) events. Uses jest's `expect`.
import { randomUUID } from 'node:crypto';
import { Topology, type EventType, type ServiceName, type StoredEvent } from '@hearth/bus';
import { applyEvents, diffTable, migrateSchema, openDatabase, schemaDb, type Database, type Migrations, type Projection } from '@hearth/store';
import { sql, type Kysely } from 'kysely';
import { testNamespace } from './namespace.js';
import { storedEvent } from './events.js';
import { dropSchemas } from './postgres.js';
import { databaseUrl } from './urls.js';

/** One migrated schema of the service under test. */
export interface TestSchema<DB> {
  name: string;
  db: Kysely<DB>;
}

/** Appends to one service's stream: each subject a chain, each event naming its predecessor's sequence, a minute apart. */
export type StreamWriter = <T>(type: EventType<T>, value: T, userId: string, key?: string) => StoredEvent;

export interface ErasureHarness<DB> {
  namespace: string;
  topology: Topology;
  /** A fresh stream of `svc`'s events, as the stream would hold them. @param key the subject's key @default the user */
  streamOf(svc: ServiceName): StreamWriter;
  /** A new schema with the service's migrations applied. */
  freshSchema(): Promise<TestSchema<DB>>;
  /** The rows of `table` whose user_id is `userId`. */
  rowsOf(s: TestSchema<DB>, table: string, userId: string): Promise<number>;
  /**
   * Applies `events` live (every one acked), erases `gone`, and checks: before,
   * both users have rows in every table of the projection; after, none of
   * `gone`'s are left, `kept`'s are as they were, and each table equals a replay
   * that passes over `gone`'s events. Returns both schemas for further checks.
   */
  eraseAndCompare(projection: Projection<DB>, events: readonly StoredEvent[], gone: string, kept: string): Promise<{ live: TestSchema<DB>; replay: TestSchema<DB> }>;
  /** Closes the database and drops every schema it made. */
  close(): Promise<void>;
}

/** Opens the harness on DATABASE_URL (or a test database) under a new namespace starting with `prefix`. */
export async function openErasureHarness<DB>(prefix: string, migrations: Migrations): Promise<ErasureHarness<DB>> {
  const namespace = testNamespace(prefix);
  const topology = new Topology(namespace);
  const url = await databaseUrl();
  const database: Database = await openDatabase({ url });
  let schemas = 0;

  const freshSchema = async (): Promise<TestSchema<DB>> => {
    const name = `${namespace}_s${++schemas}`;
    await migrateSchema(database, name, migrations);
    return { name, db: schemaDb<DB>(database, name) };
  };

  const rowsOf = async (s: TestSchema<DB>, table: string, userId: string): Promise<number> =>
    Number(((await sql`select count(*) as n from ${sql.table(`${s.name}.${table}`)} where user_id::text = ${userId}`.execute(s.db)).rows[0] as { n: string }).n);

  return {
    namespace,
    topology,
    streamOf(svc) {
      let seq = 0;
      const last = new Map<string, number>();
      let at = Date.UTC(2026, 10, 24, 9);
      return (type, value, userId, key = userId) => {
        const subject = topology.subject(svc, key);
        const prevSeq = last.get(subject) ?? 0;
        last.set(subject, ++seq);
        at += 60_000;
        return storedEvent(type, value, { id: randomUUID(), userId, occurredAt: new Date(at), service: svc, stream: topology.stream(svc), subject, seq, prevSeq });
      };
    },
    freshSchema,
    rowsOf,
    async eraseAndCompare(projection, events, gone, kept) {
      const live = await freshSchema();
      const replay = await freshSchema();
      for (const source of projection.sources) {
        const { outcomes } = await applyEvents(live.db, projection, events.filter((e) => e.service === source));
        expect(outcomes.every((o) => o.kind === 'ack')).toBe(true);
      }
      const before: Record<string, number> = {};
      for (const table of projection.tables) {
        // Both users have rows in every table: the erasure has something to remove, and something to keep.
        expect(await rowsOf(live, table, gone)).toBeGreaterThan(0);
        before[table] = await rowsOf(live, table, kept);
        expect(before[table]).toBeGreaterThan(0);
      }

      await live.db.transaction().execute((trx) => projection.erase(trx, gone));
      for (const source of projection.sources) {
        await applyEvents(replay.db, projection, events.filter((e) => e.service === source), { skip: (e) => e.userId === gone });
      }

      for (const table of projection.tables) {
        expect({ table, rows: await rowsOf(live, table, gone) }).toEqual({ table, rows: 0 });
        expect({ table, rows: await rowsOf(live, table, kept) }).toEqual({ table, rows: before[table] });
        const d = await diffTable(live.db as unknown as Parameters<typeof diffTable>[0], live.name, replay.name, table);
        expect({ table, differing: d.onlyLive + d.onlyReplay }).toEqual({ table, differing: 0 });
      }
      return { live, replay };
    },
    async close() {
      await database.close();
      await dropSchemas(url, namespace);
    },
  };
}
