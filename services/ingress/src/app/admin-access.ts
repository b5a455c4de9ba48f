import { draft, payloadOf, type EventDraft, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';

/** An admin reading a user's data: the token's subject and the route template it read through. */
export interface AdminReader {
  adminId: string;
  /** e.g. "GET /v1/admin/users/{user_id}/timeline". */
  route: string;
}

/** One read of the caller's data by an admin, as the export shows it. */
export interface AdminAccessView {
  event_id: string;
  admin_id: string;
  route: string;
  resource: string;
  accessed_at: string;
}

/** What an admin read: a user's timeline, retention state, belief graph, uncertainties, trust or dead letters, or one turn's trail. */
export const ADMIN_RESOURCES = {
  timeline: 'timeline',
  retention: 'retention',
  beliefs: 'beliefs',
  uncertainties: 'uncertainties',
  trust: 'trust',
  deadLetters: 'dead-letters',
  turn: (messageId: string) => `turn:${messageId}`,
} as const;

/**
 * The AdminAccessed event of one read. Each read is a new fact, so its id is
 * fresh (`eventId`), not derived; the time is the caller's clock.
 */
export function adminAccessedDraft(userId: string, reader: AdminReader, resource: string, eventId: string, at: Date): EventDraft {
  return draft(
    Events.AdminAccessed,
    { adminId: reader.adminId, route: reader.route, resource, accessedAt: at },
    { id: eventId, userId, occurredAt: at, correlationId: eventId },
  );
}

/** An AdminAccessed event as the export lists it; its payload must be readable (not erased). */
export function adminAccessView(e: StoredEvent): AdminAccessView {
  const a = payloadOf(e, Events.AdminAccessed);
  return {
    event_id: e.id,
    admin_id: a.adminId,
    route: a.route,
    resource: a.resource,
    accessed_at: (a.accessedAt ?? e.occurredAt).toISOString(),
  };
}
