import { Events } from '@hearth/events';
import type { Selectable } from 'kysely';
import type { TurnsTable } from '../db.js';
import { RETENTION_SOURCE } from '../projections/turns.js';
import { onboardingAnswersSchema } from '../users/answers.js';
import type { TurnCommand, UserSnapshot } from '../users/user.js';
import { answerAfterWait, answerForExisting, decideChatTurn, turnEventId } from './chat-decision.js';

const AT = new Date('2026-03-01T09:00:00.000Z');
const USER = '0b6f4a52-6c1e-4d0b-9a43-1f3f1c7b2a10';
const CONVERSATION = '5d0f2a1e-8f57-4a51-9d1a-0e6e4b9d2c33';
const MESSAGE = '9a1c6e0b-3f2d-4c8e-b7a5-6d4e2f1a0b99';

const answers = onboardingAnswersSchema.parse({
  preferred_name: 'Mina',
  age_band: '25-34',
  country_or_region: 'kr',
  occupation_category: 'working',
  client_timezone: 'Asia/Seoul',
  proactive_messages_enabled: true,
  suppressed_topics: [],
});

const cmd: TurnCommand = { messageId: MESSAGE, conversationId: CONVERSATION, text: 'hello there' };

const user = (over: Partial<UserSnapshot> = {}): UserSnapshot => ({
  userId: USER,
  state: 'ONBOARDING',
  answers,
  aiFriendId: 'friend-1',
  hasPersona: true,
  ...over,
});

const row = (over: Partial<Selectable<TurnsTable>> = {}): Selectable<TurnsTable> =>
  ({
    message_id: MESSAGE,
    user_id: USER,
    conversation_id: CONVERSATION,
    text: 'hello there',
    source: 'chat',
    user_state: 'ONBOARDING',
    activates_user: true,
    routing: { route: 'FRIEND_CHAT' },
    assistant_message_id: 'a-1',
    assistant_text: 'hi Mina',
    surfaced_memory_ids: [],
    received_at: AT,
    completed_at: AT,
    refused: false,
    ...over,
  }) as unknown as Selectable<TurnsTable>;

describe('a chat turn (turn-pipeline §4.1.2)', () => {
  it('given an onboarded user with a persona, when a message comes, then one TurnReceived that activates them', () => {
    const d = decideChatTurn(USER, user(), { ...cmd, clientLocale: 'ko-KR' }, MESSAGE, AT);

    expect(d.kind).toBe('append');
    const [e] = d.kind === 'append' ? d.events : [];
    expect(e).toMatchObject({ id: MESSAGE, type: Events.TurnReceived.name, userId: USER, occurredAt: AT, correlationId: MESSAGE });
    expect(Events.TurnReceived.decode(e!.payload)).toMatchObject({
      messageId: MESSAGE,
      conversationId: CONVERSATION,
      text: 'hello there',
      source: 'chat',
      userState: 'ONBOARDING',
      activatesUser: true,
      missingOnboarding: [],
      aiFriendId: 'friend-1',
      clientTimezone: 'Asia/Seoul',
      clientLocale: 'ko-KR',
      ageBand: '25-34',
    });
  });

  it('given an onboarding user without a persona, when a message comes, then TurnReceived names what is missing and does not activate', () => {
    const d = decideChatTurn(USER, user({ hasPersona: false }), cmd, MESSAGE, AT);

    const [e] = d.kind === 'append' ? d.events : [];
    expect(Events.TurnReceived.decode(e!.payload)).toMatchObject({ activatesUser: false, missingOnboarding: ['persona'] });
  });

  it('given no user, when a message comes, then 404 and nothing appended', () => {
    expect(decideChatTurn(USER, null, cmd, MESSAGE, AT)).toMatchObject({ kind: 'reject', status: 404, code: 'USER_NOT_FOUND' });
  });

  it('keeps the message_id as event id in the first life, and derives a new one after a new start', () => {
    expect(turnEventId(USER, 0, MESSAGE)).toBe(MESSAGE);
    expect(turnEventId(USER, 1, MESSAGE)).toBe(MESSAGE);
    const second = turnEventId(USER, 2, MESSAGE);
    expect(second).not.toBe(MESSAGE);
    expect(turnEventId(USER, 2, MESSAGE)).toBe(second);
    expect(turnEventId(USER, 3, MESSAGE)).not.toBe(second);
  });
});

describe('a message_id sent again (idempotency)', () => {
  it('given its completed turn, when the same message comes again, then the same reply', () => {
    expect(answerForExisting(USER, cmd, row())).toEqual({
      kind: 'reply',
      reply: {
        message_id: MESSAGE,
        conversation_id: CONVERSATION,
        user_state: 'ACTIVE',
        routing: { route: 'FRIEND_CHAT' },
        assistant: { message_id: 'a-1', text: 'hi Mina', surfaced_memory_ids: [] },
      },
    });
  });

  it('given its turn still open, when the same message comes again, then it waits for the reply', () => {
    expect(answerForExisting(USER, cmd, row({ completed_at: null }))).toEqual({ kind: 'await' });
  });

  it.each([
    ['another user', row({ user_id: 'someone-else' })],
    ['another conversation', row({ conversation_id: 'elsewhere' })],
    ['another text', row({ text: 'something else' })],
    ['a proactive message', row({ source: RETENTION_SOURCE })],
  ])('given the id used by %s, when it comes again, then 409 MESSAGE_ID_CONFLICT', (_what, existing) => {
    expect(answerForExisting(USER, cmd, existing)).toMatchObject({ kind: 'refuse', status: 409, code: 'MESSAGE_ID_CONFLICT' });
  });
});

describe('what a caller waiting for a turn is told', () => {
  it('the reply once the turn completed', () => {
    expect(answerAfterWait(USER, cmd, { row: row() })).toMatchObject({ message_id: MESSAGE, assistant: { text: 'hi Mina' } });
  });

  it('504 when the wait ran out, to send the same message_id again', () => {
    expect(answerAfterWait(USER, cmd, undefined)).toMatchObject({ kind: 'refuse', status: 504, code: 'TURN_TIMEOUT' });
  });

  it('404 when the user was erased meanwhile', () => {
    expect(answerAfterWait(USER, cmd, { erased: true })).toMatchObject({ kind: 'refuse', status: 404, code: 'USER_NOT_FOUND' });
  });

  it('422 naming the quarantined event when a service set the turn aside', () => {
    expect(answerAfterWait(USER, cmd, { failure: { eventId: 'e-1', service: 'router' } })).toMatchObject({
      kind: 'refuse',
      status: 422,
      code: 'TURN_FAILED',
      details: { event_id: 'e-1', service: 'router' },
    });
  });

  it('409 when the turn that completed under this id is another message', () => {
    expect(answerAfterWait(USER, cmd, { row: row({ text: 'not this' }) })).toMatchObject({ kind: 'refuse', status: 409, code: 'MESSAGE_ID_CONFLICT' });
  });
});
