import type { Kysely } from 'kysely';
import type { Stage } from './config.js';
import type { RetentionDb, RetentionsTable } from './db.js';
import type { RetentionRecord, UserSnapshot } from './domain/types.js';

const STAGES: readonly string[] = ['STRANGER', 'ACQUAINTANCE', 'FRIEND', 'CLOSE_FRIEND'];

/** How many of a user's latest proactive messages a decision reads (caps look back 3 days; backoff runs are short). */
const RECORDS_READ = 200;

/** The user as the retention projection holds it; null when retention has not seen the user onboard. */
export async function loadUser(db: Kysely<RetentionDb>, userId: string): Promise<UserSnapshot | null> {
  const row = await db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
  if (!row) return null;
  return {
    userId: row.user_id,
    userState: row.active ? 'ACTIVE' : 'ONBOARDING',
    timezone: row.timezone,
    proactiveEnabled: row.proactive_enabled,
    muteUntil: row.mute_until,
    stage: (STAGES.includes(row.stage) ? row.stage : 'STRANGER') as Stage,
    lastInteractionAt: row.last_interaction_at,
    conversationId: row.conversation_id,
    aiFriendId: row.ai_friend_id,
  };
}

export function toRecord(r: RetentionsTable): RetentionRecord {
  return {
    retentionId: r.retention_id,
    notificationId: r.notification_id ?? '',
    conversationId: r.conversation_id ?? '',
    plannedAt: r.planned_at,
    deliveredAt: r.delivered_at,
    declinedReason: r.declined_reason,
    outcome: r.outcome === 'acknowledged' || r.outcome === 'ignored' ? r.outcome : '',
    acknowledgedVia: r.acknowledged_via,
    resolvedAt: r.resolved_at,
  };
}

/** The user's latest proactive messages, newest first. */
export async function loadRecords(db: Kysely<RetentionDb>, userId: string, limit = RECORDS_READ): Promise<RetentionRecord[]> {
  const rows = await db
    .selectFrom('retentions')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy((eb) => eb.fn.coalesce('planned_at', 'delivered_at'), 'desc')
    .orderBy('retention_id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}
