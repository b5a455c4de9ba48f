import type { Kysely, Migration } from 'kysely';

/**
 * The retention read model (turn-pipeline §14): what eligibility needs of each
 * user, and every proactive message with what became of it. `schedule` is not
 * part of the projection: it is the scheduler's own progress (the last hour
 * evaluated per user) and a short lease per user, which keeps replicas from
 * evaluating a user's hour twice.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('users')
      // Filled from ingress (answers, controls, messages) and the orchestrator
      // (stage) in either order: every column has a default.
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('timezone', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('proactive_enabled', 'boolean', (c) => c.notNull().defaultTo(true))
      .addColumn('mute_until', 'timestamptz')
      .addColumn('stage', 'text', (c) => c.notNull().defaultTo('STRANGER'))
      .addColumn('last_interaction_at', 'timestamptz')
      .addColumn('conversation_id', 'uuid')
      .addColumn('ai_friend_id', 'text', (c) => c.notNull().defaultTo(''))
      // When the user answered onboarding: evaluation starts from that hour.
      .addColumn('onboarded_at', 'timestamptz')
      .execute();
    // One row per proactive message, filled from retention's plan and the
    // orchestrator's delivery or decline in either order (replay-safe).
    await db.schema
      .createTable('retentions')
      .addColumn('retention_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('notification_id', 'uuid')
      .addColumn('conversation_id', 'uuid')
      .addColumn('planned_at', 'timestamptz')
      .addColumn('delivered_at', 'timestamptz')
      .addColumn('declined_reason', 'text')
      .addColumn('outcome', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('acknowledged_via', 'text')
      .addColumn('resolved_at', 'timestamptz')
      .execute();
    await db.schema.createIndex('retentions_user_idx').on('retentions').columns(['user_id', 'planned_at']).execute();
    await db.schema
      .createTable('schedule')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('evaluated_through', 'timestamptz')
      .addColumn('evaluations', 'bigint', (c) => c.notNull().defaultTo(0))
      // Which replica is evaluating the user, until when (database time: a lease, not the virtual clock).
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'timestamptz')
      .execute();
    await db.schema.createIndex('schedule_through_idx').on('schedule').columns(['evaluated_through']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('schedule').execute();
    await db.schema.dropTable('retentions').execute();
    await db.schema.dropTable('users').execute();
  },
};
