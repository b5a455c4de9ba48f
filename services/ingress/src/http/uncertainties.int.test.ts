// GET /v1/admin/users/{user_id}/uncertainties at the ingress edge against real NATS
// and Postgres: ingress hosted as in production, its HTTP API called over the
// network, and the uncertainty service's GetUncertainties answered by a fake
// responder on its own bus connection (closed to play an uncertainty service that is down).
import { randomUUID } from 'node:crypto';
import { Bus, LocalKek, type StoredEvent } from '@hearth/bus';
import { Events, GET_UNCERTAINTIES } from '@hearth/events';
import { runHearth, type HearthProcess } from '@hearth/host';
import { uncertainty } from '@hearth/proto';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import { service } from '../index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface Reply {
  status: number;
  body: any;
}

describe('GET /v1/admin/users/{user_id}/uncertainties', () => {
  const ns = testNamespace('t_ingress_uncertainties');
  let nats: string;
  let dbUrl: string;
  let hearth: HearthProcess;
  /** The uncertainty service's side of the bus. */
  let engine: Bus | undefined;
  let admin: { token: string; userId: string };
  /** What the fake uncertainty service answers; a test swaps it. */
  let answer: (userId: string) => Promise<uncertainty.GetUncertaintiesResponse>;
  const asked: string[] = [];

  /** Starts the fake uncertainty service: GetUncertainties answered by `answer`. */
  async function startEngine(): Promise<void> {
    engine = await Bus.connect({ url: nats, name: 'ingress-uncertainties-test', namespace: ns, logger: silent, encryption: { kek: LocalKek.forDevelopment(ns) } });
    await engine.serveQuery('uncertainty', GET_UNCERTAINTIES, async (request) => {
      const { userId } = uncertainty.GetUncertaintiesRequest.decode(request);
      asked.push(userId);
      return uncertainty.GetUncertaintiesResponse.encode(await answer(userId)).finish();
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
    answer = () => Promise.resolve(uncertainty.GetUncertaintiesResponse.fromPartial({ tolerance: 0.5 }));
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

  it("answers the user's uncertainties and tolerance in API.md's shape exactly, and records the read", async () => {
    // given: an open contradiction (one side not written yet) and a resolved temporal change
    const { userId } = await newUser();
    const ids = { open: randomUUID(), resolved: randomUUID(), a: randomUUID(), b: randomUUID(), said: [randomUUID(), randomUUID()] };
    answer = (asker) =>
      Promise.resolve(
        asker !== userId
          ? uncertainty.GetUncertaintiesResponse.fromPartial({ tolerance: 0.5 })
          : uncertainty.GetUncertaintiesResponse.fromPartial({
              tolerance: 0.47,
              uncertainties: [
                {
                  uncertaintyId: ids.open,
                  uncertaintyType: 'contradiction',
                  subjects: [
                    { kind: 'memory', id: ids.a, store: 'trait', memoryKey: 'fact:pet', value: 'a tortoise' },
                    { kind: 'memory', id: '', store: 'trait', memoryKey: 'fact:pet', value: 'a hamster' },
                  ],
                  severity: 'critical',
                  state: 'open',
                  detectionContext: 'ingestion',
                  temporalSignal: false,
                  resolutionStrategy: '',
                  surfacedCount: 0,
                  sourceMessageIds: [ids.said[1]!],
                  createdAt: new Date('2026-11-14T10:00:00Z'),
                  reasoning: 'both cannot hold',
                },
                {
                  uncertaintyId: ids.resolved,
                  uncertaintyType: 'contradiction',
                  subjects: [
                    { kind: 'memory', id: ids.a, store: 'trait' },
                    { kind: 'belief', id: ids.b, store: 'concept' },
                  ],
                  severity: 'high',
                  state: 'resolved',
                  detectionContext: 'drift',
                  temporalSignal: true,
                  resolutionStrategy: 'temporal_supersede',
                  surfacedCount: 2,
                  sourceMessageIds: ids.said,
                  createdAt: new Date('2026-11-02T09:00:00Z'),
                  resolvedAt: new Date('2026-11-09T18:30:00Z'),
                },
              ],
            }),
      );

    // when
    const r = await call('GET', `/v1/admin/users/${userId.toUpperCase()}/uncertainties`, { token: admin.token });

    // then
    expect(r.status).toBe(200);
    expect(asked.at(-1)).toBe(userId);
    expect(r.body).toEqual({
      uncertainties: [
        {
          uncertainty_id: ids.open,
          uncertainty_type: 'contradiction',
          subjects: [{ kind: 'memory', id: ids.a }],
          severity: 'critical',
          state: 'open',
          detection_context: 'ingestion',
          temporal_signal: false,
          resolution_strategy: null,
          surfaced_count: 0,
          source_message_ids: [ids.said[1]],
          created_at: '2026-11-14T10:00:00.000Z',
          resolved_at: null,
        },
        {
          uncertainty_id: ids.resolved,
          uncertainty_type: 'contradiction',
          subjects: [
            { kind: 'memory', id: ids.a },
            { kind: 'belief', id: ids.b },
          ],
          severity: 'high',
          state: 'resolved',
          detection_context: 'drift',
          temporal_signal: true,
          resolution_strategy: 'temporal_supersede',
          surfaced_count: 2,
          source_message_ids: ids.said,
          created_at: '2026-11-02T09:00:00.000Z',
          resolved_at: '2026-11-09T18:30:00.000Z',
        },
      ],
      tolerance: 0.47,
    });
    // The read is in the user's access trail, with this route and resource.
    const last = await lastOnChain(userId);
    expect(last).toMatchObject({ type: Events.AdminAccessed.name, userId, service: 'ingress' });
    expect(Events.AdminAccessed.decode(last!.payload)).toMatchObject({
      adminId: admin.userId,
      route: 'GET /v1/admin/users/{user_id}/uncertainties',
      resource: 'uncertainties',
    });
  });

  it('answers a user with no uncertainties yet with an empty list and the tolerance', async () => {
    const { userId } = await newUser();

    expect(await call('GET', `/v1/admin/users/${userId}/uncertainties`, { token: admin.token })).toEqual({ status: 200, body: { uncertainties: [], tolerance: 0.5 } });
  });

  it('is for admins only: 403 for a user (even on their own id), 401 without a token, recording nothing', async () => {
    const { userId, token } = await newUser();
    const before = await lastOnChain(userId);
    const count = asked.length;

    expect(await call('GET', `/v1/admin/users/${userId}/uncertainties`, { token })).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(await call('GET', `/v1/admin/users/${userId}/uncertainties`)).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect(asked.length).toBe(count);
    expect((await lastOnChain(userId))?.seq).toBe(before?.seq);
  });

  it('answers 404 for an unknown user and 422 for a user id that is no uuid, without asking the service', async () => {
    const count = asked.length;
    const nobody = randomUUID();

    expect(await call('GET', `/v1/admin/users/${nobody}/uncertainties`, { token: admin.token })).toMatchObject({ status: 404, body: { error: { code: 'USER_NOT_FOUND' } } });
    expect(await call('GET', '/v1/admin/users/not-a-uuid/uncertainties', { token: admin.token })).toMatchObject({
      status: 422,
      body: { error: { code: 'INVALID_FIELDS', details: { fields: [{ field: 'user_id', message: 'must be a uuid' }] } } },
    });
    expect(asked.length).toBe(count);
    expect(await lastOnChain(nobody)).toBeNull();
  });

  it('answers 503 UNAVAILABLE, recording nothing, when the uncertainty service fails the query', async () => {
    const { userId } = await newUser();
    const before = await lastOnChain(userId);
    answer = () => Promise.reject(new Error('uncertainty database is down'));

    const r = await call('GET', `/v1/admin/users/${userId}/uncertainties`, { token: admin.token });

    expect(r).toEqual({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'uncertainties are not available right now; retry shortly' } } });
    expect((await lastOnChain(userId))?.seq).toBe(before?.seq);
  });

  it('answers 503 UNAVAILABLE when no uncertainty service answers at all, and the uncertainties again once it is back', async () => {
    const { userId } = await newUser();
    await engine!.close();
    engine = undefined;
    try {
      const down = await call('GET', `/v1/admin/users/${userId}/uncertainties`, { token: admin.token });

      expect(down).toEqual({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'uncertainties are not available right now; retry shortly' } } });
    } finally {
      await startEngine();
    }
    expect((await call('GET', `/v1/admin/users/${userId}/uncertainties`, { token: admin.token })).status).toBe(200);
  });
});
