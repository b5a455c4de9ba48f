import type { Kysely, Migration } from 'kysely';

/**
 * The reliability state of each belief node (uncertainty-engine.md "Memory
 * Reliability Model": a belief node is the spec's semantic concept), owned by
 * the uncertainty service and projected from its ReliabilityChanged.
 *
 * `belief_reliability` keeps the latest state the uncertainty chain gave each of
 * the user's belief ids, whether or not the node exists here yet: the two
 * streams are consumed independently (and replayed one after the other), and a
 * node created after its state takes it from there.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('nodes')
      .addColumn('reliability', 'text', (c) => c.notNull().defaultTo('reliable'))
      .execute();
    await db.schema
      .createTable('belief_reliability')
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('belief_id', 'uuid', (c) => c.notNull())
      .addColumn('reliability', 'text', (c) => c.notNull())
      .addColumn('changed_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('belief_reliability_pk', ['user_id', 'belief_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('belief_reliability').execute();
    await db.schema.alterTable('nodes').dropColumn('reliability').execute();
  },
};
