// The ingress edge against real NATS and Postgres, ingress hosted as in
// production: text that could poison an event is refused, one user's
// concurrent messages are all recorded, app opens are idempotent, the dev clock
// needs a token, and the rate limits are installed on the served API.
import { randomBytes, randomUUID } from 'node:crypto';
import { Bus, LocalKek } from '@hearth/bus';
import { Events } from '@hearth/events';
import { runHearth, type HearthProcess } from '@hearth/host';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import { service } from '../index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

describe('the ingress edge', () => {
  const ns = testNamespace('t_ingress_edge');
  let dbUrl: string;
  let hearth: HearthProcess;
  let bus: Bus;

  beforeAll(async () => {
    const nats = await natsUrl();
    dbUrl = await databaseUrl();
    hearth = await runHearth({
      services: [service],
      env: {
        HEARTH_ENV: 'test',
        HEARTH_NAMESPACE: ns,
        NATS_URL: nats,
        DATABASE_URL: dbUrl,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
        // No orchestrator here: a chat message is recorded, then times out waiting for its reply.
        TURN_TIMEOUT_MS: '300',
        // Short, so a retry can come after JetStream forgot the event id (app opens).
        NATS_DUPLICATE_WINDOW_MS: '1s',
        RATE_LIMIT_CHAT_PER_MINUTE: '0',
        RATE_LIMIT_CHAT_BURST: '0',
        RATE_LIMIT_PER_MINUTE: '40',
        RATE_LIMIT_ANON_PER_MINUTE: '5',
      },
      port: 0,
    });
    bus = await Bus.connect({ url: nats, name: 'ingress-edge-test', namespace: ns, logger: silent, encryption: { kek: LocalKek.forDevelopment(ns) } });
  });

  afterAll(async () => {
    await bus?.close();
    await hearth?.stop();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(await natsUrl(), ns);
  });

  async function call(method: string, path: string, opts: { token?: string; body?: unknown; raw?: string } = {}): Promise<Reply> {
    const payload = opts.raw ?? (opts.body === undefined ? undefined : JSON.stringify(opts.body));
    const res = await fetch(`${hearth.url}${path}`, {
      method,
      headers: {
        ...(payload !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      body: payload,
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  async function newUser(): Promise<{ userId: string; token: string }> {
    const r = await call('POST', '/v1/dev/token', { body: {} });
    expect(r.status).toBe(200);
    expect((await call('POST', '/v1/me', { token: r.body.token })).status).toBe(200);
    return { userId: r.body.user_id, token: r.body.token };
  }

  async function chain(userId: string): Promise<{ type: string; id: string; payload: Uint8Array }[]> {
    const events = [];
    for await (const e of bus.read('ingress', { key: userId })) events.push(e);
    return events;
  }

  const fields = (r: Reply) => (r.body.error.details.fields as { field: string }[]).map((f) => f.field);

  describe('text with NUL or an unpaired surrogate', () => {
    it('is refused with 422 naming the field, in every part of every request, and changes nothing', async () => {
      const { userId, token } = await newUser();
      const before = await chain(userId);
      const conversation = randomUUID();
      const post = (body: unknown) => call('POST', `/v1/conversations/${conversation}/messages`, { token, body });
      const answers = {
        preferred_name: 'Mina',
        age_band: '25-34',
        country_or_region: 'KR',
        occupation_category: 'working',
        client_timezone: 'Asia/Seoul',
        proactive_messages_enabled: true,
        suppressed_topics: ['POLITICS'],
      };

      const cases: [Reply, string][] = [
        [await post({ message_id: randomUUID(), text: 'bad \u0000 byte' }), 'text'],
        [await post({ message_id: randomUUID(), text: 'lone \uD83D high' }), 'text'],
        [await post({ message_id: randomUUID(), text: 'lone \uDE00 low' }), 'text'],
        [await post({ message_id: randomUUID(), text: 'fine', client_locale: 'ko\u0000KR' }), 'client_locale'],
        [await post({ message_id: randomUUID(), text: 'fine', client_timezone: 'Asia/Seoul\u0000' }), 'client_timezone'],
        [await call('PUT', '/v1/me/onboarding', { token, body: { ...answers, preferred_name: 'Mi\u0000na' } }), 'preferred_name'],
        [await call('PUT', '/v1/me/onboarding', { token, body: { ...answers, suppressed_topics: ['POLITICS', '\uDC00'] } }), 'suppressed_topics.1'],
        [await call('PATCH', '/v1/me/controls', { token, body: { mute_until: '2026-01-01T00:00:00Z\u0000' } }), 'mute_until'],
        [await call('POST', '/v1/me/app-opens', { token, body: { 'app_open_id\u0000': randomUUID() } }), 'app_open_id\uFFFD'],
        [await call('POST', '/v1/dev/token', { body: { user_id: `${userId}\u0000` } }), 'user_id'],
        [await call('GET', `/v1/conversations/${conversation}/messages?before=%00`, { token }), 'before'],
        [await call('GET', `/v1/conversations/${conversation}/messages?limit=1%00`, { token }), 'limit'],
        [await call('GET', '/v1/me/memories?status=all%00', { token }), 'status'],
        [await call('DELETE', `/v1/me/memories/${randomUUID()}%00`, { token }), 'memory_id'],
      ];
      for (const [r, field] of cases) {
        expect(r).toMatchObject({ status: 422, body: { error: { code: 'INVALID_FIELDS' } } });
        expect(fields(r)).toContain(field);
      }
      expect(await chain(userId)).toEqual(before);

      // The user is not wedged: their next message is recorded.
      const next = await post({ message_id: randomUUID(), text: `fine \uD83D\uDE00` });
      expect(next.status).toBe(504);
      expect((await chain(userId)).map((e) => e.type)).toEqual([...before.map((e) => e.type), Events.TurnReceived.name]);
    });
  });

  it('records every one of 40 messages one user sends at once, each exactly once, and answers none 500', async () => {
    const { userId, token } = await newUser();
    const conversation = randomUUID();
    const ids = Array.from({ length: 40 }, () => randomUUID());
    const replies = await Promise.all(
      ids.map((id, i) => call('POST', `/v1/conversations/${conversation}/messages`, { token, body: { message_id: id, text: `message ${i}` } })),
    );
    // 504: the reply never comes here (no orchestrator); the message is recorded.
    expect(replies.map((r) => r.status)).toEqual(ids.map(() => 504));
    const received = (await chain(userId)).filter((e) => e.type === Events.TurnReceived.name).map((e) => e.id);
    expect([...received].sort()).toEqual([...ids].sort());
  });

  describe('POST /v1/me/app-opens with app_open_id', () => {
    it('records an app open once, however often the client sends it, and answers the same', async () => {
      const { userId, token } = await newUser();
      const appOpenId = randomUUID();
      const first = await call('POST', '/v1/me/app-opens', { token, body: { app_open_id: appOpenId.toUpperCase() } });
      const again = await call('POST', '/v1/me/app-opens', { token, body: { app_open_id: appOpenId } });
      const concurrent = await Promise.all([1, 2, 3].map(() => call('POST', '/v1/me/app-opens', { token, body: { app_open_id: appOpenId } })));
      expect(first).toMatchObject({ status: 202, body: { app_open_id: appOpenId, opened_notification_id: null } });
      for (const r of [again, ...concurrent]) expect(r).toMatchObject({ status: 202, body: first.body });
      const opens = (await chain(userId)).filter((e) => e.type === Events.AppOpened.name);
      expect(opens.map((e) => Events.AppOpened.decode(e.payload).appOpenId)).toEqual([appOpenId]);

      // Another open is another event; another user's open with the same id is their own.
      const second = await call('POST', '/v1/me/app-opens', { token, body: { app_open_id: randomUUID() } });
      expect(second.status).toBe(202);
      expect((await chain(userId)).filter((e) => e.type === Events.AppOpened.name)).toHaveLength(2);
      // A retry after the stream's dedup window (1 s here) is still the same open.
      await new Promise((r) => setTimeout(r, 1_500));
      const late = await call('POST', '/v1/me/app-opens', { token, body: { app_open_id: appOpenId } });
      expect(late).toMatchObject({ status: 202, body: first.body });
      expect((await chain(userId)).filter((e) => e.type === Events.AppOpened.name)).toHaveLength(2);
      const other = await newUser();
      expect((await call('POST', '/v1/me/app-opens', { token: other.token, body: { app_open_id: appOpenId } })).status).toBe(202);
      expect((await chain(other.userId)).filter((e) => e.type === Events.AppOpened.name)).toHaveLength(1);
    });
  });

  it('answers /v1/dev/clock only to a valid token', async () => {
    expect(await call('GET', '/v1/dev/clock')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect((await call('POST', '/v1/dev/clock', { body: { advance_seconds: 1 } })).status).toBe(401);
    expect((await call('GET', '/v1/dev/clock', { token: 'not-a-jwt' })).status).toBe(401);
    const { token } = (await call('POST', '/v1/dev/token', { body: {} })).body;
    const now = await call('GET', '/v1/dev/clock', { token });
    expect(now.status).toBe(200);
    const moved = await call('POST', '/v1/dev/clock', { token, body: { advance_seconds: 60 } });
    expect(moved.status).toBe(200);
    expect(Date.parse(moved.body.now) - Date.parse(now.body.now)).toBeGreaterThanOrEqual(60_000);
  });

  it('keeps the API error shape of the host for errors Fastify raises, with the limits installed', async () => {
    const { token } = await newUser();
    const malformed = await call('POST', '/v1/me/app-opens', { token, raw: '{"app_open_id": ' });
    expect(malformed).toMatchObject({ status: 400, body: { error: { code: 'BAD_REQUEST' } } });
    expect(await call('GET', '/v1/nowhere', { token })).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND' } } });
  });

  it('limits the served API: per user, and per address without a valid token; never dev routes or health', async () => {
    const { token } = (await call('POST', '/v1/dev/token', { body: {} })).body;
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) statuses.push((await call('GET', '/v1/me', { token })).status);
    expect(statuses.slice(0, 40)).toEqual(Array<number>(40).fill(404));
    const limited = await call('GET', '/v1/me', { token });
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({
      error: { code: 'RATE_LIMITED', message: expect.any(String), details: { retry_after_seconds: Number(limited.headers.get('retry-after')) } },
    });

    // Unauthenticated (no token, or a forged one): 5 a minute from this address.
    const anon: number[] = [];
    for (let i = 0; i < 6; i++) anon.push((await call('GET', '/v1/me', { token: i % 2 === 0 ? undefined : 'forged' })).status);
    expect(anon).toEqual([401, 401, 401, 401, 401, 429]);

    for (let i = 0; i < 10; i++) {
      expect((await call('POST', '/v1/dev/token', { body: {} })).status).toBe(200);
      expect((await call('GET', '/healthz')).status).toBe(200);
      expect((await call('GET', '/docs/openapi.json')).status).toBe(200);
    }
  });
});

describe('the ingress edge in production', () => {
  const ns = testNamespace('t_ingress_prod');
  let dbUrl: string;
  let hearth: HearthProcess;

  beforeAll(async () => {
    dbUrl = await databaseUrl();
    hearth = await runHearth({
      services: [service],
      env: {
        HEARTH_ENV: 'production',
        // Production needs a KEK; a fresh one for this test.
        HEARTH_KEK: randomBytes(32).toString('base64'),
        HEARTH_NAMESPACE: ns,
        NATS_URL: await natsUrl(),
        DATABASE_URL: dbUrl,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
        // Never fetched: no request here carries a token it could verify.
        AUTH_JWKS_URL: 'http://127.0.0.1:9/.well-known/jwks.json',
      },
      port: 0,
    });
  });

  afterAll(async () => {
    await hearth?.stop();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(await natsUrl(), ns);
  });

  it('has no dev routes: no tokens minted, no clock to read or move', async () => {
    const post = (path: string, body: unknown) => fetch(`${hearth.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await post('/v1/dev/token', { roles: ['admin'] })).status).toBe(404);
    expect((await fetch(`${hearth.url}/v1/dev/clock`)).status).toBe(404);
    expect((await post('/v1/dev/clock', { advance_seconds: 86_400 })).status).toBe(404);
  });
});
