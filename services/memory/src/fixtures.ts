import { randomUUID } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { MemoriesTable, MemoryDb } from './db.js';

/** When seeded rows were written, unless told otherwise. */
const SEEDED_AT = new Date('2026-11-23T00:00:00Z');

type JsonColumns = 'source_message_ids' | 'topic_ids';

export type MemoryRowInput = Pick<Insertable<MemoriesTable>, 'user_id' | 'ai_friend_id' | 'memory_key'> &
  Partial<Omit<Insertable<MemoriesTable>, JsonColumns>> &
  Partial<Pick<MemoriesTable, JsonColumns>>;

/**
 * A `memories` row as the projection writes one, for the tests and benchmarks
 * that seed the table directly: ACTIVE, a FACT of confidence 0.6 from the
 * heuristic extractor, written and confirmed at SEEDED_AT (or `created_at`),
 * the given fields over those.
 */
export function memoryRow(r: MemoryRowInput): Insertable<MemoriesTable> {
  const at = r.created_at ?? SEEDED_AT;
  return {
    memory_id: randomUUID(),
    type: 'FACT',
    memory_value: 'v',
    confidence: 0.6,
    status: 'ACTIVE',
    superseded_by: null,
    extractor: 'heuristic',
    embedding: [1, 0],
    embedding_model: 'm',
    created_at: at,
    last_confirmed_at: at,
    status_reason: '',
    updated_at: at,
    updated_seq: 1,
    ...r,
    // jsonb columns: pg would send a JS array as a Postgres array.
    source_message_ids: JSON.stringify(r.source_message_ids ?? []) as unknown as string[],
    topic_ids: JSON.stringify(r.topic_ids ?? []) as unknown as string[],
  };
}

/**
 * Sets a subject's position in a projection to `seq`, as applying an event
 * does (or back, as a rebuild or an erasure elsewhere does): what the indexes
 * read to know a user's rows changed.
 */
export async function setPosition(db: Kysely<MemoryDb>, projection: string, subject: string, seq: number): Promise<void> {
  // The runtime table is not in MemoryDb; the builder still schema-qualifies it.
  const runtime = db as unknown as Kysely<{ projection_positions: { projection: string; subject: string; last_seq: number } }>;
  await runtime
    .insertInto('projection_positions')
    .values({ projection, subject, last_seq: seq })
    .onConflict((oc) => oc.columns(['projection', 'subject']).doUpdateSet({ last_seq: seq }))
    .execute();
}
