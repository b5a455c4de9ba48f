import { payloadOf } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { OrchestratorDb } from '../db.js';

/**
 * Each reply the orchestrator gave, from its own TurnCompleted events: what the
 * §10.2/§10.3 gates compare against, the topics of earlier user messages (§2.8)
 * and the turns a prompt quotes (§9).
 */
export const dialogueProjection: Projection<OrchestratorDb> = {
  name: 'dialogue',
  sources: ['orchestrator'],
  tables: ['dialogue'],
  async apply(trx, e) {
    if (e.type !== Events.TurnCompleted.name) return;
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
        created_at: e.occurredAt,
        event_seq: e.seq,
      })
      .onConflict((oc) => oc.column('assistant_message_id').doNothing())
      .execute();
  },
};
