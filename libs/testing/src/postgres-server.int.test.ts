import { existsSync } from 'node:fs';
import pg from 'pg';
import { startPostgresServer, type PostgresServer } from './index.js';
import { canConnect } from './ports.js';

async function query<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

describe('startPostgresServer', () => {
  let server: PostgresServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  test('restart() keeps the port and the rows', async () => {
    server = await startPostgresServer();
    expect(server.port).not.toBe(5432);
    expect(server.url).toBe(`postgres://postgres@127.0.0.1:${server.port}/postgres`);
    await query(server.url, 'CREATE TABLE notes (id int PRIMARY KEY, body text NOT NULL)');
    await query(server.url, `INSERT INTO notes VALUES (1, 'kept across restart')`);

    await server.restart();

    expect(await query(server.url, 'SELECT id, body FROM notes')).toEqual([{ id: 1, body: 'kept across restart' }]);
  });

  test('stop({ keepData, mode: immediate }) is a crash: down until start(), then recovered', async () => {
    server = await startPostgresServer();
    await query(server.url, 'CREATE TABLE notes (body text)');
    await query(server.url, `INSERT INTO notes VALUES ('committed before the crash')`);

    await server.stop({ keepData: true, mode: 'immediate' });
    expect(await canConnect('127.0.0.1', server.port)).toBe(false);

    await server.start();
    expect(await query(server.url, 'SELECT body FROM notes')).toEqual([{ body: 'committed before the crash' }]);
  });

  test('the final stop removes the temp dir', async () => {
    const s = await startPostgresServer();
    expect(existsSync(s.dataDir)).toBe(true);
    await s.stop();
    expect(existsSync(s.dataDir)).toBe(false);
    expect(await canConnect('127.0.0.1', s.port)).toBe(false);
  });
});
