import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { Transaction } from 'kysely';
import type { OrchestratorDb } from '../db.js';

/**
 * What earlier turns left, from the orchestrator's own events: each reply
 * (`dialogue`: what the §10.2/§10.3 gates compare against, the topics of earlier
 * user messages for §2.8, the turns a prompt quotes for §9, the belief challenge
 * it wove in, at most one per conversation, and the uncertainty it asked about,
 * which the next user message may answer) and the relationship
 * (`relationships`, §2.5). One projection, so each turn's events cost one
 * consumer, and a decision waits for one position.
 */
export const turnsProjection: Projection<OrchestratorDb> = {
  name: 'turns',
  sources: ['orchestrator'],
  tables: ['dialogue', 'relationships'],
  types: [Events.TurnCompleted.name, Events.RelationshipUpdated.name],
  async apply(trx, e) {
    if (e.type === Events.TurnCompleted.name) await applyReply(trx, e);
    else if (e.type === Events.RelationshipUpdated.name) await applyRelationship(trx, e);
  },
  async erase(trx, userId) {
    await trx.deleteFrom('dialogue').where('user_id', '=', userId).execute();
    await trx.deleteFrom('relationships').where('user_id', '=', userId).execute();
  },
};

async function applyReply(trx: Transaction<OrchestratorDb>, e: StoredEvent): Promise<void> {
  const p = payloadOf(e, Events.TurnCompleted);
  await trx
    .insertInto('dialogue')
    .values({
      assistant_message_id: p.assistantMessageId,
      user_id: e.userId,
      conversation_id: p.conversationId,
      user_message_id: p.messageId,
      source: p.source || 'chat',
      user_text: p.userText,
      assistant_text: p.assistantText,
      opener_norm: p.openerNorm,
      asked_question: p.assistantText.includes('?'),
      surfaced_memory_ids: JSON.stringify(p.surfacedMemoryIds) as unknown as string[],
      user_initiated_topics: JSON.stringify(p.plan?.userInitiatedTopics ?? []) as unknown as string[],
      challenge_id: p.beliefs?.challenge?.challengeId ?? '',
      surfaced_uncertainty_id: p.uncertainty?.surfacedUncertaintyId ?? '',
      created_at: e.occurredAt,
      event_seq: e.seq,
    })
    .onConflict((oc) => oc.column('assistant_message_id').doNothing())
    .execute();
}

async function applyRelationship(trx: Transaction<OrchestratorDb>, e: StoredEvent): Promise<void> {
  const p = payloadOf(e, Events.RelationshipUpdated);
  const s = p.next;
  if (!s) return;
  const row = {
    ai_friend_id: p.aiFriendId,
    stage: s.stage,
    rapport_score: s.rapportScore,
    sessions_count: s.sessionsCount,
    last_interaction_at: s.lastInteractionAt ?? null,
    last_session_at: s.lastSessionAt ?? null,
    last_stage_promotion_at: s.lastStagePromotionAt ?? null,
    session_disengaged: s.sessionDisengaged,
    updated_at: e.occurredAt,
  };
  await trx
    .insertInto('relationships')
    .values({ user_id: e.userId, ...row })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
    .execute();
}
