import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { AnyDb } from './runtime.js';

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
    pool = new pg.Pool({ connectionString: opts.url, max: opts.poolSize ?? 10 });
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
  // A dropped idle connection must not crash the process; the pool reconnects.
  pool.on('error', () => undefined);
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

/** A kysely instance bound to one schema (every table reference is qualified). */
export function schemaDb<DB>(db: Database, schema: string): Kysely<DB> {
  assertSchemaName(schema);
  return db.root.withSchema(schema) as Kysely<DB>;
}

export function assertSchemaName(schema: string): void {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`invalid schema name '${schema}'`);
}
