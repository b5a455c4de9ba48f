import type { Kysely, Migration } from 'kysely';

/**
 * The uncertainty each reply asked about (issue 17; uncertainty-engine.md
 * "Conversational Clarification"): the next user message of the conversation
 * may answer it, and the turn names it to uncertainty (answers_uncertainty_id).
 * "" for none.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('dialogue')
      .addColumn('surfaced_uncertainty_id', 'text', (c) => c.notNull().defaultTo(''))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('dialogue').dropColumn('surfaced_uncertainty_id').execute();
  },
};
