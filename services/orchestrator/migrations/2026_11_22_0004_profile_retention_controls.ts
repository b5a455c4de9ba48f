import type { Kysely, Migration } from 'kysely';

/**
 * The user controls a proactive message obeys (turn-pipeline §2.7, §14.1, §14.4):
 * proactive messages on unless the user said otherwise, and the mute, if any.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('profiles')
      .addColumn('proactive_messages_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('mute_until', 'timestamptz')
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('profiles').dropColumn('proactive_messages_enabled').dropColumn('mute_until').execute();
  },
};
