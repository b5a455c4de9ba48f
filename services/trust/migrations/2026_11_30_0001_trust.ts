import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Trust's read model (outcome-driven-trust.md), one user's rows each: T_actor per
 * actor, every tag seen with its weight and why it counts or not, the gardener's
 * decisions with the state they are judged against, the outcomes at both
 * horizons (pending until evaluated), the scheduler's next due time and lease per user, and the belief
 * challenges the companion wove in with the user's answers (belief-graph's
 * stream), which a challenge decision is judged by.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('actors')
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      // user | agent
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('trust', 'double precision', (c) => c.notNull())
      .addColumn('updates', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz')
      .addPrimaryKeyConstraint('actors_pk', ['user_id', 'actor'])
      .execute();

    await db.schema
      .createTable('feedback')
      .addColumn('feedback_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('source_message_id', 'text', (c) => c.notNull())
      // Its place among the tags of its turn (FeedbackRecorded.tags), for a stable order.
      .addColumn('position', 'integer', (c) => c.notNull())
      // +keep | +doubt | +artifact
      .addColumn('tag', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      // "" when no belief is close enough (no_belief)
      .addColumn('belief_id', 'text', (c) => c.notNull())
      .addColumn('alignment', 'double precision', (c) => c.notNull())
      .addColumn('cue', 'text', (c) => c.notNull())
      .addColumn('precision', 'double precision', (c) => c.notNull())
      .addColumn('g_conviction', 'double precision', (c) => c.notNull())
      .addColumn('g_trust', 'double precision', (c) => c.notNull())
      .addColumn('g_align', 'double precision', (c) => c.notNull())
      .addColumn('base_weight', 'double precision', (c) => c.notNull())
      .addColumn('weight', 'double precision', (c) => c.notNull())
      .addColumn('applied', 'boolean', (c) => c.notNull())
      // counted | duplicate | off_target | no_belief
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('text', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute();
    // The aggregator's and the evaluator's history: a user's tags in a window before a time.
    await db.schema.createIndex('feedback_user_time_idx').on('feedback').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('decisions')
      .addColumn('decision_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('belief_id', 'text', (c) => c.notNull())
      // promote | deprecate | hold
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('feedback', 'double precision', (c) => c.notNull())
      .addColumn('neg', 'double precision', (c) => c.notNull())
      // {"user": share, "agent": share}
      .addColumn('contributions', 'jsonb', (c) => c.notNull())
      .addColumn('global_feedback', 'double precision', (c) => c.notNull())
      .addColumn('global_neg', 'double precision', (c) => c.notNull())
      .addColumn('coherence', 'double precision', (c) => c.notNull())
      .addColumn('conflicts', 'integer', (c) => c.notNull())
      .addColumn('confidence', 'double precision', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('doubt_rate', 'double precision', (c) => c.notNull())
      .addColumn('source_message_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .execute();
    // Stability reads a belief's decisions; Δconf's percentile reads the user's.
    await db.schema.createIndex('decisions_user_belief_idx').on('decisions').columns(['user_id', 'belief_id', 'created_at']).execute();
    await db.schema.createIndex('decisions_user_time_idx').on('decisions').columns(['user_id', 'created_at']).execute();

    await db.schema
      .createTable('outcomes')
      .addColumn('outcome_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('decision_id', 'uuid', (c) => c.notNull())
      .addColumn('belief_id', 'text', (c) => c.notNull())
      // 2h | 24h
      .addColumn('horizon', 'text', (c) => c.notNull())
      .addColumn('due_at', 'timestamptz', (c) => c.notNull())
      // null while pending
      .addColumn('evaluated_at', 'timestamptz')
      .addColumn('reward', 'double precision')
      // {coherence, confidence, stability, validation}
      .addColumn('components', 'jsonb')
      // {"user": r_user, "agent": r_agent}
      .addColumn('credit', 'jsonb')
      .addColumn('validation_explicit', 'double precision')
      .addColumn('validation_implicit', 'double precision')
      .addColumn('coherence_baseline', 'double precision')
      .addColumn('alpha_scale', 'double precision')
      .execute();
    // The scheduler's due outcomes of a user, and the admin view's evaluated ones.
    await db.schema
      .createIndex('outcomes_pending_idx')
      .on('outcomes')
      .columns(['user_id', 'due_at'])
      .where(sql.ref('evaluated_at'), 'is', null)
      .execute();
    await db.schema.createIndex('outcomes_user_evaluated_idx').on('outcomes').columns(['user_id', 'evaluated_at']).execute();

    await db.schema
      .createTable('schedule')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      // The earliest pending outcome's due time (virtual clock); null when none is pending.
      .addColumn('next_due_at', 'timestamptz')
      // Which replica is evaluating the user, until when (database time: a lease, not the virtual clock).
      .addColumn('claimed_by', 'text')
      .addColumn('claimed_until', 'timestamptz')
      .execute();
    await db.schema.createIndex('schedule_due_idx').on('schedule').column('next_due_at').execute();

    await db.schema
      .createTable('challenges')
      .addColumn('challenge_id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      // The user's belief the challenge questioned.
      .addColumn('belief_id', 'text', (c) => c.notNull())
      // The GardenerDecided (action challenge) trust appends for it.
      .addColumn('decision_id', 'uuid', (c) => c.notNull().unique())
      // The user message the reply carrying the challenge answered.
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('issued_at', 'timestamptz', (c) => c.notNull())
      // BeliefConfidenceUpdated: reinforced | questioned | contradicted | none; null until the user answers.
      .addColumn('answer_signal', 'text')
      .addColumn('answer_message_id', 'text')
      .addColumn('answer_delta', 'double precision')
      .addColumn('answer_confidence', 'double precision')
      .addColumn('answered_at', 'timestamptz')
      .execute();
    // Stability reads the answers about a belief.
    await db.schema.createIndex('challenges_user_belief_idx').on('challenges').columns(['user_id', 'belief_id', 'answered_at']).execute();
  },
  async down(db: Kysely<any>) {
    for (const table of ['challenges', 'schedule', 'outcomes', 'decisions', 'feedback', 'actors']) await db.schema.dropTable(table).execute();
  },
};
