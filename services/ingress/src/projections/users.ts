import { payloadOf } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { IngressDb } from '../db.js';

/** Users, their state and onboarding answers, from ingress's own events. */
export const usersProjection: Projection<IngressDb> = {
  name: 'users',
  sources: ['ingress'],
  tables: ['users'],
  types: [Events.UserCreated.name, Events.OnboardingAnswered.name, Events.ControlsUpdated.name, Events.TurnReceived.name],
  // Most turns activate nobody: no transaction for them.
  ignores: (e) => e.type === Events.TurnReceived.name && !payloadOf(e, Events.TurnReceived).activatesUser,
  async apply(trx, e) {
    switch (e.type) {
      case Events.UserCreated.name:
        await trx
          .insertInto('users')
          .values({ user_id: e.userId, user_state: 'CREATED', answers: null, created_at: e.occurredAt, updated_at: e.occurredAt })
          .onConflict((oc) => oc.column('user_id').doNothing())
          .execute();
        return;
      case Events.OnboardingAnswered.name: {
        const p = payloadOf(e, Events.OnboardingAnswered);
        const a = p.answers;
        await trx
          .updateTable('users')
          .set({
            user_state: 'ONBOARDING',
            ai_friend_id: p.aiFriendId,
            answers: JSON.stringify({
              preferred_name: a?.preferredName,
              age_band: a?.ageBand,
              country_or_region: a?.countryOrRegion,
              occupation_category: a?.occupationCategory,
              client_timezone: a?.clientTimezone,
              proactive_messages_enabled: a?.proactiveMessagesEnabled,
              suppressed_topics: a?.suppressedTopics ?? [],
            }),
            controls: JSON.stringify({
              proactive_messages_enabled: a?.proactiveMessagesEnabled ?? false,
              mute_until: null,
              suppressed_topics: a?.suppressedTopics ?? [],
            }),
            updated_at: e.occurredAt,
          })
          .where('user_id', '=', e.userId)
          .execute();
        return;
      }
      case Events.ControlsUpdated.name: {
        const c = payloadOf(e, Events.ControlsUpdated);
        await trx
          .updateTable('users')
          .set({
            controls: JSON.stringify({
              proactive_messages_enabled: c.proactiveMessagesEnabled,
              mute_until: c.muteUntil?.toISOString() ?? null,
              suppressed_topics: c.suppressedTopics,
            }),
            updated_at: e.occurredAt,
          })
          .where('user_id', '=', e.userId)
          .execute();
        return;
      }
      case Events.TurnReceived.name: {
        if (payloadOf(e, Events.TurnReceived).activatesUser) {
          await trx.updateTable('users').set({ user_state: 'ACTIVE', updated_at: e.occurredAt }).where('user_id', '=', e.userId).execute();
        }
        return;
      }
      default:
        return;
    }
  },
  async erase(trx, userId) {
    await trx.deleteFrom('users').where('user_id', '=', userId).execute();
  },
};
