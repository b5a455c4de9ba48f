import type { BeliefType, Holder, NodeView, Polarity, Stream, TemporalScope } from '@hearth/beliefs';
import type { Kysely } from 'kysely';
import type { BeliefDb } from '../db.js';

/** The holder's live nodes as resolution and the conflict engine see them, with each vector's model. */
export async function nodeViews(db: Kysely<BeliefDb>, userId: string, holder: Holder): Promise<(NodeView & { embeddingModel: string })[]> {
  const rows = await db
    .selectFrom('nodes')
    .select(['belief_id', 'canonical_text', 'canonical_hash', 'polarity', 'belief_type', 'temporal_scope', 'stream', 'embedding', 'embedding_model'])
    .where('user_id', '=', userId)
    .where('holder', '=', holder)
    .where('deleted_at', 'is', null)
    .orderBy('created_at')
    .execute();
  return rows.map((r) => ({
    beliefId: r.belief_id,
    canonicalText: r.canonical_text,
    canonicalHash: r.canonical_hash,
    polarity: r.polarity as Polarity,
    beliefType: r.belief_type as BeliefType,
    temporalScope: r.temporal_scope as TemporalScope,
    stream: r.stream as Stream,
    vector: r.embedding,
    embeddingModel: r.embedding_model,
  }));
}
