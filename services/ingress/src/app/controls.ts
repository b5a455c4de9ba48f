import { appendDecided, type Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { Events } from '@hearth/events';
import type { Kysely } from 'kysely';
import type { IngressDb } from '../db.js';
import { appOpensProjection } from '../projections/app-opens.js';
import { RETENTION_SOURCE } from '../projections/turns.js';
import { usersProjection } from '../projections/users.js';
import { appOpenEventId, appOpenView, type AppOpenCommand, type AppOpenView } from '../users/app-open.js';
import { DEFAULT_CONTROLS, type ControlsPatch, type ControlsValue } from '../users/controls.js';
import type { KeyedQueue } from '../users/keyed-queue.js';
import { decideAppOpen, decideControlsPatch, type AppOpenDecision } from './controls-decision.js';
import { IngressError } from './errors.js';
import type { UserReads } from './user-reads.js';

export interface ControlsDeps {
  bus: Bus;
  db: Kysely<IngressDb>;
  clock: Clock;
  users: UserReads;
  /** A user's appends from this process, one at a time (shared with their other commands). */
  userAppends: KeyedQueue;
}

/** The user's controls (§2.7) and app opens (turn-pipeline §14.2). */
export function createControls(deps: ControlsDeps) {
  const { bus, db, clock, users } = deps;

  /** GET /v1/me/controls (§2.7); the defaults before onboarding. */
  async function controls(userId: string): Promise<ControlsValue> {
    const row = await users.existingUser(userId);
    return (row.controls as ControlsValue | null) ?? DEFAULT_CONTROLS;
  }

  async function ownsNotification(userId: string, notificationId: string): Promise<boolean> {
    const turn = await db
      .selectFrom('turns')
      .select('message_id')
      .where('user_id', '=', userId)
      .where('source', '=', RETENTION_SOURCE)
      .where('assistant_message_id', '=', notificationId)
      .executeTakeFirst();
    return turn !== undefined;
  }

  return {
    controls,

    /** PATCH /v1/me/controls: applies from the next turn; a no-op change appends nothing. */
    async patchControls(userId: string, patch: ControlsPatch): Promise<ControlsValue> {
      const results = await appendDecided(bus, 'ingress', userId, async (last) => {
        await users.requireCaughtUp(last, [usersProjection.name]);
        const row = await users.existingUser(userId);
        const d = decideControlsPatch(userId, row.controls as ControlsValue | null, patch, last?.seq ?? 0, clock.now());
        if (d.kind === 'reject') throw new IngressError(d.status, d.code, d.message);
        return d.kind === 'append' ? d.events : [];
      });
      await users.afterAppend(userId, results.at(-1)?.seq ?? 0);
      return controls(userId);
    },

    /** POST /v1/me/app-opens: an app open for retention attribution (turn-pipeline §14.2). */
    async openApp(userId: string, cmd: AppOpenCommand): Promise<AppOpenView> {
      const openedAt = clock.now();
      let decided: AppOpenDecision | undefined;
      const results = await deps.userAppends.run(userId, () =>
        appendDecided(bus, 'ingress', userId, async (last) => {
          await users.requireCaughtUp(last, [usersProjection.name, appOpensProjection.name]);
          await users.existingUser(userId);
          const row = await db.selectFrom('app_opens').selectAll().where('user_id', '=', userId).where('app_open_id', '=', cmd.appOpenId).executeTakeFirst();
          const recorded = row ? { appOpenId: row.app_open_id, openedNotificationId: row.opened_notification_id, openedAt: row.opened_at } : null;
          const owns = !recorded && cmd.openedNotificationId ? await ownsNotification(userId, cmd.openedNotificationId) : true;
          decided = decideAppOpen({ userId, recorded, ownsNotification: owns }, cmd, openedAt);
          if (decided.kind === 'reject') throw new IngressError(decided.status, decided.code, decided.message);
          return decided.kind === 'append' ? decided.events : [];
        }),
      );
      if (decided?.kind === 'repeat') return decided.view;
      const appended = results[0];
      if (appended?.duplicate && appended.seq > 0) {
        // A repeat within the dedup window answers as the open it repeats did.
        const eventId = appOpenEventId(userId, cmd.appOpenId);
        for await (const e of bus.read('ingress', { key: userId, fromSeq: appended.seq, toSeq: appended.seq })) {
          if (e.id !== eventId || e.type !== Events.AppOpened.name) continue;
          const original = Events.AppOpened.decode(e.payload);
          return appOpenView({ appOpenId: original.appOpenId, openedNotificationId: original.openedNotificationId || null }, e.occurredAt);
        }
      }
      return appOpenView(cmd, openedAt);
    },
  };
}
