// The memory projection against real Postgres: erasure (ARCHITECTURE.md
// "Personal data, export and erasure", invariant 9) leaves no row of the user,
// another user's intact, and the tables equal to a replay that passes over the
// erased user's (unreadable) events; a memory the user deleted or a correction
// invalidated keeps its key and status but no value, live as on replay.
import { randomUUID } from 'node:crypto';
import { Bus } from '@hearth/bus';
import { Events } from '@hearth/events';
import { memory, uncertainty } from '@hearth/proto';
import { ManualClock } from '@hearth/clock';
import { createLocalEmbedder } from '@hearth/llm';
import { applyEvents, diffTable } from '@hearth/store';
import { cleanupNamespace, natsUrl, openErasureHarness, type ErasureHarness, type StreamWriter } from '@hearth/testing';
import type { Kysely } from 'kysely';
import type { MemoryDb } from '../db.js';
import { createFindMemoriesQuery, createListMemoriesQuery } from '../queries/memories.js';
import { createEmbeddedIndex } from '../vector/embedded.js';
import { service } from '../index.js';
import { memoriesProjection } from './memories.js';

let h: ErasureHarness<MemoryDb>;
let bus: Bus;
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

beforeAll(async () => {
  h = await openErasureHarness('t_mem_erase', service.migrations);
  // Only for the queries' read-your-writes check: the events here are applied directly.
  bus = await Bus.connect({ url: await natsUrl(), name: 't-mem-erase', namespace: h.namespace, logger: silent });
  await bus.ensureStreams(['memory', 'uncertainty']);
});

afterAll(async () => {
  await bus.close();
  await h.close();
  await cleanupNamespace(await natsUrl(), h.namespace);
});

const embedder = createLocalEmbedder({ dimensions: 16, model: 'test-hash-16' });

/** One user's memory history: recorded, confirmed, superseded, forgotten by a correction and over the API. */
async function historyOf(next: StreamWriter, userId: string, aiFriendId: string) {
  const ids = { city: randomUUID(), newCity: randomUUID(), job: randomUUID(), food: randomUUID(), trip: randomUUID() };
  const [v1, v2, v3, v4, v5] = await embedder.embed(['fact:current_city seoul', 'fact:current_city busan', 'fact:occupation nurse', 'pref:food:sushi like|sushi', 'travel event: went to jeju']);
  const recorded = (memoryId: string, key: string, value: string, embedding: number[], supersedes = '', stated: Partial<memory.MemoryRecorded> = {}) =>
    next(
      Events.MemoryRecorded,
      memory.MemoryRecorded.fromPartial({ memoryId, aiFriendId, type: 'FACT', memoryKey: key, memoryValue: value, confidence: 0.6, extractor: 'heuristic', sourceMessageId: randomUUID(), supersedes, topicIds: ['WORK_SCHOOL'], embedding, embeddingModel: embedder.model, embeddingText: `${key} ${value}`, ...stated }),
      userId,
    );
  const events = [
    recorded(ids.city, 'fact:current_city', 'seoul', v1!),
    next(Events.MemoryConfirmed, memory.MemoryConfirmed.fromPartial({ memoryId: ids.city, confidence: 0.75, sourceMessageId: randomUUID() }), userId),
    recorded(ids.newCity, 'fact:current_city', 'busan', v2!, ids.city),
    recorded(ids.job, 'fact:occupation', 'nurse', v3!),
    recorded(ids.food, 'pref:food:sushi', 'like|sushi', v4!, '', { occurredOn: '2026-05-01', occurredPrecision: 'month', occurredText: 'last may' }),
    // An event the user dated ("last May"), told again later: the confirmation keeps the first date.
    recorded(ids.trip, 'event:travel:2026_05:went_to_jeju', 'went to jeju', v5!, '', { type: 'RELATIONSHIP_EVENT', occurredOn: '2026-05-01', occurredPrecision: 'month', occurredText: 'last may' }),
    next(Events.MemoryConfirmed, memory.MemoryConfirmed.fromPartial({ memoryId: ids.trip, confidence: 0.75, sourceMessageId: randomUUID() }), userId),
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

/** The uncertainty service's ReliabilityChanged about one subject (a memory unless told). */
function changed(next: StreamWriter, userId: string, id: string, to: string, kind = 'memory') {
  return next(Events.ReliabilityChanged, uncertainty.ReliabilityChanged.fromPartial({ subject: { kind, id, store: 'trait' }, from: 'reliable', to, reason: 'test', uncertaintyId: randomUUID() }), userId);
}

describe('memory projection: erasure and forgotten values', () => {
  it('erases every memory, suppressed key and write-back of the user, and equals a replay without them', async () => {
    // given: two users with the same kind of history, interleaved on the stream
    const a = randomUUID();
    const b = randomUUID();
    const next = h.streamOf('memory');
    const ha = await historyOf(next, a, randomUUID());
    const hb = await historyOf(next, b, randomUUID());
    const states = h.streamOf('uncertainty');
    const events = [...ha.events.flatMap((e, i) => [e, hb.events[i]!]), changed(states, a, ha.ids.newCity, 'contradicted'), changed(states, b, hb.ids.trip, 'uncertain')];

    // when / then
    await h.eraseAndCompare(memoriesProjection, events, a, b);
  });

  it('keeps key, status, ids and times of an invalidated memory but not its value, vector or stated time; a superseded one keeps them; a confirmed one its first stated time', async () => {
    // given
    const user = randomUUID();
    const aiFriendId = randomUUID();
    const next = h.streamOf('memory');
    const { ids, events } = await historyOf(next, user, aiFriendId);
    const live = await h.freshSchema();

    // when
    await applyEvents(live.db, memoriesProjection, events);

    // then: in the projection
    const rows = await live.db.selectFrom('memories').selectAll().where('user_id', '=', user).execute();
    const byId = new Map(rows.map((r) => [r.memory_id, r]));
    for (const id of [ids.job, ids.food]) {
      expect(byId.get(id)).toMatchObject({ status: 'INVALID', memory_value: '', embedding: [], occurred_on: null, occurred_precision: null, occurred_text: null });
    }
    expect(byId.get(ids.job)).toMatchObject({ memory_key: 'fact:occupation', status_reason: 'forget_that', ai_friend_id: aiFriendId, source_message_ids: [expect.any(String)] });
    expect(byId.get(ids.food)).toMatchObject({ memory_key: 'pref:food:sushi', status_reason: 'delete_api' });
    expect(byId.get(ids.city)).toMatchObject({ status: 'SUPERSEDED', memory_value: 'seoul', superseded_by: ids.newCity });
    expect(byId.get(ids.city)!.embedding).toHaveLength(16);
    expect(byId.get(ids.newCity)).toMatchObject({ status: 'ACTIVE', memory_value: 'busan', occurred_on: null, occurred_precision: null, occurred_text: null });
    expect(byId.get(ids.trip)).toMatchObject({ status: 'ACTIVE', confidence: 0.75, occurred_on: '2026-05-01', occurred_precision: 'month', occurred_text: 'last may' });
    // No text of a forgotten value anywhere in its row, nor the time it told of.
    expect(JSON.stringify(byId.get(ids.job))).not.toContain('nurse');
    expect(JSON.stringify(byId.get(ids.food))).not.toContain('like|sushi');
    expect(JSON.stringify(byId.get(ids.food))).not.toMatch(/last may|2026-05-01/);

    // and through ListMemories (GET /v1/me/memories?status=all)
    const index = createEmbeddedIndex(live.db, { projection: memoriesProjection.name, subjectOf: (u) => h.topology.subject('memory', u) });
    const list = createListMemoriesQuery({ bus, db: live.db, clock: new ManualClock(new Date()), index, embedder });
    const reply = (await list({ userId: user, all: true }));
    const listed = new Map(reply.memories.map((m) => [m.memoryId, m]));
    expect(listed.get(ids.job)).toMatchObject({ status: 'INVALID', memoryKey: 'fact:occupation', memoryValue: '' });
    expect(listed.get(ids.food)).toMatchObject({ status: 'INVALID', memoryValue: '' });
    expect(listed.get(ids.city)).toMatchObject({ status: 'SUPERSEDED', memoryValue: 'seoul', occurredOn: '', occurredPrecision: '' });
    expect(listed.get(ids.trip)).toMatchObject({ status: 'ACTIVE', memoryValue: 'went to jeju', occurredOn: '2026-05-01', occurredPrecision: 'month' });
    expect(listed.get(ids.food)).toMatchObject({ occurredOn: '', occurredPrecision: '' });
    const active = (await list({ userId: user, all: false }));
    expect(active.memories.map((m) => m.memoryValue).sort()).toEqual(['busan', 'went to jeju']);

    // and the snippets the orchestrator reads (FindMemories) carry the stated date
    const find = createFindMemoriesQuery({ bus, db: live.db, clock: new ManualClock(new Date()), index, embedder });
    const found = (await find(memory.FindMemoriesRequest.fromPartial({ userId: user, aiFriendId, readPolicy: 'FULL', limit: 10 })));
    const snippets = new Map(found.memories.map((m) => [m.memoryId, m]));
    expect(snippets.get(ids.trip)).toMatchObject({ memoryValue: 'went to jeju', occurredOn: '2026-05-01', occurredPrecision: 'month' });
    expect(snippets.get(ids.newCity)).toMatchObject({ memoryValue: 'busan', occurredOn: '', occurredPrecision: '' });
  });
});

describe('memory projection: reliability states from the uncertainty stream (issue 17)', () => {
  it("sets the state of the user's own memory, whichever stream is applied first, and passes over another user's, a side not written yet, a belief and an unknown state", async () => {
    // given: a history, and uncertainty's states about it
    const user = randomUUID();
    const stranger = randomUUID();
    const { ids, events } = await historyOf(h.streamOf('memory'), user, randomUUID());
    const next = h.streamOf('uncertainty');
    const states = [
      changed(next, user, ids.newCity, 'contradicted'),
      changed(next, user, ids.trip, 'uncertain'),
      changed(next, user, ids.trip, 'reliable'),
      changed(next, user, ids.city, 'superseded'),
      changed(next, user, '', 'contradicted'),
      changed(next, user, ids.newCity, 'doubtful'),
      changed(next, user, ids.food, 'contradicted', 'belief'),
      changed(next, stranger, ids.job, 'contradicted'),
    ];

    // when: applied memory first (as replay does), and states first (a lagging memory consumer)
    const memoryFirst = await h.freshSchema();
    await applyEvents(memoryFirst.db, memoriesProjection, events);
    await applyEvents(memoryFirst.db, memoriesProjection, states);
    const statesFirst = await h.freshSchema();
    await applyEvents(statesFirst.db, memoriesProjection, states);
    await applyEvents(statesFirst.db, memoriesProjection, events);

    // then
    const stateOf = async (db: Kysely<MemoryDb>) =>
      Object.fromEntries((await db.selectFrom('memories').select(['memory_id', 'reliability']).where('user_id', '=', user).execute()).map((r) => [r.memory_id, r.reliability]));
    expect(await stateOf(memoryFirst.db)).toEqual({ [ids.city]: 'superseded', [ids.newCity]: 'contradicted', [ids.job]: 'reliable', [ids.food]: 'reliable', [ids.trip]: 'reliable' });
    for (const table of memoriesProjection.tables) {
      const d = await diffTable(memoryFirst.db as unknown as Parameters<typeof diffTable>[0], memoryFirst.name, statesFirst.name, table);
      expect({ table, differing: d.onlyLive + d.onlyReplay }).toEqual({ table, differing: 0 });
    }
    // The stranger's chain named the user's memory: kept under the stranger, never applied to it.
    expect(await memoryFirst.db.selectFrom('memory_reliability').select(['user_id', 'memory_id', 'reliability']).where('user_id', '=', stranger).execute()).toEqual([
      { user_id: stranger, memory_id: ids.job, reliability: 'contradicted' },
    ]);
  });
});
