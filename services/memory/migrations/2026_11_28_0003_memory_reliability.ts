import type { Kysely, Migration } from 'kysely';

/**
 * The reliability state of each memory (uncertainty-engine.md "Memory Reliability
 * Model": reliable | uncertain | contradicted | superseded), owned by the
 * uncertainty service and projected here from its ReliabilityChanged.
 *
 * `memory_reliability` keeps the latest state the uncertainty chain gave each of
 * the user's memory ids, whether or not memory has applied the record yet: the
 * two streams are consumed independently (and replayed one after the other), so
 * a state may arrive before its memory. A MemoryRecorded takes its state from
 * there, which makes the fold the same whatever the interleaving.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .alterTable('memories')
      .addColumn('reliability', 'text', (c) => c.notNull().defaultTo('reliable'))
      .execute();
    await db.schema
      .createTable('memory_reliability')
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('memory_id', 'uuid', (c) => c.notNull())
      .addColumn('reliability', 'text', (c) => c.notNull())
      .addColumn('changed_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('memory_reliability_pk', ['user_id', 'memory_id'])
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropTable('memory_reliability').execute();
    await db.schema.alterTable('memories').dropColumn('reliability').execute();
  },
};
