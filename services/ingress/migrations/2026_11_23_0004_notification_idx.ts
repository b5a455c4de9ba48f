import { sql, type Kysely, type Migration } from 'kysely';

/**
 * A proactive message is found by its notification id (its assistant message
 * id): an app open names it, and the admin turn trail and the history cursor
 * accept it (turn-pipeline §14).
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createIndex('turns_notification_idx')
      .on('turns')
      .columns(['assistant_message_id'])
      .where(sql.ref('source'), '=', 'retention')
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('turns_notification_idx').execute();
  },
};
