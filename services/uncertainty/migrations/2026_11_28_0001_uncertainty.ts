import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Uncertainty's read model (uncertainty-engine.md "Database Schema"): the
 * `uncertainties` table with every column of the spec, the reliability state of
 * memories and belief nodes, the user's tolerance, the drift cycle, and a mirror
 * of memory's records folded from memory's events.
 */
export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('held_memories')
      .addColumn('memory_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('memory_key', 'text', (c) => c.notNull())
      .addColumn('memory_value', 'text', (c) => c.notNull())
      .addColumn('confidence', 'double precision', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('superseded_by', 'text')
      .addColumn('extractor', 'text', (c) => c.notNull())
      .addColumn('statements', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('access_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('topic_ids', sql`text[]`, (c) => c.notNull())
      .addColumn('source_message_id', 'text', (c) => c.notNull())
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      .addColumn('last_confirmed_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('held_memories_user_key_idx').on('held_memories').columns(['user_id', 'memory_key', 'status']).execute();
    await db.schema.createIndex('held_memories_source_idx').on('held_memories').columns(['user_id', 'source_message_id']).execute();

    await db.schema
      .createTable('reliability')
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      // memory | belief
      .addColumn('subject_kind', 'text', (c) => c.notNull())
      .addColumn('subject_id', 'text', (c) => c.notNull())
      .addColumn('reliability', 'text', (c) => c.notNull())
      .addColumn('uncertainty_id', 'text', (c) => c.notNull())
      .addColumn('changed_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('reliability_pk', ['subject_kind', 'subject_id'])
      .execute();
    await db.schema.createIndex('reliability_user_idx').on('reliability').column('user_id').execute();

    await db.schema
      .createTable('uncertainties')
      .addColumn('uncertainty_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      // trait | episode | concept (specs/README.md's mapping of the spec's stores)
      .addColumn('memory_a_type', 'text', (c) => c.notNull())
      .addColumn('memory_a_id', 'text', (c) => c.notNull())
      .addColumn('memory_b_type', 'text')
      .addColumn('memory_b_id', 'text')
      // contradiction | unverified | stale | ambiguous
      .addColumn('uncertainty_type', 'text', (c) => c.notNull())
      // low | medium | high | critical
      .addColumn('severity', 'text', (c) => c.notNull())
      // ingestion | drift | pre_action | consolidation
      .addColumn('detection_context', 'text', (c) => c.notNull())
      .addColumn('reasoning', 'text', (c) => c.notNull())
      .addColumn('temporal_signal', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('surface_context', 'text', (c) => c.notNull())
      // open | surfaced | resolved | decayed
      .addColumn('state', 'text', (c) => c.notNull().defaultTo('open'))
      // temporal_supersede | user_clarified | evidence_resolved | confidence_dominance | decayed
      .addColumn('resolution_strategy', 'text')
      .addColumn('resolution_detail', 'text')
      .addColumn('resolved_at', 'timestamptz')
      .addColumn('surfaced_count', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_surfaced_at', 'timestamptz')
      .addColumn('created_at', 'timestamptz', (c) => c.notNull())
      // Hearth: the memory key both sides are about, the sides as recorded, the words of a
      // matching conversation, anti-nag, the phrasings already used, the messages behind it.
      .addColumn('memory_key', 'text', (c) => c.notNull())
      .addColumn('subjects', 'jsonb', (c) => c.notNull())
      .addColumn('surface_cues', sql`text[]`, (c) => c.notNull())
      .addColumn('stepped_down', 'boolean', (c) => c.notNull().defaultTo(false))
      .addColumn('used_phrasing_ids', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'::text[]`))
      .addColumn('source_message_ids', sql`text[]`, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('uncertainties_user_state_idx').on('uncertainties').columns(['user_id', 'state']).execute();
    await db.schema.createIndex('uncertainties_memory_a_idx').on('uncertainties').columns(['memory_a_type', 'memory_a_id']).execute();
    await db.schema.createIndex('uncertainties_memory_b_idx').on('uncertainties').columns(['memory_b_type', 'memory_b_id']).execute();
    await db.schema.createIndex('uncertainties_severity_idx').on('uncertainties').columns(['severity', 'state']).execute();

    await db.schema
      .createTable('checks')
      .addColumn('message_id', 'uuid', (c) => c.primaryKey())
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('verdict', 'text', (c) => c.notNull())
      .addColumn('contradicted_memory_ids', sql`text[]`, (c) => c.notNull())
      .addColumn('uncertainty_id', 'text', (c) => c.notNull())
      .addColumn('late', 'boolean', (c) => c.notNull())
      .addColumn('checked_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('checks_user_idx').on('checks').column('user_id').execute();

    await db.schema
      .createTable('written_back')
      .addColumn('user_id', 'uuid', (c) => c.notNull())
      .addColumn('message_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('written_back_pk', ['user_id', 'message_id'])
      .execute();

    await db.schema
      .createTable('tolerances')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('tolerance', 'double precision', (c) => c.notNull())
      .addColumn('updated_at', 'timestamptz', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('drift')
      .addColumn('user_id', 'uuid', (c) => c.primaryKey())
      .addColumn('cycle', 'integer', (c) => c.notNull())
      .addColumn('last_drift_at', 'timestamptz', (c) => c.notNull())
      .execute();
  },
};
