import { deriveId } from '@hearth/events';
import { z } from 'zod';

/** POST /v1/me/app-opens: the client's id of this open, and the push notification that opened the app, when known. */
export const appOpenSchema = z.strictObject({
  app_open_id: z
    .uuid({ message: 'must be a uuid' })
    .optional()
    .meta({
      description:
        'Chosen by the client for this open: sending it again (a retry) records nothing more and answers as the first time. ' +
        'Without it, an open naming a notification is recorded once per notification, and one naming none is a new open each time.',
    }),
  opened_notification_id: z
    .uuid({ message: 'must be a uuid' })
    .optional()
    .meta({ description: "The notification that opened the app: the message_id of one of the caller's own proactive messages in the history." }),
});

/** An app open as the edge hands it over. */
export interface AppOpenCommand {
  appOpenId: string;
  /** A proactive message's assistant message id (lower case), or null. */
  openedNotificationId: string | null;
}

/** The 202 body of POST /v1/me/app-opens. */
export interface AppOpenView {
  app_open_id: string;
  opened_notification_id: string | null;
  opened_at: string;
}

/**
 * The id of an app open, which makes a repeat of the request record nothing
 * more: the client's `app_open_id` when it sends one; else, for an open caused
 * by a notification, one derived from the user and the notification (each
 * notification opens the app once, as retention counts it); else a fresh id,
 * and a client retry of such an open is a second open.
 */
export function appOpenIdOf(userId: string, body: z.output<typeof appOpenSchema>, freshId: () => string): string {
  if (body.app_open_id) return body.app_open_id.toLowerCase();
  if (body.opened_notification_id) return deriveId('ingress', 'app-open-of-notification', userId, body.opened_notification_id.toLowerCase());
  return freshId().toLowerCase();
}

/**
 * The AppOpened event's id: per user, so another user's client naming the
 * same app_open_id never collides with this one in the stream's dedup.
 */
export function appOpenEventId(userId: string, appOpenId: string): string {
  return deriveId('ingress', 'app-open', userId, appOpenId);
}

/** The command of a validated body; ids are compared and stored in lower case. */
export function appOpenCommand(appOpenId: string, body: z.output<typeof appOpenSchema>): AppOpenCommand {
  return { appOpenId: appOpenId.toLowerCase(), openedNotificationId: body.opened_notification_id?.toLowerCase() ?? null };
}

export function appOpenView(cmd: AppOpenCommand, openedAt: Date): AppOpenView {
  return { app_open_id: cmd.appOpenId, opened_notification_id: cmd.openedNotificationId, opened_at: openedAt.toISOString() };
}
