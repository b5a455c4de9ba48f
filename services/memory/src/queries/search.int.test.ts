// SearchMemories when its first, unfiltered searches come back full of
// suppressed memories (issue 20: the searches run before the suppressed keys
// are read, exclusionSlack deeper): it searches again with the keys, and
// answers as for a user who never had those memories. FindMemories leaves
// them to its row reads. (Such memories are ACTIVE rows under a suppressed
// key, written here directly: the projection itself never leaves one.)
import { randomUUID } from 'node:crypto';
import { Bus } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { createLocalEmbedder, type Embedder } from '@hearth/llm';
import { memory } from '@hearth/proto';
import { migrateSchema, openDatabase, schemaDb, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import { LOCAL_EMBEDDING, RETRIEVAL } from '../config.js';
import type { MemoryDb } from '../db.js';
import { memoryRow, setPosition } from '../fixtures.js';
import { embeddingText } from '../domain/describe.js';
import { service } from '../index.js';
import { createLexicalIndex, type LexicalIndex } from '../lexical/index.js';
import { memoriesProjection } from '../projections/memories.js';
import { createEmbeddedIndex } from '../vector/embedded.js';
import { createFindMemoriesQuery, createSearchMemoriesQuery } from './memories.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const local = createLocalEmbedder({ dimensions: LOCAL_EMBEDDING.dimensions, model: LOCAL_EMBEDDING.model });
// The local vectors taken as meaningful, so the vector ranking runs too.
const meaningful: Embedder = { provider: 'test-local-as-meaningful', model: local.model, embed: (t) => local.embed(t) };

let ns: string;
let dbUrl: string;
let nats: string;
let database: Database;
let db: Kysely<MemoryDb>;
let bus: Bus;

beforeAll(async () => {
  ns = testNamespace('t_mem_search');
  dbUrl = await databaseUrl();
  nats = await natsUrl();
  database = await openDatabase({ url: dbUrl });
  await migrateSchema(database, `${ns}_memory`, service.migrations);
  db = schemaDb<MemoryDb>(database, `${ns}_memory`);
  bus = await Bus.connect({ url: nats, name: 't-mem-search', namespace: ns, logger: silent });
});

afterAll(async () => {
  await bus.close();
  await database.close();
  await dropSchemas(dbUrl, ns);
  await cleanupNamespace(nats, ns);
});

/** A user's memories written as the projection would, `suppressed` of them ACTIVE under a suppressed key. */
async function seeded(suppressed: number) {
  const user = { userId: randomUUID(), aiFriendId: randomUUID() };
  const at = new Date('2026-11-23T00:00:00Z');
  // The same 80 others for both users, confirmed at the same times.
  const memories = [
    ...Array.from({ length: suppressed }, (_, i) => ({ key: 'pref:music:jazz', value: 'like|jazz', at: -1 - i })),
    ...Array.from({ length: 80 }, (_, i) => ({ key: `pref:music:jazz_piano_${i}`, value: `like|jazz piano trio number ${i} on friday nights`, at: i })),
  ];
  // Ids ordered by position, alike for both users: ties (same score) go by id.
  const tail = randomUUID().slice(8);
  const rows = [];
  for (const [i, m] of memories.entries()) {
    rows.push(
      memoryRow({
        memory_id: `${(m.at + 1000).toString(16).padStart(8, '0')}${tail.slice(0, -4)}${i.toString(16).padStart(4, '0')}`,
        user_id: user.userId,
        ai_friend_id: user.aiFriendId,
        type: 'PREFERENCE',
        memory_key: m.key,
        memory_value: m.value,
        embedding: (await local.embed([embeddingText(m.key, m.value)]))[0]!,
        embedding_model: local.model,
        created_at: at,
        last_confirmed_at: new Date(at.getTime() + m.at * 1000),
      }),
    );
  }
  await db.insertInto('memories').values(rows).execute();
  if (suppressed > 0) await db.insertInto('suppressed_keys').values({ user_id: user.userId, memory_key: 'pref:music:jazz', suppressed_at: at }).execute();
  await setPosition(db, memoriesProjection.name, bus.topology.subject('memory', user.userId), 1);
  return user;
}

describe('retrieval with more suppressed memories among its best hits than exclusionSlack (issue 20)', () => {
  it.each([
    ['offline', local],
    ['with vectors', meaningful],
  ])('SearchMemories %s: searches again with the suppressed keys and answers as without those memories', async (_name, embedder) => {
    // given a user whose best matches are 30 ACTIVE memories under a suppressed key, and one who never had them
    const copy = { projection: memoriesProjection.name, subjectOf: (u: string) => bus.topology.subject('memory', u) };
    const lexical = createLexicalIndex(db, copy);
    const excluding: string[][] = [];
    const watched: LexicalIndex = { ...lexical, search: (q) => (excluding.push([...q.excludeKeys]), lexical.search(q)) };
    const search = createSearchMemoriesQuery({ bus, db, clock: new ManualClock(new Date('2026-11-24T00:00:00Z')), index: createEmbeddedIndex(db, copy), lexical: watched, embedder });
    const withSuppressed = await seeded(30);
    const without = await seeded(0);
    const ask = (user: { userId: string; aiFriendId: string }) => search(memory.SearchMemoriesRequest.fromPartial({ ...user, queryText: 'jazz', topK: 10 }));

    // when
    const answer = await ask(withSuppressed);
    const clean = await ask(without);

    // then
    expect(30).toBeGreaterThan(RETRIEVAL.exclusionSlack);
    expect(excluding).toEqual([[], ['pref:music:jazz'], []]);
    expect(answer.memories).toHaveLength(10);
    expect(answer.memories.map((m) => m.memoryKey)).not.toContain('pref:music:jazz');
    const shown = (r: memory.MemoriesResponse) => r.memories.map((m) => [m.memoryKey, m.memoryValue, m.score, m.relevance]);
    expect(shown(answer)).toEqual(shown(clean));
  });

  it('FindMemories with query text never returns them either (the row reads drop suppressed keys)', async () => {
    // given
    const copy = { projection: memoriesProjection.name, subjectOf: (u: string) => bus.topology.subject('memory', u) };
    const deps = { bus, db, clock: new ManualClock(new Date('2026-11-24T00:00:00Z')), index: createEmbeddedIndex(db, copy), lexical: createLexicalIndex(db, copy), embedder: local };
    const find = createFindMemoriesQuery(deps);
    const user = await seeded(30);

    // when
    const many = await find(memory.FindMemoriesRequest.fromPartial({ ...user, queryText: 'jazz', limit: 50 }));
    const few = await find(memory.FindMemoriesRequest.fromPartial({ ...user, queryText: 'jazz', limit: 5 }));

    // then
    expect(many.memories).toHaveLength(50);
    expect(few.memories).toHaveLength(5);
    expect([...many.memories, ...few.memories].map((m) => m.memoryKey)).not.toContain('pref:music:jazz');
  });
});
