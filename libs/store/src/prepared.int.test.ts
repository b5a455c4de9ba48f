import { databaseUrl, dropSchemas, testNamespace } from '@hearth/testing';
import { sql } from 'kysely';
import { openDatabase, schemaDb, type Database } from './index.js';

describe('named prepared statements (real Postgres)', () => {
  let database: Database;
  let url: string;
  let ns: string;

  beforeEach(async () => {
    url = await databaseUrl();
    ns = testNamespace();
    // One connection: what one statement prepared, the next one sees.
    database = await openDatabase({ url, poolSize: 1 });
    await sql`create schema ${sql.id(`${ns}_p`)}`.execute(database.root);
    await sql`create table ${sql.table(`${ns}_p.items`)} (id int primary key, label text)`.execute(database.root);
  });

  afterEach(async () => {
    await database.close();
    await dropSchemas(url, ns);
  });

  it('prepares a parameterised statement once per connection and runs it again by name', async () => {
    const db = schemaDb<{ items: { id: number; label: string | null } }>(database, `${ns}_p`);
    await db.insertInto('items').values({ id: 1, label: 'one' }).execute();
    for (let i = 0; i < 3; i++) expect(await db.selectFrom('items').select('label').where('id', '=', 1).executeTakeFirst()).toEqual({ label: 'one' });
    const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(database.root);
    const select = prepared.rows.filter((r) => r.statement.includes('"items"') && r.statement.startsWith('select'));
    expect(select).toHaveLength(1);
    expect(select[0]!.name).toMatch(/^hearth_\d+$/);
  });

  it('still answers when a migration changed a table under a prepared select *', async () => {
    const db = schemaDb<{ items: { id: number; label: string | null; extra?: number | null } }>(database, `${ns}_p`);
    await db.insertInto('items').values({ id: 1, label: 'one' }).execute();
    const read = () => db.selectFrom('items').selectAll().where('id', '=', 1).executeTakeFirst();
    await read();
    await sql`alter table ${sql.table(`${ns}_p.items`)} add column extra int`.execute(database.root);
    await expect(read()).resolves.toEqual({ id: 1, label: 'one', extra: null });
    await expect(read()).resolves.toEqual({ id: 1, label: 'one', extra: null });
  });
});
