import type { Kysely, Migration } from 'kysely';

/**
 * App opens by their client id, so a client's retry of one records nothing more
 * however late it comes (the stream's Msg-Id dedup only covers two minutes).
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('app_opens')
      .addColumn('user_id', 'text', (c) => c.notNull())
      .addColumn('app_open_id', 'text', (c) => c.notNull())
      .addColumn('opened_notification_id', 'text')
      .addColumn('opened_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('app_opens_pk', ['user_id', 'app_open_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('app_opens').execute();
  },
};
