import { isUuid } from '@hearth/events';
import { trust } from '@hearth/proto';
import { ACTORS } from '@hearth/trust';
import type { Kysely } from 'kysely';
import { loadActors } from '../adapters/state.js';
import { SERVICE } from '../config.js';
import type { TrustDb } from '../db.js';

type Components = NonNullable<trust.Outcome['components']>;

/**
 * GetTrust: one user's trust as GET /v1/admin/users/{user_id}/trust and the
 * export show it (API.md): T_actor of both actors (0.5 and no update until the
 * first), the evaluated outcomes by evaluation time, and every tag seen by time
 * (the most recent SERVICE.listLimit of each, oldest first).
 */
export function createGetTrustQuery(db: Kysely<TrustDb>): (request: trust.GetTrustRequest) => Promise<trust.GetTrustResponse> {
  return async (request) => {
    const { userId } = request;
    if (!isUuid(userId)) throw new Error(`GetTrustRequest.user_id must be a uuid, got ${JSON.stringify(userId.slice(0, 64))}`);
    const [actors, outcomes, feedback] = await Promise.all([
      loadActors(db, userId),
      db
        .selectFrom('outcomes')
        .select(['outcome_id', 'decision_id', 'belief_id', 'horizon', 'reward', 'components', 'evaluated_at'])
        .where('user_id', '=', userId)
        .where('evaluated_at', 'is not', null)
        .orderBy('evaluated_at', 'desc')
        .orderBy('outcome_id', 'desc')
        .limit(SERVICE.listLimit)
        .execute(),
      db
        .selectFrom('feedback')
        .select(['feedback_id', 'tag', 'actor', 'belief_id', 'weight', 'applied', 'reason', 'created_at'])
        .where('user_id', '=', userId)
        .orderBy('created_at', 'desc')
        .orderBy('position', 'desc')
        .limit(SERVICE.listLimit)
        .execute(),
    ]);
    const response: trust.GetTrustResponse = {
      actors: ACTORS.map((a) => ({ actor: a, trust: actors[a].trust, updates: actors[a].updates, updatedAt: actors[a].updatedAt ?? undefined })),
      outcomes: outcomes.reverse().map((o) => ({
        outcomeId: o.outcome_id,
        horizon: o.horizon,
        reward: o.reward ?? 0,
        components: (o.components as Components | null) ?? { coherence: 0, confidence: 0, stability: 0, validation: 0 },
        evaluatedAt: o.evaluated_at ?? undefined,
        decisionId: o.decision_id,
        beliefId: o.belief_id,
      })),
      feedback: feedback.reverse().map((f) => ({ tag: f.tag, actor: f.actor, beliefId: f.belief_id, weight: f.weight, applied: f.applied, reason: f.reason, createdAt: f.created_at })),
    };
    return response;
  };
}
