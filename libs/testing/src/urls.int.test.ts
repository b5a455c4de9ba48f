import { natsUrl, databaseUrl, ServerUnavailableError } from './index.js';
import { canConnect } from './ports.js';

function hostPort(url: string): [string, number] {
  const u = new URL(url);
  return [u.hostname, Number(u.port)];
}

describe('natsUrl and databaseUrl', () => {
  test('answer with a server that accepts connections, the same one every call', async () => {
    const nats = await natsUrl();
    const db = await databaseUrl();
    expect(await canConnect(...hostPort(nats))).toBe(true);
    expect(await canConnect(...hostPort(db))).toBe(true);
    expect(await natsUrl()).toBe(nats);
    expect(await databaseUrl()).toBe(db);
  });

  test('take NATS_URL and DATABASE_URL from the environment first', async () => {
    const saved = { nats: process.env.NATS_URL, db: process.env.DATABASE_URL };
    try {
      process.env.NATS_URL = 'nats://elsewhere:4333';
      process.env.DATABASE_URL = 'postgres://u@elsewhere:5433/x';
      expect(await natsUrl()).toBe('nats://elsewhere:4333');
      expect(await databaseUrl()).toBe('postgres://u@elsewhere:5433/x');
    } finally {
      for (const [key, value] of [['NATS_URL', saved.nats], ['DATABASE_URL', saved.db]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  test('ServerUnavailableError has a stable code', () => {
    const err = new ServerUnavailableError('set NATS_URL');
    expect(err.code).toBe('SERVER_UNAVAILABLE');
    expect(err.name).toBe('ServerUnavailableError');
  });
});
