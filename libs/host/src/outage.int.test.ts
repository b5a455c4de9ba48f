// "No process exits because Postgres went away" (issue: Postgres blinking killed
// the process): a throwaway Postgres is stopped under a running Hearth. The
// process stays up, /readyz says not ready, requests answer 503 with Retry-After,
// the consumer pauses without quarantining, and all of it recovers by itself.
import { Controller, Get, Inject } from '@nestjs/common';
import { sql, type Kysely } from 'kysely';
import { appendDecided, listDeadLetters, type StoredEvent } from '@hearth/bus';
import { startProjection, type Projection } from '@hearth/store';
import { cleanupNamespace, natsUrl, startPostgresServer, testNamespace, waitFor, type PostgresServer } from '@hearth/testing';
import { runHearth, type HearthProcess, type ServiceDefinition } from './index.js';

const COUNT_API = Symbol('COUNT_API');

@Controller('toy/count')
class CountController {
  constructor(@Inject(COUNT_API) private readonly count: () => Promise<number>) {}

  @Get()
  async get(): Promise<{ count: number }> {
    return { count: await this.count() };
  }
}

const seen: Projection = {
  name: 'seen',
  sources: ['memory'],
  tables: ['seen'],
  async apply(trx, e: StoredEvent) {
    await trx.insertInto('seen').values({ id: e.id }).execute();
  },
  // Holds event ids only: nothing about a user to erase.
  async erase() {},
};

const toy: ServiceDefinition = {
  name: 'memory',
  migrations: {
    '2026_11_24_0001_seen': {
      async up(db: Kysely<any>) {
        await db.schema.createTable('seen').addColumn('id', 'text', (c) => c.primaryKey()).execute();
      },
    },
  },
  projections: [seen],
  async create(ctx) {
    const count = async (): Promise<number> => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(`${ctx.schema}.seen`)}`.execute(ctx.db)).rows[0]!.n);
    return {
      http: { controllers: [CountController], providers: [{ provide: COUNT_API, useValue: count }] },
      start: () => startProjection(ctx.bus, ctx.db, 'memory', seen, { maxDeliver: 2 }),
    };
  },
};

describe('a Postgres outage under a running Hearth', () => {
  const namespace = testNamespace('t_outage');
  let pg: PostgresServer;
  let hearth: HearthProcess;

  beforeAll(async () => {
    pg = await startPostgresServer();
    hearth = await runHearth({
      services: [toy],
      port: 0,
      env: {
        HEARTH_ENV: 'test',
        HEARTH_NAMESPACE: namespace,
        NATS_URL: await natsUrl(),
        DATABASE_URL: pg.url,
        DATABASE_CONNECT_TIMEOUT_MS: '1000',
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
      },
    });
  });

  afterAll(async () => {
    await hearth?.stop();
    await pg?.stop();
    await cleanupNamespace(await natsUrl(), namespace);
  });

  const get = (path: string): Promise<Response> => fetch(`${hearth.url}${path}`, { signal: AbortSignal.timeout(10_000) });
  /** Deliveries (redeliveries included) by the toy projection's consumer so far. */
  const deliveries = async (): Promise<number> => {
    const consumers = await hearth.bus.jsm.consumers.list(hearth.bus.topology.stream('memory')).next();
    const c = consumers.find((i) => i.name.includes(seen.name));
    if (!c) throw new Error('no consumer of the toy projection');
    return c.delivered.consumer_seq;
  };
  const add = (id: string) => appendDecided(hearth.bus, 'memory', 'u1', () => [{ id, type: 'hearth.toy.Seen', payload: new Uint8Array(), userId: 'u1', occurredAt: new Date(0) }]);

  it('answers 503 with Retry-After and pauses consumers while it is down, then recovers by itself', async () => {
    await add('before');
    await waitFor(async () => ((await (await get('/toy/count')).json()) as { count: number }).count === 1, { what: 'the first event projected' });

    await pg.stop({ keepData: true, mode: 'fast' });
    await waitFor(async () => (await get('/readyz')).status === 503, { what: '/readyz not ready' });
    const down = await get('/toy/count');
    expect(down.status).toBe(503);
    expect(down.headers.get('retry-after')).toBe('2');
    expect(((await down.json()) as { error: unknown }).error).toMatchObject({ code: 'UNAVAILABLE', details: { retry_after_seconds: 2 } });
    // Appended while the database is away: paused, not counted toward quarantine (maxDeliver is 2),
    // however often it is tried: wait until it was delivered more than maxDeliver times.
    const before = await deliveries();
    await add('during');
    await waitFor(async () => (await deliveries()) > before + 2, { what: 'the event of the outage tried past maxDeliver' });

    await pg.start();
    await waitFor(async () => (await get('/readyz')).status === 200, { what: '/readyz ready again', timeoutMs: 30_000 });
    await waitFor(async () => ((await (await get('/toy/count')).json()) as { count: number }).count === 2, { what: 'the event of the outage projected', timeoutMs: 30_000 });
    expect(await listDeadLetters(hearth.bus)).toEqual([]);
  });
});
