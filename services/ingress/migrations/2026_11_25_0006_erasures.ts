import type { Kysely, Migration } from 'kysely';

/**
 * Erasures (DELETE /v1/me) and which services applied each. Ids and times
 * only: the record outlives the user's data, so a repeated DELETE answers with
 * the same erasure.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('erasures')
      .addColumn('erasure_id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('key_generation', 'integer', (c) => c.notNull())
      .addColumn('requested_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('erasures_user_idx').on('erasures').columns(['user_id', 'requested_at']).execute();
    await db.schema
      .createTable('erasures_applied')
      .addColumn('erasure_id', 'text', (c) => c.notNull())
      .addColumn('service', 'text', (c) => c.notNull())
      .addColumn('applied_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('erasures_applied_pk', ['erasure_id', 'service'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('erasures_applied').execute();
    await db.schema.dropTable('erasures').execute();
  },
};
