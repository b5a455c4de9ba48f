import { testNamespace, waitFor, WaitTimeoutError, freePort, seededRandom } from './index.js';
import { ownsStream } from './nats.js';
import { withDatabase } from './postgres.js';

describe('testNamespace', () => {
  test('is `${prefix}_${8 hex}`, a NATS token and a Postgres identifier prefix', () => {
    expect(testNamespace()).toMatch(/^t_[0-9a-f]{8}$/);
    expect(testNamespace('memory')).toMatch(/^memory_[0-9a-f]{8}$/);
    expect(testNamespace()).not.toBe(testNamespace());
  });

  test('rejects a prefix that is not lowercase', () => {
    expect(() => testNamespace('Bad')).toThrow(/invalid namespace prefix/);
    expect(() => testNamespace('a.b')).toThrow(/invalid namespace prefix/);
  });
});

describe('ownsStream', () => {
  test('matches its upper-cased streams and KV buckets, not a longer namespace', () => {
    expect(ownsStream('t_0a1b2c3d', 'T_0A1B2C3D_MEMORY')).toBe(true);
    expect(ownsStream('t_0a1b2c3d', 'KV_t_0a1b2c3d_sessions')).toBe(true);
    expect(ownsStream('t_0a1b2c3d', 'T_0A1B2C3DX_MEMORY')).toBe(false);
    expect(ownsStream('t_0a1b2c3d', 'KV_t_0a1b2c3dx_sessions')).toBe(false);
    expect(ownsStream('t_0a1b2c3d', 'HEARTH_MEMORY')).toBe(false);
  });
});

describe('withDatabase', () => {
  test('swaps the database and keeps the rest', () => {
    expect(withDatabase('postgres://postgres@127.0.0.1:5432/postgres?sslmode=disable', 't_1')).toBe(
      'postgres://postgres@127.0.0.1:5432/t_1?sslmode=disable',
    );
  });
});

describe('waitFor', () => {
  test('returns the first value that is neither undefined nor false', async () => {
    let calls = 0;
    const got = await waitFor(async () => (++calls >= 3 ? 0 : undefined), { what: 'three calls', intervalMs: 1 });
    expect(got).toBe(0);
    expect(calls).toBe(3);
  });

  test('times out with what it waited for and the last error as cause', async () => {
    const err = await waitFor(
      async () => {
        throw new Error('not yet');
      },
      { what: 'the row to appear', timeoutMs: 50, intervalMs: 5 },
    ).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WaitTimeoutError);
    expect((err as WaitTimeoutError).message).toBe('timed out after 50 ms waiting for the row to appear');
    expect((err as WaitTimeoutError).cause).toEqual(new Error('not yet'));
  });
});

describe('freePort', () => {
  test('gives a port number', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    expect(port).toBeLessThan(65536);
  });
});

describe('seededRandom', () => {
  it('stays in [0, 1)', () => {
    const r = seededRandom(9);
    for (let i = 0; i < 1000; i++) {
      const v = r();
      expect(v).toBeGreaterThanOrEqual(0);
      expect(v).toBeLessThan(1);
    }
  });
});
