// FindMemories and SearchMemories (turn-pipeline §13, issue 15: hybrid ranking)
// against real NATS and Postgres: memory events appended to the memory stream,
// the projection applying them live, the lexical and vector indexes reading it.
import { randomUUID } from 'node:crypto';
import { Bus, draft, type EventDraft, type QueryHandlers, type RunningConsumer } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { Events } from '@hearth/events';
import { createLocalEmbedder, type Embedder } from '@hearth/llm';
import { memory, uncertainty } from '@hearth/proto';
import { migrateSchema, openDatabase, replayProjection, schemaDb, startProjection, waitForPosition, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import { LOCAL_EMBEDDING, RETRIEVAL } from '../config.js';
import type { MemoryDb } from '../db.js';
import { embeddingText } from '../domain/describe.js';
import { service } from '../index.js';
import { createLexicalIndex } from '../lexical/index.js';
import { memoriesProjection } from '../projections/memories.js';
import { createEmbeddedIndex } from '../vector/embedded.js';
import { createFindMemoriesQuery, createListMemoriesQuery, createSearchMemoriesQuery } from './memories.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

// A stand-in for a real embeddings endpoint: a vector of concepts, so "cat" is near "kitten".
const CONCEPTS: Record<string, readonly string[]> = {
  food: ['food', 'ramen', 'noodles', 'lunch', 'pasta'],
  music: ['music', 'piano', 'jazz'],
  pet: ['kitten', 'cat', 'pet', 'dog'],
};
const meaningful: Embedder = {
  provider: 'test-concepts',
  model: 'concepts-v1',
  embed: (texts) => Promise.resolve(texts.map((t) => Object.values(CONCEPTS).map((words) => t.toLowerCase().split(/\W+/).filter((w) => words.includes(w)).length))),
};
const offline = createLocalEmbedder({ dimensions: LOCAL_EMBEDDING.dimensions, model: LOCAL_EMBEDDING.model });

type User = { userId: string; aiFriendId: string };
type Snippet = memory.MemorySnippet;

let ns: string;
let dbUrl: string;
let nats: string;
let database: Database;
let db: Kysely<MemoryDb>;
let bus: Bus;
let running: RunningConsumer[];
const clock = new ManualClock(new Date('2026-11-23T09:00:00Z'));
let queries: Record<'offline' | 'meaningful', { find: MemoryHandlers['FindMemories']; search: MemoryHandlers['SearchMemories'] }>;
let listQuery: MemoryHandlers['ListMemories'];
type MemoryHandlers = QueryHandlers<typeof memory.MemoryQueriesDefinition>;
let schema: string;

beforeAll(async () => {
  ns = testNamespace('t_mem_queries');
  dbUrl = await databaseUrl();
  nats = await natsUrl();
  database = await openDatabase({ url: dbUrl });
  schema = `${ns}_memory`;
  await migrateSchema(database, schema, service.migrations);
  db = schemaDb<MemoryDb>(database, schema);
  bus = await Bus.connect({ url: nats, name: 't-mem-queries', namespace: ns, logger: silent });
  await bus.ensureStreams(['memory', 'uncertainty']);
  running = await startProjection(bus, db, 'memory', memoriesProjection);
  const subjectOf = (u: string) => bus.topology.subject('memory', u);
  const index = createEmbeddedIndex(db, { projection: memoriesProjection.name, subjectOf });
  const lexical = createLexicalIndex(db, { projection: memoriesProjection.name, subjectOf });
  const deps = (embedder: Embedder) => ({ bus, db, clock, index, lexical, embedder });
  queries = {
    offline: { find: createFindMemoriesQuery(deps(offline)), search: createSearchMemoriesQuery(deps(offline)) },
    meaningful: { find: createFindMemoriesQuery(deps(meaningful)), search: createSearchMemoriesQuery(deps(meaningful)) },
  };
  listQuery = createListMemoriesQuery(deps(offline));
});

afterAll(async () => {
  await Promise.all(running.map((c) => c.stop()));
  await bus.close();
  await database.close();
  await dropSchemas(dbUrl, ns);
  await cleanupNamespace(nats, ns);
});

/** Appends memory events of one user and waits until the projection has applied them. */
async function append(user: User, drafts: EventDraft[]): Promise<void> {
  const last = await bus.lastOnSubject('memory', user.userId);
  const results = await bus.append('memory', user.userId, drafts, last?.seq ?? 0);
  const seq = results.at(-1)!.seq;
  if (!(await waitForPosition(db, memoriesProjection.name, bus.topology.subject('memory', user.userId), seq, { timeoutMs: 10_000 }))) throw new Error('the projection did not apply the events');
}

/** A MemoryRecorded a minute after the last, embedded as write-back embeds (with the concept embedder). */
async function recorded(user: User, key: string, value: string, over: Partial<memory.MemoryRecorded> = {}): Promise<string> {
  const memoryId = randomUUID();
  const text = embeddingText(key, value);
  const [embedding] = await meaningful.embed([text]);
  clock.advance(60_000);
  const type = key.startsWith('pref:') ? 'PREFERENCE' : key.startsWith('event:') ? 'RELATIONSHIP_EVENT' : 'FACT';
  await append(user, [
    draft(
      Events.MemoryRecorded,
      memory.MemoryRecorded.fromPartial({ memoryId, aiFriendId: user.aiFriendId, type, memoryKey: key, memoryValue: value, confidence: 0.6, extractor: 'heuristic', sourceMessageId: randomUUID(), embedding, embeddingModel: meaningful.model, embeddingText: text, ...over }),
      { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), causationId: '', correlationId: '' },
    ),
  ]);
  return memoryId;
}

async function confirmed(user: User, memoryId: string, confidence: number): Promise<void> {
  clock.advance(60_000);
  await append(user, [draft(Events.MemoryConfirmed, { memoryId, sourceMessageId: randomUUID(), confidence, extractor: 'heuristic' }, { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), causationId: '', correlationId: '' })]);
}

async function invalidated(user: User, memoryId: string, suppressedKey: string): Promise<void> {
  clock.advance(60_000);
  await append(user, [
    draft(Events.MemoriesInvalidated, { memoryIds: [memoryId], suppressedKey, reason: 'delete_api', sourceMessageId: '' }, { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), causationId: '', correlationId: '' }),
  ]);
}

/** The uncertainty service's ReliabilityChanged about one memory, applied by the projection before it returns. */
async function reliability(user: User, memoryId: string, to: string): Promise<void> {
  clock.advance(60_000);
  const last = await bus.lastOnSubject('uncertainty', user.userId);
  const [result] = await bus.append(
    'uncertainty',
    user.userId,
    [
      draft(
        Events.ReliabilityChanged,
        uncertainty.ReliabilityChanged.fromPartial({ subject: { kind: 'memory', id: memoryId, store: 'trait' }, from: 'reliable', to, reason: 'test', uncertaintyId: randomUUID(), at: clock.now() }),
        { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), causationId: '', correlationId: '' },
      ),
    ],
    last?.seq ?? 0,
  );
  if (!(await waitForPosition(db, memoriesProjection.name, bus.topology.subject('uncertainty', user.userId), result!.seq, { timeoutMs: 10_000 }))) throw new Error('the projection did not apply the state');
}

async function list(user: User): Promise<memory.MemoryRecord[]> {
  return (await listQuery({ userId: user.userId, all: true })).memories;
}

async function search(user: User, queryText: string, opts: { topK?: number; via?: 'offline' | 'meaningful' } = {}): Promise<Snippet[]> {
  const req = { ...user, queryText, topK: opts.topK ?? 0, afterMessageId: '' };
  return (await queries[opts.via ?? 'offline'].search(req)).memories;
}

async function find(user: User, queryText: string, limit = 8): Promise<Snippet[]> {
  const req = { ...user, readPolicy: 'FULL', limit, afterMessageId: '', queryText };
  return (await queries.offline.find(req)).memories;
}

const newUser = (): User => ({ userId: randomUUID(), aiFriendId: randomUUID() });
const keys = (s: readonly Snippet[]) => s.map((m) => m.memoryKey);
const rrf = (rank: number) => 1 / (RETRIEVAL.rrfK + rank);

describe('SearchMemories offline: the BM25 ranking (issue 15)', () => {
  it('returns only the memories that share a content word with the query, best first, with fused score and relevance', async () => {
    // given
    const user = newUser();
    await recorded(user, 'pref:hobby:dancing', 'like|dancing');
    await recorded(user, 'pref:food:pasta', 'like|pasta');
    await recorded(user, 'pref:food:ramen', 'like|ramen');
    await recorded(user, 'event:other:2026_11:joined_a_salsa_dancing_class', 'joined a salsa dancing class');

    // when
    const lunch = await search(user, 'I had pasta for lunch');
    const dance = await search(user, 'we went salsa dancing');
    const none = await search(user, 'what a day it was yesterday');

    // then: the vector index is there, but offline only words rank
    expect(keys(lunch)).toEqual(['pref:food:pasta']);
    expect(lunch[0]).toMatchObject({ score: rrf(1), relevance: expect.any(Number) });
    expect(lunch[0]!.relevance).toBeGreaterThanOrEqual(0.5);
    expect(keys(dance)).toEqual(['event:other:2026_11:joined_a_salsa_dancing_class', 'pref:hobby:dancing']);
    expect(dance.map((s) => s.score)).toEqual([rrf(1), rrf(2)]);
    expect(dance[0]!.relevance).toBeGreaterThan(dance[1]!.relevance);
    expect(none).toEqual([]);
  });

  it('breaks a tie by recency, then by confidence', async () => {
    // given: the same words but the item, recorded in order, two at one instant
    const user = newUser();
    const beef = await recorded(user, 'pref:food:beef_stew', 'like|beef stew');
    const kimchi = await recorded(user, 'pref:food:kimchi_stew', 'like|kimchi stew');
    const at = clock.now();
    const fish = await recorded(user, 'pref:food:fish_stew', 'like|fish stew');
    clock.set(at);
    const lamb = await recorded(user, 'pref:food:lamb_stew', 'like|lamb stew', { confidence: 0.75 });

    // when
    const first = await search(user, 'stew', { topK: 10 });
    await confirmed(user, beef, 0.75);
    const then = await search(user, 'stew', { topK: 10 });

    // then: equally relevant; the most recently confirmed first, at one instant the more confident
    expect(first.map((s) => s.memoryId)).toEqual([lamb, fish, kimchi, beef]);
    expect(then.map((s) => s.memoryId)).toEqual([beef, lamb, fish, kimchi]);
    expect(new Set(then.map((s) => s.relevance)).size).toBe(1);
  });

  it('stays inside the §13 filters: user and companion, ACTIVE only, never a suppressed key, at most topK', async () => {
    // given
    const user = newUser();
    const stranger = { ...newUser(), aiFriendId: user.aiFriendId };
    const otherFriend = { userId: user.userId, aiFriendId: randomUUID() };
    const seoul = await recorded(user, 'fact:current_city', 'seoul');
    await recorded(user, 'fact:current_city', 'busan', { supersedes: seoul });
    const jazz = await recorded(user, 'pref:music:jazz', 'like|jazz');
    await recorded(user, 'pref:music:city_pop', 'like|city pop');
    for (const item of ['city_walks', 'city_parks', 'city_views', 'city_lights']) await recorded(user, `pref:hobby:${item}`, `like|${item.replace('_', ' ')}`);
    await recorded(stranger, 'fact:current_city', 'seoul');
    await recorded(otherFriend, 'fact:current_city', 'seoul');
    await invalidated(user, jazz, 'pref:music:jazz');

    // when
    const city = await search(user, 'seoul or busan, which city', { topK: 50 });
    const four = await search(user, 'city');
    const music = await search(user, 'jazz music');

    // then
    expect(city.map((s) => s.memoryValue)).not.toContain('seoul');
    expect(city[0]).toMatchObject({ memoryKey: 'fact:current_city', memoryValue: 'busan' });
    expect(four).toHaveLength(RETRIEVAL.topK);
    expect(keys(music)).toEqual(['pref:music:city_pop']);
    expect([...city, ...four, ...music].every((s) => s.relevance > 0)).toBe(true);
  });

  it('keeps in step with the projection: a new memory is found at once, a forgotten one never again', async () => {
    // given: the index has loaded the user
    const user = newUser();
    await recorded(user, 'pref:game:chess', 'like|chess');
    expect(keys(await search(user, 'chess or go'))).toEqual(['pref:game:chess']);

    // when
    const go = await recorded(user, 'pref:game:go', 'like|go board game');
    const found = await search(user, 'a board');
    await invalidated(user, go, 'pref:game:go');

    // then
    expect(found.map((s) => s.memoryId)).toEqual([go]);
    expect(await search(user, 'a board')).toEqual([]);
  });
});

describe('SearchMemories with real embeddings: BM25 and vectors fused by reciprocal rank (issue 15)', () => {
  it('finds by meaning what shares no word, with the cosine as relevance', async () => {
    // given
    const user = newUser();
    const kitten = await recorded(user, 'event:family:2026_10:adopted_a_kitten', 'adopted a kitten');
    await recorded(user, 'pref:music:piano', 'like|piano');

    // when
    const hybrid = await search(user, 'my cat keeps waking me up', { via: 'meaningful' });
    const words = await search(user, 'my cat keeps waking me up');

    // then
    expect(hybrid[0]).toMatchObject({ memoryId: kitten, score: rrf(1) });
    expect(hybrid[0]!.relevance).toBeCloseTo(1, 5);
    expect(hybrid.slice(1).every((s) => s.relevance === 0)).toBe(true);
    expect(words).toEqual([]);
  });

  it('puts first what both rankings find', async () => {
    // given
    const user = newUser();
    await recorded(user, 'pref:food:ramen', 'like|ramen');
    await recorded(user, 'pref:music:piano', 'like|piano');
    await recorded(user, 'event:family:2026_10:adopted_a_kitten', 'adopted a kitten');

    // when: words find piano only; vectors rank ramen (two food words), then piano
    const hits = await search(user, 'noodles for lunch, then piano', { via: 'meaningful' });

    // then
    expect(keys(hits).slice(0, 2)).toEqual(['pref:music:piano', 'pref:food:ramen']);
    expect(hits[0]!.score).toBeCloseTo(rrf(1) + rrf(2), 12);
    expect(hits[1]!.score).toBeCloseTo(rrf(1), 12);
    expect(hits[1]!.relevance).toBeGreaterThan(0.8);
  });
});

describe('FindMemories with query text (issue 15: ranked by relevance, lexical only)', () => {
  it('puts the memories the message is about first, with their relevance, then the rest by recency', async () => {
    // given
    const user = newUser();
    await recorded(user, 'pref:food:pasta', 'like|pasta');
    await recorded(user, 'pref:hobby:dancing', 'like|dancing');
    await recorded(user, 'fact:occupation', 'nurse');
    await recorded(user, 'pref:music:jazz', 'like|jazz');

    // when
    const lunch = await find(user, 'I had pasta for lunch');
    const plain = await find(user, '');
    const two = await find(user, 'my shift as a nurse', 2);

    // then
    expect(keys(lunch)).toEqual(['pref:food:pasta', 'pref:music:jazz', 'fact:occupation', 'pref:hobby:dancing']);
    expect(lunch[0]!.relevance).toBeGreaterThanOrEqual(0.5);
    expect(lunch[0]!.score).toBe(lunch[0]!.relevance);
    expect(lunch.slice(1).map((s) => s.relevance)).toEqual([0, 0, 0]);
    expect(keys(plain)).toEqual(['pref:music:jazz', 'fact:occupation', 'pref:hobby:dancing', 'pref:food:pasta']);
    expect(plain.every((s) => s.relevance === 0 && s.score === 0)).toBe(true);
    expect(keys(two)).toEqual(['fact:occupation', 'pref:music:jazz']);
  });

  it('ranks a relevant memory in even when many newer ones would fill the limit', async () => {
    // given: one old memory, then more recent ones than the limit
    const user = newUser();
    await recorded(user, 'event:relationship:2026_05:book_club', 'went to a book club');
    for (const item of ['tennis', 'chess', 'hiking', 'coffee']) await recorded(user, `pref:hobby:${item}`, `like|${item}`);

    // when
    const found = await find(user, 'the book club meets again tonight', 3);

    // then
    expect(keys(found)).toEqual(['event:relationship:2026_05:book_club', 'pref:hobby:coffee', 'pref:hobby:hiking']);
  });
});

describe('retrieval by reliability (issue 17: score × assembly weight)', () => {
  it('ranks a contradicted memory below an equally relevant reliable one and a superseded-state one below both, all still found, each with its state', async () => {
    // given: three equally relevant preferences at one confidence, the least reliable the most recent
    const user = newUser();
    const reliable = await recorded(user, 'pref:food:beef_stew', 'like|beef stew');
    const contradicted = await recorded(user, 'pref:food:fish_stew', 'like|fish stew');
    const superseded = await recorded(user, 'pref:food:lamb_stew', 'like|lamb stew');
    await reliability(user, contradicted, 'contradicted');
    await reliability(user, superseded, 'superseded');

    // when
    const searched = await search(user, 'stew', { topK: 10 });
    const meant = await search(user, 'stew', { topK: 10, via: 'meaningful' });
    const found = await find(user, 'a stew tonight');

    // then
    for (const answer of [searched, meant, found]) {
      expect(answer.map((s) => s.memoryId)).toEqual([reliable, contradicted, superseded]);
      expect(answer.map((s) => s.reliability)).toEqual(['reliable', 'contradicted', 'superseded']);
    }
    // The weight orders; it does not change what relevance or the fused score say.
    expect(new Set(searched.map((s) => s.relevance)).size).toBe(1);
    expect(found.map((s) => s.score)).toEqual(found.map((s) => s.relevance));
  });

  it('lists each record with its reliability state, and its confidence still as the old reliability double', async () => {
    // given
    const user = newUser();
    const seoul = await recorded(user, 'fact:current_city', 'seoul');
    const busan = await recorded(user, 'fact:current_city', 'busan', { supersedes: seoul, confidence: 0.75 });
    await reliability(user, seoul, 'superseded');
    await reliability(user, busan, 'uncertain');
    await reliability(user, busan, 'contradicted');

    // when
    const records = await list(user);

    // then
    expect(records.map((r) => [r.memoryValue, r.status, r.reliabilityState, r.reliability])).toEqual([
      ['busan', 'ACTIVE', 'contradicted', 0.75],
      ['seoul', 'SUPERSEDED', 'superseded', 0.6],
    ]);
    expect((await find(user, '')).map((s) => [s.memoryValue, s.reliability])).toEqual([['busan', 'contradicted']]);
  });

  it('rebuilds the same rows, states included, on replay of both streams', async () => {
    // given: the users above, and one more whose state arrives as its memory does
    const user = newUser();
    const jazz = await recorded(user, 'pref:music:jazz', 'like|jazz');
    await reliability(user, jazz, 'uncertain');

    // when
    const report = await replayProjection({ bus, database, service: 'memory', schema, projection: memoriesProjection, migrations: service.migrations });

    // then
    expect(report.equal).toBe(true);
    expect(report.upTo.uncertainty).toBeGreaterThan(0);
    expect(report.tables.find((t) => t.table === 'memory_reliability')!.liveRows).toBeGreaterThan(0);
  });
});
