import { randomUUID } from 'node:crypto';
import { appendDecided, draft, type Bus } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { HearthClient } from './client.js';

/**
 * Appends to the user's ingress chain, behind the edge, the TurnReceived ingress
 * would have appended had its edge let a NUL through: `text` (which holds the
 * NUL) poisons each consumer of it. Returns its message id, which is its event id.
 */
export async function appendPoisonTurn(bus: Bus, user: HearthClient, conversationId: string, text: string): Promise<string> {
  const me = (await user.call('GET', '/v1/me')).body;
  const messageId = randomUUID();
  await appendDecided(bus, 'ingress', user.userId!, () => [
    draft(
      Events.TurnReceived,
      {
        messageId,
        conversationId,
        text,
        source: 'chat',
        userState: me.user_state,
        activatesUser: false,
        missingOnboarding: [],
        aiFriendId: me.ai_friend_id,
        clientTimezone: 'Asia/Seoul',
        clientLocale: '',
        ageBand: '25-34',
      },
      { id: messageId, userId: user.userId!, occurredAt: new Date(), correlationId: messageId },
    ),
  ]);
  return messageId;
}
