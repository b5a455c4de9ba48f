// The rate-limit counters on a real NATS KV bucket: two ingress replicas (two
// Fastify instances) sharing one bucket enforce one limit.
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { cleanupNamespace, natsUrl, testNamespace } from '@hearth/testing';
import Fastify, { type FastifyInstance } from 'fastify';
import { limitPlan } from './rate-limit.js';
import { registerRateLimits } from './rate-limit-plugin.js';
import { KvRateLimitStore, openRateLimitBucket } from './rate-limit-store.js';

const USER = '0b7e2b8e-3f4a-4c1d-9e2a-1c2d3e4f5a6b';
const silent = { warn: () => undefined };

describe('rate limits shared through NATS KV', () => {
  const ns = testNamespace('t_ingress_rl');
  let nc: NatsConnection;
  const apps: FastifyInstance[] = [];

  beforeAll(async () => {
    nc = await connect({ servers: await natsUrl(), name: 'ingress-rate-limit-test' });
  });

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await cleanupNamespace(nc, ns);
    await nc.close();
  });

  async function replica(): Promise<FastifyInstance> {
    const app = Fastify();
    registerRateLimits(app, {
      plan: limitPlan({ chatPerMinute: 30, chatBurst: 10, perMinute: 300, anonPerMinute: 30 }),
      store: { kv: await openRateLimitBucket(nc, ns), logger: silent },
      userOf: async (req) => (req.headers.authorization ? USER : null),
      logger: silent,
    });
    app.post('/v1/conversations/:id/messages', async () => ({ ok: true }));
    app.get('/v1/me', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    apps.push(app);
    return app;
  }

  const urlOf = (app: FastifyInstance) => {
    const a = app.server.address();
    return typeof a === 'object' && a ? `http://127.0.0.1:${a.port}` : '';
  };

  it('two replicas count one user’s chat burst together: the 11th message of 11 at once is limited', async () => {
    const [a, b] = [await replica(), await replica()];
    const send = (app: FastifyInstance) =>
      fetch(`${urlOf(app)}/v1/conversations/c/messages`, { method: 'POST', headers: { authorization: 'Bearer t', 'content-type': 'application/json' }, body: '{}' });
    // Alternating replicas, all at once.
    const replies = await Promise.all(Array.from({ length: 11 }, (_, i) => send(i % 2 === 0 ? a : b)));
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array<number>(10).fill(200), 429]);
    const limited = replies.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(await limited.json()).toMatchObject({ error: { code: 'RATE_LIMITED', details: { retry_after_seconds: expect.any(Number) } } });
  });

  it('two replicas count one address’s unauthenticated requests together', async () => {
    const [a, b] = [await replica(), await replica()];
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await fetch(`${urlOf(i % 2 === 0 ? a : b)}/v1/me`)).status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(30);
    expect(statuses.slice(30)).toEqual([429, 429]);
  });

  it('counts exactly under contention between two stores', async () => {
    const kv = await openRateLimitBucket(nc, ns);
    const stores = [new KvRateLimitStore({ kv, logger: silent }), new KvRateLimitStore({ kv, logger: silent })];
    const counts = await Promise.all(Array.from({ length: 20 }, (_, i) => stores[i % 2]!.count('user:contended', 60_000)));
    expect(counts.map((c) => c.current).sort((x, y) => x - y)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
  });
});
