// GET /v1/admin/users/{user_id}/beliefs at the ingress edge against real NATS and
// Postgres: ingress hosted as in production, its HTTP API called over the network,
// and the belief graph's GetBeliefs answered by a fake responder on its own bus
// connection (closed to play a belief graph that is down).
import { randomUUID } from 'node:crypto';
import { Bus, LocalKek, type StoredEvent } from '@hearth/bus';
import { Events, GET_BELIEFS } from '@hearth/events';
import { runHearth, type HearthProcess } from '@hearth/host';
import { belief } from '@hearth/proto';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import { service } from '../index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

interface Reply {
  status: number;
  body: any;
}

describe('GET /v1/admin/users/{user_id}/beliefs', () => {
  const ns = testNamespace('t_ingress_beliefs');
  let nats: string;
  let dbUrl: string;
  let hearth: HearthProcess;
  /** The belief graph's side of the bus. */
  let graph: Bus | undefined;
  let admin: { token: string; userId: string };
  /** What the fake belief graph answers; a test swaps it. */
  let answerBeliefs: (userId: string, holder: string) => Promise<belief.GetBeliefsResponse>;
  const asked: { userId: string; holder: string }[] = [];

  /** Starts the fake belief graph: GetBeliefs answered by `answerBeliefs`. */
  async function startGraph(): Promise<void> {
    graph = await Bus.connect({ url: nats, name: 'ingress-beliefs-test', namespace: ns, logger: silent, encryption: { kek: LocalKek.forDevelopment(ns) } });
    await graph.serveQuery('belief-graph', GET_BELIEFS, async (request) => {
      const { userId, holder } = belief.GetBeliefsRequest.decode(request);
      asked.push({ userId, holder });
      return belief.GetBeliefsResponse.encode(await answerBeliefs(userId, holder)).finish();
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
    await startGraph();
    admin = await devToken(randomUUID(), true);
  });

  afterAll(async () => {
    await graph?.close();
    await hearth?.stop();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(await natsUrl(), ns);
  });

  beforeEach(() => {
    answerBeliefs = () => Promise.resolve(belief.GetBeliefsResponse.fromPartial({}));
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

  /** A graph as the belief graph holds it for one user: a contradiction among two self-perceptions, a companion belief, a link, a challenge. */
  function graphOf(ids: { user: string; denied: string; companion: string; said: string[] }): belief.GetBeliefsResponse {
    return belief.GetBeliefsResponse.fromPartial({
      nodes: [
        {
          beliefId: ids.user,
          holder: 'user',
          canonicalText: 'i am hopeless with numbers',
          beliefType: 'CAPABILITY_LIMIT',
          polarity: 'affirm',
          stream: 'identity',
          status: 'developing',
          confidence: 0.6,
          activation: 0.75,
          coreScore: 0.35,
          occurrenceCount: 4,
          sourceMessageIds: [ids.said[0]!, ids.said[1]!],
          createdAt: new Date('2026-11-02T09:00:00Z'),
        },
        {
          beliefId: ids.denied,
          holder: 'user',
          canonicalText: 'i am hopeless with numbers',
          beliefType: 'CAPABILITY_LIMIT',
          polarity: 'deny',
          stream: 'identity',
          status: 'surface',
          confidence: 0.4,
          activation: 1,
          coreScore: 0.05,
          occurrenceCount: 1,
          sourceMessageIds: [ids.said[2]!],
          createdAt: new Date('2026-11-09T18:30:00Z'),
        },
        {
          beliefId: ids.companion,
          holder: 'companion',
          canonicalText: 'i enjoy slow rainy afternoons',
          beliefType: 'PREFERENCE',
          polarity: 'affirm',
          stream: 'identity',
          status: 'core',
          confidence: 0.9,
          activation: 0.5,
          coreScore: 0.8,
          occurrenceCount: 6,
          sourceMessageIds: [],
          createdAt: new Date('2026-10-30T00:00:00Z'),
        },
      ],
      links: [{ linkId: ids.said[3]!, fromBeliefId: ids.user, toBeliefId: ids.denied, confidence: 0.66, state: 'pending' }],
      conflicts: [
        {
          conflictId: ids.said[4]!,
          beliefIds: [ids.user, ids.denied],
          conflictType: 'contradiction',
          sourceMessageIds: [ids.said[1]!, ids.said[2]!],
          createdAt: new Date('2026-11-09T18:30:01Z'),
        },
      ],
      challenges: [{ challengeId: ids.said[5]!, beliefId: ids.user, style: 'gentle', messageId: ids.said[1]!, createdAt: new Date('2026-11-20T08:00:00Z') }],
    });
  }

  it("answers the user's whole graph, both holders, in API.md's shape and field names exactly, and records the read", async () => {
    // given
    const { userId } = await newUser();
    const ids = { user: randomUUID(), denied: randomUUID(), companion: randomUUID(), said: Array.from({ length: 6 }, () => randomUUID()) };
    answerBeliefs = (asker) => Promise.resolve(asker === userId ? graphOf(ids) : belief.GetBeliefsResponse.fromPartial({}));

    // when
    const r = await call('GET', `/v1/admin/users/${userId.toUpperCase()}/beliefs`, { token: admin.token });

    // then
    expect(r.status).toBe(200);
    expect(asked.at(-1)).toEqual({ userId, holder: '' });
    expect(r.body).toEqual({
      nodes: [
        {
          belief_id: ids.user,
          holder: 'user',
          canonical_text: 'i am hopeless with numbers',
          belief_type: 'CAPABILITY_LIMIT',
          polarity: 'affirm',
          stream: 'identity',
          status: 'developing',
          confidence: 0.6,
          activation: 0.75,
          core_score: 0.35,
          occurrence_count: 4,
          source_message_ids: [ids.said[0], ids.said[1]],
          created_at: '2026-11-02T09:00:00.000Z',
        },
        {
          belief_id: ids.denied,
          holder: 'user',
          canonical_text: 'i am hopeless with numbers',
          belief_type: 'CAPABILITY_LIMIT',
          polarity: 'deny',
          stream: 'identity',
          status: 'surface',
          confidence: 0.4,
          activation: 1,
          core_score: 0.05,
          occurrence_count: 1,
          source_message_ids: [ids.said[2]],
          created_at: '2026-11-09T18:30:00.000Z',
        },
        {
          belief_id: ids.companion,
          holder: 'companion',
          canonical_text: 'i enjoy slow rainy afternoons',
          belief_type: 'PREFERENCE',
          polarity: 'affirm',
          stream: 'identity',
          status: 'core',
          confidence: 0.9,
          activation: 0.5,
          core_score: 0.8,
          occurrence_count: 6,
          source_message_ids: [],
          created_at: '2026-10-30T00:00:00.000Z',
        },
      ],
      links: [{ link_id: ids.said[3], from_belief_id: ids.user, to_belief_id: ids.denied, confidence: 0.66, state: 'pending' }],
      conflicts: [
        {
          conflict_id: ids.said[4],
          belief_ids: [ids.user, ids.denied],
          conflict_type: 'contradiction',
          source_message_ids: [ids.said[1], ids.said[2]],
          created_at: '2026-11-09T18:30:01.000Z',
        },
      ],
      challenges: [{ challenge_id: ids.said[5], belief_id: ids.user, style: 'gentle', message_id: ids.said[1], created_at: '2026-11-20T08:00:00.000Z' }],
    });
    // The read is in the user's access trail, with this route and resource.
    const last = await lastOnChain(userId);
    expect(last).toMatchObject({ type: Events.AdminAccessed.name, userId, service: 'ingress' });
    expect(Events.AdminAccessed.decode(last!.payload)).toMatchObject({ adminId: admin.userId, route: 'GET /v1/admin/users/{user_id}/beliefs', resource: 'beliefs' });
  });

  it('passes holder=user and holder=companion through to the belief graph', async () => {
    const { userId } = await newUser();
    const companionNode = belief.BeliefNode.fromPartial({ beliefId: randomUUID(), holder: 'companion', canonicalText: 'i like quiet mornings', createdAt: new Date('2026-11-01T00:00:00Z') });
    answerBeliefs = (_u, holder) => Promise.resolve(belief.GetBeliefsResponse.fromPartial({ nodes: holder === 'companion' ? [companionNode] : [] }));

    const user = await call('GET', `/v1/admin/users/${userId}/beliefs?holder=user`, { token: admin.token });
    const companion = await call('GET', `/v1/admin/users/${userId}/beliefs?holder=companion`, { token: admin.token });

    expect(asked.slice(-2)).toEqual([
      { userId, holder: 'user' },
      { userId, holder: 'companion' },
    ]);
    expect(user).toEqual({ status: 200, body: { nodes: [], links: [], conflicts: [], challenges: [] } });
    expect(companion.status).toBe(200);
    expect(companion.body.nodes.map((n: { belief_id: string; holder: string }) => [n.belief_id, n.holder])).toEqual([[companionNode.beliefId, 'companion']]);
  });

  it('answers a user with no beliefs yet with four empty lists', async () => {
    const { userId } = await newUser();

    expect(await call('GET', `/v1/admin/users/${userId}/beliefs`, { token: admin.token })).toEqual({
      status: 200,
      body: { nodes: [], links: [], conflicts: [], challenges: [] },
    });
  });

  it('answers 422 for a holder that is neither user nor companion, or given twice, without asking the graph or recording anything', async () => {
    const { userId } = await newUser();
    const before = await lastOnChain(userId);
    const count = asked.length;

    const foo = await call('GET', `/v1/admin/users/${userId}/beliefs?holder=foo`, { token: admin.token });
    const empty = await call('GET', `/v1/admin/users/${userId}/beliefs?holder=`, { token: admin.token });
    const cased = await call('GET', `/v1/admin/users/${userId}/beliefs?holder=User`, { token: admin.token });
    const twice = await call('GET', `/v1/admin/users/${userId}/beliefs?holder=user&holder=companion`, { token: admin.token });

    expect(foo).toEqual({
      status: 422,
      body: {
        error: {
          code: 'INVALID_FIELDS',
          message: 'holder must be user or companion, given at most once (absent: both)',
          details: { fields: [{ field: 'holder', message: 'must be user or companion, given at most once (absent: both)' }] },
        },
      },
    });
    for (const r of [empty, cased, twice]) expect(r).toMatchObject({ status: 422, body: { error: { code: 'INVALID_FIELDS', details: { fields: [{ field: 'holder' }] } } } });
    expect(asked.length).toBe(count);
    expect((await lastOnChain(userId))?.seq).toBe(before?.seq);
  });

  it('is for admins only: 403 for a user (even on their own id), 401 without a token, recording nothing', async () => {
    const { userId, token } = await newUser();
    const before = await lastOnChain(userId);
    const count = asked.length;

    expect(await call('GET', `/v1/admin/users/${userId}/beliefs`, { token })).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(await call('GET', `/v1/admin/users/${userId}/beliefs?holder=user`, { token })).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(await call('GET', `/v1/admin/users/${userId}/beliefs`)).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
    expect(asked.length).toBe(count);
    expect((await lastOnChain(userId))?.seq).toBe(before?.seq);
  });

  it('answers 404 for an unknown user and 422 for a user id that is no uuid, without asking the graph', async () => {
    const count = asked.length;
    const nobody = randomUUID();

    expect(await call('GET', `/v1/admin/users/${nobody}/beliefs`, { token: admin.token })).toMatchObject({ status: 404, body: { error: { code: 'USER_NOT_FOUND' } } });
    expect(await call('GET', '/v1/admin/users/not-a-uuid/beliefs', { token: admin.token })).toMatchObject({
      status: 422,
      body: { error: { code: 'INVALID_FIELDS', details: { fields: [{ field: 'user_id', message: 'must be a uuid' }] } } },
    });
    expect(asked.length).toBe(count);
    expect(await lastOnChain(nobody)).toBeNull();
  });

  it('answers 503 UNAVAILABLE, recording nothing, when the belief graph fails the query', async () => {
    const { userId } = await newUser();
    const before = await lastOnChain(userId);
    answerBeliefs = () => Promise.reject(new Error('belief graph database is down'));

    const r = await call('GET', `/v1/admin/users/${userId}/beliefs`, { token: admin.token });

    expect(r).toEqual({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'the belief graph is not available right now; retry shortly' } } });
    expect((await lastOnChain(userId))?.seq).toBe(before?.seq);
  });

  it('answers 503 UNAVAILABLE when no belief graph answers at all, and the graph again once it is back', async () => {
    const { userId } = await newUser();
    await graph!.close();
    graph = undefined;
    try {
      const down = await call('GET', `/v1/admin/users/${userId}/beliefs?holder=user`, { token: admin.token });

      expect(down).toEqual({ status: 503, body: { error: { code: 'UNAVAILABLE', message: 'the belief graph is not available right now; retry shortly' } } });
    } finally {
      await startGraph();
    }
    expect((await call('GET', `/v1/admin/users/${userId}/beliefs?holder=user`, { token: admin.token })).status).toBe(200);
  });
});
