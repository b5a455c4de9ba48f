// Erasure in ingress's projections (ARCHITECTURE.md "Personal data, export and
// erasure", invariant 9), against real Postgres: after `erase` no row of the
// user is left while another user's rows are intact, and the tables equal a
// replay that passes over the erased user's (unreadable) events.
import { randomUUID } from 'node:crypto';
import { GLOBAL_KEYS } from '@hearth/bus';
import { Events } from '@hearth/events';
import { ingress, orchestrator } from '@hearth/proto';
import { applyEvents } from '@hearth/store';
import { openErasureHarness, type ErasureHarness } from '@hearth/testing';
import type { IngressDb } from '../db.js';
import { service } from '../index.js';
import { appOpensProjection } from './app-opens.js';
import { personasProjection } from './personas.js';
import { turnsProjection } from './turns.js';
import { usersProjection } from './users.js';

let h: ErasureHarness<IngressDb>;

beforeAll(async () => {
  h = await openErasureHarness('t_ingress_erase', service.migrations);
});

afterAll(() => h.close());

describe('ingress projections erase a user (invariant 9)', () => {
  const a = randomUUID();
  const b = randomUUID();

  it('users: the profile, answers and controls', async () => {
    const next = h.streamOf('ingress');
    const events = [a, b].flatMap((u) => [
      next(Events.UserCreated, { userId: u }, u),
      next(Events.OnboardingAnswered, ingress.OnboardingAnswered.fromPartial({ answers: { preferredName: `name-${u}`, clientTimezone: 'Asia/Seoul' }, aiFriendId: randomUUID() }), u),
      next(Events.ControlsUpdated, ingress.ControlsUpdated.fromPartial({ proactiveMessagesEnabled: false, suppressedTopics: ['ROMANCE'] }), u),
      next(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: randomUUID(), conversationId: randomUUID(), text: 'hi', source: 'chat', activatesUser: true }), u),
    ]);
    await h.eraseAndCompare(usersProjection, events, a, b);
  });

  it('turns: both sides of chats, refusals and proactive messages', async () => {
    const fromIngress = h.streamOf('ingress');
    const fromOrchestrator = h.streamOf('orchestrator');
    const events = [a, b].flatMap((u) => {
      const conversationId = randomUUID();
      const chat = randomUUID();
      const refused = randomUUID();
      return [
        fromIngress(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: chat, conversationId, text: `I live in Busan (${u})`, source: 'chat' }), u),
        fromIngress(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: refused, conversationId, text: 'hello?', source: 'chat' }), u),
        fromOrchestrator(Events.TurnCompleted, orchestrator.TurnCompleted.fromPartial({ messageId: chat, conversationId, assistantMessageId: randomUUID(), assistantText: 'Busan!', surfacedMemoryIds: [randomUUID()] }), u),
        fromOrchestrator(Events.ChatRefused, orchestrator.ChatRefused.fromPartial({ messageId: refused, conversationId, assistantMessageId: randomUUID(), text: 'finish onboarding first' }), u),
        fromOrchestrator(Events.TurnCompleted, orchestrator.TurnCompleted.fromPartial({ messageId: randomUUID(), conversationId, assistantMessageId: randomUUID(), assistantText: 'How was Busan?', source: 'retention', retentionId: randomUUID() }), u),
      ];
    });
    await h.eraseAndCompare(turnsProjection, events, a, b);
  });

  it('personas: the user\'s row on the shared assignment log, the others as they were', async () => {
    const next = h.streamOf('orchestrator');
    const assigned = (u: string, total: number) =>
      next(
        Events.PersonaAssigned,
        orchestrator.PersonaAssigned.fromPartial({ aiFriendId: randomUUID(), templateId: 't1', coreArchetype: 'sunny', friendEnergy: 'calm', humorMode: 'dry', personaSeed: total, windowTotal: total, windowComboCount: total }),
        u,
        GLOBAL_KEYS.personaAssignments,
      );
    // b's assignment was decided on a window that counted a's: the number stays, as replay copies it.
    await h.eraseAndCompare(personasProjection, [assigned(a, 0), assigned(b, 1), assigned(randomUUID(), 2)], a, b);
  });

  it('app-opens: every open the user recorded', async () => {
    const next = h.streamOf('ingress');
    const events = [a, b, a, b].map((u) => next(Events.AppOpened, ingress.AppOpened.fromPartial({ appOpenId: randomUUID(), openedNotificationId: randomUUID() }), u));
    await h.eraseAndCompare(appOpensProjection, events, a, b);
  });

  it('erasing again, or a user with no rows, changes nothing', async () => {
    const s = await h.freshSchema();
    const next = h.streamOf('ingress');
    await applyEvents(s.db, usersProjection, [next(Events.UserCreated, { userId: b }, b)]);
    await s.db.transaction().execute(async (trx) => {
      await usersProjection.erase(trx, a);
      await usersProjection.erase(trx, a);
    });
    expect(await h.rowsOf(s, 'users', b)).toBe(1);
  });
});
