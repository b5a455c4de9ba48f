import { activationOf, type OccurrenceView, type Stream } from '@hearth/beliefs';
import { isUuid } from '@hearth/events';
import { belief } from '@hearth/proto';
import { sql, type Kysely } from 'kysely';
import type { BeliefDb } from '../db.js';

/**
 * GetCompanionBeliefs: the companion's live beliefs as the trust service reads
 * them (outcome-driven-trust.md: alignment, anchors, g_conviction, conflicts),
 * asked on every tagged turn and every outcome evaluation, so two reads made
 * together: the nodes with their open conflicts counted, and their evidence.
 * Activation is computed at the asker's time from the live occurrences (the
 * stored one is as of the node's last evidence, decayed no further since).
 */
export function createGetCompanionBeliefsQuery(db: Kysely<BeliefDb>): (request: belief.GetCompanionBeliefsRequest) => Promise<belief.GetCompanionBeliefsResponse> {
  return async (request) => {
    const req = request;
    if (!isUuid(req.userId)) throw new Error(`GetCompanionBeliefsRequest.user_id must be a uuid, got ${JSON.stringify(req.userId.slice(0, 64))}`);
    const at = req.at ?? new Date(0);
    // Only ids a node can have; asked for some and none of them can be one, the answer is empty.
    const only = req.beliefIds.filter(isUuid);
    if (req.beliefIds.length > 0 && only.length === 0) return { beliefs: [] };

    let nodes = db
      .selectFrom('nodes')
      .select(['belief_id', 'canonical_text', 'embedding', 'embedding_model', 'stream', 'confidence', 'seeded', 'gardener_level', 'status'])
      .select((eb) =>
        eb
          .selectFrom('conflicts')
          .select(sql<number>`count(*)::int`.as('n'))
          .whereRef('conflicts.user_id', '=', 'nodes.user_id')
          .where('conflicts.status', '=', 'active')
          .where((c) => c.or([c('conflicts.node_a_id', '=', c.ref('nodes.belief_id')), c('conflicts.node_b_id', '=', c.ref('nodes.belief_id'))]))
          .as('open_conflicts'),
      )
      .where('user_id', '=', req.userId)
      .where('holder', '=', 'companion')
      .where('deleted_at', 'is', null)
      .where('merged_into', 'is', null)
      // As the companion stood before `at`: a turn's own reply (recorded at the turn's time) is not yet
      // part of it, or its self-tag would align with the belief that very sentence just created.
      .where('created_at', '<', at);
    let evidence = db
      .selectFrom('occurrences')
      .innerJoin('nodes', 'nodes.belief_id', 'occurrences.belief_id')
      .select(['occurrences.belief_id', 'occurrences.created_at', 'occurrences.source_weight', 'occurrences.atom_confidence', 'occurrences.context_id'])
      .where('occurrences.user_id', '=', req.userId)
      .where('occurrences.deleted_at', 'is', null)
      .where('occurrences.created_at', '<', at)
      .where('nodes.holder', '=', 'companion')
      .where('nodes.deleted_at', 'is', null)
      .where('nodes.merged_into', 'is', null);
    if (only.length > 0) {
      nodes = nodes.where('belief_id', 'in', only);
      evidence = evidence.where('occurrences.belief_id', 'in', only);
    }
    const [rows, occurrences] = await Promise.all([nodes.orderBy('created_at').orderBy('belief_id').execute(), evidence.execute()]);

    const byBelief = new Map<string, OccurrenceView[]>();
    for (const o of occurrences) {
      const list = byBelief.get(o.belief_id) ?? [];
      list.push({ at: o.created_at, sourceWeight: o.source_weight, atomConfidence: o.atom_confidence, contextId: o.context_id });
      byBelief.set(o.belief_id, list);
    }
    const response: belief.GetCompanionBeliefsResponse = {
      beliefs: rows.map((n) => ({
        beliefId: n.belief_id,
        canonicalText: n.canonical_text,
        embedding: n.embedding,
        embeddingModel: n.embedding_model,
        stream: n.stream,
        activation: activationOf(byBelief.get(n.belief_id) ?? [], n.stream as Stream, at),
        confidence: n.confidence,
        seeded: n.seeded,
        level: n.gardener_level,
        openConflicts: Number(n.open_conflicts ?? 0),
        status: n.status,
      })),
    };
    return response;
  };
}
