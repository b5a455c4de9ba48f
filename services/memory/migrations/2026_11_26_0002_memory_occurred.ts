import type { Kysely, Migration } from 'kysely';

/**
 * When what a memory tells happened, as the user stated it (issue 15,
 * MemoryRecorded occurred_*): the day, or the first day of the stated week,
 * month or year, its precision, and the words. Null when the text stated no
 * time, and once the memory is INVALID. Text, not date: a YYYY-MM-DD string
 * reads back as written, with no time zone to shift it.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('memories')
      .addColumn('occurred_on', 'text')
      .addColumn('occurred_precision', 'text')
      .addColumn('occurred_text', 'text')
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('memories').dropColumn('occurred_on').dropColumn('occurred_precision').dropColumn('occurred_text').execute();
  },
};
