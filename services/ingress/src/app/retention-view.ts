import type { retention } from '@hearth/proto';

/** One proactive message and what became of it (GET /v1/admin/users/{user_id}/retention). */
export interface RetentionMessageView {
  retention_id: string;
  notification_id: string;
  conversation_id: string;
  planned_at: string;
  /** planned | delivered | declined */
  status: string;
  delivered_at: string | null;
  /** pending | acknowledged | ignored; "" while not delivered, or declined. */
  outcome: string;
  /** reply | app_open_notification | app_open_single, once acknowledged. */
  acknowledged_via: string | null;
  resolved_at: string | null;
  declined_reason: string | null;
}

/** The retention state of one user, as the admin API shows it. */
export interface RetentionView {
  user_id: string;
  evaluated_through: string | null;
  backoff_multiplier: number;
  messages: RetentionMessageView[];
}

/** Before retention has evaluated a user: nothing sent, no backoff (×1, turn-pipeline §14.2). */
export const INITIAL_BACKOFF_MULTIPLIER = 1;

/** The retention service's GetRetention answer as the API shows it; not found is the initial state. */
export function retentionView(userId: string, response: retention.GetRetentionResponse): RetentionView {
  if (!response.found) return { user_id: userId, evaluated_through: null, backoff_multiplier: INITIAL_BACKOFF_MULTIPLIER, messages: [] };
  return {
    user_id: userId,
    evaluated_through: response.evaluatedThrough?.toISOString() ?? null,
    backoff_multiplier: response.backoffMultiplier,
    messages: response.messages.map(retentionMessageView),
  };
}

function retentionMessageView(m: retention.RetentionMessage): RetentionMessageView {
  return {
    retention_id: m.retentionId,
    notification_id: m.notificationId,
    conversation_id: m.conversationId,
    planned_at: m.plannedAt?.toISOString() ?? '',
    status: m.status,
    delivered_at: m.deliveredAt?.toISOString() ?? null,
    outcome: m.outcome,
    acknowledged_via: m.acknowledgedVia || null,
    resolved_at: m.resolvedAt?.toISOString() ?? null,
    declined_reason: m.declinedReason || null,
  };
}
