// replayProjection against real NATS and Postgres: the read of the next batch
// overlapping the apply of the last, payloads of ignored types left sealed, the
// phases and timings a benchmark reads, and a failure that stops the replay.
// Replay equality itself is in invariants.int.test.ts.
import { type Kysely, type Transaction } from 'kysely';
import { Bus, LocalKek, type EventDraft, type ServiceName, type StoredEvent } from '@hearth/bus';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import { applyEvents, migrateSchema, openDatabase, replayProjection, schemaDb, type Database, type Projection } from './index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const COUNTED = 'hearth.test.v1.Counted';
const NOISE = 'hearth.test.v1.Noise';
const text = new TextEncoder();

const migrations = {
  '2026_11_26_0001_tally': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('tally')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('events', 'integer', (c) => c.notNull())
        .addColumn('sum', 'integer', (c) => c.notNull())
        .execute();
    },
  },
};

/** Counts and sums each user's Counted events from two streams; Noise is not its concern. */
function tallyProjection(opts: { failAtSeq?: { source: ServiceName; seq: number }; applied?: StoredEvent[] } = {}): Projection {
  return {
    name: 'tally',
    sources: ['memory', 'trust'],
    tables: ['tally'],
    types: [COUNTED],
    async apply(trx: Transaction<any>, e: StoredEvent) {
      opts.applied?.push(e);
      if (opts.failAtSeq && e.stream.endsWith(opts.failAtSeq.source.toUpperCase()) && e.seq === opts.failAtSeq.seq) throw new Error(`apply failed at ${e.seq}`);
      const n = Number(new TextDecoder().decode(e.payload));
      if (!Number.isInteger(n)) throw new Error(`event ${e.id} came unopened: '${new TextDecoder().decode(e.payload)}'`);
      await trx
        .insertInto('tally')
        .values({ user_id: e.userId, events: 1, sum: n })
        .onConflict((oc) => oc.column('user_id').doUpdateSet((eb) => ({ events: eb(eb.ref('tally.events'), '+', 1), sum: eb(eb.ref('tally.sum'), '+', n) })))
        .execute();
    },
    async erase(trx: Transaction<any>, userId: string) {
      await trx.deleteFrom('tally').where('user_id', '=', userId).execute();
    },
  };
}

describe('replayProjection (real NATS and Postgres)', () => {
  let ns: string;
  let bus: Bus;
  let database: Database;
  let dbUrl: string;
  /** Events appended per source, in order. */
  const appended: Record<string, { type: string; sealed: boolean }[]> = {};

  beforeAll(async () => {
    ns = testNamespace('t_replay');
    dbUrl = await databaseUrl();
    bus = await Bus.connect({ url: await natsUrl(), name: 'replay-int', namespace: ns, logger: silent, encryption: { kek: LocalKek.fromBase64(Buffer.alloc(32, 5).toString('base64')) } });
    await bus.ensureStreams(['memory', 'trust']);
    database = await openDatabase({ url: dbUrl });
    await migrateSchema(database, `${ns}_live`, migrations);
    // Four users on two streams; every third event is Noise, every fifth Counted is clear.
    for (const source of ['memory', 'trust'] as const) {
      appended[source] = [];
      const last = new Map<string, number>();
      for (let i = 0; i < 40; i++) {
        const user = `u${i % 4}`;
        const type = i % 3 === 2 ? NOISE : COUNTED;
        const clear = type === COUNTED && i % 5 === 0;
        const d: EventDraft = { id: `${source}-${i}`, type, payload: text.encode(type === NOISE ? 'noise' : String(i)), userId: user, occurredAt: new Date(Date.UTC(2026, 10, 26, 0, 0, i)), clear };
        const [r] = await bus.append(source, user, [d], last.get(user) ?? 0);
        last.set(user, r!.seq);
        appended[source].push({ type, sealed: !clear });
      }
    }
    // The live schema, as the running projection would have written it.
    const live = schemaDb(database, `${ns}_live`);
    for (const source of ['memory', 'trust'] as const) {
      const events: StoredEvent[] = [];
      for await (const e of bus.read(source)) events.push(e);
      for (let i = 0; i < events.length; i += 7) await applyEvents(live, tallyProjection(), events.slice(i, i + 7));
    }
  });

  afterAll(async () => {
    await cleanupNamespace(bus.nc, ns);
    await bus.close();
    await database.close();
    await dropSchemas(dbUrl, ns);
  });

  it('rebuilds equal to live over many small batches, and reports its phases and timings', async () => {
    const phases: string[] = [];
    const progress: number[] = [];
    const report = await replayProjection({
      bus,
      database,
      service: 'memory',
      schema: `${ns}_live`,
      projection: tallyProjection(),
      migrations,
      batchSize: 3,
      onPhase: (p) => phases.push(p),
      onProgress: (done) => progress.push(done),
    });
    expect(report.equal).toBe(true);
    expect(report.tables).toEqual([expect.objectContaining({ table: 'tally', liveRows: 4, replayRows: 4 })]);
    // Every event read, Noise included (its position is moved past).
    expect(report.events).toBe(80);
    expect(report.upTo).toEqual({ memory: 40, trust: 40 });
    expect(phases).toEqual(['rebuild', 'diff']);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.at(-1)).toBe(80);
    const t = report.timings;
    for (const v of [t.setupMs, t.rebuildMs, t.applyMs, t.diffMs]) expect(v).toBeGreaterThan(0);
    expect(t.applyMs).toBeLessThanOrEqual(t.rebuildMs);
  });

  it('opens only the payloads of the types the projection acts on', async () => {
    const open = bus.open.bind(bus);
    const opened: string[] = [];
    bus.open = (e) => {
      opened.push(e.type);
      return open(e);
    };
    try {
      const report = await replayProjection({ bus, database, service: 'memory', schema: `${ns}_live`, projection: tallyProjection(), migrations });
      expect(report.equal).toBe(true);
    } finally {
      bus.open = open;
    }
    const sealedCounted = Object.values(appended).flat().filter((a) => a.type === COUNTED && a.sealed).length;
    expect(opened).toEqual(Array.from({ length: sealedCounted }, () => COUNTED));
  });

  it('stops at a failing apply: the error comes out, and no later batch is applied', async () => {
    const applied: StoredEvent[] = [];
    const failAtSeq = { source: 'memory' as const, seq: 11 };
    await expect(
      replayProjection({ bus, database, service: 'memory', schema: `${ns}_live`, projection: tallyProjection({ failAtSeq, applied }), migrations, batchSize: 4 }),
    ).rejects.toThrow('apply failed at 11');
    // The batch of seq 9–12 failed at 11: nothing of trust, nothing past it.
    expect(applied.every((e) => e.stream === bus.topology.stream('memory') && e.seq <= 11)).toBe(true);
    expect(applied.at(-1)!.seq).toBe(11);
  });
});
