import { z } from 'zod';

/** POST /v1/me/app-opens: the push notification that opened the app, when the client knows it. */
export const appOpenSchema = z.strictObject({
  opened_notification_id: z.uuid({ message: 'must be a uuid' }).optional(),
});

/** An app open as the edge hands it over: the id is generated there. */
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

/** The command of a validated body; ids are compared and stored in lower case. */
export function appOpenCommand(appOpenId: string, body: z.output<typeof appOpenSchema>): AppOpenCommand {
  return { appOpenId: appOpenId.toLowerCase(), openedNotificationId: body.opened_notification_id?.toLowerCase() ?? null };
}

export function appOpenView(cmd: AppOpenCommand, openedAt: Date): AppOpenView {
  return { app_open_id: cmd.appOpenId, opened_notification_id: cmd.openedNotificationId, opened_at: openedAt.toISOString() };
}
