import type { Kysely, Migration } from 'kysely';

/**
 * Stage G's relationship state (turn-pipeline §2.5, §11), and the assistant side
 * of each conversation that the §10 gates compare against (the last 20 replies)
 * and §2.8 reads back (the topics the user initiated in the previous 2 messages).
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('relationships')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('ai_friend_id', 'uuid', (c) => c.notNull())
      .addColumn('stage', 'text', (c) => c.notNull())
      .addColumn('rapport_score', 'integer', (c) => c.notNull())
      .addColumn('sessions_count', 'integer', (c) => c.notNull())
      .addColumn('last_interaction_at', 'timestamptz')
      .addColumn('last_session_at', 'timestamptz')
      .addColumn('last_stage_promotion_at', 'timestamptz')
      .addColumn('session_disengaged', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('dialogue')
      .addColumn('assistant_message_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('conversation_id', 'uuid', (c) => c.notNull())
      .addColumn('user_message_id', 'uuid', (c) => c.notNull())
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('user_text', 'text', (c) => c.notNull())
      .addColumn('assistant_text', 'text', (c) => c.notNull())
      .addColumn('opener_norm', 'text', (c) => c.notNull())
      .addColumn('asked_question', 'boolean', (c) => c.notNull())
      .addColumn('surfaced_memory_ids', 'jsonb', (c) => c.notNull())
      .addColumn('user_initiated_topics', 'jsonb', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      // The event's stream sequence: the order of a conversation even when two replies share a timestamp.
      .addColumn('event_seq', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('dialogue_conversation_idx').on('dialogue').columns(['conversation_id', 'event_seq']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('dialogue').execute();
    await db.schema.dropTable('relationships').execute();
  },
};
