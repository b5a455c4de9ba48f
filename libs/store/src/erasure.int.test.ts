// Erasure in the event layer (ARCHITECTURE.md "Personal data, export and
// erasure", invariant 9), against real NATS and Postgres: a UserErased deletes
// the user's rows of every projection, records ErasureApplied, leaves other
// users alone, keeps replay equal to live, and no later event of the erased
// key generation is applied, even by a process that still had the key cached.
import { appendDecided, Bus, draft, GLOBAL_KEYS, LocalKek, type EventDraft, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import type { Kysely, Transaction } from 'kysely';
import {
  ErasureEvents,
  migrateSchema,
  openDatabase,
  replayProjection,
  schemaDb,
  startErasures,
  startProjection,
  type Database,
  type Projection,
} from './index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const SAID = 'hearth.test.v1.Said';

const migrations = {
  '2026_11_25_0001_test': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('said')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();
    },
  },
};

const saidProjection: Projection = {
  name: 'said',
  sources: ['memory'],
  tables: ['said'],
  async apply(trx: Transaction<any>, e: StoredEvent) {
    if (e.type !== SAID) return;
    await trx.insertInto('said').values({ event_id: e.id, user_id: e.userId, body: new TextDecoder().decode(e.payload) }).execute();
  },
  async erase(trx: Transaction<any>, userId: string) {
    await trx.deleteFrom('said').where('user_id', '=', userId).execute();
  },
};

function said(userId: string, n: number, body: string, extra: Partial<EventDraft> = {}): EventDraft {
  return { id: `${userId}-said-${n}`, type: SAID, payload: new TextEncoder().encode(body), userId, occurredAt: new Date(Date.UTC(2026, 10, 25, 0, 0, n)), ...extra };
}

describe('erasure applied by every service (real NATS and Postgres)', () => {
  let ns: string;
  let bus: Bus;
  let database: Database;
  let db: Kysely<any>;
  let dbUrl: string;
  const running: RunningConsumer[] = [];
  const buses: Bus[] = [];
  const outside: string[] = [];

  async function connect(name: string): Promise<Bus> {
    const b = await Bus.connect({ url: await natsUrl(), name, namespace: ns, logger: silent, encryption: { kek: LocalKek.forDevelopment(ns) } });
    buses.push(b);
    return b;
  }

  beforeEach(async () => {
    ns = testNamespace('t_erase');
    dbUrl = await databaseUrl();
    bus = await connect('erasure');
    await bus.ensureStreams(['ingress', 'memory']);
    database = await openDatabase({ url: dbUrl });
    await migrateSchema(database, `${ns}_memory`, migrations);
    db = schemaDb<any>(database, `${ns}_memory`);
    outside.length = 0;
    running.push(...(await startProjection(bus, db, 'memory', saidProjection)));
    running.push(
      ...(await startErasures({
        bus,
        db,
        service: 'memory',
        projections: [saidProjection],
        onUserErased: async (userId) => {
          outside.push(userId);
        },
        now: () => new Date('2026-11-25T12:00:00Z'),
      })),
    );
  });

  afterEach(async () => {
    for (const r of running.splice(0)) await r.stop();
    await cleanupNamespace(bus.nc, ns);
    for (const b of buses.splice(0)) await b.close();
    await database.close();
    await dropSchemas(dbUrl, ns);
  });

  const rowsOf = async (userId: string) => (await db.selectFrom('said').select('body').where('user_id', '=', userId).orderBy('event_id').execute()).map((r) => r.body);

  async function erase(userId: string, erasureId: string): Promise<void> {
    const { generation } = await bus.keyring!.destroy(userId);
    await appendDecided(bus, 'ingress', GLOBAL_KEYS.erasures, () => [
      draft(ErasureEvents.UserErased, { erasureId, keyGeneration: generation, requestedAt: new Date('2026-11-25T11:00:00Z') }, {
        id: erasureId,
        userId,
        occurredAt: new Date('2026-11-25T11:00:00Z'),
        clear: true,
      }),
    ]);
  }

  async function applied(): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    for await (const e of bus.read('memory', { key: GLOBAL_KEYS.erasures })) out.push(e);
    return out;
  }

  it('deletes the user rows and what the service keeps elsewhere, appends ErasureApplied once, and leaves others alone', async () => {
    await appendDecided(bus, 'memory', 'alice', () => [said('alice', 1, 'I told you about Jeju'), said('alice', 2, 'and my sister')]);
    await appendDecided(bus, 'memory', 'bob', () => [said('bob', 1, 'hello')]);
    await waitFor(async () => (await rowsOf('alice')).length === 2 && (await rowsOf('bob')).length === 1, { what: 'rows projected' });

    await erase('alice', 'erasure-1');
    await waitFor(async () => (await applied()).length === 1, { what: 'ErasureApplied' });
    expect(await rowsOf('alice')).toEqual([]);
    expect(await rowsOf('bob')).toEqual(['hello']);
    expect(outside).toEqual(['alice']);
    const [done] = await applied();
    expect(done!.keyGeneration).toBe(0);
    expect(ErasureEvents.ErasureApplied.decode(done!.payload)).toMatchObject({ erasureId: 'erasure-1', userId: 'alice', service: 'memory', keyGeneration: 1 });
    expect(await db.selectFrom('erased_users').selectAll().execute()).toEqual([
      expect.objectContaining({ user_id: 'alice', key_generation: 1, erasure_id: 'erasure-1' }),
    ]);

    // Replay: the erased events cannot be read, and the rebuilt rows equal live.
    const report = await replayProjection({ bus, database, service: 'memory', schema: `${ns}_memory`, projection: saidProjection, migrations });
    expect(report.equal).toBe(true);
    expect(report.tables[0]!.liveRows).toBe(1);
  });

  it('passes over an event of the erased generation opened with a key still cached elsewhere, and applies the new start', async () => {
    const cached = await connect('cached-writer');
    await appendDecided(cached, 'memory', 'carol', () => [said('carol', 1, 'first life')]);
    await waitFor(async () => (await rowsOf('carol')).length === 1, { what: 'first row' });
    await erase('carol', 'erasure-2');
    await waitFor(async () => (await applied()).length === 1, { what: 'ErasureApplied' });

    // Opened with a key the erasure destroyed: a process that still held it.
    const lateSealed = said('carol', 2, 'late, from a stale cache');
    const stale = await connect('stale-reader');
    const { applyEvents } = await import('./projection.js');
    const last = await bus.lastOnSubject('memory', 'carol');
    const late: StoredEvent = { ...last!, id: lateSealed.id, seq: last!.seq + 1, prevSeq: last!.seq, payload: lateSealed.payload, keyGeneration: 1, erased: false };
    const { applied: lateApplied } = await applyEvents(db, saidProjection, [late]);
    expect(lateApplied).toEqual([]);
    await stale.close();

    // A new start (POST /v1/me): the next generation is applied as any user.
    const tail = await bus.lastOnSubject('memory', 'carol');
    await bus.append('memory', 'carol', [said('carol', 3, 'second life', { opensDataKey: true })], tail!.seq);
    await waitFor(async () => (await rowsOf('carol')).includes('second life'), { what: 'the new start projected' });
    expect(await rowsOf('carol')).toEqual(['second life']);
  });
});
