import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import pg from 'pg';
import { cleanupNamespace, createTestDatabase, databaseUrl, dropSchemas, natsUrl, testNamespace } from './index.js';

async function streamNames(jsm: JetStreamManager): Promise<string[]> {
  const names: string[] = [];
  for await (const name of jsm.streams.names()) names.push(name);
  return names;
}

describe('cleanupNamespace', () => {
  let nc: NatsConnection;
  let jsm: JetStreamManager;
  const mine = testNamespace();
  const theirs = testNamespace();
  beforeAll(async () => {
    nc = await connect({ servers: await natsUrl() });
    jsm = await jetstreamManager(nc);
  });
  afterAll(async () => {
    await cleanupNamespace(nc, theirs);
    await nc.close();
  });

  test('deletes its own streams and KV buckets, and nothing else', async () => {
    const add = (name: string, subject: string) => jsm.streams.add({ name, subjects: [subject] });
    await add(`${mine}_memory`.toUpperCase(), `${mine}.memory.v1.>`);
    await add(`${mine}_dlq`.toUpperCase(), `${mine}.dlq.>`);
    await new Kvm(nc).create(`${mine}_sessions`);
    await add(`${theirs}_memory`.toUpperCase(), `${theirs}.memory.v1.>`);
    // Same characters, no `_` after them: another namespace's stream.
    await add(`${theirs}x`.toUpperCase(), `${theirs}x.>`);
    await new Kvm(nc).create(`${theirs}_sessions`);

    const deleted = await cleanupNamespace(await natsUrl(), mine);

    expect(deleted).toEqual([`${mine}_DLQ`.toUpperCase(), `${mine}_MEMORY`.toUpperCase(), `KV_${mine}_sessions`].sort());
    const left = await streamNames(jsm);
    expect(left.filter((n) => n.toLowerCase().includes(mine))).toEqual([]);
    expect(left).toEqual(
      expect.arrayContaining([`${theirs}_MEMORY`.toUpperCase(), `${theirs}X`.toUpperCase(), `KV_${theirs}_sessions`]),
    );
    await cleanupNamespace(nc, `${theirs}x`);
    expect(nc.isClosed()).toBe(false);
  });

  test('refuses a namespace that could match everything', async () => {
    await expect(cleanupNamespace(nc, '')).rejects.toThrow(/invalid namespace/);
  });
});

describe('dropSchemas and createTestDatabase', () => {
  test('dropSchemas drops the schemas of its namespace only', async () => {
    const db = await createTestDatabase();
    const mine = testNamespace();
    const theirs = testNamespace();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      for (const schema of [`${mine}_memory`, `${mine}_trust`, `${theirs}_memory`, `${mine}x`]) {
        await client.query(`CREATE SCHEMA "${schema}"`);
        await client.query(`CREATE TABLE "${schema}".t (id int)`);
      }

      expect(await dropSchemas(db.url, mine)).toEqual([`${mine}_memory`, `${mine}_trust`]);

      const { rows } = await client.query<{ nspname: string }>(
        `SELECT nspname FROM pg_namespace WHERE nspname LIKE 't\\_%' ORDER BY nspname`,
      );
      expect(rows.map((r) => r.nspname)).toEqual([`${mine}x`, `${theirs}_memory`].sort());
    } finally {
      await client.end();
      await db.drop();
    }
  });

  test('createTestDatabase gives an empty database; drop() ends its connections', async () => {
    const db = await createTestDatabase({ prefix: 'it' });
    expect(db.name).toMatch(/^it_[0-9a-f]{8}$/);
    const client = new pg.Client({ connectionString: db.url });
    client.on('error', () => undefined);
    await client.connect();
    const { rows } = await client.query<{ db: string }>('SELECT current_database() AS db');
    expect(rows[0]?.db).toBe(db.name);

    await db.drop();
    await db.drop();

    await expect(client.query('SELECT 1')).rejects.toThrow();
    await client.end().catch(() => undefined);
    const admin = new pg.Client({ connectionString: await databaseUrl() });
    await admin.connect();
    const left = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [db.name]);
    await admin.end();
    expect(left.rowCount).toBe(0);
  });
});
