// The lexical index against the real memory projection tables in Postgres:
// issue 20's `limit` (the best hits only) and `include` (hits beyond it that a
// caller shows the relevance of) answer as the whole ranking does.
import { randomUUID } from 'node:crypto';
import { migrateSchema, openDatabase, schemaDb, type Database } from '@hearth/store';
import { databaseUrl, dropSchemas, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import { migration } from '../../migrations/2026_11_23_0001_memories.js';
import type { MemoryDb } from '../db.js';
import { memoryRow, setPosition } from '../fixtures.js';
import { createLexicalIndex } from './index.js';

const ns = testNamespace('t_mem_lexical');
const PROJECTION = 'memories';
const subjectOf = (userId: string) => `${ns}.memory.v1.${userId}`;
let database: Database;
let db: Kysely<MemoryDb>;
let dbUrl: string;

beforeAll(async () => {
  dbUrl = await databaseUrl();
  database = await openDatabase({ url: dbUrl });
  const schema = `${ns}_memory`;
  await migrateSchema(database, schema, { '2026_11_23_0001_memories': migration });
  db = schemaDb<MemoryDb>(database, schema);
});

afterAll(async () => {
  await database.close();
  await dropSchemas(dbUrl, ns);
});

/** `n` ACTIVE memories of one user and companion, then the position the projection would be at. */
async function seeded(n: number) {
  const user = { userId: randomUUID(), aiFriendId: randomUUID() };
  const items = ['sushi', 'ramen', 'jazz', 'green tea'];
  const at = new Date('2026-11-23T00:00:00Z');
  const rows = Array.from({ length: n }, (_, j) =>
    memoryRow({
      user_id: user.userId,
      ai_friend_id: user.aiFriendId,
      type: 'PREFERENCE',
      memory_key: `pref:food:${items[j % items.length]!.replace(' ', '_')}_${j}`,
      memory_value: `${j % 3 === 0 ? 'dislike' : 'like'}|${items[j % items.length]} ${j}${j % 5 === 0 ? ' with friends on sunday' : ''}`,
      last_confirmed_at: new Date(at.getTime() + (j % 7) * 1000),
    }),
  );
  await db.insertInto('memories').values(rows).execute();
  await setPosition(db, PROJECTION, subjectOf(user.userId), 1);
  return { user, rows };
}

describe('lexical index: limit and include (issue 20)', () => {
  it('returns the first `limit` hits of the whole ranking, relevance and all, and the included hits beyond it after them', async () => {
    // given 400 memories, many of which share a term with the query
    const { user, rows } = await seeded(400);
    const lexical = createLexicalIndex(db, { projection: PROJECTION, subjectOf });
    const query = { ...user, text: 'sushi with friends', excludeKeys: [rows[4]!.memory_key] };
    const all = await lexical.search(query);
    const last = all.length - 1;
    const beyond = [all[last]!.memoryId, all[30]!.memoryId, all[60]!.memoryId];

    // when
    const best = await lexical.search({ ...query, limit: 50 });
    const withIncluded = await lexical.search({ ...query, limit: 50, include: [...beyond, randomUUID()] });

    // then
    expect(all.length).toBeGreaterThan(100);
    expect(all.map((h) => h.memoryId)).not.toContain(rows[4]!.memory_id);
    expect(best).toEqual(all.slice(0, 50));
    expect(withIncluded).toEqual([...all.slice(0, 50), all[60], all[last]]);
    await lexical.close();
  });
});
