// GET /v1/admin/users/{user_id}/trust at the ingress edge against real NATS and
// Postgres: ingress hosted as in production, its HTTP API called over the
// network, and the trust service's GetTrust answered by a fake responder on its
// own bus connection (closed to play a trust service that is down).
import { randomUUID } from 'node:crypto';
import { Bus, LocalKek, type StoredEvent } from '@hearth/bus';
import { Events, GET_TRUST } from '@hearth/events';
import { runHearth, type HearthProcess } from '@hearth/host';
import { trust } from '@hearth/proto';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import { service } from '../index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/** What trust answers for a user with no tag yet: both actors at the initial trust. */
const NEW_USER = trust.GetTrustResponse.fromPartial({
  actors: [
    { actor: 'user', trust: 0.5, updates: 0 },
    { actor: 'agent', trust: 0.5, updates: 0 },
  ],
});

interface Reply {
  status: number;
  body: any;
}

describe('GET /v1/admin/users/{user_id}/trust', () => {
  const ns = testNamespace('t_ingress_trust');
  let nats: string;
  let dbUrl: string;
  let hearth: HearthProcess;
  /** The trust service's side of the bus. */
  let engine: Bus | undefined;
  let admin: { token: string; userId: string };
  /** What the fake trust service answers; a test swaps it. */
  let answer: (userId: string) => Promise<trust.GetTrustResponse>;
  const asked: string[] = [];

  /** Starts the fake trust service: GetTrust answered by `answer`. */
  async function startEngine(): Promise<void> {
    engine = await Bus.connect({ url: nats, name: 'ingress-trust-test', namespace: ns, logger: silent, encryption: { kek: LocalKek.forDevelopment(ns) } });
    await engine.serveQuery('trust', GET_TRUST, async (request) => {
      const { userId } = trust.GetTrustRequest.decode(request);
      asked.push(userId);
      return trust.GetTrustResponse.encode(await answer(userId)).finish();
    });
  }

  beforeAll(async () => {
    nats = await natsUrl();
    dbUrl = await databaseUrl();
    hearth = await runHearth({
      services: [service],
      // The 503 cases log a warning on purpose.
      env: { HEARTH_ENV: 'test', HEARTH_NAMESPACE: ns, NATS_URL: nats, DATABASE_URL: dbUrl, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' },
      port: 0,
    });
    await startEngine();
    admin = await devToken(randomUUID(), true);
  });

  afterAll(async () => {
    await engine?.close();
    await hearth?.stop();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(await natsUrl(), ns);
  });

  beforeEach(() => {
    answer = () => Promise.resolve(NEW_USER);
  });

  async function call(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<Reply> {
    const res = await fetch(`${hearth.url}${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  }

  async function devToken(userId: string, isAdmin = false): Promise<{ token: string; userId: string }> {
    const r = await call('POST', '/v1/dev/token', { body: { user_id: userId, ...(isAdmin ? { roles: ['admin'] } : {}) } });
    expect(r.status).toBe(200);
    return { token: r.body.token, userId };
  }

  /** A user created with POST /v1/me, and their token. */
  async function newUser(): Promise<{ userId: string; token: string }> {
    const { userId, token } = await devToken(randomUUID());
    expect((await call('POST', '/v1/me', { token })).status).toBe(200);
    return { userId, token };
  }

  const lastOnChain = (userId: string): Promise<StoredEvent | null> => hearth.bus.lastOnSubject('ingress', userId);

  it("answers the user's trust state in API.md's shape exactly, and records the read", async () => {
    // given: the user's T after two updates, the agent's never updated, one decision judged at both horizons, a counted tag and one on no belief
    const { userId } = await newUser();
    const ids = { belief: randomUUID(), decision: randomUUID(), short: randomUUID(), long: randomUUID() };
    answer = (asker) =>
      Promise.resolve(
        asker !== userId
          ? NEW_USER
          : trust.GetTrustResponse.fromPartial({
              actors: [
                { actor: 'user', trust: 0.5412, updates: 2, updatedAt: new Date('2026-11-15T12:00:00Z') },
                { actor: 'agent', trust: 0.5, updates: 0 },
              ],
              outcomes: [
                { outcomeId: ids.short, horizon: '2h', reward: 0.46, components: { coherence: 0.6, confidence: 0, stability: 1, validation: 0.3 }, evaluatedAt: new Date('2026-11-15T12:00:00Z'), decisionId: ids.decision, beliefId: ids.belief },
                { outcomeId: ids.long, horizon: '24h', reward: -0.18, components: { coherence: -0.2, confidence: -0.5, stability: 0, validation: 0 }, evaluatedAt: new Date('2026-11-16T10:00:00.500Z'), decisionId: ids.decision, beliefId: ids.belief },
              ],
              feedback: [
                { tag: '+keep', actor: 'user', beliefId: ids.belief, weight: 0.72, applied: true, reason: 'counted', createdAt: new Date('2026-11-15T10:00:00Z') },
                { tag: '+artifact', actor: 'user', beliefId: '', weight: 0, applied: false, reason: 'no_belief', createdAt: new Date('2026-11-15T10:05:00Z') },
              ],
            }),
      );

    // when
    const r = await call('GET', `/v1/admin/users/${userId.toUpperCase()}/trust`, { token: admin.token });

    // then
    expect(r.status).toBe(200);
    expect(asked.at(-1)).toBe(userId);
    expect(r.body).toEqual({
      actors: [
        { actor: 'user', trust: 0.5412, updates: 2, updated_at: '2026-11-15T12:00:00.000Z' },
        { actor: 'agent', trust: 0.5, updates: 0, updated_at: null },
      ],
      outcomes: [
        { outcome_id: ids.short, horizon: '2h', reward: 0.46, components: { coherence: 0.6, confidence: 0, stability: 1, validation: 0.3 }, evaluated_at: '2026-11-15T12:00:00.000Z' },
        { outcome_id: ids.long, horizon: '24h', reward: -0.18, components: { coherence: -0.2, confidence: -0.5, stability: 0, validation: 0 }, evaluated_at: '2026-11-16T10:00:00.500Z' },
      ],
      feedback: [
        { tag: '+keep', actor: 'user', belief_id: ids.belief, weight: 0.72, applied: true, reason: 'counted', created_at: '2026-11-15T10:00:00.000Z' },
        { tag: '+artifact', actor: 'user', belief_id: null, weight: 0, applied: false, reason: 'no_belief', created_at: '2026-11-15T10:05:00.000Z' },
      ],
    });
    // The read is in the user's access trail, with this route and resource.
    const last = await lastOnChain(userId);
    expect(last).toMatchObject({ type: Events.AdminAccessed.name, userId, service: 'ingress' });
    expect(Events.AdminAccessed.decode(last!.payload)).toMatchObject({ adminId: admin.userId, route: 'GET /v1/admin/users/{user_id}/trust', resource: 'trust' });
  });

  it('answers a user with no tag yet with both actors at the initial trust, never updated, and empty lists', async () => {
    const { userId } = await newUser();

    expect(await call('GET', `/v1/admin/users/${userId}/trust`, { token: admin.token })).toEqual({
      status: 200,
      body: {
        actors: [
          { actor: 'user', trust: 0.5, updates: 0, updated_at: null },
          { actor: 'agent', trust: 0.5, updates: 0, updated_at: null },
        ],
        outcomes: [],
        feedback: [],
      },
    });
  });

  it('is for admins only: 403 for a user (even on their own id), 401 without a token, recording nothing', async () => {
    const { userId, token } = await newUser();
    const before = await lastOnChain(userId);
    const count = asked.length;

    expect(await call('GET', `/v1/admin/users/${userId}/trust`, { token })).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(await call('GET', `/v1/admin/users/${userId}/trust`)).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect(asked.length).toBe(count);
    expect((await lastOnChain(userId))?.seq).toBe(before?.seq);
  });

  it('answers 404 for an unknown user and 422 for a user id that is no uuid, without asking the service', async () => {
    const count = asked.length;
    const nobody = randomUUID();

    expect(await call('GET', `/v1/admin/users/${nobody}/trust`, { token: admin.token })).toMatchObject({ status: 404, body: { error: { code: 'USER_NOT_FOUND' } } });
    expect(await call('GET', '/v1/admin/users/not-a-uuid/trust', { token: admin.token })).toMatchObject({
      status: 422,
      body: { error: { code: 'INVALID_FIELDS', details: { fields: [{ field: 'user_id', message: 'must be a uuid' }] } } },
    });
    expect(asked.length).toBe(count);
    expect(await lastOnChain(nobody)).toBeNull();
  });

  it('answers 503 UNAVAILABLE, recording nothing, when the trust service fails the query', async () => {
    const { userId } = await newUser();
    const before = await lastOnChain(userId);
    answer = () => Promise.reject(new Error('trust database is down'));

    const r = await call('GET', `/v1/admin/users/${userId}/trust`, { token: admin.token });

    expect(r).toEqual({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'trust is not available right now; retry shortly' } } });
    expect((await lastOnChain(userId))?.seq).toBe(before?.seq);
  });

  it('answers 503 UNAVAILABLE when no trust service answers at all, and the trust state again once it is back', async () => {
    const { userId } = await newUser();
    await engine!.close();
    engine = undefined;
    try {
      const down = await call('GET', `/v1/admin/users/${userId}/trust`, { token: admin.token });

      expect(down).toEqual({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'trust is not available right now; retry shortly' } } });
    } finally {
      await startEngine();
    }
    expect((await call('GET', `/v1/admin/users/${userId}/trust`, { token: admin.token })).status).toBe(200);
  });
});
