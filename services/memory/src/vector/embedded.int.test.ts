// The embedded vector index against the real memory projection tables in
// Postgres: the shared VectorIndex contract (§13), seeded through the rows and
// positions the projection writes, as the live service does.
import { randomUUID } from 'node:crypto';
import { migrateSchema, openDatabase, schemaDb, type Database } from '@hearth/store';
import { databaseUrl, dropSchemas, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import type { MemoryDb } from '../db.js';
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
async function bump(userId: string, to: number): Promise<void> {
  // The runtime table is not in MemoryDb; the builder still schema-qualifies it.
  const runtime = db as unknown as Kysely<{ projection_positions: { projection: string; subject: string; last_seq: number } }>;
  await runtime
    .insertInto('projection_positions')
    .values({ projection: PROJECTION, subject: subjectOf(userId), last_seq: to })
    .onConflict((oc) => oc.columns(['projection', 'subject']).doUpdateSet({ last_seq: to }))
    .execute();
}

vectorIndexContract('embedded', async () => {
  const index = createEmbeddedIndex(db, { projection: PROJECTION, subjectOf });
  await index.start();
  const users = new Set<string>();
  return {
    index,
    async seed(points, statuses = {}) {
      const at = new Date('2026-11-23T00:00:00Z');
      const now = ++seq;
      for (const p of points) {
        users.add(p.userId);
        await db
          .insertInto('memories')
          .values({
            memory_id: p.memoryId,
            user_id: p.userId,
            ai_friend_id: p.aiFriendId,
            type: 'FACT',
            memory_key: p.memoryKey,
            memory_value: 'v',
            confidence: 0.6,
            status: 'ACTIVE',
            superseded_by: null,
            source_message_ids: JSON.stringify([]) as unknown as string[],
            extractor: 'heuristic',
            topic_ids: JSON.stringify([]) as unknown as string[],
            embedding: [...p.vector],
            embedding_model: p.model,
            created_at: at,
            last_confirmed_at: at,
            status_reason: '',
            updated_at: at,
            updated_seq: now,
          })
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
    const at = new Date('2026-11-23T00:00:00Z');
    const now = ++seq;
    await db
      .insertInto('memories')
      .values({
        ...{ memory_id: randomUUID(), user_id: userId, ai_friend_id: aiFriendId, type: 'FACT', memory_key: 'fact:home_city', memory_value: 'v', confidence: 0.6, status: 'ACTIVE', superseded_by: null },
        ...{ source_message_ids: JSON.stringify([]) as unknown as string[], extractor: 'heuristic', topic_ids: JSON.stringify([]) as unknown as string[] },
        ...{ embedding: [1, 0, 0, 0], embedding_model: CONTRACT_MODEL, created_at: at, last_confirmed_at: at, status_reason: '', updated_at: at, updated_seq: now },
      })
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
