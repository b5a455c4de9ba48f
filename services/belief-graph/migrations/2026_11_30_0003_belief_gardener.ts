import type { Kysely, Migration } from 'kysely';

/**
 * The trust service's side of the graph (outcome-driven-trust.md, issue 18):
 * - `nodes.gardener_level`: what the gardener's promote/deprecate decisions made
 *   of a companion belief (−1 deprecated, 0, +1 promoted), as BeliefGardened says;
 * - `gardened`: every BeliefGardened, applied or not, by the decision it answers
 *   (a redelivered GardenerDecided finds its answer here and appends nothing);
 * - `belief_rewards`: the outcomes trust evaluated per belief, summed, for
 *   belief-challenge.md's reward correlation (their mean).
 * All of it is the user's data: erased with the user.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('nodes')
      .addColumn('gardener_level', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable('gardened')
      .addColumn('decision_id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('belief_id', 'text', (c) => c.notNull())
      // promote | deprecate
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('applied', 'boolean', (c) => c.notNull())
      // applied | unknown_belief | not_companion | at_ceiling | at_floor
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('level', 'integer', (c) => c.notNull())
      .addColumn('confidence', 'double precision', (c) => c.notNull())
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('gardened_user_idx').on('gardened').columns(['user_id', 'belief_id']).execute();
    await db.schema
      .createTable('belief_rewards')
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      // As trust named it: not necessarily a node here (yet, or any more).
      .addColumn('belief_id', 'text', (c) => c.notNull())
      .addColumn('outcomes', 'integer', (c) => c.notNull())
      .addColumn('reward_sum', 'double precision', (c) => c.notNull())
      .addPrimaryKeyConstraint('belief_rewards_pk', ['user_id', 'belief_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('belief_rewards').execute();
    await db.schema.dropTable('gardened').execute();
    await db.schema.alterTable('nodes').dropColumn('gardener_level').execute();
  },
};
