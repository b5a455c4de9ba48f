import type { Kysely, Migration } from 'kysely';

/**
 * Personas are appended to the orchestrator's global assignment log, not to
 * the user's own subject; the row keeps the event's stream sequence so the
 * admin timeline can fetch it without scanning the log.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('personas').addColumn('event_seq', 'bigint').execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('personas').dropColumn('event_seq').execute();
  },
};
