import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The user's controls (turn-pipeline §2.7) as they stand now: set at onboarding,
 * changed by PATCH /v1/me/controls or a §12.4 "don't bring this topic up again".
 * Rows onboarded before this column get theirs from their answers.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('users').addColumn('controls', 'jsonb').execute();
    // Through the builder, so the migration's schema applies to the table name.
    await db
      .updateTable('users')
      .set({
        controls: sql`jsonb_build_object(
          'proactive_messages_enabled', coalesce((answers->>'proactive_messages_enabled')::boolean, false),
          'mute_until', null,
          'suppressed_topics', coalesce(answers->'suppressed_topics', '[]'::jsonb))`,
      })
      .where('answers', 'is not', null)
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.alterTable('users').dropColumn('controls').execute();
  },
};
