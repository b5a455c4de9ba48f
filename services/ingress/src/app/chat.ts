import { appendDecided, type AppendResult, type Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import type { Kysely } from 'kysely';
import type { IngressDb } from '../db.js';
import { RETENTION_SOURCE } from '../projections/turns.js';
import type { KeyedQueue } from '../users/keyed-queue.js';
import type { TurnCommand } from '../users/user.js';
import { answerAfterWait, answerForExisting, decideChatTurn, turnEventId, type TurnFound, type TurnRefusal, type TurnReply } from './chat-decision.js';
import { IngressError } from './errors.js';
import type { FailedTurns } from './failed-turns.js';
import { historyMessages, type HistoryMessage } from './history.js';
import type { UserReads } from './user-reads.js';
import type { ExpectedReply, TurnWaiters } from './waiters.js';

export interface ChatDeps {
  bus: Bus;
  db: Kysely<IngressDb>;
  clock: Clock;
  users: UserReads;
  /** A user's appends from this process, one at a time (shared with their other commands). */
  userAppends: KeyedQueue;
  waiters: TurnWaiters;
  /** Turns a quarantine stopped (see failed-turns.ts). */
  failedTurns: FailedTurns;
  turnTimeoutMs: number;
}

const refused = (r: TurnRefusal): IngressError => new IngressError(r.status, r.code, r.message, r.details);

/** Chat turns and their history: POST /v1/conversations/{id}/messages and its GET. */
export function createChat(deps: ChatDeps) {
  const { bus, db, clock, users } = deps;

  async function assertConversationOwner(userId: string, conversationId: string): Promise<void> {
    // Only its owner ever writes to a conversation, so any one of its turns names the owner.
    const any = await db.selectFrom('turns').select('user_id').where('conversation_id', '=', conversationId).limit(1).executeTakeFirst();
    if (any && any.user_id !== userId) throw new IngressError(403, 'FORBIDDEN', 'this conversation belongs to another user');
  }

  async function beforeCursor(userId: string, before: string): Promise<Date> {
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(before)) {
      // The oldest message a client sees of a proactive message is the assistant's: its id pages too.
      const row = await db
        .selectFrom('turns')
        .select('received_at')
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('message_id', '=', before), eb.and([eb('assistant_message_id', '=', before), eb('source', '=', RETENTION_SOURCE)])]))
        .executeTakeFirst();
      if (!row?.received_at) throw new IngressError(422, 'INVALID_FIELDS', 'before: no such message in this conversation', { field: 'before' });
      return row.received_at;
    }
    const t = new Date(before);
    if (Number.isNaN(t.getTime())) throw new IngressError(422, 'INVALID_FIELDS', 'before must be a message_id or an ISO timestamp', { field: 'before' });
    return t;
  }

  /** `generation`: of the user's data key when the turn was appended, if this request appended it. */
  async function awaitReply(userId: string, cmd: TurnCommand, generation?: number, expected?: { reply: ExpectedReply; appended: boolean }): Promise<TurnReply> {
    const listening = expected?.reply ?? deps.waiters.expect(cmd.messageId);
    // A turn this request just appended cannot have its reply yet: look when woken.
    const found = await listening.wait<TurnFound>(deps.turnTimeoutMs, async () => {
      const r = await db.selectFrom('turns').selectAll().where('message_id', '=', cmd.messageId).executeTakeFirst();
      if (r?.completed_at && r.received_at) return { row: r };
      // A quarantined event of this turn: it will not complete by itself, so say so now.
      const failure = deps.failedTurns.failureOf(cmd.messageId);
      if (failure) return { failure };
      // Erased while the turn was in flight (and maybe started anew since): it will never be answered.
      const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
      const startedAnew = generation !== undefined && bus.keyring !== undefined && (await bus.keyring.generation(userId)) !== generation;
      return user && !startedAnew ? undefined : { erased: true as const };
    }, { checkFirst: !expected?.appended });
    const answer = answerAfterWait(userId, cmd, found);
    if ('kind' in answer) throw refused(answer);
    return answer;
  }

  return {
    async postMessage(userId: string, cmd: TurnCommand): Promise<TurnReply> {
      const existing = await db.selectFrom('turns').selectAll().where('message_id', '=', cmd.messageId).executeTakeFirst();
      if (existing) {
        const answer = answerForExisting(userId, cmd, existing);
        if (answer.kind === 'refuse') throw refused(answer);
        return answer.kind === 'reply' ? answer.reply : awaitReply(userId, cmd);
      }
      await assertConversationOwner(userId, cmd.conversationId);
      const generation = (await bus.keyring?.generation(userId)) ?? 0;
      const eventId = turnEventId(userId, generation, cmd.messageId);
      // Listening before the append: the reply cannot be applied unseen.
      const reply = deps.waiters.expect(cmd.messageId);
      let appended: AppendResult[];
      try {
        appended = await deps.userAppends.run(userId, () =>
          appendDecided(bus, 'ingress', userId, async (last) => {
            const d = decideChatTurn(userId, await users.snapshotAt(userId, last), cmd, eventId, clock.now());
            if (d.kind === 'reject') throw new IngressError(d.status, d.code, d.message);
            return d.kind === 'append' ? d.events : [];
          }),
        );
      } catch (err) {
        reply.cancel();
        throw err;
      }
      // Nothing new appended (the same message at once from another request): look at once.
      return awaitReply(userId, cmd, generation, { reply, appended: appended.some((r) => !r.duplicate) });
    },

    async history(userId: string, conversationId: string, limit: number, before?: string): Promise<HistoryMessage[]> {
      await assertConversationOwner(userId, conversationId);
      let q = db
        .selectFrom('turns')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .where('refused', '=', false)
        .where('received_at', 'is not', null);
      if (before) {
        const cursor = await beforeCursor(userId, before);
        q = q.where('received_at', '<', cursor);
      }
      // Newest `limit` turns, shown oldest first.
      return historyMessages((await q.orderBy('received_at', 'desc').orderBy('message_id', 'desc').limit(limit).execute()).reverse());
    },
  };
}
