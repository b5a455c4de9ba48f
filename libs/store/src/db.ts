import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { AnyDb } from './runtime.js';
import { prepareStatements, StatementNames } from './prepared.js';
import { CachingPostgresDialect } from './compile-cache.js';

export interface DatabaseOptions {
  /** Postgres URL; when unset an embedded PGlite is used. */
  url?: string;
  /**
   * Data directory of the embedded PGlite (`memory://` keeps nothing).
   * @default '.data/pglite'
   */
  pgliteDir?: string;
  /**
   * Connections in the pool (Postgres only; PGlite has one).
   * @default 10
   */
  poolSize?: number;
  /**
   * How long to wait for a new connection before the query fails (a stopped
   * server answers 503 instead of hanging the request).
   * @default 5_000
   */
  connectTimeoutMs?: number;
  /**
   * Longest one statement may run, enforced by the server (`statement_timeout`)
   * and, with a margin, by the client (a server that stopped answering).
   * @default 30_000
   */
  statementTimeoutMs?: number;
  /**
   * Idle connections are closed after this long.
   * @default 30_000
   */
  idleTimeoutMs?: number;
  /** Told about connection errors the pool recovers from by itself. */
  onConnectionError?: (err: Error) => void;
  /**
   * Send parameterised statements as named prepared statements (Postgres only).
   * @default true
   */
  preparedStatements?: boolean;
}

/**
 * One database handle per process, shared by every service in it: each service
 * reaches its own schema with {@link schemaDb}. PGlite has a single connection,
 * so the shared pool is also what keeps two services' transactions apart.
 */
export interface Database {
  readonly kind: 'postgres' | 'pglite';
  readonly root: AnyDb;
  readonly pool: pg.Pool;
  /** Round trip to the server; false when it does not answer. */
  ping(): Promise<boolean>;
  close(): Promise<void>;
}

// int8 as JS number: sequences and counters stay far below 2^53.
pg.types.setTypeParser(pg.types.builtins.INT8, (v) => Number(v));

export async function openDatabase(opts: DatabaseOptions): Promise<Database> {
  let pool: pg.Pool;
  let kind: Database['kind'];
  let closeExtra = async (): Promise<void> => undefined;
  if (opts.url) {
    kind = 'postgres';
    const statementTimeout = opts.statementTimeoutMs ?? 30_000;
    pool = new pg.Pool({
      connectionString: opts.url,
      max: opts.poolSize ?? 10,
      connectionTimeoutMillis: opts.connectTimeoutMs ?? 5_000,
      idleTimeoutMillis: opts.idleTimeoutMs ?? 30_000,
      statement_timeout: statementTimeout,
      // The server's timeout ends slow statements; this one ends a wait on a server that is gone.
      query_timeout: statementTimeout + 5_000,
      keepAlive: true,
    });
  } else {
    kind = 'pglite';
    const { PGlite } = await import('@electric-sql/pglite');
    const { createPgConfig } = await import('@electric-sql/pglite/node-postgres');
    const dir = opts.pgliteDir ?? '.data/pglite';
    if (!dir.startsWith('memory://')) {
      const { mkdir } = await import('node:fs/promises');
      await mkdir(dir, { recursive: true });
    }
    const lite = await PGlite.create(dir);
    pool = new pg.Pool({ ...(createPgConfig(lite) as unknown as pg.PoolConfig), max: 1 });
    closeExtra = () => lite.close();
  }
  // A dropped connection must not crash the process; the pool reconnects. Idle
  // clients report on the pool, but a client checked out when the server goes away
  // emits 'error' on itself, and an unheard 'error' event ends the process.
  const onError = (err: Error): void => opts.onConnectionError?.(err);
  // PGlite parses in-process and keeps no statements of its own: named ones are for Postgres.
  const names = kind === 'postgres' && opts.preparedStatements !== false ? new StatementNames() : undefined;
  pool.on('error', onError);
  pool.on('connect', (client) => {
    client.on('error', onError);
    if (names) prepareStatements(client, names);
  });
  const root: AnyDb = new Kysely({ dialect: new PostgresDialect({ pool }) });
  return {
    kind,
    root,
    pool,
    async ping() {
      try {
        await sql`select 1`.execute(root);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      await root.destroy();
      await closeExtra();
    },
  };
}

const schemaDbs = new WeakMap<Database, Map<string, AnyDb>>();

/**
 * A kysely instance bound to one schema (every table reference is qualified),
 * one per database and schema: it shares the database's pool and keeps the
 * statements it compiled (compile-cache.ts).
 */
export function schemaDb<DB>(db: Database, schema: string): Kysely<DB> {
  assertSchemaName(schema);
  let bySchema = schemaDbs.get(db);
  if (bySchema === undefined) schemaDbs.set(db, (bySchema = new Map<string, AnyDb>()));
  let scoped = bySchema.get(schema);
  if (scoped === undefined) bySchema.set(schema, (scoped = new Kysely({ dialect: new CachingPostgresDialect({ pool: db.pool }, schema) })));
  return scoped as Kysely<DB>;
}

export function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name '${schema}'`);
}
