import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { Transaction } from 'kysely';
import { floorHour } from '../domain/local-time.js';
import type { RetentionDb, RetentionsTable, UsersTable } from '../db.js';

type Trx = Transaction<RetentionDb>;

/**
 * What retention decides on: each user's controls, zone, stage and last
 * message (from ingress and the orchestrator), and each proactive message from
 * its plan (retention), its delivery or decline (orchestrator) and its outcome
 * (retention). Each source writes only its own columns, so the rows are the
 * same whichever stream is applied first.
 */
export const retentionProjection: Projection<RetentionDb> = {
  name: 'retention',
  sources: ['ingress', 'orchestrator', 'retention'],
  tables: ['users', 'retentions'],
  types: [Events.OnboardingAnswered.name, Events.ControlsUpdated.name, Events.TurnReceived.name, Events.RelationshipUpdated.name, Events.TurnCompleted.name, Events.RetentionDeclined.name, Events.RetentionPlanned.name, Events.RetentionAcknowledged.name, Events.RetentionIgnored.name],
  async apply(trx, e) {
    switch (e.type) {
      case Events.OnboardingAnswered.name:
        return applyOnboarding(trx, e);
      case Events.ControlsUpdated.name: {
        const c = payloadOf(e, Events.ControlsUpdated);
        return upsertUser(trx, e.userId, { proactive_enabled: c.proactiveMessagesEnabled, mute_until: c.muteUntil ?? null });
      }
      case Events.TurnReceived.name:
        return applyUserMessage(trx, e);
      case Events.RelationshipUpdated.name: {
        const r = payloadOf(e, Events.RelationshipUpdated);
        if (r.next) await upsertUser(trx, e.userId, { stage: r.next.stage });
        return;
      }
      case Events.TurnCompleted.name: {
        const t = payloadOf(e, Events.TurnCompleted);
        if (t.source !== 'retention' || !t.retentionId) return;
        return upsertRetention(trx, e.userId, t.retentionId, {
          notification_id: t.assistantMessageId,
          conversation_id: t.conversationId,
          delivered_at: e.occurredAt,
        });
      }
      case Events.RetentionDeclined.name: {
        const d = payloadOf(e, Events.RetentionDeclined);
        return upsertRetention(trx, e.userId, d.retentionId, { declined_reason: d.reason || 'declined' });
      }
      case Events.RetentionPlanned.name: {
        const p = payloadOf(e, Events.RetentionPlanned);
        return upsertRetention(trx, e.userId, p.retentionId, {
          notification_id: p.notificationId,
          conversation_id: p.conversationId,
          planned_at: p.slot ?? e.occurredAt,
        });
      }
      case Events.RetentionAcknowledged.name: {
        const a = payloadOf(e, Events.RetentionAcknowledged);
        return upsertRetention(trx, e.userId, a.retentionId, { outcome: 'acknowledged', acknowledged_via: a.via, resolved_at: a.acknowledgedAt ?? e.occurredAt });
      }
      case Events.RetentionIgnored.name: {
        const i = payloadOf(e, Events.RetentionIgnored);
        return upsertRetention(trx, e.userId, i.retentionId, { outcome: 'ignored', resolved_at: e.occurredAt });
      }
      default:
        return;
    }
  },
  async erase(trx, userId) {
    await trx.deleteFrom('retentions').where('user_id', '=', userId).execute();
    await trx.deleteFrom('users').where('user_id', '=', userId).execute();
    // Not a projection table, but written from the user's OnboardingAnswered: with
    // it gone the scheduler never leases the user again (a lease in flight only
    // updates a row, so it cannot bring it back).
    await trx.deleteFrom('schedule').where('user_id', '=', userId).execute();
  },
};

async function applyOnboarding(trx: Trx, e: StoredEvent): Promise<void> {
  const p = payloadOf(e, Events.OnboardingAnswered);
  const a = p.answers;
  // Answers may be given again before activation: controls and zone follow the latest.
  await upsertUser(trx, e.userId, {
    timezone: a?.clientTimezone ?? '',
    proactive_enabled: a?.proactiveMessagesEnabled ?? true,
    ai_friend_id: p.aiFriendId,
  });
  await trx.updateTable('users').set({ onboarded_at: e.occurredAt }).where('user_id', '=', e.userId).where('onboarded_at', 'is', null).execute();
  // The scheduler evaluates this user from the hour it onboarded (its own table, not replayed).
  await trx
    .insertInto('schedule')
    .values({ user_id: e.userId, evaluated_through: floorHour(e.occurredAt), evaluations: 0, claimed_by: null, claimed_until: null })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute();
}

async function applyUserMessage(trx: Trx, e: StoredEvent): Promise<void> {
  const t = payloadOf(e, Events.TurnReceived);
  // A CREATED user's message is refused and out of the history: not an interaction.
  if (t.source === 'retention' || t.userState === 'CREATED') return;
  await upsertUser(trx, e.userId, {
    last_interaction_at: e.occurredAt,
    conversation_id: t.conversationId,
    ...(t.userState === 'ACTIVE' || t.activatesUser ? { active: true } : {}),
    // The zone a message carries is where the user is now.
    ...(t.clientTimezone ? { timezone: t.clientTimezone } : {}),
  });
}

type UserColumns = Partial<Omit<UsersTable, 'user_id' | 'active' | 'timezone' | 'proactive_enabled' | 'stage' | 'ai_friend_id'>> & {
  active?: boolean;
  timezone?: string;
  proactive_enabled?: boolean;
  stage?: string;
  ai_friend_id?: string;
};

/** Each source sets only its own columns; the row may be created by any of them first. */
async function upsertUser(trx: Trx, userId: string, cols: UserColumns): Promise<void> {
  await trx
    .insertInto('users')
    .values({ user_id: userId, ...cols })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(cols))
    .execute();
}

async function upsertRetention(trx: Trx, userId: string, retentionId: string, cols: Partial<Omit<RetentionsTable, 'retention_id' | 'user_id'>>): Promise<void> {
  await trx
    .insertInto('retentions')
    .values({ retention_id: retentionId, user_id: userId, outcome: '', ...cols })
    .onConflict((oc) => oc.column('retention_id').doUpdateSet(cols))
    .execute();
}
