import { randomBytes } from 'node:crypto';
import { Kvm } from '@nats-io/kv';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { ClockError, clockBucketName, startVirtualClock, waitForClockOffset, type VirtualClock } from './index.js';

// Tests may read the environment; the library code may not.
const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const HOUR_S = 3600;
const HOUR_MS = HOUR_S * 1000;

describe('virtual clock over NATS KV', () => {
  let ncA: NatsConnection;
  let ncB: NatsConnection;
  let namespace: string;
  const clocks: VirtualClock[] = [];

  async function start(nc: NatsConnection): Promise<VirtualClock> {
    const clock = await startVirtualClock(nc, { namespace });
    clocks.push(clock);
    return clock;
  }

  beforeAll(async () => {
    ncA = await connect({ servers: NATS_URL, name: 'clock-int-a' });
    ncB = await connect({ servers: NATS_URL, name: 'clock-int-b' });
  });

  beforeEach(() => {
    namespace = `t_${randomBytes(6).toString('hex')}`;
  });

  afterEach(async () => {
    await Promise.all(clocks.splice(0).map((c) => c.close()));
    const kv = await new Kvm(ncA).open(clockBucketName(namespace));
    await kv.destroy().catch(() => undefined);
  });

  afterAll(async () => {
    await Promise.all([ncA.close(), ncB.close()]);
  });

  it('starts at wall time in a fresh namespace', async () => {
    const clock = await start(ncA);

    expect(clock.offsetMs()).toBe(0);
    expect(Math.abs(clock.now().getTime() - Date.now())).toBeLessThan(1_000);
  });

  it('shows an advance made on one connection on the other promptly', async () => {
    const a = await start(ncA);
    const b = await start(ncB);
    const before = b.now().getTime();

    const returned = await a.advance(HOUR_S);
    await waitForClockOffset(b, HOUR_MS, 10_000);

    expect(returned.getTime()).toBeGreaterThanOrEqual(before + HOUR_MS);
    expect(b.now().getTime() - before).toBeGreaterThanOrEqual(HOUR_MS);
    expect(a.offsetMs()).toBe(HOUR_MS);
  });

  it('adds up concurrent advances from two processes', async () => {
    const a = await start(ncA);
    const b = await start(ncB);

    await Promise.all([
      ...Array.from({ length: 5 }, () => a.advance(60)),
      ...Array.from({ length: 5 }, () => b.advance(1)),
    ]);
    const expected = 5 * 60_000 + 5 * 1_000;
    await waitForClockOffset(a, expected, 10_000);
    await waitForClockOffset(b, expected, 10_000);

    expect(a.offsetMs()).toBe(expected);
    expect(b.offsetMs()).toBe(expected);
  });

  it('keeps the offset across close and start', async () => {
    const first = await start(ncA);
    await first.advance(HOUR_S);
    await first.close();

    const again = await start(ncA);

    expect(again.offsetMs()).toBe(HOUR_MS);
    expect(again.now().getTime()).toBeGreaterThanOrEqual(Date.now() + HOUR_MS - 1_000);
  });

  it.each([[-1], [Number.NaN], [Number.POSITIVE_INFINITY]])('rejects advance(%p) and changes nothing', async (s) => {
    const clock = await start(ncA);

    const error = await clock.advance(s).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ClockError);
    expect(error).toMatchObject({ name: 'ClockError', code: 'CLOCK_INVALID_ADVANCE' });
    expect(clock.offsetMs()).toBe(0);
  });

  it('refuses to advance once closed', async () => {
    const clock = await start(ncA);
    await clock.close();

    await expect(clock.advance(1)).rejects.toMatchObject({ code: 'CLOCK_CLOSED' });
  });
});
