// Erasure in the orchestrator's projections (ARCHITECTURE.md "Personal data, export and
// erasure", invariant 9), against real Postgres: after `erase` no row of the
// user is left while another user's rows are intact, and the tables equal a
// replay that passes over the erased user's (unreadable) events.
import { randomUUID } from 'node:crypto';
import { GLOBAL_KEYS, Topology, type EventType, type ServiceName, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import { ingress, orchestrator } from '@hearth/proto';
import { applyEvents, migrateSchema, openDatabase, schemaDb, type Database, type Projection } from '@hearth/store';
import { databaseUrl, dropSchemas, testNamespace } from '@hearth/testing';
import { sql, type Kysely } from 'kysely';
import type { OrchestratorDb } from '../db.js';
import { capWindow } from '../handlers/assign-persona.js';
import { service } from '../index.js';
import { personasProjection } from './personas.js';
import { profilesProjection } from './profiles.js';
import { turnsProjection } from './turns.js';

const ns = testNamespace('t_orch_erase');
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
  db: Kysely<OrchestratorDb>;
}

async function freshSchema(): Promise<Schema> {
  const name = `${ns}_s${++schemas}`;
  await migrateSchema(database, name, service.migrations);
  return { name, db: schemaDb<OrchestratorDb>(database, name) };
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
async function eraseAndCompare(projection: Projection<OrchestratorDb>, events: StoredEvent[], gone: string, kept: string): Promise<{ live: Schema; replay: Schema }> {
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

describe('orchestrator projections erase a user (invariant 9)', () => {
  const a = randomUUID();
  const b = randomUUID();

  it('profiles: name, age band, zone, controls', async () => {
    const next = streamOf('ingress');
    const events = [a, b].flatMap((u) => [
      next(Events.UserCreated, { userId: u }, u),
      next(Events.OnboardingAnswered, ingress.OnboardingAnswered.fromPartial({ answers: { preferredName: `name-${u}`, ageBand: '25_34', clientTimezone: 'Asia/Seoul' }, aiFriendId: randomUUID() }), u),
      next(Events.ControlsUpdated, ingress.ControlsUpdated.fromPartial({ proactiveMessagesEnabled: false, suppressedTopics: ['ROMANCE'] }), u),
      next(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: randomUUID(), conversationId: randomUUID(), text: 'hi', source: 'chat', activatesUser: true }), u),
    ]);
    await eraseAndCompare(profilesProjection, events, a, b);
  });

  it('turns: every reply (dialogue) and the relationship', async () => {
    const next = streamOf('orchestrator');
    const events = [a, b, a, b].flatMap((u) => {
      const messageId = randomUUID();
      return [
        next(
          Events.TurnCompleted,
          orchestrator.TurnCompleted.fromPartial({
            messageId,
            conversationId: randomUUID(),
            assistantMessageId: randomUUID(),
            userText: `my sister Mina moved to Busan (${u})`,
            assistantText: 'Oh, how is Mina doing?',
            openerNorm: 'oh',
            plan: { userInitiatedTopics: ['FAMILY'] },
          }),
          u,
        ),
        next(Events.RelationshipUpdated, orchestrator.RelationshipUpdated.fromPartial({ aiFriendId: randomUUID(), next: { stage: 'ACQUAINTANCE', rapportScore: 3, sessionsCount: 1 } }), u),
      ];
    });
    await eraseAndCompare(turnsProjection, events, a, b);
  });

  it('personas: the user\'s row on the shared assignment log; the anti-cloning window then counts as replay does', async () => {
    const next = streamOf('orchestrator');
    const assigned = (u: string, archetype: string, total: number) =>
      next(
        Events.PersonaAssigned,
        orchestrator.PersonaAssigned.fromPartial({
          aiFriendId: randomUUID(),
          templateId: `t-${archetype}`,
          coreArchetype: archetype,
          friendEnergy: 'calm',
          humorMode: 'dry',
          stableStyleParams: { msgLengthPref: 'short' },
          personaSeed: 7,
          mutatedCategories: ['humor_mode'],
          windowTotal: total,
          windowComboCount: 0,
        }),
        u,
        GLOBAL_KEYS.personaAssignments,
      );
    const events = [assigned(a, 'sunny', 0), assigned(b, 'sunny', 1), assigned(randomUUID(), 'quiet', 2)];

    // when
    const { live, replay } = await eraseAndCompare(personasProjection, events, a, b);

    // then: the window no longer counts a's assignment, as replay never did
    const now = new Date(events.at(-1)!.occurredAt.getTime() + 60_000);
    const window = await capWindow(live.db, now);
    expect(window).toEqual(await capWindow(replay.db, now));
    expect(window.total).toBe(2);
    expect(window.counts.get('sunny|dry|calm')).toBe(1);
  });
});
