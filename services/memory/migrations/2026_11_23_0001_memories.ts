import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The memory projection (turn-pipeline §12–§13): every record with its whole
 * history (ACTIVE, SUPERSEDED, INVALID are statuses, nothing is deleted), the
 * user's suppressed_memory_keys, and each turn's write-back, whose
 * surfaced_memory_ids the next correction targets (§12.4).
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('memories')
      .addColumn('memory_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('ai_friend_id', 'uuid', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('memory_key', 'text', (c) => c.notNull())
      .addColumn('memory_value', 'text', (c) => c.notNull())
      .addColumn('confidence', 'double precision', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('superseded_by', 'uuid')
      .addColumn('source_message_ids', 'jsonb', (c) => c.notNull())
      .addColumn('extractor', 'text', (c) => c.notNull())
      .addColumn('topic_ids', 'jsonb', (c) => c.notNull())
      // The recorded embedding (real[] reads back as number[]), and its model.
      .addColumn('embedding', sql`real[]`, (c) => c.notNull())
      .addColumn('embedding_model', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('last_confirmed_at', 'timestamptz', (c) => c.notNull())
      .addColumn('status_reason', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      // The memory stream's sequence of the event that last changed the row: the
      // embedded index reloads only rows changed since it last looked.
      .addColumn('updated_seq', 'bigint', (c) => c.notNull())
      .execute();
    // FindMemories (§7.1 step 2): a user's ACTIVE memories with a companion, latest confirmed first.
    await db.schema
      .createIndex('memories_active_idx')
      .on('memories')
      .columns(['user_id', 'ai_friend_id', 'last_confirmed_at desc'])
      .where(sql.ref('status'), '=', 'ACTIVE')
      .execute();
    await db.schema.createIndex('memories_user_status_idx').on('memories').columns(['user_id', 'status']).execute();
    await db.schema.createIndex('memories_user_updated_idx').on('memories').columns(['user_id', 'updated_seq']).execute();
    await db.schema.createIndex('memories_user_key_idx').on('memories').columns(['user_id', 'memory_key']).execute();
    await db.schema
      .createTable('suppressed_keys')
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('memory_key', 'text', (c) => c.notNull())
      .addColumn('suppressed_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('suppressed_keys_pk', ['user_id', 'memory_key'])
      .execute();
    await db.schema
      .createTable('memory_turns')
      .addColumn('assistant_message_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('conversation_id', 'uuid', (c) => c.notNull())
      .addColumn('message_id', 'uuid', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('surfaced_memory_ids', 'jsonb', (c) => c.notNull())
      .addColumn('candidate_ids', 'jsonb', (c) => c.notNull())
      .addColumn('topic_ids', 'jsonb', (c) => c.notNull())
      .addColumn('correction', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      // Stream order: "the immediately previous assistant message" even at equal timestamps.
      .addColumn('event_seq', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('memory_turns_conversation_idx').on('memory_turns').columns(['user_id', 'conversation_id', 'event_seq']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('memory_turns').execute();
    await db.schema.dropTable('suppressed_keys').execute();
    await db.schema.dropTable('memories').execute();
  },
};
