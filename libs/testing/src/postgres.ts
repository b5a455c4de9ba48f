import pg from 'pg';
import { assertNamespace, testNamespace } from './namespace.js';
import { databaseUrl } from './urls.js';

/** `url` with its database swapped for `database`. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${encodeURIComponent(database)}`;
  return u.toString();
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export interface CreateTestDatabaseOptions {
  /**
   * Server to create it on (any database URL of that server).
   * @default await databaseUrl()
   */
  serverUrl?: string;
  /**
   * Start of the database name (see {@link testNamespace}).
   * @default 't'
   */
  prefix?: string;
}

export interface TestDatabase {
  /** The database name, `${prefix}_${8 hex}`. */
  readonly name: string;
  /** URL of the new database. */
  readonly url: string;
  /** Terminates its connections and drops it; safe to call twice. */
  drop(): Promise<void>;
}

/**
 * A fresh, empty database for a test that wants full isolation (the default
 * isolation is a schema per namespace, see {@link dropSchemas}).
 */
export async function createTestDatabase(options: CreateTestDatabaseOptions = {}): Promise<TestDatabase> {
  const serverUrl = options.serverUrl ?? (await databaseUrl());
  const adminUrl = withDatabase(serverUrl, 'postgres');
  const name = testNamespace(options.prefix);
  await withClient(adminUrl, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
  return {
    name,
    url: withDatabase(serverUrl, name),
    drop: () =>
      withClient(adminUrl, async (c) => {
        await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
        await c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      }),
  };
}

/**
 * Drops (cascade) every schema of the database at `url` whose name starts with
 * `${namespace}_`. Returns the names dropped.
 */
export async function dropSchemas(url: string, namespace: string): Promise<string[]> {
  assertNamespace(namespace);
  return withClient(url, async (c) => {
    // starts_with, not LIKE: `_` is a LIKE wildcard.
    const { rows } = await c.query<{ name: string }>(
      'SELECT nspname AS name FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname',
      [`${namespace}_`],
    );
    for (const { name } of rows) {
      await c.query(`DROP SCHEMA IF EXISTS ${quoteIdent(name)} CASCADE`);
    }
    return rows.map((r) => r.name);
  });
}
