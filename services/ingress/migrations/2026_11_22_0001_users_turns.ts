import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('users')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_state', 'text', (c) => c.notNull())
      .addColumn('answers', 'jsonb')
      .addColumn('ai_friend_id', 'uuid')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('personas')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('ai_friend_id', 'uuid', (c) => c.notNull())
      .addColumn('template_id', 'text', (c) => c.notNull())
      .addColumn('core_archetype', 'text', (c) => c.notNull())
      .addColumn('friend_energy', 'text', (c) => c.notNull())
      .addColumn('stable_style_params', 'jsonb', (c) => c.notNull())
      .addColumn('assigned_at', 'timestamptz', (c) => c.notNull())
      .execute();
    // One row per turn, filled from both sides in either order (replay-safe).
    await db.schema
      .createTable('turns')
      .addColumn('message_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('conversation_id', 'uuid', (c) => c.notNull())
      .addColumn('text', 'text')
      .addColumn('source', 'text')
      .addColumn('user_state', 'text')
      .addColumn('activates_user', 'boolean')
      .addColumn('received_at', 'timestamptz')
      .addColumn('routing', 'jsonb')
      .addColumn('assistant_message_id', 'uuid')
      .addColumn('assistant_text', 'text')
      .addColumn('surfaced_memory_ids', 'jsonb')
      .addColumn('completed_at', 'timestamptz')
      .addColumn('refused', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
    await db.schema.createIndex('turns_conversation_idx').on('turns').columns(['conversation_id', 'user_id', 'received_at']).execute();
    await db.schema.createIndex('turns_user_idx').on('turns').columns(['user_id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('turns').execute();
    await db.schema.dropTable('personas').execute();
    await db.schema.dropTable('users').execute();
  },
};
