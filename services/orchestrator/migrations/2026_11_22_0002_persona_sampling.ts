import type { Kysely, Migration } from 'kysely';

/**
 * The anti-cloning cap counts the assignments of the last 24 h on every
 * onboarding (§3.4.1), and a persona keeps how its sample came about.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('personas_assigned_at_idx').on('personas').column('assigned_at').execute();
    await db.schema
      .alterTable('personas')
      .addColumn('mutated_categories', 'jsonb', (c) => c.notNull().defaultTo('[]'))
      .addColumn('resamples', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('fallback', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('window_total', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('window_combo_count', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<any>) {
    await db.schema
      .alterTable('personas')
      .dropColumn('mutated_categories')
      .dropColumn('resamples')
      .dropColumn('fallback')
      .dropColumn('window_total')
      .dropColumn('window_combo_count')
      .execute();
    await db.schema.dropIndex('personas_assigned_at_idx').execute();
  },
};
