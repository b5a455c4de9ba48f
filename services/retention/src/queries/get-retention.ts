import { isUuid } from '@hearth/events';
import { retention } from '@hearth/proto';
import type { Kysely } from 'kysely';
import type { RetentionDb } from '../db.js';
import { backoffAt } from '../domain/eligibility.js';
import { loadRecords } from '../state.js';

/** How many messages an answer lists, newest first. */
const LISTED = 50;


/**
 * GetRetention: one user's proactive messages and what became of them, the
 * last hour evaluated and the backoff in force then — what an admin needs to
 * see why a user did or did not hear from the friend.
 */
export function createGetRetentionQuery(db: Kysely<RetentionDb>): (request: retention.GetRetentionRequest) => Promise<retention.GetRetentionResponse> {
  return async (request) => {
    const { userId } = request;
    if (!isUuid(userId)) throw new Error(`GetRetentionRequest.user_id must be a uuid, got ${JSON.stringify(userId.slice(0, 64))}`);
    const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (!user) return { found: false, evaluatedThrough: undefined, backoffMultiplier: 1, messages: [] };
    const schedule = await db.selectFrom('schedule').select('evaluated_through').where('user_id', '=', userId).executeTakeFirst();
    const records = await loadRecords(db, userId);
    const through = schedule?.evaluated_through ?? undefined;
    const response: retention.GetRetentionResponse = {
      found: true,
      evaluatedThrough: through,
      backoffMultiplier: through ? backoffAt(records, through).multiplier : 1,
      messages: records.slice(0, LISTED).map((r) => ({
        retentionId: r.retentionId,
        notificationId: r.notificationId,
        conversationId: r.conversationId,
        plannedAt: r.plannedAt ?? undefined,
        status: r.declinedReason !== null ? 'declined' : r.deliveredAt !== null ? 'delivered' : 'planned',
        deliveredAt: r.deliveredAt ?? undefined,
        outcome: r.declinedReason !== null || r.deliveredAt === null ? '' : r.outcome || 'pending',
        acknowledgedVia: r.acknowledgedVia ?? '',
        resolvedAt: r.resolvedAt ?? undefined,
        declinedReason: r.declinedReason ?? '',
      })),
    };
    return response;
  };
}
