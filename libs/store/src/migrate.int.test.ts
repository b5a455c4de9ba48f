import { databaseUrl, dropSchemas, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import { migrateSchema, openDatabase, type Database, type Migrations } from './index.js';

const create = (table: string) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createTable(table).addColumn('id', 'integer').execute();
  },
});

describe('migrateSchema', () => {
  let database: Database;
  let ns: string;
  let url: string;

  beforeEach(async () => {
    url = await databaseUrl();
    database = await openDatabase({ url });
    ns = testNamespace();
  });

  afterEach(async () => {
    await database.close();
    await dropSchemas(url, ns);
  });

  it('applies each migration once and is safe to run from two replicas at once', async () => {
    const migrations: Migrations = { '2026_01_01_0001_a': create('a') };
    const [first, second] = await Promise.all([
      migrateSchema(database, `${ns}_svc`, migrations),
      migrateSchema(database, `${ns}_svc`, migrations),
    ]);
    expect([...first, ...second].sort()).toEqual(['0000_00_runtime', '0000_01_quarantine', '0000_02_erasures', '2026_01_01_0001_a']);
    expect(await migrateSchema(database, `${ns}_svc`, migrations)).toEqual([]);
  });

  it('adds a runtime migration to a schema whose own migrations are already applied', async () => {
    const schema = `${ns}_svc`;
    await migrateSchema(database, schema, { '2026_01_01_0001_a': create('a') });
    // As a schema migrated before the quarantine table existed.
    await database.root.withSchema(schema).schema.dropTable('quarantined_events').execute();
    await database.root.withSchema(schema).deleteFrom('kysely_migration').where('name', '=', '0000_01_quarantine').execute();

    await expect(migrateSchema(database, schema, { '2026_01_01_0001_a': create('a') })).resolves.toEqual(['0000_01_quarantine']);
  });

  it('lets an older version start on a schema a newer one migrated (rollback)', async () => {
    const v1: Migrations = { '2026_01_01_0001_a': create('a') };
    const v2: Migrations = { ...v1, '2026_02_01_0001_b': create('b') };
    await migrateSchema(database, `${ns}_svc`, v2);
    await expect(migrateSchema(database, `${ns}_svc`, v1)).resolves.toEqual([]);
    const v0: Migrations = { '2026_01_01_0001_other': create('c') };
    await expect(migrateSchema(database, `${ns}_svc`, v0)).rejects.toThrow(/lacks 2026_01_01_0001_other/);
  });
});
