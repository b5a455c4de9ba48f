import { randomUUID } from 'node:crypto';
import { Body, Controller, Get, Inject, Param, Post } from '@nestjs/common';
import type { Kysely } from 'kysely';
import { ACK, startConsumer, type RunningConsumer } from '@hearth/bus';
import { startProjection, type Projection } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import {
  ApiHttpException,
  runHearth,
  type ApiErrorBody,
  type HearthProcess,
  type ReadinessReport,
  type ServiceDefinition,
} from './index.js';

const NOTE_ADDED = 'hearth.toy.NoteAdded';

interface NotesDb {
  notes: { id: string; user_id: string; body: string };
}

/** What the toy controller needs, behind a token (see health.ts on @Inject). */
interface NotesApi {
  add(userId: string, body: string): Promise<string>;
  get(id: string): Promise<{ id: string; user_id: string; body: string } | undefined>;
}
const NOTES_API = Symbol('NOTES_API');

@Controller('toy/notes')
class NotesController {
  constructor(@Inject(NOTES_API) private readonly api: NotesApi) {}

  @Post()
  async add(@Body() body: { user_id: string; body: string }): Promise<{ id: string }> {
    return { id: await this.api.add(body.user_id, body.body) };
  }

  @Get(':id')
  async get(@Param('id') id: string): Promise<NotesDb['notes']> {
    const note = await this.api.get(id);
    if (!note) throw new ApiHttpException(404, 'NOTE_NOT_FOUND', `no note ${id}`);
    return note;
  }
}

const notesProjection: Projection<NotesDb> = {
  name: 'notes',
  sources: ['memory'],
  tables: ['notes'],
  async apply(trx, event) {
    await trx
      .insertInto('notes')
      .values({ id: event.id, user_id: event.userId, body: new TextDecoder().decode(event.payload) })
      .execute();
  },
  async erase(trx, userId) {
    await trx.deleteFrom('notes').where('user_id', '=', userId).execute();
  },
};

/** A service with a migration, a projection and an HTTP controller. */
const notesService: ServiceDefinition = {
  name: 'memory',
  migrations: {
    '2026_11_22_0001_notes': {
      async up(db: Kysely<unknown>) {
        await db.schema
          .createTable('notes')
          .addColumn('id', 'text', (c) => c.primaryKey())
          .addColumn('user_id', 'text', (c) => c.notNull())
          .addColumn('body', 'text', (c) => c.notNull())
          .execute();
      },
    },
  },
  projections: [notesProjection],
  async create(ctx) {
    const db = ctx.db as Kysely<NotesDb>;
    const api: NotesApi = {
      async add(userId, body) {
        const id = randomUUID();
        await ctx.bus.append(
          'memory',
          userId,
          [{ id, type: NOTE_ADDED, payload: new TextEncoder().encode(body), userId, occurredAt: ctx.clock.now() }],
          0,
        );
        return id;
      },
      get: (id) => db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirst(),
    };
    return {
      start: () => startProjection(ctx.bus, db, 'memory', notesProjection),
      http: { controllers: [NotesController], providers: [{ provide: NOTES_API, useValue: api }] },
    };
  },
};

/** A second service: a plain consumer of the first one's stream, no schema of its own. */
function counterService(state: { seen: number; stopped: boolean }): ServiceDefinition {
  return {
    name: 'trust',
    migrations: {},
    projections: [],
    async create(ctx) {
      return {
        async start(): Promise<RunningConsumer[]> {
          return [
            await startConsumer(ctx.bus, {
              service: 'trust',
              purpose: 'count-notes',
              source: 'memory',
              handle: async (events) => {
                state.seen += events.length;
                return events.map(() => ACK);
              },
            }),
          ];
        },
        async stop() {
          state.stopped = true;
        },
      };
    },
  };
}

async function json<T>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** Deletes what a namespace left on the shared servers: its streams, its clock bucket, its schemas. */
async function cleanup(namespace: string, dbUrl: string | undefined): Promise<void> {
  await cleanupNamespace(await natsUrl(), namespace);
  if (dbUrl) await dropSchemas(dbUrl, namespace);
}

async function testEnv(namespace: string, dbUrl: string | undefined): Promise<NodeJS.ProcessEnv> {
  return {
    HEARTH_ENV: 'test',
    HEARTH_NAMESPACE: namespace,
    NATS_URL: await natsUrl(),
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
    ...(dbUrl ? { DATABASE_URL: dbUrl } : { PGLITE_DIR: 'memory://' }),
  };
}

describe.each(['Postgres', 'PGlite'] as const)('runHearth on %s', (kind) => {
  const namespace = testNamespace('t_host');
  const counter = { seen: 0, stopped: false };
  let databaseUrlUsed: string | undefined;
  let hearth: HearthProcess | undefined;

  beforeAll(async () => {
    databaseUrlUsed = kind === 'Postgres' ? await databaseUrl() : undefined;
    hearth = await runHearth({
      services: [notesService, counterService(counter)],
      env: await testEnv(namespace, databaseUrlUsed),
      port: 0,
    });
  });

  afterAll(async () => {
    await hearth?.stop();
    await cleanup(namespace, databaseUrlUsed);
  });

  it('boots on the expected database, with a port of its own and a virtual clock', async () => {
    expect(hearth!.database.kind).toBe(kind === 'PGlite' ? 'pglite' : 'postgres');
    expect(hearth!.port).toBeGreaterThan(0);
    expect(hearth!.url).toBe(`http://127.0.0.1:${hearth!.port}`);
    expect([...hearth!.contexts.keys()]).toEqual(['memory', 'trust']);
    const ctx = hearth!.contexts.get('memory')!;
    expect(ctx.schema).toBe(`${namespace}_memory`);
    const before = hearth!.clock.now().getTime();
    await ctx.advanceClock!(3600);
    expect(hearth!.clock.now().getTime()).toBeGreaterThanOrEqual(before + 3_600_000);
  });

  it('answers /healthz, /readyz once consumers are bound, and /metrics', async () => {
    const health = await fetch(`${hearth!.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await json(health)).toEqual({ status: 'ok' });

    const ready = await waitFor(async () => {
      const res = await fetch(`${hearth!.url}/readyz`);
      return res.status === 200 ? json<{ status: string; checks: ReadinessReport['checks'] }>(res) : undefined;
    }, { what: '/readyz to answer 200' });
    expect(ready.status).toBe('ready');
    // The two services' own consumers, and each one's erase-user reactor (libs/host starts one per service).
    expect(ready.checks.consumers).toMatchObject({ ok: true, bound: 4, total: 4 });
    await expect(hearth!.ready()).resolves.toBe(true);

    const metrics = await fetch(`${hearth!.url}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(text).toContain('hearth_service_up{service="memory"');
    expect(text).toMatch(/hearth_consumer_bound\{[^}]*consumer="trust-count-notes"[^}]*\} 1/);
  });

  it("routes a service's controller: append, project, read back", async () => {
    const userId = randomUUID();
    const posted = await fetch(`${hearth!.url}/toy/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: userId, body: 'likes tea' }),
    });
    expect(posted.status).toBe(201);
    const { id } = await json<{ id: string }>(posted);

    const note = await waitFor(async () => {
      const res = await fetch(`${hearth!.url}/toy/notes/${id}`);
      return res.status === 200 ? json<NotesDb['notes']>(res) : undefined;
    }, { what: 'the note to be projected' });
    expect(note).toEqual({ id, user_id: userId, body: 'likes tea' });
    await waitFor(async () => counter.seen >= 1, { what: 'the second service to see the event' });
  });

  it('answers errors in the API shape', async () => {
    const missing = await fetch(`${hearth!.url}/toy/notes/nope`);
    expect(missing.status).toBe(404);
    expect(await json(missing)).toEqual({ error: { code: 'NOTE_NOT_FOUND', message: 'no note nope' } });

    const unknown = await fetch(`${hearth!.url}/no/such/route`);
    expect(unknown.status).toBe(404);
    expect((await json<ApiErrorBody>(unknown)).error.code).toBe('NOT_FOUND');

    const tooLarge = await fetch(`${hearth!.url}/toy/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: 'u', body: 'x'.repeat(70_000) }),
    });
    expect(tooLarge.status).toBe(413);
    expect((await json<ApiErrorBody>(tooLarge)).error.code).toBe('PAYLOAD_TOO_LARGE');

    // Raised by Fastify before any route: a malformed URL and an overlong path parameter.
    const badUrl = await fetch(`${hearth!.url}/toy/notes/%ff`);
    expect(badUrl.status).toBe(400);
    expect((await json<ApiErrorBody>(badUrl)).error.code).toBe('BAD_REQUEST');
    const longParam = await fetch(`${hearth!.url}/toy/notes/${'x'.repeat(200)}`);
    expect(longParam.status).toBe(414);
    expect((await json<ApiErrorBody>(longParam)).error.code).toBe('URI_TOO_LONG');
  });

  it('stops cleanly and idempotently; the port is closed after', async () => {
    const url = hearth!.url;
    await Promise.all([hearth!.stop(), hearth!.stop()]);
    await hearth!.stop();
    expect(counter.stopped).toBe(true);
    expect(hearth!.bus.isConnected()).toBe(false);
    await expect(fetch(`${url}/readyz`)).rejects.toThrow();
  });
});

describe('runHearth boot failures', () => {
  it('closes what it opened when a service fails to create, and rethrows', async () => {
    const namespace = testNamespace('t_host');
    const url = await databaseUrl();
    const broken: ServiceDefinition = {
      name: 'retention',
      migrations: {},
      projections: [],
      create: () => Promise.reject(new Error('boom')),
    };
    try {
      await expect(
        runHearth({ services: [broken], env: await testEnv(namespace, url), port: 0 }),
      ).rejects.toThrow('boom');
    } finally {
      await cleanup(namespace, url);
    }
  });

  it('rejects a bad configuration naming the variable', async () => {
    await expect(
      runHearth({ services: [notesService], env: { HTTP_BODY_LIMIT_BYTES: 'lots' }, port: 0 }),
    ).rejects.toThrow(/HTTP_BODY_LIMIT_BYTES/);
  });
});
