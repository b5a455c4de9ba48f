import { payloadOf } from '@hearth/bus';
import { Events, type RoutingDecision } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { IngressDb } from '../db.js';

/** The source of a proactive message's turn (turn-pipeline §14); chat turns are 'chat'. */
export const RETENTION_SOURCE = 'retention';

/** The routing fields the API returns (../shared/API.md). */
export interface RoutingJson {
  pipeline: string;
  safety_policy: string;
  memory_read_policy: string;
  vector_search_policy: string;
  memory_write_policy: string;
}

export function routingJson(r: RoutingDecision | undefined): RoutingJson {
  return {
    pipeline: r?.pipeline ?? '',
    safety_policy: r?.safetyPolicy ?? '',
    memory_read_policy: r?.memoryReadPolicy ?? '',
    vector_search_policy: r?.vectorSearchPolicy ?? '',
    memory_write_policy: r?.memoryWritePolicy ?? '',
  };
}

/**
 * The message log: the user side from TurnReceived, the assistant side from
 * TurnCompleted or ChatRefused. Each side upserts only its own columns, so the
 * rows are the same whichever stream is applied first. A proactive message
 * (source retention, turn-pipeline §14) has no TurnReceived: its TurnCompleted
 * fills the few user-side columns the readers need, and nothing else writes them.
 */
export const turnsProjection: Projection<IngressDb> = {
  name: 'turns',
  sources: ['ingress', 'orchestrator'],
  tables: ['turns'],
  types: [Events.TurnReceived.name, Events.TurnCompleted.name, Events.ChatRefused.name],
  async apply(trx, e) {
    switch (e.type) {
      case Events.TurnReceived.name: {
        const t = payloadOf(e, Events.TurnReceived);
        const user = {
          text: t.text,
          source: t.source,
          user_state: t.userState,
          activates_user: t.activatesUser,
          received_at: e.occurredAt,
        };
        await trx
          .insertInto('turns')
          .values({ message_id: t.messageId, user_id: e.userId, conversation_id: t.conversationId, ...user })
          .onConflict((oc) => oc.column('message_id').doUpdateSet(user))
          .execute();
        return;
      }
      case Events.TurnCompleted.name:
      case Events.ChatRefused.name: {
        const refused = e.type === Events.ChatRefused.name;
        const c = refused ? payloadOf(e, Events.ChatRefused) : payloadOf(e, Events.TurnCompleted);
        const retention = 'source' in c && c.source === RETENTION_SOURCE;
        const assistant = {
          routing: JSON.stringify(routingJson(c.routing)),
          assistant_message_id: c.assistantMessageId,
          assistant_text: 'assistantText' in c ? c.assistantText : c.text,
          surfaced_memory_ids: JSON.stringify('surfacedMemoryIds' in c ? c.surfacedMemoryIds : []),
          completed_at: e.occurredAt,
          refused,
          // Its message_id is the retention_id; received_at places it in the history at the time it was sent.
          ...(retention ? { source: RETENTION_SOURCE, text: '', received_at: e.occurredAt } : {}),
        };
        await trx
          .insertInto('turns')
          .values({ message_id: c.messageId, user_id: e.userId, conversation_id: c.conversationId, ...assistant })
          .onConflict((oc) => oc.column('message_id').doUpdateSet(assistant))
          .execute();
        return;
      }
      default:
        return;
    }
  },
  // Both sides of every turn, proactive messages included: each row carries the user's id.
  async erase(trx, userId) {
    await trx.deleteFrom('turns').where('user_id', '=', userId).execute();
  },
};
