import { payloadOf } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { IngressDb } from '../db.js';

/**
 * Each user's app opens by app_open_id: what makes `POST /v1/me/app-opens`
 * idempotent past the stream's dedup window. A projection of its own (not part
 * of `users`) so that its consumer starts from the beginning of the log and
 * holds every open ever recorded, as replay does.
 */
export const appOpensProjection: Projection<IngressDb> = {
  name: 'app-opens',
  sources: ['ingress'],
  tables: ['app_opens'],
  types: [Events.AppOpened.name],
  async apply(trx, e) {
    if (e.type !== Events.AppOpened.name) return;
    const p = payloadOf(e, Events.AppOpened);
    await trx
      .insertInto('app_opens')
      .values({ user_id: e.userId, app_open_id: p.appOpenId, opened_notification_id: p.openedNotificationId || null, opened_at: e.occurredAt })
      .onConflict((oc) => oc.columns(['user_id', 'app_open_id']).doNothing())
      .execute();
  },
  async erase(trx, userId) {
    await trx.deleteFrom('app_opens').where('user_id', '=', userId).execute();
  },
};
