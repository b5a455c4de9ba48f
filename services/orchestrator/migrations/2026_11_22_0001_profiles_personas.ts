import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('profiles')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_state', 'text', (c) => c.notNull())
      .addColumn('preferred_name', 'text')
      .addColumn('age_band', 'text')
      .addColumn('client_timezone', 'text')
      .addColumn('suppressed_topics', 'jsonb', (c) => c.notNull().defaultTo('[]'))
      .addColumn('ai_friend_id', 'uuid')
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('personas')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('ai_friend_id', 'uuid', (c) => c.notNull())
      .addColumn('template_id', 'text', (c) => c.notNull())
      .addColumn('core_archetype', 'text', (c) => c.notNull())
      .addColumn('humor_mode', 'text', (c) => c.notNull())
      .addColumn('friend_energy', 'text', (c) => c.notNull())
      .addColumn('stable_style_params', 'jsonb', (c) => c.notNull())
      .addColumn('persona_seed', 'bigint', (c) => c.notNull())
      .addColumn('assigned_at', 'timestamptz', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('personas').execute();
    await db.schema.dropTable('profiles').execute();
  },
};
