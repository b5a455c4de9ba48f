// Erasure in retention's projection (ARCHITECTURE.md "Personal data, export and
// erasure", invariant 9), against real Postgres: after `erase` no row of the
// user is left while another user's rows are intact, and the tables equal a
// replay that passes over the erased user's (unreadable) events.
import { randomUUID } from 'node:crypto';
import { Topology, type EventType, type ServiceName, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import { ingress, orchestrator, retention } from '@hearth/proto';
import { applyEvents, migrateSchema, openDatabase, schemaDb, type Database, type Projection } from '@hearth/store';
import { databaseUrl, dropSchemas, testNamespace } from '@hearth/testing';
import { sql, type Kysely } from 'kysely';
import type { RetentionDb } from '../db.js';
import { service } from '../index.js';
import { retentionProjection } from './retention.js';

const ns = testNamespace('t_ret_erase');
const topology = new Topology(ns);
let database: Database;
let dbUrl: string;
let schemas = 0;

beforeAll(async () => {
  dbUrl = await databaseUrl();
  database = await openDatabase({ url: dbUrl });
});

afterAll(async () => {
  await database.close();
  await dropSchemas(dbUrl, ns);
});

/** Events as a stream holds them: each subject a chain, each event naming its predecessor's sequence. */
function streamOf(svc: ServiceName) {
  let seq = 0;
  const last = new Map<string, number>();
  let at = Date.UTC(2026, 10, 24, 9);
  return <T>(type: EventType<T>, value: T, userId: string, key: string = userId): StoredEvent => {
    const subject = topology.subject(svc, key);
    const prevSeq = last.get(subject) ?? 0;
    last.set(subject, ++seq);
    at += 60_000;
    return {
      ...{ id: randomUUID(), type: type.name, userId, occurredAt: new Date(at), causationId: '', correlationId: '', schemaVersion: 1 },
      ...{ payload: type.encode(value), service: svc, stream: topology.stream(svc), subject, seq, prevSeq, raw: new Uint8Array(0), keyGeneration: 0, erased: false },
    };
  };
}

interface Schema {
  name: string;
  db: Kysely<RetentionDb>;
}

async function freshSchema(): Promise<Schema> {
  const name = `${ns}_s${++schemas}`;
  await migrateSchema(database, name, service.migrations);
  return { name, db: schemaDb<RetentionDb>(database, name) };
}

const rowsOf = async (s: Schema, table: string, userId: string): Promise<number> =>
  Number(((await sql`select count(*) as n from ${sql.table(`${s.name}.${table}`)} where user_id::text = ${userId}`.execute(s.db)).rows[0] as { n: string }).n);

/** Rows one schema has that the other has not, both ways (replay's own comparison). */
async function differing(a: Schema, b: Schema, table: string): Promise<number> {
  const [ta, tb] = [sql.table(`${a.name}.${table}`), sql.table(`${b.name}.${table}`)];
  const q = sql`select (select count(*) from (select * from ${ta} except all select * from ${tb}) x) + (select count(*) from (select * from ${tb} except all select * from ${ta}) y) as n`;
  return Number(((await q.execute(a.db)).rows[0] as { n: string }).n);
}

/**
 * Applies `events` live, erases `gone`, and checks: none of its rows left in
 * any table, `kept`'s untouched, and the tables equal to a replay that passes
 * over `gone`'s events.
 */
async function eraseAndCompare(projection: Projection<RetentionDb>, events: StoredEvent[], gone: string, kept: string): Promise<{ live: Schema; replay: Schema }> {
  const live = await freshSchema();
  const replay = await freshSchema();
  for (const source of projection.sources) {
    const { outcomes } = await applyEvents(live.db, projection, events.filter((e) => e.service === source));
    expect(outcomes.every((o) => o.kind === 'ack')).toBe(true);
  }
  const before: Record<string, number> = {};
  for (const table of projection.tables) {
    // Both users have rows in every table: the erasure has something to remove, and something to keep.
    expect(await rowsOf(live, table, gone)).toBeGreaterThan(0);
    before[table] = await rowsOf(live, table, kept);
    expect(before[table]).toBeGreaterThan(0);
  }

  await live.db.transaction().execute((trx) => projection.erase(trx, gone));
  for (const source of projection.sources) {
    await applyEvents(replay.db, projection, events.filter((e) => e.service === source), { skip: (e) => e.userId === gone });
  }

  for (const table of projection.tables) {
    expect({ table, rows: await rowsOf(live, table, gone) }).toEqual({ table, rows: 0 });
    expect({ table, rows: await rowsOf(live, table, kept) }).toEqual({ table, rows: before[table] });
    expect({ table, differing: await differing(live, replay, table) }).toEqual({ table, differing: 0 });
  }
  return { live, replay };
}

describe('retention projection erases a user (invariant 9)', () => {
  it('users, every proactive message and the scheduler\'s row', async () => {
    // given: two users onboarded, chatting, each with proactive messages planned, delivered, declined, answered, ignored
    const a = randomUUID();
    const b = randomUUID();
    const fromIngress = streamOf('ingress');
    const fromOrchestrator = streamOf('orchestrator');
    const fromRetention = streamOf('retention');
    const events = [a, b].flatMap((u) => {
      const conversationId = randomUUID();
      const [sent, declined, ignored] = [randomUUID(), randomUUID(), randomUUID()];
      const planned = (id: string) => fromRetention(Events.RetentionPlanned, retention.RetentionPlanned.fromPartial({ retentionId: id, notificationId: randomUUID(), conversationId, aiFriendId: randomUUID() }), u);
      return [
        fromIngress(Events.OnboardingAnswered, ingress.OnboardingAnswered.fromPartial({ answers: { clientTimezone: 'Asia/Seoul', proactiveMessagesEnabled: true }, aiFriendId: randomUUID() }), u),
        fromIngress(Events.ControlsUpdated, ingress.ControlsUpdated.fromPartial({ proactiveMessagesEnabled: true, muteUntil: new Date('2026-12-01T00:00:00Z') }), u),
        fromIngress(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: randomUUID(), conversationId, text: 'hi', source: 'chat', userState: 'ONBOARDING', activatesUser: true, clientTimezone: 'Europe/Paris' }), u),
        fromOrchestrator(Events.RelationshipUpdated, orchestrator.RelationshipUpdated.fromPartial({ next: { stage: 'FRIEND' } }), u),
        planned(sent),
        planned(declined),
        planned(ignored),
        fromOrchestrator(Events.TurnCompleted, orchestrator.TurnCompleted.fromPartial({ messageId: sent, conversationId, assistantMessageId: randomUUID(), source: 'retention', retentionId: sent, assistantText: 'How was Paris?' }), u),
        fromOrchestrator(Events.RetentionDeclined, orchestrator.RetentionDeclined.fromPartial({ retentionId: declined, conversationId, reason: 'gate' }), u),
        fromRetention(Events.RetentionAcknowledged, retention.RetentionAcknowledged.fromPartial({ retentionId: sent, via: 'reply' }), u),
        fromRetention(Events.RetentionIgnored, retention.RetentionIgnored.fromPartial({ retentionId: ignored, backoffMultiplier: 2 }), u),
      ];
    });

    // when
    const { live } = await eraseAndCompare(retentionProjection, events, a, b);

    // then: the scheduler will not lease the erased user again; the other one still is
    const scheduled = await live.db.selectFrom('schedule').select('user_id').execute();
    expect(scheduled.map((r) => r.user_id)).toEqual([b]);
  });
});
