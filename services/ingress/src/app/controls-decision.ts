import { draft, type EventDraft } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import { appOpenEventId, appOpenView, type AppOpenCommand, type AppOpenView } from '../users/app-open.js';
import { applyControlsPatch, controlsToEvent, sameControls, type ControlsPatch, type ControlsValue } from '../users/controls.js';
import type { UserDecision } from '../users/user.js';

/**
 * PATCH /v1/me/controls over the user's controls (null: not onboarded yet): a
 * change is one ControlsUpdated, whose id is derived from the chain head
 * (`lastSeq`) so a retried decision is one event; no change appends nothing.
 */
export function decideControlsPatch(userId: string, current: ControlsValue | null, patch: ControlsPatch, lastSeq: number, at: Date): UserDecision<EventDraft> {
  if (!current) return { kind: 'reject', status: 409, code: 'ONBOARDING_REQUIRED', message: 'controls exist once onboarding is answered (PUT /v1/me/onboarding)' };
  const next = applyControlsPatch(current, patch);
  if (sameControls(current, next)) return { kind: 'noop' };
  const id = deriveId('ingress', 'controls', userId, lastSeq);
  return { kind: 'append', events: [draft(Events.ControlsUpdated, controlsToEvent(next, 'api', ''), { id, userId, occurredAt: at, correlationId: id })] };
}

/** An app open ingress already recorded for the user under this app_open_id. */
export interface RecordedAppOpen {
  appOpenId: string;
  openedNotificationId: string | null;
  openedAt: Date;
}

/** What POST /v1/me/app-opens does: answer as the open it repeats, refuse, or append AppOpened. */
export type AppOpenDecision =
  | { kind: 'repeat'; view: AppOpenView }
  | { kind: 'reject'; status: 404; code: string; message: string }
  | { kind: 'append'; events: EventDraft[] };

/**
 * POST /v1/me/app-opens (turn-pipeline §14.2). A retry of an open already
 * recorded, however late, records nothing more and gets the same answer. A
 * notification that is not one of the caller's own proactive messages is
 * indistinguishable from none (404), so retention never attributes an open to
 * another user's message. The event id is per user and open, so Msg-Id dedup
 * records a concurrent repeat once.
 */
export function decideAppOpen(
  given: { userId: string; recorded: RecordedAppOpen | null; ownsNotification: boolean },
  cmd: AppOpenCommand,
  at: Date,
): AppOpenDecision {
  if (given.recorded) {
    const r = given.recorded;
    return { kind: 'repeat', view: appOpenView({ appOpenId: r.appOpenId, openedNotificationId: r.openedNotificationId }, r.openedAt) };
  }
  if (cmd.openedNotificationId && !given.ownsNotification) return { kind: 'reject', status: 404, code: 'NOTIFICATION_NOT_FOUND', message: 'no such notification' };
  return {
    kind: 'append',
    events: [
      draft(
        Events.AppOpened,
        { appOpenId: cmd.appOpenId, openedNotificationId: cmd.openedNotificationId ?? '' },
        { id: appOpenEventId(given.userId, cmd.appOpenId), userId: given.userId, occurredAt: at, correlationId: cmd.appOpenId },
      ),
    ],
  };
}
