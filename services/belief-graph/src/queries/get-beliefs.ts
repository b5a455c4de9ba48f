import { isUuid } from '@hearth/events';
import { belief } from '@hearth/proto';
import type { Kysely } from 'kysely';
import { SERVICE } from '../config.js';
import type { BeliefDb } from '../db.js';

/**
 * GetBeliefs: one user's graph as GET /v1/admin/users/{user_id}/beliefs shows
 * it (API.md), for one holder or both: live nodes with their evidence, links,
 * conflicts among them, and challenges. Answered from the projection.
 */
export function createGetBeliefsQuery(db: Kysely<BeliefDb>): (request: belief.GetBeliefsRequest) => Promise<belief.GetBeliefsResponse> {
  return async (request) => {
    const { userId, holder } = request;
    if (!isUuid(userId)) throw new Error(`GetBeliefsRequest.user_id must be a uuid, got ${JSON.stringify(userId.slice(0, 64))}`);
    if (holder !== '' && holder !== 'user' && holder !== 'companion') throw new Error(`GetBeliefsRequest.holder must be user, companion or empty, got ${JSON.stringify(holder.slice(0, 32))}`);
    let q = db.selectFrom('nodes').selectAll().where('user_id', '=', userId).where('deleted_at', 'is', null);
    if (holder) q = q.where('holder', '=', holder);
    const nodes = await q.orderBy('created_at').orderBy('belief_id').limit(SERVICE.listLimit).execute();
    const ids = nodes.map((n) => n.belief_id);
    const occurrences = ids.length
      ? await db.selectFrom('occurrences').select(['belief_id', 'source_message_id']).where('belief_id', 'in', ids).where('deleted_at', 'is', null).orderBy('created_at').execute()
      : [];
    const sources = new Map<string, string[]>();
    for (const o of occurrences) sources.set(o.belief_id, [...(sources.get(o.belief_id) ?? []), o.source_message_id]);
    const idSet = new Set(ids);
    const links = ids.length ? await db.selectFrom('links').selectAll().where('user_id', '=', userId).orderBy('created_at').execute() : [];
    const conflicts = ids.length ? await db.selectFrom('conflicts').selectAll().where('user_id', '=', userId).where('status', '=', 'active').orderBy('created_at').execute() : [];
    const challenges = await db.selectFrom('challenges').selectAll().where('user_id', '=', userId).orderBy('created_at').execute();
    const response: belief.GetBeliefsResponse = {
      nodes: nodes.map((n) => {
        const src = sources.get(n.belief_id) ?? [];
        return {
          beliefId: n.belief_id,
          holder: n.holder,
          canonicalText: n.canonical_text,
          beliefType: n.belief_type,
          polarity: n.polarity,
          stream: n.stream,
          status: n.status,
          confidence: n.confidence,
          activation: n.activation,
          coreScore: n.core_score,
          occurrenceCount: src.length,
          sourceMessageIds: [...new Set(src)].slice(-SERVICE.sourceIdsPerNode),
          createdAt: n.created_at,
        };
      }),
      links: links
        .filter((l) => idSet.has(l.from_belief_id) || idSet.has(l.to_belief_id))
        .map((l) => ({ linkId: l.link_id, fromBeliefId: l.from_belief_id, toBeliefId: l.to_belief_id, confidence: l.confidence, state: l.state })),
      conflicts: conflicts
        .filter((c) => idSet.has(c.node_a_id) && idSet.has(c.node_b_id))
        .map((c) => ({ conflictId: c.conflict_id, beliefIds: [c.node_a_id, c.node_b_id], conflictType: c.conflict_type, sourceMessageIds: c.source_message_ids, createdAt: c.created_at })),
      // Challenges are about the user's own beliefs: listed unless only the companion's are asked.
      challenges: holder === 'companion' ? [] : challenges.map((c) => ({ challengeId: c.challenge_id, beliefId: c.belief_id, style: c.style, messageId: c.message_id, createdAt: c.created_at })),
    };
    return response;
  };
}
