import Fastify, { type FastifyInstance } from 'fastify';
import { countRequest, burstWindowMs, isChat, isExempt, limitPlan, limitsFor, type RateLimitSettings } from './rate-limit.js';
import { registerRateLimits } from './rate-limit-plugin.js';
import { kvKey, KvRateLimitStore, type CounterKv } from './rate-limit-store.js';

const API_MD: RateLimitSettings = { chatPerMinute: 30, chatBurst: 10, perMinute: 300, anonPerMinute: 30 };
const USER = '0b7e2b8e-3f4a-4c1d-9e2a-1c2d3e4f5a6b';
const OTHER = '1b7e2b8e-3f4a-4c1d-9e2a-1c2d3e4f5a6b';
const silent = { warn: () => undefined };

/** An in-memory NATS KV: revisions per key, compare-and-set like the real one. */
class FakeKv implements CounterKv {
  seq = 0;
  readonly entries = new Map<string, { revision: number; value: Uint8Array }>();
  failing = false;
  async get(key: string) {
    if (this.failing) throw new Error('nats down');
    return this.entries.get(key) ?? null;
  }
  async create(key: string, value: Uint8Array) {
    if (this.failing) throw new Error('nats down');
    if (this.entries.has(key)) throw new Error('wrong last sequence');
    this.entries.set(key, { revision: ++this.seq, value });
    return this.seq;
  }
  async update(key: string, value: Uint8Array, revision: number) {
    if (this.failing) throw new Error('nats down');
    if (this.entries.get(key)?.revision !== revision) throw new Error('wrong last sequence');
    this.entries.set(key, { revision: ++this.seq, value });
    return this.seq;
  }
}

describe('rate limits of API.md', () => {
  it('limits chat per user by burst (20 s) and minute, others per user, the rest per address', () => {
    const plan = limitPlan(API_MD);
    expect(plan.chat).toEqual([
      { name: 'chat-burst', max: 10, windowMs: 20_000 },
      { name: 'chat-minute', max: 30, windowMs: 60_000 },
    ]);
    expect(plan.user).toEqual([{ name: 'user', max: 300, windowMs: 60_000 }]);
    expect(plan.anon).toEqual([{ name: 'anon', max: 30, windowMs: 60_000 }]);
    const chat = limitsFor(plan, { method: 'POST', path: `/v1/conversations/${OTHER}/messages`, userId: USER, address: '10.0.0.1' });
    expect(chat).toEqual({ limits: plan.chat, key: `user:${USER}` });
    const history = limitsFor(plan, { method: 'GET', path: `/v1/conversations/${OTHER}/messages`, userId: USER, address: '10.0.0.1' });
    expect(history).toEqual({ limits: plan.user, key: `user:${USER}` });
    const anon = limitsFor(plan, { method: 'POST', path: `/v1/conversations/${OTHER}/messages`, userId: null, address: '10.0.0.1' });
    expect(anon).toEqual({ limits: plan.anon, key: 'ip:10.0.0.1' });
  });

  it('leaves out a limit set to 0', () => {
    const plan = limitPlan({ chatPerMinute: 0, chatBurst: 5, perMinute: 0, anonPerMinute: 0 });
    expect(plan).toEqual({ chat: [{ name: 'chat-burst', max: 5, windowMs: 20_000 }], user: [], anon: [] });
    expect(limitPlan({ chatPerMinute: 0, chatBurst: 0, perMinute: 0, anonPerMinute: 0 })).toEqual({ chat: [], user: [], anon: [] });
  });

  it('derives the burst window from the per-minute rate, within a minute', () => {
    expect(burstWindowMs({ chatPerMinute: 30, chatBurst: 10 })).toBe(20_000);
    expect(burstWindowMs({ chatPerMinute: 60, chatBurst: 10 })).toBe(10_000);
    expect(burstWindowMs({ chatPerMinute: 10, chatBurst: 30 })).toBe(60_000);
  });

  it('exempts dev routes, operations and docs; knows a chat message', () => {
    for (const p of ['/v1/dev/token', '/v1/dev/clock', '/healthz', '/readyz', '/metrics', '/docs', '/docs/openapi.json']) expect(isExempt(p)).toBe(true);
    for (const p of ['/v1/me', '/v1/dev', '/v1/admin/dead-letters', '/docsx', '/v1/conversations/x/messages']) expect(isExempt(p)).toBe(false);
    expect(isChat('POST', '/v1/conversations/abc/messages')).toBe(true);
    expect(isChat('GET', '/v1/conversations/abc/messages')).toBe(false);
    expect(isChat('POST', '/v1/conversations/abc/messages/x')).toBe(false);
  });

  it('counts in a window that starts at the first request', () => {
    let w = countRequest(null, 1_000, 20_000);
    expect(w).toEqual({ startMs: 1_000, count: 1 });
    w = countRequest(w, 20_999, 20_000);
    expect(w).toEqual({ startMs: 1_000, count: 2 });
    expect(countRequest(w, 21_000, 20_000)).toEqual({ startMs: 21_000, count: 1 });
    // A window far in the future (another replica's clock gone wrong) does not stick.
    expect(countRequest({ startMs: 100_000, count: 9 }, 1_000, 20_000)).toEqual({ startMs: 1_000, count: 1 });
  });
});

describe('KvRateLimitStore', () => {
  it('counts by compare-and-set; a write by another replica costs one re-read', async () => {
    const kv = new FakeKv();
    let now = 0;
    const a = new KvRateLimitStore({ kv, logger: silent, now: () => now });
    const b = new KvRateLimitStore({ kv, logger: silent, now: () => now });
    expect(await a.count('anon:ip:1.2.3.4', 60_000)).toEqual({ current: 1, ttl: 60_000 });
    now = 1_000;
    expect(await b.count('anon:ip:1.2.3.4', 60_000)).toEqual({ current: 2, ttl: 59_000 });
    // a's remembered revision is stale now: it re-reads and counts on.
    expect(await a.count('anon:ip:1.2.3.4', 60_000)).toEqual({ current: 3, ttl: 59_000 });
    now = 60_000;
    expect(await b.count('anon:ip:1.2.3.4', 60_000)).toEqual({ current: 1, ttl: 60_000 });
    expect([...kv.entries.keys()]).toEqual([kvKey('anon:ip:1.2.3.4')]);
  });

  it('counts one process’s concurrent requests of one key exactly', async () => {
    const kv = new FakeKv();
    const store = new KvRateLimitStore({ kv, logger: silent, now: () => 5 });
    const results = await Promise.all(Array.from({ length: 40 }, () => store.count(`user:${USER}`, 60_000)));
    expect(results.map((r) => r.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it('fails (for the plugin to let the request through) when the KV fails or hangs, and logs it', async () => {
    const kv = new FakeKv();
    const warned: object[] = [];
    const store = new KvRateLimitStore({ kv, logger: { warn: (o) => warned.push(o) }, timeoutMs: 50 });
    kv.failing = true;
    const err = await new Promise<Error | null>((resolve) => store.incr('anon:ip:x', (e) => resolve(e), 60_000));
    expect(err).toBeInstanceOf(Error);
    expect(warned).toHaveLength(1);
    const hanging: CounterKv = { get: () => new Promise(() => undefined), create: () => new Promise(() => undefined), update: () => new Promise(() => undefined) };
    await expect(new KvRateLimitStore({ kv: hanging, logger: silent, timeoutMs: 30 }).count('k', 60_000)).rejects.toThrow(/did not answer/);
  });

  it('after a failure lets requests pass at once for a while, then counts again', async () => {
    const kv = new FakeKv();
    let now = 0;
    const store = new KvRateLimitStore({ kv, logger: silent, now: () => now, pauseMs: 5_000 });
    kv.failing = true;
    await expect(store.count('k', 60_000)).rejects.toThrow('nats down');
    kv.failing = false;
    now = 4_999;
    await expect(store.count('k', 60_000)).rejects.toThrow(/paused/);
    now = 5_000;
    await expect(store.count('k', 60_000)).resolves.toEqual({ current: 1, ttl: 60_000 });
  });

  it('makes keys NATS KV accepts', () => {
    expect(kvKey(`user:${USER}`)).toBe(`user=3a${USER}`);
    expect(kvKey('anon:ip:::1')).toMatch(/^[-_=.A-Za-z0-9]+$/);
  });
});

describe('the rate-limit hook on Fastify', () => {
  let kv: FakeKv;
  let app: FastifyInstance;

  async function build(settings: RateLimitSettings, opts: { now?: () => number } = {}) {
    kv = new FakeKv();
    app = Fastify();
    registerRateLimits(app, {
      plan: limitPlan(settings),
      store: { kv, logger: silent, now: opts.now },
      // A token here is just the user id: the verification itself is auth's.
      userOf: async (req) => (req.headers.authorization?.startsWith('Bearer ') ? req.headers.authorization.slice(7) : null),
      logger: silent,
    });
    app.post('/v1/conversations/:id/messages', async () => ({ ok: true }));
    app.get('/v1/me', async () => ({ ok: true }));
    app.post('/v1/dev/token', async () => ({ ok: true }));
    app.get('/healthz', async () => ({ ok: true }));
    await app.ready();
  }

  afterEach(async () => {
    await app?.close();
  });

  const chat = (user = USER) => app.inject({ method: 'POST', url: `/v1/conversations/${OTHER}/messages`, headers: { authorization: `Bearer ${user}` }, payload: {} });

  it('limits the 11th of 11 chat messages at once with 429, Retry-After and the API body', async () => {
    await build(API_MD);
    for (let i = 0; i < 10; i++) expect((await chat()).statusCode).toBe(200);
    const limited = await chat();
    expect(limited.statusCode).toBe(429);
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(20);
    expect(limited.json()).toEqual({
      error: { code: 'RATE_LIMITED', message: `too many requests; retry in ${retryAfter} s`, details: { retry_after_seconds: retryAfter } },
    });
    // Another user is not limited by it.
    expect((await chat(OTHER)).statusCode).toBe(200);
  });

  it('lets 30 messages spread over a minute pass, and limits the 31st of the minute', async () => {
    let now = 0;
    await build(API_MD, { now: () => now });
    for (let i = 0; i < 30; i++) {
      now = i * 2_000;
      expect((await chat()).statusCode).toBe(200);
    }
    now = 59_500;
    expect((await chat()).statusCode).toBe(429);
    now = 60_000;
    expect((await chat()).statusCode).toBe(200);
  });

  it('limits other requests per user, unauthenticated ones per address, and never dev routes or health', async () => {
    await build({ chatPerMinute: 30, chatBurst: 10, perMinute: 3, anonPerMinute: 2 });
    const me = () => app.inject({ method: 'GET', url: '/v1/me', headers: { authorization: `Bearer ${USER}` } });
    for (let i = 0; i < 3; i++) expect((await me()).statusCode).toBe(200);
    expect((await me()).statusCode).toBe(429);
    // Chat messages count apart from other requests.
    expect((await chat()).statusCode).toBe(200);
    const anon = () => app.inject({ method: 'GET', url: '/v1/me' });
    expect((await anon()).statusCode).toBe(200);
    expect((await anon()).statusCode).toBe(200);
    expect((await anon()).statusCode).toBe(429);
    for (let i = 0; i < 5; i++) {
      expect((await app.inject({ method: 'POST', url: '/v1/dev/token', payload: {} })).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    }
  });

  it('lets requests through when the counters cannot be reached (fail open)', async () => {
    await build({ chatPerMinute: 30, chatBurst: 10, perMinute: 1, anonPerMinute: 1 });
    kv.failing = true;
    for (let i = 0; i < 5; i++) expect((await app.inject({ method: 'GET', url: '/v1/me' })).statusCode).toBe(200);
  });

  it('installs nothing when every limit is 0', async () => {
    await build({ chatPerMinute: 0, chatBurst: 0, perMinute: 0, anonPerMinute: 0 });
    for (let i = 0; i < 50; i++) expect((await chat()).statusCode).toBe(200);
    expect(kv.entries.size).toBe(0);
  });
});
