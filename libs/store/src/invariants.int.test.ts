// The event-log invariants of ARCHITECTURE.md, against real NATS and Postgres:
// exactly-once effects, checkpoint with rows, replay equals live, dead letters,
// per-user order with replicas, survival of a NATS restart.
import { common } from '@hearth/proto';
import {
  appendDecided,
  Bus,
  listDeadLetters,
  redriveDeadLetter,
  startConsumer,
  type EventDraft,
  type RunningConsumer,
  type StoredEvent,
} from '@hearth/bus';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, startNatsServer, testNamespace, waitFor } from '@hearth/testing';
import { sql, type Kysely, type Transaction } from 'kysely';
import {
  applyEvents,
  checkpointOf,
  KnownPositions,
  migrateSchema,
  openDatabase,
  positionOf,
  quarantinedEvents,
  reactOnce,
  replayProjection,
  requirePosition,
  schemaDb,
  startProjection,
  startReactor,
  type Database,
  type Projection,
  waitForPosition,
} from './index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const TYPE = 'hearth.test.v1.Counted';

interface Counted {
  n: number;
  poison?: boolean;
  failOnce?: boolean;
}

const encode = (v: Counted) => new TextEncoder().encode(JSON.stringify(v));
const decode = (e: StoredEvent): Counted => JSON.parse(new TextDecoder().decode(e.payload)) as Counted;

function counted(userId: string, n: number, extra: Partial<Counted> = {}): EventDraft {
  return {
    id: `${userId}-${n}`,
    type: TYPE,
    payload: encode({ n, ...extra }),
    userId,
    occurredAt: new Date(Date.UTC(2026, 10, 22, 0, 0, n)),
  };
}

const migrations = {
  '2026_11_22_0001_test': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('counters')
        .addColumn('user_id', 'text', (c) => c.primaryKey())
        .addColumn('last_n', 'integer', (c) => c.notNull())
        .addColumn('applied', 'integer', (c) => c.notNull())
        .addColumn('out_of_order', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('applied_log')
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .execute();
    },
  },
};

/** Counts per user, and remembers any event applied out of order. */
function counterProjection(opts: { failAt?: number } = {}): Projection {
  return {
    name: 'counters',
    sources: ['memory'],
    tables: ['counters', 'applied_log'],
    async apply(trx: Transaction<any>, e: StoredEvent) {
      const v = decode(e);
      if (v.poison) throw new Error(`poison event ${v.n}`);
      await trx.insertInto('applied_log').values({ user_id: e.userId, n: v.n, at: e.occurredAt }).execute();
      if (opts.failAt === v.n) throw new Error(`failure after writing row ${v.n}`);
      await trx
        .insertInto('counters')
        .values({ user_id: e.userId, last_n: v.n, applied: 1, out_of_order: v.n === 1 ? 0 : 1 })
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet((eb) => ({
            last_n: v.n,
            applied: eb(eb.ref('counters.applied'), '+', 1),
            out_of_order: eb(eb.ref('counters.out_of_order'), '+', sql<number>`case when counters.last_n + 1 = ${v.n} then 0 else 1 end`),
          })),
        )
        .execute();
    },
    async erase(trx: Transaction<any>, userId: string) {
      await trx.deleteFrom('applied_log').where('user_id', '=', userId).execute();
      await trx.deleteFrom('counters').where('user_id', '=', userId).execute();
    },
  };
}

describe('event-log invariants (real NATS and Postgres)', () => {
  let ns: string;
  let bus: Bus;
  let database: Database;
  let db: Kysely<any>;
  let dbUrl: string;
  const running: RunningConsumer[] = [];
  const extraBuses: Bus[] = [];

  beforeEach(async () => {
    ns = testNamespace();
    dbUrl = await databaseUrl();
    bus = await Bus.connect({ url: await natsUrl(), name: 'invariants', namespace: ns, logger: silent });
    await bus.ensureStreams(['memory', 'trust']);
    database = await openDatabase({ url: dbUrl });
    await migrateSchema(database, `${ns}_live`, migrations);
    db = schemaDb<any>(database, `${ns}_live`);
  });

  afterEach(async () => {
    for (const r of running.splice(0)) await r.stop();
    for (const b of extraBuses.splice(0)) await b.close();
    await cleanupNamespace(bus.nc, ns);
    await bus.close();
    await database.close();
    await dropSchemas(dbUrl, ns);
  });

  async function publishAll(users: string[], perUser: number): Promise<void> {
    // Interleaved: event n of every user before event n + 1 of any.
    for (let n = 1; n <= perUser; n++) {
      await Promise.all(users.map((u) => appendDecided(bus, 'memory', u, () => [counted(u, n)])));
    }
  }

  /** Nothing pending or unacked on these consumers: no delivery is left to apply anything again. */
  async function allAcked(consumers: RunningConsumer[]): Promise<boolean> {
    return (await Promise.all(consumers.map((c) => c.lag()))).every((n) => n === 0);
  }

  async function rows(table: string): Promise<any[]> {
    return db.selectFrom(table).selectAll().orderBy('user_id').execute();
  }

  it('applies an event fed twice only once (exactly-once effect)', async () => {
    await publishAll(['u1', 'u2'], 3);
    const events: StoredEvent[] = [];
    for await (const e of bus.read('memory')) events.push(e);
    await applyEvents(db, counterProjection(), events);
    const again = await applyEvents(db, counterProjection(), events);
    expect(again.applied).toHaveLength(0);
    expect(await rows('counters')).toEqual([
      { user_id: 'u1', last_n: 3, applied: 3, out_of_order: 0 },
      { user_id: 'u2', last_n: 3, applied: 3, out_of_order: 0 },
    ]);
    expect((await db.selectFrom('applied_log').select(db.fn.countAll().as('n')).executeTakeFirst())?.n).toBe(6);
  });

  it('applies once when an event is redelivered after a crash between commit and ack', async () => {
    await publishAll(['u1'], 2);
    const projection = counterProjection();
    let crashes = 0;
    running.push(
      await startConsumer(bus, {
        service: 'memory',
        purpose: 'crashy',
        source: 'memory',
        retryDelayMs: 10,
        handle: async (events) => {
          const { outcomes } = await applyEvents(db, projection, events);
          if (crashes++ === 0) throw new Error('crash after commit, before ack');
          return outcomes;
        },
      }),
    );
    await waitFor(async () => (await rows('counters'))[0]?.applied === 2 && crashes > 1, { what: 'both events applied after the crash' });
    // Every delivery acked: no redelivery left that could apply an event again.
    await waitFor(() => allAcked(running), { what: 'the consumer to ack both events' });
    expect(crashes).toBeGreaterThan(1);
    expect(await rows('counters')).toEqual([{ user_id: 'u1', last_n: 2, applied: 2, out_of_order: 0 }]);
  });

  it('a reactor that crashes after appending, before recording, appends its output once', async () => {
    await publishAll(['u1'], 1);
    let tries = 0;
    running.push(
      ...(await startReactor(bus, db, 'trust', {
        name: 'echo',
        sources: ['memory'],
        async react(e) {
          tries++;
          await appendDecided(bus, 'trust', e.userId, () => [{ ...counted(e.userId, 1), id: `echo-${e.id}`, causationId: e.id }]);
          if (tries === 1) throw new Error('crash before the position is written');
        },
      }, { maxDeliver: 5 })),
    );
    await waitFor(async () => tries >= 2 && (await bus.lastSeq('trust')) > 0, { what: 'the reactor to run twice' });
    await waitFor(() => allAcked(running), { what: 'the reactor to ack its event' });
    const outputs: StoredEvent[] = [];
    for await (const e of bus.read('trust')) outputs.push(e);
    expect(outputs.map((o) => o.id)).toEqual(['echo-u1-1']);
  });

  it('commits rows and checkpoint together: a failure between them leaves neither', async () => {
    await publishAll(['u1'], 3);
    const events: StoredEvent[] = [];
    for await (const e of bus.read('memory')) events.push(e);
    await expect(applyEvents(db, counterProjection({ failAt: 2 }), events)).rejects.toThrow('failure after writing row 2');
    expect(await rows('counters')).toEqual([]);
    expect(await db.selectFrom('applied_log').selectAll().execute()).toEqual([]);
    expect(await checkpointOf(db, 'counters', bus.topology.stream('memory'))).toBe(0);
    await applyEvents(db, counterProjection(), events);
    expect(await checkpointOf(db, 'counters', bus.topology.stream('memory'))).toBe(events.at(-1)!.seq);
  });

  it('replay into an empty schema equals the live rows, and a tampered row shows', async () => {
    const projection = counterProjection();
    running.push(...(await startProjection(bus, db, 'memory', projection)));
    const users = Array.from({ length: 5 }, (_, i) => `u${i}`);
    await publishAll(users, 20);
    const last = await bus.lastSeq('memory');
    await waitFor(async () => (await checkpointOf(db, 'counters', bus.topology.stream('memory'))) === last, { what: 'live projection to catch up' });
    const progress: number[] = [];
    const report = await replayProjection({
      bus,
      database,
      service: 'memory',
      schema: `${ns}_live`,
      projection,
      migrations,
      onProgress: (done) => progress.push(done),
    });
    expect(report.events).toBe(100);
    expect(report.equal).toBe(true);
    expect(report.tables.map((t) => [t.table, t.liveRows, t.replayRows])).toEqual([
      ['counters', 5, 5],
      ['applied_log', 100, 100],
    ]);
    expect(progress.at(-1)).toBe(last);
    await db.updateTable('counters').set({ applied: 999 }).where('user_id', '=', 'u3').execute();
    const tampered = await replayProjection({ bus, database, service: 'memory', schema: `${ns}_live`, projection, migrations });
    expect(tampered.equal).toBe(false);
    expect(tampered.tables[0]).toMatchObject({ table: 'counters', onlyLive: 1, onlyReplay: 1 });
  });

  it('dead-letters a poison event after max deliveries and goes on', async () => {
    running.push(...(await startProjection(bus, db, 'memory', counterProjection(), { maxDeliver: 3 })));
    await appendDecided(bus, 'memory', 'p1', () => [counted('p1', 1, { poison: true })]);
    await appendDecided(bus, 'memory', 'ok', () => [counted('ok', 1)]);
    await appendDecided(bus, 'memory', 'ok', () => [counted('ok', 2)]);
    await waitFor(async () => (await rows('counters')).find((r) => r.user_id === 'ok')?.applied === 2, { what: 'later events applied' });
    const dlq = bus.topology.dlqStream;
    await waitFor(async () => (await bus.jsm.streams.info(dlq)).state.messages === 1, { what: 'one dead letter' });
    const m = await bus.jsm.streams.getMessage(dlq, { seq: 1 });
    const dead = common.DeadLetter.decode(m!.data);
    expect(dead).toMatchObject({ consumer: 'memory-counters-memory', deliveryCount: 3, subject: bus.topology.subject('memory', 'p1') });
    expect(dead.error).toContain('poison event 1');
    expect(common.Envelope.decode(dead.envelope).eventId).toBe('p1-1');
    expect((await rows('counters')).map((r) => r.user_id)).toEqual(['ok']);
  });

  it('quarantines a poison event and serves the same user\'s later events; replay passes over it; redrive applies it', async () => {
    let fixed = false;
    const base = counterProjection();
    const projection: Projection = {
      ...base,
      async apply(trx, e) {
        if (decode(e).failOnce && !fixed) throw new Error(`cannot apply ${e.id} yet`);
        await base.apply(trx, e);
      },
    };
    running.push(...(await startProjection(bus, db, 'memory', projection, { maxDeliver: 3 })));
    await appendDecided(bus, 'memory', 'p1', () => [counted('p1', 1)]);
    await appendDecided(bus, 'memory', 'p1', () => [counted('p1', 2, { failOnce: true })]);
    await appendDecided(bus, 'memory', 'p1', () => [counted('p1', 3)]);

    // The user's chain goes on past the poison event.
    await waitFor(async () => (await rows('counters'))[0]?.applied === 2, { what: 'event 3 applied past the quarantined 2' });
    expect(await quarantinedEvents(db, 'counters')).toMatchObject([{ eventId: 'p1-2', deliveries: 3, consumer: 'memory-counters-memory', error: 'cannot apply p1-2 yet' }]);
    const listed = await listDeadLetters(bus);
    expect(listed).toMatchObject([{ eventId: 'p1-2', userId: 'p1', service: 'memory', consumer: 'memory-counters-memory', deliveries: 3, redriven: false }]);
    expect((await replayProjection({ bus, database, service: 'memory', schema: `${ns}_live`, projection, migrations })).equal).toBe(true);

    // Still failing: the redrive says so and it stays quarantined.
    await expect(redriveDeadLetter(bus, 'p1-2')).resolves.toEqual([
      { service: 'memory', consumer: 'memory-counters-memory', redriven: false, error: 'cannot apply p1-2 yet' },
    ]);
    fixed = true;
    await expect(redriveDeadLetter(bus, 'p1-2')).resolves.toEqual([{ service: 'memory', consumer: 'memory-counters-memory', redriven: true }]);
    expect((await rows('counters'))[0]).toMatchObject({ applied: 3 });
    expect(await quarantinedEvents(db, 'counters')).toEqual([]);
    await waitFor(async () => (await listDeadLetters(bus))[0]?.redriven === true, { what: 'the redriven marker' });
    await expect(redriveDeadLetter(bus, 'p1-2')).rejects.toThrow(/no dead letter awaiting redrive/);
  });

  it('never counts waiting for a predecessor or a dependency outage toward quarantine', async () => {
    await publishAll(['w1', 'w2'], 1);
    let calls = 0;
    const unavailable = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    const acked: string[] = [];
    running.push(
      await startConsumer(bus, {
        service: 'memory',
        purpose: 'patient',
        source: 'memory',
        maxDeliver: 2,
        retryDelayMs: 5,
        batchSize: 1,
        handle: async ([e]) => {
          calls++;
          // w1 waits for a predecessor six times, w2 meets a database that is down six times.
          if (e!.userId === 'w1' && calls <= 12) return [{ kind: 'nak', delayMs: 5, reason: 'waiting for seq 0' }];
          if (e!.userId === 'w2' && acked.length === 0 && calls <= 12) throw unavailable;
          acked.push(e!.userId);
          return [{ kind: 'ack' }];
        },
      }),
    );
    await waitFor(async () => acked.length === 2, { what: 'both events handled in the end' });
    expect(acked.sort()).toEqual(['w1', 'w2']);
    expect(await listDeadLetters(bus)).toEqual([]);
  });

  it('waits out a read model that is behind: a reactor\'s ProjectionBehindError never counts toward quarantine', async () => {
    await publishAll(['b1'], 1);
    let tries = 0;
    running.push(
      ...(await startReactor(bus, db, 'trust', {
        name: 'after-counters',
        sources: ['memory'],
        async react(e) {
          tries++;
          // Decides only on the counters read model holding this very event.
          await requirePosition(db, 'counters', e, { timeoutMs: 5 });
          await appendDecided(bus, 'trust', e.userId, () => [{ ...counted(e.userId, 1), id: `after-${e.id}`, causationId: e.id }]);
        },
      }, { maxDeliver: 2 })),
    );
    // Behind past maxDeliver handlings, then the projection starts and catches up.
    await waitFor(async () => tries > 3, { what: 'the reactor to meet the lagging read model more than maxDeliver times' });
    running.push(...(await startProjection(bus, db, 'memory', counterProjection())));
    await waitFor(async () => (await bus.lastSeq('trust')) > 0, { what: 'the reactor to decide once the read model caught up' });
    expect(await listDeadLetters(bus)).toEqual([]);
  });

  it('abandons a handler past its deadline, reports the consumer stalled, and retries the event', async () => {
    await publishAll(['d1'], 1);
    let release: () => void = () => undefined;
    let calls = 0;
    const consumer = await startConsumer(bus, {
      service: 'memory',
      purpose: 'slow',
      source: 'memory',
      handlerDeadlineMs: 200,
      retryDelayMs: 10,
      handle: async () => {
        if (++calls === 1) await new Promise<void>((r) => (release = r));
        return [{ kind: 'ack' }];
      },
    });
    running.push(consumer);
    await waitFor(async () => calls >= 2, { what: 'the event handled again after the deadline' });
    expect(consumer.stalled!()).toBe(1);
    release();
    await waitFor(async () => consumer.stalled!() === 0, { what: 'the abandoned handler to return' });
    expect(await listDeadLetters(bus)).toEqual([]);
  });

  it('keeps per-user order with three replicas: 50 users × 40 interleaved events, none twice', async () => {
    const projection = counterProjection();
    for (let r = 0; r < 3; r++) {
      const replicaBus = await Bus.connect({ url: await natsUrl(), name: `replica-${r}`, namespace: ns, logger: silent });
      extraBuses.push(replicaBus);
      running.push(...(await startProjection(replicaBus, db, 'memory', projection, { batchSize: 7 })));
    }
    const users = Array.from({ length: 50 }, (_, i) => `user${String(i).padStart(2, '0')}`);
    await publishAll(users, 40);
    await waitFor(
      async () => {
        const c = await db.selectFrom('counters').select(db.fn.sum<number>('applied').as('n')).executeTakeFirst();
        return Number(c?.n ?? 0) >= 2000;
      },
      { timeoutMs: 60_000, what: '2000 events applied' },
    );
    await waitFor(() => allAcked(running), { what: 'the replicas to ack every event' });
    const counters = await rows('counters');
    expect(counters).toHaveLength(50);
    for (const c of counters) expect(c).toMatchObject({ last_n: 40, applied: 40, out_of_order: 0 });
    const dupes = await sql<{ n: number }>`select count(*)::int as n from (select user_id, n from ${sql.table(`${ns}_live.applied_log`)} group by user_id, n having count(*) > 1) d`.execute(database.root);
    expect(dupes.rows[0]!.n).toBe(0);
  }, 120_000);

  it('moves past the event types a projection does not act on without a transaction, keeping per-user order', async () => {
    const other = (userId: string, n: number): EventDraft => ({ ...counted(userId, n), type: 'hearth.test.v1.Other' });
    await appendDecided(bus, 'memory', 'u1', async () => [counted('u1', 1), other('u1', 2), counted('u1', 3), other('u1', 4)]);
    const [e1, e2, e3, e4] = await (async () => {
      const all: StoredEvent[] = [];
      for await (const e of bus.read('memory')) all.push(e);
      return all;
    })();
    const projection: Projection = { ...counterProjection(), types: [TYPE] };
    const known = new KnownPositions();
    // The same database, counting the transactions opened through it.
    let transactions = 0;
    const counting = new Proxy(db, {
      get(target, key) {
        if (key === 'transaction') transactions++;
        const value: unknown = Reflect.get(target, key, target);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const position = () => positionOf(db, projection.name, e1!.subject);

    // Its predecessor not applied: waits, even with nothing to apply.
    expect((await applyEvents(counting, projection, [e2!], { known })).outcomes).toEqual([expect.objectContaining({ kind: 'nak' })]);
    expect(await position()).toBe(0);
    expect(transactions).toBe(0);

    await applyEvents(counting, projection, [e1!], { known });
    expect(transactions).toBe(1);
    expect((await applyEvents(counting, projection, [e2!], { known })).outcomes).toEqual([{ kind: 'ack' }]);
    expect(transactions).toBe(1);
    expect(await position()).toBe(e2!.seq);
    expect(await checkpointOf(db, projection.name, e2!.stream)).toBe(e2!.seq);

    const { applied } = await applyEvents(counting, projection, [e2!, e3!, e4!], { known });
    expect(applied.map((e) => e.seq)).toEqual([e3!.seq]);
    expect(await position()).toBe(e4!.seq);
    expect(await checkpointOf(db, projection.name, e4!.stream)).toBe(e4!.seq);
    expect(await rows('counters')).toEqual([{ user_id: 'u1', last_n: 3, applied: 2, out_of_order: 1 }]);

    // A known position behind the database (a replica moved it) only costs a read.
    const behind = new KnownPositions();
    behind.set(e1!.subject, e1!.seq);
    expect((await applyEvents(db, projection, [e4!], { known: behind })).outcomes).toEqual([{ kind: 'ack' }]);
    expect(await position()).toBe(e4!.seq);

    const report = await replayProjection({ bus, database, service: 'memory', schema: `${ns}_live`, projection, migrations });
    expect(report.equal).toBe(true);
  });

  it('answers a wait on a projection running in this process from its positions, and reads the database otherwise', async () => {
    const consumers = await startProjection(bus, db, 'memory', counterProjection());
    running.push(...consumers);
    await publishAll(['u1'], 3);
    const subject = bus.topology.subject('memory', 'u1');
    const last = (await bus.lastOnSubject('memory', 'u1'))!;
    // Not applied yet, or just: the wait ends when the runner commits it.
    expect(await waitForPosition(db, 'counters', subject, last.seq, { timeoutMs: 10_000 })).toBe(true);
    let acquired = 0;
    const onAcquire = (): void => void acquired++;
    database.pool.on('acquire', onAcquire);
    try {
      expect(await waitForPosition(db, 'counters', subject, last.seq)).toBe(true);
      expect(acquired).toBe(0);
      // Another handle on the same schema knows nothing of the runner: it asks the database.
      expect(await waitForPosition(database.root.withSchema(`${ns}_live`), 'counters', subject, last.seq)).toBe(true);
      expect(acquired).toBe(1);
      // Not applied anywhere: no answer from the runner, and the database says no too.
      expect(await waitForPosition(db, 'counters', subject, last.seq + 1, { timeoutMs: 100 })).toBe(false);
      expect(acquired).toBeGreaterThan(1);
      // Stopped: the database again.
      for (const c of consumers) await c.stop();
      running.splice(0);
      const before = acquired;
      expect(await waitForPosition(db, 'counters', subject, last.seq)).toBe(true);
      expect(acquired).toBe(before + 1);
    } finally {
      database.pool.off('acquire', onAcquire);
    }
  });

  it('hands a projection with applyBatch the events it applies, in order, once per transaction', async () => {
    await publishAll(['u1', 'u2'], 3);
    const events: StoredEvent[] = [];
    for await (const e of bus.read('memory')) events.push(e);
    const plain = counterProjection();
    const batches: number[][] = [];
    const batched: Projection = {
      ...plain,
      async applyBatch(trx, batch) {
        batches.push(batch.map((e) => e.seq));
        for (const e of batch) await plain.apply(trx, e);
      },
    };
    const [a1, a2] = events.filter((e) => e.userId === 'u1');
    const [b1, b2, b3] = events.filter((e) => e.userId === 'u2');
    // a2 fed twice (skipped the second time), b3 before b2 (left waiting).
    const fed = [a1!, a2!, a2!, b1!, b3!, b2!];
    const { applied, outcomes } = await applyEvents(db, batched, fed);
    expect(batches).toEqual([applied.map((e) => e.seq)]);
    expect(applied.map((e) => e.seq)).toEqual([a1!.seq, a2!.seq, b1!.seq, b2!.seq]);
    expect(outcomes.map((o) => o.kind)).toEqual(['ack', 'ack', 'ack', 'ack', 'nak', 'ack']);
    await applyEvents(db, batched, events);
    expect(await rows('counters')).toEqual([
      { user_id: 'u1', last_n: 3, applied: 3, out_of_order: 0 },
      { user_id: 'u2', last_n: 3, applied: 3, out_of_order: 0 },
    ]);
  });

  it('runs a reactor only on the types it acts on, and moves its position past the others in order', async () => {
    const other = (userId: string, n: number): EventDraft => ({ ...counted(userId, n), type: 'hearth.test.v1.Other' });
    await appendDecided(bus, 'memory', 'u1', async () => [counted('u1', 1), other('u1', 2)]);
    const events: StoredEvent[] = [];
    for await (const e of bus.read('memory')) events.push(e);
    const reacted: number[] = [];
    const reactor = { name: 'typed-reactor', sources: ['memory'] as const, types: [TYPE], react: async (e: StoredEvent) => void reacted.push(e.seq) };
    const known = new KnownPositions();
    expect(await reactOnce(db, reactor, events[1]!, known)).toEqual(expect.objectContaining({ kind: 'nak' }));
    expect(await reactOnce(db, reactor, events[0]!, known)).toEqual({ kind: 'ack' });
    expect(await reactOnce(db, reactor, events[1]!, known)).toEqual({ kind: 'ack' });
    expect(await reactOnce(db, reactor, events[0]!, known)).toEqual({ kind: 'ack' });
    expect(reacted).toEqual([events[0]!.seq]);
    expect(await positionOf(db, reactor.name, events[0]!.subject)).toBe(events[1]!.seq);
  });
});

describe('survival of a NATS restart', () => {
  it('projects every acknowledged event after nats-server restarts mid-publish', async () => {
    const server = await startNatsServer({ jetstream: true });
    const ns = testNamespace();
    const dbUrl = await databaseUrl();
    const database = await openDatabase({ url: dbUrl });
    const bus = await Bus.connect({ url: server.url, name: 'restart', namespace: ns, logger: silent });
    const consumerBus = await Bus.connect({ url: server.url, name: 'restart-consumer', namespace: ns, logger: silent });
    const running: RunningConsumer[] = [];
    try {
      await bus.ensureStreams(['memory']);
      await migrateSchema(database, `${ns}_live`, migrations);
      const db = schemaDb<any>(database, `${ns}_live`);
      running.push(...(await startProjection(consumerBus, db, 'memory', counterProjection())));
      const acked = new Map<string, number>();
      const users = ['a', 'b', 'c', 'd'];
      let stop = false;
      const publishers = users.map(async (u) => {
        let n = 1;
        while (!stop && n <= 400) {
          try {
            await appendDecided(bus, 'memory', u, () => [counted(u, n)]);
            acked.set(u, n);
            n++;
          } catch {
            await new Promise((r) => setTimeout(r, 50));
          }
        }
      });
      await waitFor(async () => [...acked.values()].reduce((a, b) => a + b, 0) > 100, { what: 'some events published' });
      await server.restart();
      await waitFor(async () => [...acked.values()].reduce((a, b) => a + b, 0) > 400, { timeoutMs: 30_000, what: 'publishing to resume after the restart' });
      stop = true;
      await Promise.all(publishers);
      await waitFor(
        async () => {
          const rs = await db.selectFrom('counters').selectAll().execute();
          return users.every((u) => rs.find((r: any) => r.user_id === u)?.last_n >= (acked.get(u) ?? 0));
        },
        { timeoutMs: 30_000, what: 'every acknowledged event projected' },
      );
      const rs = await db.selectFrom('counters').selectAll().execute();
      for (const r of rs as any[]) expect(r.out_of_order).toBe(0);
      for (const u of users) expect((rs as any[]).find((r) => r.user_id === u).applied).toBeGreaterThanOrEqual(acked.get(u)!);
    } finally {
      for (const r of running) await r.stop();
      await consumerBus.close();
      await bus.close();
      await database.close();
      await dropSchemas(dbUrl, ns);
      await server.stop();
    }
  }, 120_000);
});
