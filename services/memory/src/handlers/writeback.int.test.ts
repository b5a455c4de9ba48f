// Memory's write-back and queries against real NATS and Postgres (turn-pipeline
// §12–§13): TurnCompleted events appended as the orchestrator would, the
// writeback reactor and the projection running live, the queries over the bus.
import { randomUUID } from 'node:crypto';
import { Bus, draft, serveQueries, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { deriveId, Events, type TurnMemoryWritten } from '@hearth/events';
import { createChatClient, createLocalEmbedder, startLlmStub, type LlmStub } from '@hearth/llm';
import { memory, orchestrator } from '@hearth/proto';
import { migrateSchema, openDatabase, replayProjection, schemaDb, startProjection, startReactor, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { createLlmExtractor, createOfflineExtractor } from '../adapters/llm-extractor.js';
import { LOCAL_EMBEDDING } from '../config.js';
import type { MemoryDb } from '../db.js';
import { service } from '../index.js';
import { memoriesProjection } from '../projections/memories.js';
import { queryClients } from '@hearth/events';
import {
  createFindMemoriesQuery,
  createInvalidateMemoryQuery,
  createListMemoriesQuery,
  createSearchMemoriesQuery,
} from '../queries/memories.js';
import { createLexicalIndex } from '../lexical/index.js';
import { createEmbeddedIndex } from '../vector/embedded.js';
import { createWritebackReactor } from './writeback.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const CONVERSATION = '00000000-0000-4000-8000-00000000000a';

/** One memory service (projection, writeback, queries) in its own namespace. */
async function startMemory(label: string, opts: { stub?: LlmStub } = {}) {
  const ns = testNamespace(label);
  const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
  const dbUrl = await databaseUrl();
  const nats = await natsUrl();
  const database: Database = await openDatabase({ url: dbUrl });
  const schema = `${ns}_memory`;
  await migrateSchema(database, schema, service.migrations);
  const db = schemaDb<MemoryDb>(database, schema);
  const bus = await Bus.connect({ url: nats, name: `${label}-mem`, namespace: ns, logger: silent });
  await bus.ensureStreams(['orchestrator', 'memory', 'uncertainty']);
  const embedder = createLocalEmbedder({ dimensions: LOCAL_EMBEDDING.dimensions, model: LOCAL_EMBEDDING.model });
  const extractor = opts.stub
    ? createLlmExtractor(createChatClient({ baseUrl: opts.stub.url, apiKey: null, model: 'stub-model', timeoutMs: 5_000, maxRetries: 0, temperature: 0 }))
    : createOfflineExtractor();
  const index = createEmbeddedIndex(db, { projection: memoriesProjection.name, subjectOf: (u) => bus.topology.subject('memory', u) });
  const queryDeps = { bus, db, clock, index, embedder };
  await serveQueries(bus, memory.MemoryQueriesDefinition, {
    FindMemories: createFindMemoriesQuery(queryDeps),
    SearchMemories: createSearchMemoriesQuery(queryDeps),
    ListMemories: createListMemoriesQuery(queryDeps),
    InvalidateMemory: createInvalidateMemoryQuery(queryDeps),
  });
  const reactor = createWritebackReactor({ bus, db, clock, extractor, embedder });
  const running: RunningConsumer[] = [
    ...(await startProjection(bus, db, 'memory', memoriesProjection)),
    ...(await startReactor(bus, db, 'memory', reactor)),
  ];
  // What ingress asks, through the generated client.
  const client = queryClients(bus).memory;
  const queries = {
    list: async (userId: string, all: boolean) => (await client.ListMemories({ userId, all })).memories,
    invalidate: async (userId: string, memoryId: string) => {
      const res = await client.InvalidateMemory({ userId, memoryId });
      return res.found && res.memory ? res.memory : null;
    },
  };

  type TurnOptions = { surfaced?: string[]; source?: string; writePolicy?: string; valence?: number; assistantText?: string };

  /** Appends a TurnCompleted as the orchestrator would; returns its user message id. */
  async function appendTurn(user: { userId: string; aiFriendId: string }, text: string, over: TurnOptions = {}): Promise<string> {
    const messageId = randomUUID();
    const last = await bus.lastOnSubject('orchestrator', user.userId);
    const completed: orchestrator.DeepPartial<orchestrator.TurnCompleted> = {
      messageId,
      conversationId: CONVERSATION,
      aiFriendId: user.aiFriendId,
      assistantMessageId: deriveId('test', 'assistant', messageId),
      assistantText: over.assistantText ?? 'Oh nice, tell me more.',
      surfacedMemoryIds: over.surfaced ?? [],
      source: over.source ?? 'chat',
      userText: over.source === 'retention' ? '' : text,
      routing: { memoryWritePolicy: over.writePolicy ?? 'SELECTIVE' },
      emotion: { valence: over.valence ?? 0, intensity: Math.abs(over.valence ?? 0), tags: [] },
    };
    clock.advance(60_000);
    await bus.append(
      'orchestrator',
      user.userId,
      [draft(Events.TurnCompleted, orchestrator.TurnCompleted.fromPartial(completed), { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), correlationId: messageId })],
      last?.seq ?? 0,
    );
    return messageId;
  }

  /** Appends a TurnCompleted and waits for memory's TurnMemoryWritten. */
  async function turn(
    user: { userId: string; aiFriendId: string },
    text: string,
    over: TurnOptions = {},
  ): Promise<{ written: TurnMemoryWritten; event: StoredEvent; messageId: string }> {
    const messageId = await appendTurn(user, text, over);
    const event = await waitFor(
      async () => {
        for await (const e of bus.read('memory', { key: user.userId })) {
          if (e.type === Events.TurnMemoryWritten.name && Events.TurnMemoryWritten.decode(e.payload).messageId === messageId) return e;
        }
        return undefined;
      },
      { timeoutMs: 20_000, what: `memory's write-back of "${text}"` },
    );
    // Queries read the projection: let it apply the turn first.
    await waitFor(async () => ((await db.selectFrom('memory_turns').select('message_id').where('message_id', '=', messageId).executeTakeFirst()) ? true : undefined), {
      timeoutMs: 10_000,
      what: 'the projection',
    });
    return { written: Events.TurnMemoryWritten.decode(event.payload), event, messageId };
  }

  async function find(user: { userId: string; aiFriendId: string }, afterMessageId = ''): Promise<memory.MemorySnippet[]> {
    return (await client.FindMemories(memory.FindMemoriesRequest.fromPartial({ ...user, readPolicy: 'FULL', limit: 50, afterMessageId, queryText: '' }))).memories;
  }

  async function search(user: { userId: string; aiFriendId: string }, queryText: string, topK = 4): Promise<memory.MemorySnippet[]> {
    return (await client.SearchMemories({ ...user, queryText, topK, afterMessageId: '' })).memories;
  }

  return {
    ns,
    client,
    bus,
    db,
    clock,
    database,
    schema,
    reactor,
    queries,
    appendTurn,
    turn,
    find,
    search,
    newUser: () => ({ userId: randomUUID(), aiFriendId: randomUUID() }),
    async memoryEvents(userId: string): Promise<StoredEvent[]> {
      const out: StoredEvent[] = [];
      for await (const e of bus.read('memory', { key: userId })) out.push(e);
      return out;
    },
    async stop() {
      await Promise.all(running.map((c) => c.stop()));
      await bus.close();
      await database.close();
      await dropSchemas(dbUrl, ns);
      await cleanupNamespace(nats, ns);
    },
  };
}

describe('memory write-back (turn-pipeline §12) and retrieval (§13)', () => {
  let m: Awaited<ReturnType<typeof startMemory>>;

  beforeAll(async () => {
    m = await startMemory('t_mem_writeback');
  });

  afterAll(async () => {
    await m.stop();
  });

  it('records a fact at 0.60, confirms it at 0.75, and a new value supersedes it', async () => {
    // given
    const user = m.newUser();

    // when
    const first = await m.turn(user, 'I live in Seoul');
    const again = await m.turn(user, 'I live in Seoul');
    const moved = await m.turn(user, 'Actually I live in Busan, not Seoul');

    // then
    expect(first.written.candidates).toEqual([expect.objectContaining({ memoryKey: 'fact:current_city', memoryValue: 'seoul', outcome: 'recorded' })]);
    expect(again.written.candidates[0]).toMatchObject({ outcome: 'confirmed', memoryId: first.written.extractedMemoryCandidateIds[0] });
    expect(moved.written).toMatchObject({ correction: 'correct_fact' });
    const all = await m.queries.list(user.userId, true);
    const seoul = all.find((r) => r.memoryValue === 'seoul')!;
    const busan = all.find((r) => r.memoryValue === 'busan')!;
    expect(seoul).toMatchObject({ status: 'SUPERSEDED', supersededBy: busan.memoryId, confidence: 0.75 });
    expect(seoul.sourceMessageIds).toEqual([first.messageId, again.messageId]);
    expect(busan).toMatchObject({ status: 'ACTIVE', memoryKey: 'fact:current_city', confidence: 0.6, sourceMessageIds: [moved.messageId] });
    expect(moved.written.extractedMemoryCandidateIds.sort()).toEqual([busan.memoryId, seoul.memoryId].sort());
    // No suppression for a FACT correction (§12.4).
    expect(await m.db.selectFrom('suppressed_keys').selectAll().where('user_id', '=', user.userId).execute()).toEqual([]);
  });

  it('flips a preference stance with confidence min(init, 0.55)', async () => {
    // given
    const user = m.newUser();
    await m.turn(user, 'I love sushi');

    // when
    await m.turn(user, 'I hate sushi');

    // then
    const all = await m.queries.list(user.userId, true);
    expect(all.map((r) => [r.memoryKey, r.memoryValue, r.status, r.confidence]).sort()).toEqual([
      ['pref:food:sushi', 'dislike|sushi', 'ACTIVE', 0.55],
      ['pref:food:sushi', 'like|sushi', 'SUPERSEDED', 0.6],
    ]);
  });

  it('never retrieves SUPERSEDED, INVALID or suppressed memories', async () => {
    // given: a superseded city, an invalidated occupation (its key suppressed), a live preference
    const user = m.newUser();
    await m.turn(user, 'I live in Seoul');
    await m.turn(user, 'I live in Busan');
    await m.turn(user, 'I work as a nurse');
    const nurse = (await m.find(user)).find((s) => s.memoryKey === 'fact:occupation')!;
    await m.turn(user, 'Oh so you are a nurse, right?', { surfaced: [nurse.memoryId] });
    const forgot = await m.turn(user, 'Forget that');
    await m.turn(user, 'I love sushi');

    // when
    const found = await m.find(user);
    const searched = await m.search(user, 'where do I live and what is my job', 10);
    const again = await m.turn(user, 'I work as a teacher');

    // then
    expect(forgot.written).toMatchObject({ correction: 'forget_that', invalidatedMemoryIds: [nurse.memoryId], candidates: [] });
    expect(found.map((s) => s.memoryValue).sort()).toEqual(['busan', 'like|sushi']);
    expect(searched.map((s) => s.memoryValue)).not.toContain('seoul');
    expect(searched.map((s) => s.memoryKey)).not.toContain('fact:occupation');
    expect(searched.length).toBeGreaterThan(0);
    // A suppressed key is not stored again (§12.4: the user does not want it).
    expect(again.written.candidates).toEqual([expect.objectContaining({ memoryKey: 'fact:occupation', outcome: 'suppressed' })]);
    expect((await m.find(user)).map((s) => s.memoryKey)).not.toContain('fact:occupation');
  });

  it('"that\'s not true" with nothing surfaced invalidates nothing and asks which part', async () => {
    // given: a memory was extracted but the last reply did not surface it
    const user = m.newUser();
    await m.turn(user, 'I love sushi');

    // when
    const { written } = await m.turn(user, "That's not true");

    // then
    expect(written).toMatchObject({ correction: 'not_true', clarificationNeeded: true, invalidatedMemoryIds: [] });
    expect((await m.find(user)).map((s) => s.memoryValue)).toEqual(['like|sushi']);
  });

  it('"forget X" invalidates by key, and "don\'t bring this topic up again" names the last exchange\'s topics', async () => {
    // given
    const user = m.newUser();
    await m.turn(user, 'I live in Seoul');
    await m.turn(user, 'I love sushi');
    await m.turn(user, 'My boss yelled at me at work today', { assistantText: 'That sounds rough. Want to talk about your job?' });

    // when
    const topic = await m.turn(user, "Don't bring this topic up again");
    const forgot = await m.turn(user, 'Forget where I live');

    // then
    expect(forgot.written.correction).toBe('forget_key');
    const keys = (await m.find(user)).map((s) => s.memoryKey);
    // The city is gone; the preference and the day at work (a dated event) stay.
    expect(keys.filter((k) => !k.startsWith('event:'))).toEqual(['pref:food:sushi']);
    expect(keys.filter((k) => k.startsWith('event:work:'))).toHaveLength(1);
    expect(topic.written.suppressTopicIds).toContain('WORK_SCHOOL');
  });

  it('answers a query after the previous turn is written back, so a "forget that" just sent already holds', async () => {
    // given: a reply that surfaced the memory
    const user = m.newUser();
    await m.turn(user, 'I work as a nurse');
    const [nurse] = await m.find(user);
    await m.turn(user, 'So you are a nurse!', { surfaced: [nurse!.memoryId] });

    // when: the next turn's query comes right behind "forget that", before its write-back
    const forgetId = await m.appendTurn(user, 'Forget that');
    const found = await m.find(user, forgetId);

    // then
    expect(found).toEqual([]);
  });

  it('writes nothing for a retention turn or a NONE write policy, yet records what they surfaced', async () => {
    // given
    const user = m.newUser();

    // when
    const none = await m.turn(user, 'I live in Seoul', { writePolicy: 'NONE' });
    const retention = await m.turn(user, '', { source: 'retention', surfaced: [] });

    // then
    expect(none.written).toMatchObject({ skipped: 'write_policy_none', candidates: [] });
    expect(retention.written).toMatchObject({ skipped: 'retention', source: 'retention' });
    expect(await m.find(user)).toEqual([]);
  });

  it('applies a redelivered TurnCompleted once: no second confidence bump', async () => {
    // given
    const user = m.newUser();
    const { event } = await m.turn(user, 'I live in Seoul');
    const completed = (await m.bus.lastOnSubject('orchestrator', user.userId))!;

    // when: the reactor gets the same event again (a crash before its ack)
    await m.reactor.react(completed);
    await m.reactor.react(completed);

    // then
    const events = await m.memoryEvents(user.userId);
    expect(events.filter((e) => e.type === Events.MemoryRecorded.name)).toHaveLength(1);
    expect(events.filter((e) => e.type === Events.TurnMemoryWritten.name)).toHaveLength(1);
    expect(event.causationId).toBe(completed.id);
    expect((await m.find(user))[0]!.confidence).toBe(0.6);
  });

  it('lets only the owner forget a memory over InvalidateMemory, once', async () => {
    // given
    const user = m.newUser();
    const stranger = m.newUser();
    await m.turn(user, 'I love jazz music');
    const [jazz] = await m.find(user);

    // when
    const notYours = await m.queries.invalidate(stranger.userId, jazz!.memoryId);
    const first = await m.queries.invalidate(user.userId, jazz!.memoryId);
    const second = await m.queries.invalidate(user.userId, jazz!.memoryId);

    // then
    expect(notYours).toBeNull();
    expect(first).toMatchObject({ status: 'INVALID', memoryId: jazz!.memoryId });
    expect(second).toMatchObject({ status: 'INVALID' });
    expect((await m.memoryEvents(user.userId)).filter((e) => e.type === Events.MemoriesInvalidated.name)).toHaveLength(1);
    expect(await m.find(user)).toEqual([]);
    expect(await m.search(user, 'jazz music')).toEqual([]);
  });

  it('keeps no value of a memory forgotten by "forget that" or over InvalidateMemory; a superseded one keeps its value', async () => {
    // given: a superseded city, the current one surfaced by a reply, and a preference
    const user = m.newUser();
    await m.turn(user, 'I live in Seoul');
    await m.turn(user, 'I live in Busan');
    await m.turn(user, 'I love jazz music');
    const found = await m.find(user);
    const busan = found.find((s) => s.memoryValue === 'busan')!;
    const jazz = found.find((s) => s.memoryKey.startsWith('pref:'))!;
    await m.turn(user, 'So you live in Busan now?', { surfaced: [busan.memoryId] });

    // when
    await m.turn(user, 'Forget that');
    const deleted = await m.queries.invalidate(user.userId, jazz.memoryId);

    // then: key, status and ids stay; the values the user took back are gone from every answer
    expect(deleted).toMatchObject({ memoryId: jazz.memoryId, memoryKey: jazz.memoryKey, status: 'INVALID', memoryValue: '' });
    const all = await m.queries.list(user.userId, true);
    expect(all.map((r) => [r.memoryKey, r.memoryValue, r.status]).sort()).toEqual([
      ['fact:current_city', '', 'INVALID'],
      ['fact:current_city', 'seoul', 'SUPERSEDED'],
      [jazz.memoryKey, '', 'INVALID'],
    ]);
    expect(all.find((r) => r.memoryId === busan.memoryId)!.sourceMessageIds).toHaveLength(1);
    const rows = await m.db.selectFrom('memories').select(['memory_value', 'embedding']).where('memory_id', 'in', [busan.memoryId, jazz.memoryId]).execute();
    expect(rows).toEqual([
      { memory_value: '', embedding: [] },
      { memory_value: '', embedding: [] },
    ]);
  });

  it('rejects a request with a user_id that is not a uuid, and changes nothing', async () => {
    await expect(m.client.FindMemories(memory.FindMemoriesRequest.fromPartial({ userId: 'x', readPolicy: 'FULL', limit: 3 }))).rejects.toThrow(
      /user_id must be a uuid/,
    );
  });

  it('rebuilds the same rows on replay, and the embedded and lexical indexes answer the same from them', async () => {
    // given: the users above, and one more searched before the replay
    const user = m.newUser();
    await m.turn(user, 'I love sushi');
    await m.turn(user, 'I live in Busan');
    const before = await m.search(user, 'sushi', 4);

    // when
    const report = await replayProjection({ bus: m.bus, database: m.database, service: 'memory', schema: m.schema, projection: memoriesProjection, migrations: service.migrations, keep: true });
    const replayed = schemaDb<MemoryDb>(m.database, `${m.schema}__replay`);
    const index = createEmbeddedIndex(replayed, { projection: memoriesProjection.name, subjectOf: (u) => m.bus.topology.subject('memory', u) });
    const embedder = createLocalEmbedder({ dimensions: LOCAL_EMBEDDING.dimensions, model: LOCAL_EMBEDDING.model });
    const [vector] = await embedder.embed(['sushi']);
    const hits = await index.search({ ...user, vector: vector!, model: embedder.model, topK: 4, excludeKeys: [] });
    const live = createEmbeddedIndex(m.db, { projection: memoriesProjection.name, subjectOf: (u) => m.bus.topology.subject('memory', u) });
    const liveHits = await live.search({ ...user, vector: vector!, model: embedder.model, topK: 4, excludeKeys: [] });
    const words = await createLexicalIndex(replayed, { projection: memoriesProjection.name, subjectOf: (u) => m.bus.topology.subject('memory', u) }).search({ ...user, text: 'sushi', excludeKeys: [] });

    // then
    expect(report.equal).toBe(true);
    expect(report.events).toBeGreaterThan(0);
    expect(hits).toEqual(liveHits);
    expect(hits.length).toBeGreaterThan(0);
    // Offline, SearchMemories is the lexical ranking: the same from the replayed rows.
    expect(words.map((h) => h.memoryId)).toEqual(before.map((s) => s.memoryId));
    expect(words.map((h) => h.relevance)).toEqual(before.map((s) => s.relevance));
  });
});

describe('memory write-back with the LLM extractor (§12.2)', () => {
  let m: Awaited<ReturnType<typeof startMemory>>;
  let stub: LlmStub;

  beforeAll(async () => {
    stub = await startLlmStub(() => ({
      content: JSON.stringify({
        memories: [
          { type: 'PREFERENCE', memory_key: 'pref:drink:oolong_tea', memory_value: 'like|oolong tea' },
          { type: 'FACT', memory_key: 'fact:favourite_colour', memory_value: 'green' },
        ],
      }),
    }));
    m = await startMemory('t_mem_llm', { stub });
  });

  afterAll(async () => {
    await m.stop();
    await stub.close();
  });

  it('asks no LLM for a short calm message', async () => {
    const before = stub.requests.length;
    const { written } = await m.turn(m.newUser(), 'I love sushi');
    expect(written).toMatchObject({ llmRan: false, heuristicRan: true, exchanges: [] });
    expect(stub.requests.length).toBe(before);
  });

  it('runs it for a long message, keeps only keys of the §12.3.1 formats at 0.75, and records the exchange', async () => {
    // given
    const user = m.newUser();
    const long = `I love sushi. ${'Today was long and I spent most of it walking around the river thinking about everything. '.repeat(3)}`;

    // when
    const { written } = await m.turn(user, long);

    // then
    expect(written.llmRan).toBe(true);
    expect(written.llmReasons).toEqual(['length']);
    expect(written.exchanges).toHaveLength(1);
    expect(written.exchanges[0]).toMatchObject({ purpose: 'memory-extraction', provider: 'openai-compatible' });
    const found = await m.find(user);
    // The LLM's reading at 0.75, the heuristic's (the rules' and the broad extractor's) at 0.6.
    expect(found.filter((s) => !s.memoryKey.startsWith('event:')).map((s) => [s.memoryKey, s.memoryValue, s.confidence]).sort()).toEqual([
      ['pref:drink:oolong_tea', 'like|oolong tea', 0.75],
      ['pref:food:sushi', 'like|sushi', 0.6],
    ]);
    expect(found.filter((s) => s.memoryKey.startsWith('event:')).map((s) => [s.memoryValue, s.confidence])).toEqual([
      ['today was long and i spent most of it walking around the river thinking about everything.', 0.6],
    ]);
  });

  it('runs it on high emotion, and a redelivery asks the LLM nothing more', async () => {
    // given
    const user = m.newUser();
    const before = stub.requests.length;

    // when
    const { written } = await m.turn(user, 'I love sushi so much!!', { valence: 0.8 });
    const completed = (await m.bus.lastOnSubject('orchestrator', user.userId))!;
    await m.reactor.react(completed);

    // then
    expect(written.llmReasons).toEqual(['emotion']);
    expect(stub.requests.length).toBe(before + 1);
  });
});
