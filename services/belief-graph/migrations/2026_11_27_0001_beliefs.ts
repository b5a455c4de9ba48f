import { sql, type Kysely, type Migration } from 'kysely';

/**
 * The belief graph's read model (self-belief-decomposer.md §3, belief-challenge.md):
 * nodes per user and holder with their occurrences, tentative links, conflict
 * edges, challenges, and the sources already processed per extractor version.
 * Everything here is folded from belief-graph's own events.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('nodes')
      .addColumn('belief_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      // user | companion (specs/README.md: one graph, two holders)
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('canonical_text', 'text', (c) => c.notNull())
      .addColumn('canonical_hash', 'text', (c) => c.notNull())
      .addColumn('belief_type', 'text', (c) => c.notNull())
      .addColumn('polarity', 'text', (c) => c.notNull())
      .addColumn('temporal_scope', 'text', (c) => c.notNull())
      .addColumn('embedding', sql`real[]`, (c) => c.notNull())
      .addColumn('embedding_model', 'text', (c) => c.notNull())
      .addColumn('embedding_text', 'text', (c) => c.notNull())
      // The user's words of the latest occurrence (a challenge quotes them).
      .addColumn('raw_text', 'text', (c) => c.notNull())
      .addColumn('activation', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('core_score', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('surface'))
      .addColumn('confidence', 'double precision', (c) => c.notNull())
      .addColumn('conflict_count', 'integer', (c) => c.notNull().defaultTo(0))
      // §3.5 stream assignment, one per node, with its migration history.
      .addColumn('stream', 'text', (c) => c.notNull())
      .addColumn('secondary_stream', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('stream_confidence', 'double precision', (c) => c.notNull().defaultTo(0))
      .addColumn('migrated_from', 'text')
      .addColumn('migrated_at', 'timestamptz')
      .addColumn('migration_history', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      // Seeded from the persona's template at assignment: a constraint on replies from the start.
      .addColumn('seeded', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('last_reinforced_at', 'timestamptz', (c) => c.notNull())
      // Left without occurrences by a rollback (§6) or merged into another node.
      .addColumn('deleted_at', 'timestamptz')
      .addColumn('merged_into', 'uuid')
      .execute();
    // §9.1 one node per canonical meaning — per user, holder and polarity (a contradiction is the same hash, opposite polarity).
    await db.schema
      .createIndex('nodes_meaning_uq')
      .on('nodes')
      .columns(['user_id', 'holder', 'canonical_hash', 'polarity'])
      .unique()
      .where(sql.ref('deleted_at'), 'is', null)
      .execute();
    await db.schema.createIndex('nodes_user_idx').on('nodes').columns(['user_id', 'holder', 'last_reinforced_at']).execute();

    await db.schema
      .createTable('occurrences')
      .addColumn('occurrence_id', 'uuid', (c) => c.primaryKey())
      .addColumn('belief_id', 'uuid', (c) => c.notNull())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('source_message_id', 'text', (c) => c.notNull())
      .addColumn('extractor_version', 'text', (c) => c.notNull())
      .addColumn('raw_text', 'text', (c) => c.notNull())
      .addColumn('raw_span', 'jsonb', (c) => c.notNull())
      .addColumn('source_weight', 'double precision', (c) => c.notNull())
      .addColumn('atom_confidence', 'double precision', (c) => c.notNull())
      .addColumn('epistemic_frame', 'jsonb', (c) => c.notNull())
      .addColumn('epistemic_confidence', 'double precision', (c) => c.notNull())
      .addColumn('match_confidence', 'double precision', (c) => c.notNull())
      .addColumn('context_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('deleted_at', 'timestamptz')
      .execute();
    // §9.2 one occurrence per (belief, source, version).
    await db.schema.createIndex('occurrences_uq').on('occurrences').columns(['belief_id', 'source_message_id', 'extractor_version']).unique().execute();
    await db.schema.createIndex('occurrences_user_idx').on('occurrences').columns(['user_id', 'extractor_version']).execute();

    await db.schema
      .createTable('links')
      .addColumn('link_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('from_belief_id', 'uuid', (c) => c.notNull())
      .addColumn('to_belief_id', 'uuid', (c) => c.notNull())
      .addColumn('confidence', 'double precision', (c) => c.notNull())
      // pending | accepted | rejected | merged
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('support_both', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('support_one', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_support_at', 'timestamptz', (c) => c.notNull())
      .addColumn('signals', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .addColumn('extractor_version', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      // §9.3 ordered pairs.
      .addCheckConstraint('links_ordered', sql`from_belief_id::text < to_belief_id::text`)
      .execute();
    await db.schema.createIndex('links_pair_uq').on('links').columns(['from_belief_id', 'to_belief_id']).unique().execute();
    await db.schema.createIndex('links_user_idx').on('links').columns(['user_id']).execute();

    await db.schema
      .createTable('conflicts')
      .addColumn('conflict_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('node_a_id', 'uuid', (c) => c.notNull())
      .addColumn('node_b_id', 'uuid', (c) => c.notNull())
      .addColumn('conflict_type', 'text', (c) => c.notNull())
      .addColumn('detection_method', 'text', (c) => c.notNull())
      .addColumn('evidence', 'jsonb', (c) => c.notNull())
      .addColumn('source_message_ids', sql`text[]`, (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull().defaultTo('active'))
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('resolved_at', 'timestamptz')
      .addColumn('resolution_reason', 'text')
      .execute();
    await db.schema.createIndex('conflicts_pair_uq').on('conflicts').columns(['node_a_id', 'node_b_id']).unique().execute();
    await db.schema.createIndex('conflicts_user_idx').on('conflicts').columns(['user_id']).execute();

    await db.schema
      .createTable('challenges')
      .addColumn('challenge_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('belief_id', 'uuid', (c) => c.notNull())
      .addColumn('style', 'text', (c) => c.notNull())
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addColumn('assistant_message_id', 'text', (c) => c.notNull())
      .addColumn('conversation_id', 'text', (c) => c.notNull())
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      // The user message that answered it, once the updater read it.
      .addColumn('answered_message_id', 'text')
      .addColumn('answer_signal', 'text')
      .execute();
    await db.schema.createIndex('challenges_user_idx').on('challenges').columns(['user_id', 'conversation_id']).execute();

    // Every source decomposed, per holder and extractor version: the backfill and
    // a redelivery long after the append skip it (§6 "skip experiences already processed").
    await db.schema
      .createTable('sources')
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('source_message_id', 'text', (c) => c.notNull())
      .addColumn('holder', 'text', (c) => c.notNull())
      .addColumn('extractor_version', 'text', (c) => c.notNull())
      .addColumn('atoms', 'integer', (c) => c.notNull())
      .addColumn('processed_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('sources_pk', ['user_id', 'source_message_id', 'holder', 'extractor_version'])
      .execute();
  },
  async down(db: Kysely<any>) {
    for (const t of ['sources', 'challenges', 'conflicts', 'links', 'occurrences', 'nodes']) await db.schema.dropTable(t).execute();
  },
};
