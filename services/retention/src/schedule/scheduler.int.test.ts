// Retention against real NATS and Postgres (turn-pipeline §14): user events
// appended as ingress and the orchestrator would, the projection and the
// acknowledge reactor running live, a stand-in orchestrator that delivers each
// planned message, and the hourly evaluation driven on a manual clock.
import { randomUUID } from 'node:crypto';
import { appendDecided, Bus, draft, payloadOf, serveQueries, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { Events } from '@hearth/events';
import { ingress, orchestrator, retention } from '@hearth/proto';
import { migrateSchema, openDatabase, replayProjection, schemaDb, startProjection, startReactor, type Database, type Reactor } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import type { Logger } from '@hearth/telemetry';
import type { RetentionDb } from '../db.js';
import { createAcknowledgeReactor } from '../handlers/acknowledge.js';
import { service } from '../index.js';
import { retentionProjection } from '../projections/retention.js';
import { queryClients } from '@hearth/events';
import { createGetRetentionQuery } from '../queries/get-retention.js';
import { evaluateDueHours, startScheduler } from './scheduler.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined } as unknown as Logger;
const HOUR = 3_600_000;
// Seoul is UTC+9 with no DST: 10:00–21:00 local is 01:00–12:00 UTC.
const START = new Date('2026-06-01T00:00:00Z');

async function startRetention(label: string) {
  const ns = testNamespace(label);
  const clock = new ManualClock(START);
  const dbUrl = await databaseUrl();
  const nats = await natsUrl();
  const database: Database = await openDatabase({ url: dbUrl });
  const schema = `${ns}_retention`;
  await migrateSchema(database, schema, service.migrations);
  const db = schemaDb<RetentionDb>(database, schema);
  const bus = await Bus.connect({ url: nats, name: `${label}-ret`, namespace: ns, logger: silent });
  await bus.ensureStreams(['ingress', 'orchestrator', 'retention']);
  await serveQueries(bus, retention.RetentionQueriesDefinition, { GetRetention: createGetRetentionQuery(db) });
  // The orchestrator's part, reduced to delivering every plan at its hour.
  const deliver: Reactor = {
    name: 'test-deliver',
    sources: ['retention'],
    async react(e: StoredEvent) {
      if (e.type !== Events.RetentionPlanned.name) return;
      const p = payloadOf(e, Events.RetentionPlanned);
      await appendDecided(bus, 'orchestrator', e.userId, () => [
        draft(
          Events.TurnCompleted,
          orchestrator.TurnCompleted.fromPartial({ messageId: p.retentionId, assistantMessageId: p.notificationId, conversationId: p.conversationId, source: 'retention', retentionId: p.retentionId, assistantText: 'Hey, how is your week going?' }),
          { id: `deliver-${p.retentionId}`, userId: e.userId, occurredAt: e.occurredAt, correlationId: p.retentionId },
        ),
      ]);
    },
  };
  const running: RunningConsumer[] = [
    ...(await startProjection(bus, db, 'retention', retentionProjection)),
    ...(await startReactor(bus, db, 'retention', createAcknowledgeReactor({ bus, db }))),
    ...(await startReactor(bus, db, 'orchestrator', deliver)),
  ];

  async function append(svc: 'ingress' | 'orchestrator', userId: string, d: ReturnType<typeof draft>): Promise<void> {
    await appendDecided(bus, svc, userId, () => [d]);
  }
  const meta = (userId: string) => ({ id: randomUUID(), userId, occurredAt: clock.now() });

  /** A user onboarded in `timezone` who sends one message now and is at `stage`. */
  async function activeUser(opts: { stage?: string; timezone?: string; proactive?: boolean } = {}) {
    const userId = randomUUID();
    const conversationId = randomUUID();
    await append(
      'ingress',
      userId,
      draft(
        Events.OnboardingAnswered,
        ingress.OnboardingAnswered.fromPartial({ answers: { clientTimezone: opts.timezone ?? 'Asia/Seoul', proactiveMessagesEnabled: opts.proactive ?? true }, aiFriendId: randomUUID() }),
        meta(userId),
      ),
    );
    await say(userId, conversationId, true);
    await append(
      'orchestrator',
      userId,
      draft(Events.RelationshipUpdated, orchestrator.RelationshipUpdated.fromPartial({ next: { stage: opts.stage ?? 'FRIEND' } }), meta(userId)),
    );
    return { userId, conversationId };
  }

  async function say(userId: string, conversationId: string, activates = false): Promise<string> {
    const messageId = randomUUID();
    await append(
      'ingress',
      userId,
      draft(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId, conversationId, text: 'hi', source: 'chat', userState: activates ? 'ONBOARDING' : 'ACTIVE', activatesUser: activates }), meta(userId)),
    );
    return messageId;
  }

  async function events(userId: string, type?: string): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    for await (const e of bus.read('retention', { key: userId })) if (!type || e.type === type) out.push(e);
    return out;
  }

  /** Moves the clock and evaluates every hour due, once the projection holds what came before. */
  async function advance(hours: number): Promise<void> {
    clock.advance(hours * HOUR);
    await evaluateDueHours({ bus, db, clock, logger: silent }, { replica: 'test' });
  }

  const plannedSlots = async (userId: string) => (await events(userId, Events.RetentionPlanned.name)).map((e) => e.occurredAt.toISOString());

  return {
    ns,
    bus,
    db,
    clock,
    database,
    schema,
    activeUser,
    say,
    events,
    advance,
    plannedSlots,
    append,
    meta,
    queries: queryClients(bus).retention,
    async stop() {
      await Promise.all(running.map((c) => c.stop()));
      await bus.close();
      await database.close();
      await dropSchemas(dbUrl, ns);
      await cleanupNamespace(nats, ns);
    },
  };
}

describe('retention scheduling on the clock (turn-pipeline §14)', () => {
  let r: Awaited<ReturnType<typeof startRetention>>;

  beforeAll(async () => {
    r = await startRetention('t_ret_sched');
  });

  afterAll(async () => {
    await r?.stop();
  });

  it('catches up every skipped hour: a silent FRIEND hears once at 10:00 local, is ignored, and the wait doubles', async () => {
    // given a FRIEND who last wrote at 09:00 in Seoul on 1 June
    const { userId } = await r.activeUser();

    // when the clock jumps three days at once
    await r.advance(72);

    // then the first message went out 24 h after the last one, at the first 10:00 local after
    expect(await r.plannedSlots(userId)).toEqual(['2026-06-02T01:00:00.000Z']);
    const ignored = await r.events(userId, Events.RetentionIgnored.name);
    expect(ignored.map((e) => [e.occurredAt.toISOString(), Events.RetentionIgnored.decode(e.payload).backoffMultiplier])).toEqual([['2026-06-03T01:00:00.000Z', 2]]);
    // and after the ignore the wait is 48 h, not 24 h
    await r.advance(2);
    expect(await r.plannedSlots(userId)).toEqual(['2026-06-02T01:00:00.000Z', '2026-06-04T01:00:00.000Z']);
    const planned = Events.RetentionPlanned.decode((await r.events(userId, Events.RetentionPlanned.name))[1]!.payload);
    expect(planned.eligibility).toMatchObject({ stage: 'FRIEND', timezone: 'Asia/Seoul', localTime: '10:00', minInactiveHours: 48, backoffMultiplier: 2, cap: 1, capWindowHours: 24 });
    // each hour was evaluated exactly once
    const row = await r.db.selectFrom('schedule').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(Number(row.evaluations)).toBe(74);
    expect(row.evaluated_through?.toISOString()).toBe('2026-06-04T02:00:00.000Z');
  });

  it('an app open naming the notification acknowledges it: no backoff, the next comes 24 h later', async () => {
    // given a FRIEND who heard from the friend at 10:00 local
    const { userId } = await r.activeUser();
    await r.advance(26);
    const [plan] = await r.events(userId, Events.RetentionPlanned.name);
    const p = Events.RetentionPlanned.decode(plan!.payload);

    // when the app is opened from that notification an hour later
    await r.append('ingress', userId, draft(Events.AppOpened, ingress.AppOpened.fromPartial({ appOpenId: randomUUID(), openedNotificationId: p.notificationId }), r.meta(userId)));
    const ack = await waitFor(async () => (await r.events(userId, Events.RetentionAcknowledged.name))[0], { timeoutMs: 10_000, what: 'the acknowledgement' });

    // then it is acknowledged by rule C1, and the next message waits only 24 h
    expect(Events.RetentionAcknowledged.decode(ack.payload)).toMatchObject({ retentionId: p.retentionId, via: 'app_open_notification' });
    const attributed = (await r.events(userId, Events.AppOpenAttributed.name)).map((e) => Events.AppOpenAttributed.decode(e.payload));
    expect(attributed).toMatchObject([{ rule: 'notification', retentionId: p.retentionId }]);
    await r.advance(48);
    const slots = await r.plannedSlots(userId);
    expect(slots).toHaveLength(2);
    expect(Date.parse(slots[1]!) - Date.parse(slots[0]!)).toBe(24 * HOUR);
    // the second went unanswered: ignored 24 h after it, and nothing more since
    const ignored = (await r.events(userId, Events.RetentionIgnored.name)).map((e) => Events.RetentionIgnored.decode(e.payload));
    expect(ignored).toMatchObject([{ backoffMultiplier: 2 }]);
    expect(Events.RetentionPlanned.decode((await r.events(userId, Events.RetentionPlanned.name))[1]!.payload).eligibility).toMatchObject({ backoffMultiplier: 1, minInactiveHours: 24 });
  });

  it('a reply in the conversation within 24 h acknowledges; an app open with no id goes to the single recent message', async () => {
    // given two FRIENDs who each got a message at the same hour
    const a = await r.activeUser();
    const b = await r.activeUser();
    await r.advance(26);

    // when one replies and the other opens the app without a notification id
    await r.say(a.userId, a.conversationId);
    await r.append('ingress', b.userId, draft(Events.AppOpened, ingress.AppOpened.fromPartial({ appOpenId: randomUUID() }), r.meta(b.userId)));

    // then both are acknowledged, by rule A and rule C2
    const via = async (userId: string) =>
      Events.RetentionAcknowledged.decode((await waitFor(async () => (await r.events(userId, Events.RetentionAcknowledged.name))[0], { timeoutMs: 10_000, what: 'an acknowledgement' })).payload).via;
    expect(await via(a.userId)).toBe('reply');
    expect(await via(b.userId)).toBe('app_open_single');
    // The query answers from the projection, which applies the acknowledgement a moment after it is appended.
    const state = await waitFor(async () => {
      const got = await r.queries.GetRetention({ userId: b.userId });
      return got.messages[0]?.outcome === 'acknowledged' ? got : undefined;
    }, { timeoutMs: 10_000, what: 'the acknowledgement in GetRetention' });
    expect(state.messages[0]).toMatchObject({ status: 'delivered', outcome: 'acknowledged', acknowledgedVia: 'app_open_single' });
  });

  it('proactive off or a mute stops everything; STRANGER never hears; ACQUAINTANCE at most once in 3 days', async () => {
    // given users who turned proactive off, muted for a week, a STRANGER and an ACQUAINTANCE
    const off = await r.activeUser({ proactive: false });
    const muted = await r.activeUser();
    await r.append('ingress', muted.userId, draft(Events.ControlsUpdated, ingress.ControlsUpdated.fromPartial({ proactiveMessagesEnabled: true, muteUntil: new Date(r.clock.now().getTime() + 7 * 24 * HOUR), via: 'api' }), r.meta(muted.userId)));
    const stranger = await r.activeUser({ stage: 'STRANGER' });
    const acquaintance = await r.activeUser({ stage: 'ACQUAINTANCE' });

    // when ten days pass
    await r.advance(240);

    // then
    expect(await r.plannedSlots(off.userId)).toEqual([]);
    expect(await r.plannedSlots(stranger.userId)).toEqual([]);
    const mutedSlots = await r.plannedSlots(muted.userId);
    expect(mutedSlots.length).toBeGreaterThan(0);
    expect(Date.parse(mutedSlots[0]!)).toBeGreaterThan(r.clock.now().getTime() - 3 * 24 * HOUR);
    const slots = (await r.plannedSlots(acquaintance.userId)).map(Date.parse);
    expect(slots.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < slots.length; i++) expect(slots[i]! - slots[i - 1]!).toBeGreaterThanOrEqual(72 * HOUR);
    for (const t of slots) expect(new Date(t).getUTCHours()).toBeLessThan(12);
  });

  it('replays into an empty schema with the same rows', async () => {
    const report = await replayProjection({ bus: r.bus, database: r.database, service: 'retention', schema: r.schema, projection: retentionProjection, migrations: service.migrations });
    expect(report.events).toBeGreaterThan(0);
    expect(report.equal).toBe(true);
  });
});

describe('retention with several replicas (ARCHITECTURE invariant 6)', () => {
  let r: Awaited<ReturnType<typeof startRetention>>;

  beforeAll(async () => {
    r = await startRetention('t_ret_replicas');
  });

  afterAll(async () => {
    await r?.stop();
  });

  it('evaluates each user once per hour when three replicas run at once', async () => {
    // given more users than one lease batch
    const users = [];
    for (let i = 0; i < 40; i++) users.push(await r.activeUser());

    // when three scheduler loops run while the clock jumps two days
    r.clock.advance(48 * HOUR);
    const loops = ['a', 'b', 'c'].map((replica) => startScheduler({ bus: r.bus, db: r.db, clock: r.clock, logger: silent, pollMs: 50, replica }));
    await waitFor(
      async () => {
        const behind = await r.db.selectFrom('schedule').select('user_id').where('evaluated_through', '<', new Date('2026-06-03T00:00:00Z')).execute();
        return behind.length === 0 ? true : undefined;
      },
      { timeoutMs: 60_000, what: 'every user evaluated through the current hour' },
    );
    await Promise.all(loops.map((l) => l.stop()));

    // then every user-hour was evaluated once, and each user got exactly its one message
    const rows = await r.db.selectFrom('schedule').selectAll().execute();
    expect(rows.map((x) => Number(x.evaluations))).toEqual(users.map(() => 48));
    for (const u of users) expect(await r.plannedSlots(u.userId)).toEqual(['2026-06-02T01:00:00.000Z']);
  });
});

describe('retention across a restart (ARCHITECTURE invariant 7)', () => {
  let r: Awaited<ReturnType<typeof startRetention>>;

  beforeAll(async () => {
    r = await startRetention('t_ret_restart');
  });

  afterAll(async () => {
    await r?.stop();
  });

  it('a scheduler stopped mid catch-up hands over: every user-hour evaluated once, the same messages as one run', async () => {
    // given silent FRIENDs and ten days to catch up
    const users = [];
    for (let i = 0; i < 30; i++) users.push(await r.activeUser());
    r.clock.advance(240 * HOUR);

    // when one replica starts, is stopped part-way, and another takes over
    const first = startScheduler({ bus: r.bus, db: r.db, clock: r.clock, logger: silent, pollMs: 50, replica: 'first' });
    await waitFor(async () => ((await r.db.selectFrom('schedule').select('user_id').where('evaluated_through', '=', new Date('2026-06-11T00:00:00Z')).execute()).length > 0 ? true : undefined), {
      timeoutMs: 30_000,
      what: 'the first replica to finish a user',
    });
    await first.stop();
    const doneByFirst = (await r.db.selectFrom('schedule').select('user_id').where('evaluated_through', '=', new Date('2026-06-11T00:00:00Z')).execute()).length;
    const second = startScheduler({ bus: r.bus, db: r.db, clock: r.clock, logger: silent, pollMs: 50, replica: 'second' });
    await waitFor(async () => ((await r.db.selectFrom('schedule').select('user_id').where('evaluated_through', '<', new Date('2026-06-11T00:00:00Z')).execute()).length === 0 ? true : undefined), {
      timeoutMs: 60_000,
      what: 'the second replica to catch up the rest',
    });
    await second.stop();

    // then the hand-over lost and repeated nothing: 1 June 09:00 KST + 24 h, then 48 h and 96 h after ignores
    expect(doneByFirst).toBeLessThan(users.length);
    const rows = await r.db.selectFrom('schedule').selectAll().execute();
    expect(rows.map((x) => [Number(x.evaluations), x.claimed_by])).toEqual(users.map(() => [240, null]));
    for (const u of users) expect(await r.plannedSlots(u.userId)).toEqual(['2026-06-02T01:00:00.000Z', '2026-06-04T01:00:00.000Z', '2026-06-08T01:00:00.000Z']);
  });
});

describe('retention when one user cannot be evaluated', () => {
  let r: Awaited<ReturnType<typeof startRetention>>;

  beforeAll(async () => {
    r = await startRetention('t_ret_skip');
  });

  afterAll(async () => {
    await r?.stop();
  });

  it('logs and skips that user, serves the users after it, and tries it again at the next pass', async () => {
    // given three silent FRIENDs, the first in lease order with a row that cannot be read for now
    const users = [await r.activeUser(), await r.activeUser(), await r.activeUser()];
    const bad = users.map((u) => u.userId).sort()[0]!;
    let broken = true;
    const db = r.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        // The users row (the one with a timezone) of the bad user: as if it held data the code chokes on.
        if (broken && args.result.rows.some((row) => row.user_id === bad && 'timezone' in row)) return Promise.reject(new Error('corrupt user row'));
        return Promise.resolve(args.result);
      },
    });
    const errors: Record<string, unknown>[] = [];
    const logger = { ...silent, error: (obj: Record<string, unknown>) => errors.push(obj) } as unknown as Logger;

    // when a pass runs 26 hours later
    r.clock.advance(26 * HOUR);
    const first = await evaluateDueHours({ bus: r.bus, db, clock: r.clock, logger }, { replica: 'test' });

    // then the others got their message, and the bad user is logged, released and not yet evaluated
    expect(first).toMatchObject({ users: 2, skipped: 1, planned: 2 });
    expect(errors).toEqual([expect.objectContaining({ userId: bad, err: expect.objectContaining({ message: 'corrupt user row' }) })]);
    for (const u of users.filter((x) => x.userId !== bad)) expect(await r.plannedSlots(u.userId)).toEqual(['2026-06-02T01:00:00.000Z']);
    expect(await r.plannedSlots(bad)).toEqual([]);
    const row = await r.db.selectFrom('schedule').selectAll().where('user_id', '=', bad).executeTakeFirstOrThrow();
    expect(row.claimed_by).toBeNull();
    expect(row.evaluated_through!.getTime()).toBeLessThan(Date.parse('2026-06-02T02:00:00Z'));

    // when the next pass finds the row readable again
    broken = false;
    const next = await evaluateDueHours({ bus: r.bus, db, clock: r.clock, logger }, { replica: 'test' });

    // then the bad user is caught up, hour by hour, with the message it would have had
    expect(next).toMatchObject({ users: 1, skipped: 0 });
    expect(await r.plannedSlots(bad)).toEqual(['2026-06-02T01:00:00.000Z']);
  });
});

describe('GetRetention', () => {
  it('answers found = false for a user retention has not seen', async () => {
    const r = await startRetention('t_ret_query');
    try {
      expect(await r.queries.GetRetention({ userId: randomUUID() })).toMatchObject({ found: false, messages: [] });
      await expect(r.queries.GetRetention({ userId: 'not-a-uuid' })).rejects.toThrow(/uuid/);
    } finally {
      await r.stop();
    }
  });
});

