// The memory projection against real Postgres: erasure (ARCHITECTURE.md
// "Personal data, export and erasure", invariant 9) leaves no row of the user,
// another user's intact, and the tables equal to a replay that passes over the
// erased user's (unreadable) events; a memory the user deleted or a correction
// invalidated keeps its key and status but no value, live as on replay.
import { randomUUID } from 'node:crypto';
import { Bus, Topology, type EventType, type ServiceName, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import { memory } from '@hearth/proto';
import { ManualClock } from '@hearth/clock';
import { createLocalEmbedder } from '@hearth/llm';
import { applyEvents, migrateSchema, openDatabase, schemaDb, type Database, type Projection } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import { sql, type Kysely } from 'kysely';
import type { MemoryDb } from '../db.js';
import { createListMemoriesQuery } from '../queries/memories.js';
import { createEmbeddedIndex } from '../vector/embedded.js';
import { service } from '../index.js';
import { memoriesProjection } from './memories.js';

const ns = testNamespace('t_mem_erase');
const topology = new Topology(ns);
let database: Database;
let dbUrl: string;
let bus: Bus;
let schemas = 0;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

beforeAll(async () => {
  dbUrl = await databaseUrl();
  database = await openDatabase({ url: dbUrl });
  // Only for the queries' read-your-writes check: the events here are applied directly.
  bus = await Bus.connect({ url: await natsUrl(), name: 't-mem-erase', namespace: ns, logger: silent });
  await bus.ensureStreams(['memory']);
});

afterAll(async () => {
  await bus.close();
  await database.close();
  await dropSchemas(dbUrl, ns);
  await cleanupNamespace(await natsUrl(), ns);
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
  db: Kysely<MemoryDb>;
}

async function freshSchema(): Promise<Schema> {
  const name = `${ns}_s${++schemas}`;
  await migrateSchema(database, name, service.migrations);
  return { name, db: schemaDb<MemoryDb>(database, name) };
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
async function eraseAndCompare(projection: Projection<MemoryDb>, events: StoredEvent[], gone: string, kept: string): Promise<{ live: Schema; replay: Schema }> {
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

const embedder = createLocalEmbedder({ dimensions: 16, model: 'test-hash-16' });

/** One user's memory history: recorded, confirmed, superseded, forgotten by a correction and over the API. */
async function historyOf(next: ReturnType<typeof streamOf>, userId: string, aiFriendId: string) {
  const ids = { city: randomUUID(), newCity: randomUUID(), job: randomUUID(), food: randomUUID() };
  const [v1, v2, v3, v4] = await embedder.embed(['fact:current_city seoul', 'fact:current_city busan', 'fact:occupation nurse', 'pref:food:sushi like|sushi']);
  const recorded = (memoryId: string, key: string, value: string, embedding: number[], supersedes = '') =>
    next(
      Events.MemoryRecorded,
      memory.MemoryRecorded.fromPartial({ memoryId, aiFriendId, type: 'FACT', memoryKey: key, memoryValue: value, confidence: 0.6, extractor: 'heuristic', sourceMessageId: randomUUID(), supersedes, topicIds: ['WORK_SCHOOL'], embedding, embeddingModel: embedder.model, embeddingText: `${key} ${value}` }),
      userId,
    );
  const events = [
    recorded(ids.city, 'fact:current_city', 'seoul', v1!),
    next(Events.MemoryConfirmed, memory.MemoryConfirmed.fromPartial({ memoryId: ids.city, confidence: 0.75, sourceMessageId: randomUUID() }), userId),
    recorded(ids.newCity, 'fact:current_city', 'busan', v2!, ids.city),
    recorded(ids.job, 'fact:occupation', 'nurse', v3!),
    recorded(ids.food, 'pref:food:sushi', 'like|sushi', v4!),
    next(
      Events.TurnMemoryWritten,
      memory.TurnMemoryWritten.fromPartial({ assistantMessageId: randomUUID(), conversationId: randomUUID(), messageId: randomUUID(), source: 'chat', surfacedMemoryIds: [ids.job], correction: '' }),
      userId,
    ),
    // "forget that" after a reply that surfaced the job, then DELETE /v1/me/memories/{food}
    next(Events.MemoriesInvalidated, memory.MemoriesInvalidated.fromPartial({ memoryIds: [ids.job], suppressedKey: 'fact:occupation', reason: 'forget_that', sourceMessageId: randomUUID() }), userId),
    next(Events.MemoriesInvalidated, memory.MemoriesInvalidated.fromPartial({ memoryIds: [ids.food], suppressedKey: 'pref:food:sushi', reason: 'delete_api' }), userId),
  ];
  return { ids, events };
}

describe('memory projection: erasure and forgotten values', () => {
  it('erases every memory, suppressed key and write-back of the user, and equals a replay without them', async () => {
    // given: two users with the same kind of history, interleaved on the stream
    const a = randomUUID();
    const b = randomUUID();
    const next = streamOf('memory');
    const ha = await historyOf(next, a, randomUUID());
    const hb = await historyOf(next, b, randomUUID());
    const events = ha.events.flatMap((e, i) => [e, hb.events[i]!]);

    // when / then
    await eraseAndCompare(memoriesProjection, events, a, b);
  });

  it('keeps key, status, ids and times of an invalidated memory but not its value or vector; a superseded one keeps both', async () => {
    // given
    const user = randomUUID();
    const aiFriendId = randomUUID();
    const next = streamOf('memory');
    const { ids, events } = await historyOf(next, user, aiFriendId);
    const live = await freshSchema();

    // when
    await applyEvents(live.db, memoriesProjection, events);

    // then: in the projection
    const rows = await live.db.selectFrom('memories').selectAll().where('user_id', '=', user).execute();
    const byId = new Map(rows.map((r) => [r.memory_id, r]));
    for (const id of [ids.job, ids.food]) {
      expect(byId.get(id)).toMatchObject({ status: 'INVALID', memory_value: '', embedding: [] });
    }
    expect(byId.get(ids.job)).toMatchObject({ memory_key: 'fact:occupation', status_reason: 'forget_that', ai_friend_id: aiFriendId, source_message_ids: [expect.any(String)] });
    expect(byId.get(ids.food)).toMatchObject({ memory_key: 'pref:food:sushi', status_reason: 'delete_api' });
    expect(byId.get(ids.city)).toMatchObject({ status: 'SUPERSEDED', memory_value: 'seoul', superseded_by: ids.newCity });
    expect(byId.get(ids.city)!.embedding).toHaveLength(16);
    expect(byId.get(ids.newCity)).toMatchObject({ status: 'ACTIVE', memory_value: 'busan' });
    // No text of a forgotten value anywhere in its row.
    expect(JSON.stringify(byId.get(ids.job))).not.toContain('nurse');
    expect(JSON.stringify(byId.get(ids.food))).not.toContain('like|sushi');

    // and through ListMemories (GET /v1/me/memories?status=all)
    const index = createEmbeddedIndex(live.db, { projection: memoriesProjection.name, subjectOf: (u) => topology.subject('memory', u) });
    const list = createListMemoriesQuery({ bus, db: live.db, clock: new ManualClock(new Date()), index, embedder });
    const reply = memory.ListMemoriesResponse.decode(await list(memory.ListMemoriesRequest.encode({ userId: user, all: true }).finish()));
    const listed = new Map(reply.memories.map((m) => [m.memoryId, m]));
    expect(listed.get(ids.job)).toMatchObject({ status: 'INVALID', memoryKey: 'fact:occupation', memoryValue: '' });
    expect(listed.get(ids.food)).toMatchObject({ status: 'INVALID', memoryValue: '' });
    expect(listed.get(ids.city)).toMatchObject({ status: 'SUPERSEDED', memoryValue: 'seoul' });
    const active = memory.ListMemoriesResponse.decode(await list(memory.ListMemoriesRequest.encode({ userId: user, all: false }).finish()));
    expect(active.memories.map((m) => m.memoryValue)).toEqual(['busan']);
  });
});
