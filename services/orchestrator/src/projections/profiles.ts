import { payloadOf } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { OrchestratorDb } from '../db.js';

/** What the orchestrator needs of each user, from ingress events. */
export const profilesProjection: Projection<OrchestratorDb> = {
  name: 'profiles',
  sources: ['ingress'],
  tables: ['profiles'],
  types: [Events.UserCreated.name, Events.OnboardingAnswered.name, Events.ControlsUpdated.name, Events.TurnReceived.name],
  // Most turns activate nobody: no transaction for them.
  ignores: (e) => e.type === Events.TurnReceived.name && !payloadOf(e, Events.TurnReceived).activatesUser,
  async apply(trx, e) {
    switch (e.type) {
      case Events.UserCreated.name:
        await trx
          .insertInto('profiles')
          .values({ user_id: e.userId, user_state: 'CREATED', updated_at: e.occurredAt })
          .onConflict((oc) => oc.column('user_id').doNothing())
          .execute();
        return;
      case Events.OnboardingAnswered.name: {
        const p = payloadOf(e, Events.OnboardingAnswered);
        const a = p.answers;
        await trx
          .updateTable('profiles')
          .set({
            user_state: 'ONBOARDING',
            preferred_name: a?.preferredName ?? null,
            age_band: a?.ageBand ?? null,
            client_timezone: a?.clientTimezone ?? null,
            suppressed_topics: JSON.stringify(a?.suppressedTopics ?? []) as unknown as string[],
            proactive_messages_enabled: a ? a.proactiveMessagesEnabled : true,
            ai_friend_id: p.aiFriendId,
            updated_at: e.occurredAt,
          })
          .where('user_id', '=', e.userId)
          .execute();
        return;
      }
      case Events.ControlsUpdated.name: {
        // §2.7 controls apply from the next turn: a PATCH, or "don't bring this topic up again".
        // The event carries the controls whole; §14.4 reads the proactive switch and the mute.
        const c = payloadOf(e, Events.ControlsUpdated);
        await trx
          .updateTable('profiles')
          .set({
            suppressed_topics: JSON.stringify(c.suppressedTopics) as unknown as string[],
            proactive_messages_enabled: c.proactiveMessagesEnabled,
            mute_until: c.muteUntil ?? null,
            updated_at: e.occurredAt,
          })
          .where('user_id', '=', e.userId)
          .execute();
        return;
      }
      case Events.TurnReceived.name: {
        const t = payloadOf(e, Events.TurnReceived);
        if (t.activatesUser) {
          await trx.updateTable('profiles').set({ user_state: 'ACTIVE', updated_at: e.occurredAt }).where('user_id', '=', e.userId).execute();
        }
        return;
      }
      default:
        return;
    }
  },
  async erase(trx, userId) {
    await trx.deleteFrom('profiles').where('user_id', '=', userId).execute();
  },
};
