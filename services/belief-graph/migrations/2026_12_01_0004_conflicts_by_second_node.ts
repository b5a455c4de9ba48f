import type { Kysely, Migration } from 'kysely';

/**
 * A belief's recent conflicts are found by either of their two nodes; the pair's
 * unique index serves the first only, so a lookup by the second scanned the whole
 * table once it held many rows (issue 20).
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.createIndex('conflicts_node_b_idx').on('conflicts').columns(['node_b_id']).execute();
  },
  async down(db: Kysely<any>) {
    await db.schema.dropIndex('conflicts_node_b_idx').execute();
  },
};
