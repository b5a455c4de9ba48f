import { databaseUrl, dropSchemas, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import pg from 'pg';
import { migrateSchema, openDatabase, type Database, type Migrations } from './index.js';

const create = (table: string) => ({
  async up(db: Kysely<unknown>) {
    await db.schema.createTable(table).addColumn('id', 'integer').execute();
  },
});

const { Pool } = pg;

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

  it('migrates while another process drops schemas of its own (a replay cleaning up)', async () => {
    // kysely lists every table of the database before migrating: a schema dropped
    // between its listing and its reading fails that, without concerning ours.
    const churn = new Pool({ connectionString: url, max: 2 });
    let stop = false;
    const churning = (async () => {
      for (let i = 0; !stop; i++) {
        const other = `${ns}_gone${i % 2}`;
        await churn.query(`create schema if not exists "${other}"`);
        for (let t = 0; t < 20; t++) await churn.query(`create table if not exists "${other}".t${t} (id int)`);
        await churn.query(`drop schema "${other}" cascade`);
      }
    })();
    try {
      for (let i = 0; i < 10; i++) await migrateSchema(database, `${ns}_s${i}`, { '2026_01_01_0001_a': create('a') });
    } finally {
      stop = true;
      await churning;
      await churn.end();
    }
  }, 60_000);
});
