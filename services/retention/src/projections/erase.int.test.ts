// Erasure in retention's projection (ARCHITECTURE.md "Personal data, export and
// erasure", invariant 9), against real Postgres: after `erase` no row of the
// user is left while another user's rows are intact, and the tables equal a
// replay that passes over the erased user's (unreadable) events.
import { randomUUID } from 'node:crypto';
import { Events } from '@hearth/events';
import { ingress, orchestrator, retention } from '@hearth/proto';
import { openErasureHarness, type ErasureHarness } from '@hearth/testing';
import type { RetentionDb } from '../db.js';
import { service } from '../index.js';
import { retentionProjection } from './retention.js';

let h: ErasureHarness<RetentionDb>;

beforeAll(async () => {
  h = await openErasureHarness('t_ret_erase', service.migrations);
});

afterAll(() => h.close());

describe('retention projection erases a user (invariant 9)', () => {
  it('users, every proactive message and the scheduler\'s row', async () => {
    // given: two users onboarded, chatting, each with proactive messages planned, delivered, declined, answered, ignored
    const a = randomUUID();
    const b = randomUUID();
    const fromIngress = h.streamOf('ingress');
    const fromOrchestrator = h.streamOf('orchestrator');
    const fromRetention = h.streamOf('retention');
    const events = [a, b].flatMap((u) => {
      const conversationId = randomUUID();
      const [sent, declined, ignored] = [randomUUID(), randomUUID(), randomUUID()];
      const planned = (id: string) => fromRetention(Events.RetentionPlanned, retention.RetentionPlanned.fromPartial({ retentionId: id, notificationId: randomUUID(), conversationId, aiFriendId: randomUUID() }), u);
      return [
        fromIngress(Events.OnboardingAnswered, ingress.OnboardingAnswered.fromPartial({ answers: { clientTimezone: 'Asia/Seoul', proactiveMessagesEnabled: true }, aiFriendId: randomUUID() }), u),
        fromIngress(Events.ControlsUpdated, ingress.ControlsUpdated.fromPartial({ proactiveMessagesEnabled: true, muteUntil: new Date('2026-12-01T00:00:00Z') }), u),
        fromIngress(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: randomUUID(), conversationId, text: 'hi', source: 'chat', userState: 'ONBOARDING', activatesUser: true, clientTimezone: 'Europe/Paris' }), u),
        fromOrchestrator(Events.RelationshipUpdated, orchestrator.RelationshipUpdated.fromPartial({ next: { stage: 'FRIEND' } }), u),
        planned(sent),
        planned(declined),
        planned(ignored),
        fromOrchestrator(Events.TurnCompleted, orchestrator.TurnCompleted.fromPartial({ messageId: sent, conversationId, assistantMessageId: randomUUID(), source: 'retention', retentionId: sent, assistantText: 'How was Paris?' }), u),
        fromOrchestrator(Events.RetentionDeclined, orchestrator.RetentionDeclined.fromPartial({ retentionId: declined, conversationId, reason: 'gate' }), u),
        fromRetention(Events.RetentionAcknowledged, retention.RetentionAcknowledged.fromPartial({ retentionId: sent, via: 'reply' }), u),
        fromRetention(Events.RetentionIgnored, retention.RetentionIgnored.fromPartial({ retentionId: ignored, backoffMultiplier: 2 }), u),
      ];
    });

    // when
    const { live } = await h.eraseAndCompare(retentionProjection, events, a, b);

    // then: the scheduler will not lease the erased user again; the other one still is
    const scheduled = await live.db.selectFrom('schedule').select('user_id').execute();
    expect(scheduled.map((r) => r.user_id)).toEqual([b]);
  });
});
