import {
  Kysely,
  Migrator,
  PostgresDialect,
  sql,
  type DatabaseIntrospector,
  type DatabaseMetadata,
  type Migration,
  type MigrationProvider,
  type PostgresDialectConfig,
  type SchemaMetadata,
  type TableMetadata,
} from 'kysely';
import { assertSchemaName, type Database } from './db.js';
import type { AnyDb } from './runtime.js';

/** The migration tables keep these names forever (STYLE: never rename them). */
export const MIGRATION_TABLE = 'kysely_migration';
export const MIGRATION_LOCK_TABLE = 'kysely_migration_lock';

export type Migrations = Record<string, Migration>;

/** Tables every schema has: the projection runner's positions and checkpoints. */
const runtimeMigrations: Migrations = {
  '0000_00_runtime': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('projection_checkpoints')
        .addColumn('projection', 'text', (c) => c.notNull())
        .addColumn('stream', 'text', (c) => c.notNull())
        .addColumn('last_seq', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('projection_checkpoints_pk', ['projection', 'stream'])
        .execute();
      await db.schema
        .createTable('projection_positions')
        .addColumn('projection', 'text', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('last_seq', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('projection_positions_pk', ['projection', 'subject'])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('projection_positions').execute();
      await db.schema.dropTable('projection_checkpoints').execute();
    },
  },
  // Events a projection or reactor gave up on and moved past (ARCHITECTURE.md
  // "Poison events never wedge a user"); replay skips what is still quarantined.
  '0000_01_quarantine': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('quarantined_events')
        .addColumn('projection', 'text', (c) => c.notNull())
        .addColumn('stream', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('subject', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('consumer', 'text', (c) => c.notNull())
        .addColumn('error', 'text', (c) => c.notNull())
        .addColumn('deliveries', 'integer', (c) => c.notNull())
        .addColumn('quarantined_at', 'timestamptz', (c) => c.notNull())
        .addColumn('redriven_at', 'timestamptz')
        .addPrimaryKeyConstraint('quarantined_events_pk', ['projection', 'stream', 'seq'])
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('quarantined_events').execute();
    },
  },
  // Users erased (ARCHITECTURE.md "Personal data, export and erasure"): the
  // runner passes over their events sealed with the destroyed key generation or
  // an earlier one, even when a process still had the key in its cache.
  '0000_02_erasures': {
    async up(db: AnyDb) {
      await db.schema
        .createTable('erased_users')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('key_generation', 'integer', (c) => c.notNull())
        .addColumn('erasure_id', 'text', (c) => c.notNull())
        .addColumn('erased_at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('erased_users').execute();
    },
  },
};

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Migrations) {}
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(this.migrations);
  }
}

/**
 * Creates the schema if needed and runs its migrations (runtime tables first).
 * Returns the names of the migrations applied now.
 */
export async function migrateSchema(db: Database, schema: string, migrations: Migrations): Promise<string[]> {
  assertSchemaName(schema);
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db.root);
  } catch (err) {
    // Two replicas creating it at once: one loses the race on pg_namespace.
    if (!isDuplicate(err)) throw err;
  }
  const all = { ...runtimeMigrations, ...migrations };
  const applied = await appliedMigrations(db, schema);
  const unknown = applied.filter((name) => !(name in all));
  if (unknown.length > 0) {
    // A newer version migrated this schema (a rollback is running): fine as long
    // as every migration this code knows is applied; migrations only add.
    const missing = Object.keys(all).filter((name) => !applied.includes(name));
    if (missing.length > 0) {
      throw new Error(`schema ${schema} has migrations this code does not know (${unknown.join(', ')}) and lacks ${missing.join(', ')}`);
    }
    return [];
  }
  // kysely's migrator looks for its own tables by listing every table of the
  // database, which fails when another process drops a schema meanwhile (a
  // replay or a benchmark cleaning up): it is shown this schema's tables only.
  const scoped = new Kysely<unknown>({ dialect: new OneSchemaDialect({ pool: db.pool }, schema) }).withSchema(schema);
  const migrator = new Migrator({
    db: scoped,
    provider: new StaticProvider(all),
    migrationTableSchema: schema,
    migrationTableName: MIGRATION_TABLE,
    migrationLockTableName: MIGRATION_LOCK_TABLE,
    // Runtime migrations added later sort before a service's own, already applied ones.
    allowUnorderedMigrations: true,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} of schema ${schema} failed: ${error instanceof Error ? error.message : JSON.stringify(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

export async function dropSchema(db: Database, schema: string): Promise<void> {
  assertSchemaName(schema);
  await sql`drop schema if exists ${sql.id(schema)} cascade`.execute(db.root);
}

function isDuplicate(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === '23505' || code === '42P06';
}

async function appliedMigrations(db: Database, schema: string): Promise<string[]> {
  const exists = await sql<{ t: string | null }>`select to_regclass(${`${schema}.${MIGRATION_TABLE}`}) as t`.execute(db.root);
  if (!exists.rows[0]?.t) return [];
  const rows = await sql<{ name: string }>`select name from ${sql.table(`${schema}.${MIGRATION_TABLE}`)}`.execute(db.root);
  return rows.rows.map((r) => r.name);
}

/** Postgres as kysely knows it, with an introspector that sees one schema only. */
class OneSchemaDialect extends PostgresDialect {
  constructor(
    config: PostgresDialectConfig,
    private readonly schema: string,
  ) {
    super(config);
  }

  override createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return new OneSchemaIntrospector(db, this.schema);
  }
}

/** The tables of one schema, without the names of any other (the migrator asks only about its own). */
class OneSchemaIntrospector implements DatabaseIntrospector {
  constructor(
    private readonly db: Kysely<unknown>,
    private readonly schema: string,
  ) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_namespace where nspname = ${this.schema}`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${this.schema} and c.relkind in ('r', 'p')`.execute(this.db);
    return rows.map((r) => ({ name: r.name, schema: this.schema, isView: false, columns: [] }));
  }

  async getMetadata(): Promise<DatabaseMetadata> {
    return { tables: await this.getTables() };
  }
}
