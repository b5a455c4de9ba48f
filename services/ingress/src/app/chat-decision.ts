import { draft, type EventDraft } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import type { Selectable } from 'kysely';
import type { TurnsTable } from '../db.js';
import { RETENTION_SOURCE, type RoutingJson } from '../projections/turns.js';
import { decideTurn, stateAfterTurn, type TurnCommand, type UserDecision, type UserSnapshot, type UserState } from '../users/user.js';
import type { TurnFailure } from './failed-turns.js';

/** The reply body of a chat turn (API.md). */
export interface TurnReply {
  message_id: string;
  conversation_id: string;
  user_state: string;
  routing: RoutingJson;
  assistant: { message_id: string; text: string; surfaced_memory_ids: string[] };
}

/** A request the chat use case refuses, as the edge answers it. */
export interface TurnRefusal {
  kind: 'refuse';
  status: number;
  code: string;
  message: string;
  details?: unknown;
}

/** What a request for a turn gets: its reply, a wait for it, or a refusal. */
export type TurnAnswer = { kind: 'reply'; reply: TurnReply } | { kind: 'await' } | TurnRefusal;

/** What waiting for a turn found: its completed row, a quarantine that stopped it, or the user erased. */
export type TurnFound = { row: Selectable<TurnsTable> } | { failure: TurnFailure } | { erased: true };

const MESSAGE_ID_CONFLICT: TurnRefusal = {
  kind: 'refuse',
  status: 409,
  code: 'MESSAGE_ID_CONFLICT',
  message: 'this message_id was already used for a different message',
};

/** The reply body of a completed turn: a pure function of its row, so a repeat is identical. */
export function replyOf(row: Selectable<TurnsTable>): TurnReply {
  return {
    message_id: row.message_id,
    conversation_id: row.conversation_id,
    user_state: stateAfterTurn((row.user_state ?? 'CREATED') as UserState, row.activates_user ?? false),
    routing: (row.routing ?? {}) as RoutingJson,
    assistant: {
      message_id: row.assistant_message_id ?? '',
      text: row.assistant_text ?? '',
      surfaced_memory_ids: (row.surfaced_memory_ids ?? []) as string[],
    },
  };
}

/**
 * The TurnReceived event id: the message_id, so a concurrent repeat is a Msg-Id
 * no-op. A user started anew after an erasure (data key generation > 1) gets ids
 * of their own, or a message_id the erased user sent moments before would be
 * dropped as a duplicate and never answered.
 */
export function turnEventId(userId: string, generation: number, messageId: string): string {
  return generation > 1 ? deriveId('ingress', 'turn', userId, generation, messageId) : messageId;
}

/** POST a chat message: the TurnReceived to append for the user as they are (§4.1.2), or the refusal. */
export function decideChatTurn(userId: string, user: UserSnapshot | null, cmd: TurnCommand, eventId: string, at: Date): UserDecision<EventDraft> {
  const d = decideTurn(user, cmd);
  if (d.kind !== 'append') return d;
  const t = d.events[0]!;
  const answers = user?.answers ?? null;
  return {
    kind: 'append',
    events: [
      draft(
        Events.TurnReceived,
        {
          messageId: cmd.messageId,
          conversationId: cmd.conversationId,
          text: cmd.text,
          source: 'chat',
          userState: t.userState,
          activatesUser: t.activatesUser,
          missingOnboarding: t.missingOnboarding,
          aiFriendId: user?.aiFriendId ?? '',
          clientTimezone: t.clientTimezone,
          clientLocale: cmd.clientLocale ?? '',
          ageBand: answers?.age_band ?? '',
        },
        { id: eventId, userId, occurredAt: at, correlationId: cmd.messageId },
      ),
    ],
  };
}

/**
 * A message_id that already has a turn: the same message again gets its reply
 * (or waits for it); anything else under that id is a conflict. A proactive
 * message's id (its retention_id) was never a user message.
 */
export function answerForExisting(userId: string, cmd: TurnCommand, row: Selectable<TurnsTable>): TurnAnswer {
  if (row.user_id !== userId || row.conversation_id !== cmd.conversationId || row.source === RETENTION_SOURCE || (row.text !== null && row.text !== cmd.text)) {
    return MESSAGE_ID_CONFLICT;
  }
  if (row.completed_at && row.received_at) return { kind: 'reply', reply: replyOf(row) };
  return { kind: 'await' };
}

/** What the caller waiting for a turn is told, from what the wait found (undefined: it timed out). */
export function answerAfterWait(userId: string, cmd: TurnCommand, found: TurnFound | undefined): TurnReply | TurnRefusal {
  if (!found) {
    return { kind: 'refuse', status: 504, code: 'TURN_TIMEOUT', message: 'the reply is taking longer than usual; send the same message_id again to get it' };
  }
  if ('erased' in found) {
    return { kind: 'refuse', status: 404, code: 'USER_NOT_FOUND', message: 'this user was erased while the message was in flight; it will not be answered' };
  }
  if ('failure' in found) {
    return {
      kind: 'refuse',
      status: 422,
      code: 'TURN_FAILED',
      message: 'this message could not be processed; it was set aside for an operator. Your next message will work.',
      details: { event_id: found.failure.eventId, service: found.failure.service },
    };
  }
  const row = found.row;
  if (row.user_id !== userId || row.text !== cmd.text || row.conversation_id !== cmd.conversationId) return MESSAGE_ID_CONFLICT;
  return replyOf(row);
}
