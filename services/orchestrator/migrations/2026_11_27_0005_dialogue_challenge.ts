import type { Kysely, Migration } from 'kysely';

/**
 * The belief challenge each reply wove in (issue 16; belief-challenge.md
 * Integration step 5: at most one per conversation): a turn asks the graph for
 * one only while no reply of its conversation carries one. "" for none.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('dialogue')
      .addColumn('challenge_id', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('dialogue').dropColumn('challenge_id').execute();
  },
};
