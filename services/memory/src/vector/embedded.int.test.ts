// The embedded vector index against the real memory projection tables in
// Postgres: the shared VectorIndex contract (§13), seeded through the rows and
// positions the projection writes, as the live service does.
import { randomUUID } from 'node:crypto';
import { migrateSchema, openDatabase, schemaDb, type Database } from '@hearth/store';
import { databaseUrl, dropSchemas, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import type { MemoryDb } from '../db.js';
import { memoryRow, setPosition } from '../fixtures.js';
import { migration } from '../../migrations/2026_11_23_0001_memories.js';
import { CONTRACT_MODEL, vectorIndexContract } from './contract.js';
import { createEmbeddedIndex } from './embedded.js';

const ns = testNamespace('t_mem_embedded');
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

// The stream sequence the seeded "events" get, as the projection stamps rows.
let seq = 0;

/** Moves the user's chain position to `to`, as applying an event does, so the index reloads. */
const bump = (userId: string, to: number): Promise<void> => setPosition(db, PROJECTION, subjectOf(userId), to);

vectorIndexContract('embedded', async () => {
  const index = createEmbeddedIndex(db, { projection: PROJECTION, subjectOf });
  await index.start();
  const users = new Set<string>();
  return {
    index,
    async seed(points, statuses = {}) {
      const now = ++seq;
      for (const p of points) {
        users.add(p.userId);
        await db
          .insertInto('memories')
          .values(
            memoryRow({
              memory_id: p.memoryId,
              user_id: p.userId,
              ai_friend_id: p.aiFriendId,
              memory_key: p.memoryKey,
              embedding: [...p.vector],
              embedding_model: p.model,
              updated_seq: now,
            }),
          )
          .execute();
      }
      for (const [id, status] of Object.entries(statuses)) {
        await db.updateTable('memories').set({ status, updated_seq: now }).where('memory_id', '=', id).execute();
      }
      const touched = await db.selectFrom('memories').select('user_id').where('updated_seq', '=', now).distinct().execute();
      for (const r of touched) await bump(r.user_id, now);
    },
    async eraseRows(userId) {
      // As the projection's erase does: the rows go, the position stays where it was.
      await db.deleteFrom('memories').where('user_id', '=', userId).execute();
    },
    async cleanup() {
      await index.close();
      for (const u of users) await db.deleteFrom('memories').where('user_id', '=', u).execute();
    },
  };
});

describe('embedded index after rows were rebuilt or erased', () => {
  it('loads a user afresh when the projection\'s position went back, instead of keeping deleted points', async () => {
    // given: a user's point found, so the index holds it at the current position
    const index = createEmbeddedIndex(db, { projection: PROJECTION, subjectOf });
    const userId = randomUUID();
    const aiFriendId = randomUUID();
    const now = ++seq;
    await db
      .insertInto('memories')
      .values(memoryRow({ user_id: userId, ai_friend_id: aiFriendId, memory_key: 'fact:home_city', embedding: [1, 0, 0, 0], embedding_model: CONTRACT_MODEL, updated_seq: now }))
      .execute();
    await bump(userId, now);
    const query = { userId, aiFriendId, vector: [1, 0, 0, 0], model: CONTRACT_MODEL, topK: 4, excludeKeys: [] };
    expect(await index.search(query)).toHaveLength(1);

    // when: another process erased the user (rows gone, position reset), without telling this one
    await db.deleteFrom('memories').where('user_id', '=', userId).execute();
    await bump(userId, 0);

    // then
    expect(await index.search(query)).toEqual([]);
    await index.close();
  });
});
