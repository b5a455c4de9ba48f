import { retention } from '@hearth/proto';
import { INITIAL_BACKOFF_MULTIPLIER, retentionView } from './retention-view.js';

const USER = '00000000-0000-4000-8000-0000000000d1';

describe('retentionView', () => {
  it('shows what retention answers, timestamps as ISO and unset fields as null', () => {
    const response = retention.GetRetentionResponse.fromPartial({
      found: true,
      evaluatedThrough: new Date('2026-11-23T12:00:00Z'),
      backoffMultiplier: 2,
      messages: [
        {
          retentionId: '00000000-0000-4000-8000-0000000000e2',
          notificationId: '00000000-0000-4000-8000-0000000000b2',
          conversationId: '00000000-0000-4000-8000-0000000000c1',
          plannedAt: new Date('2026-11-23T11:00:00Z'),
          status: 'delivered',
          deliveredAt: new Date('2026-11-23T11:00:05Z'),
          outcome: 'pending',
        },
        {
          retentionId: '00000000-0000-4000-8000-0000000000e1',
          notificationId: '00000000-0000-4000-8000-0000000000b1',
          conversationId: '00000000-0000-4000-8000-0000000000c1',
          plannedAt: new Date('2026-11-20T11:00:00Z'),
          status: 'delivered',
          deliveredAt: new Date('2026-11-20T11:00:05Z'),
          outcome: 'acknowledged',
          acknowledgedVia: 'app_open_notification',
          resolvedAt: new Date('2026-11-20T18:00:00Z'),
        },
        {
          retentionId: '00000000-0000-4000-8000-0000000000e0',
          notificationId: '00000000-0000-4000-8000-0000000000b0',
          conversationId: '00000000-0000-4000-8000-0000000000c1',
          plannedAt: new Date('2026-11-18T11:00:00Z'),
          status: 'declined',
          declinedReason: 'gate: personal facts',
        },
      ],
    });

    expect(retentionView(USER, response)).toEqual({
      user_id: USER,
      evaluated_through: '2026-11-23T12:00:00.000Z',
      backoff_multiplier: 2,
      messages: [
        {
          retention_id: '00000000-0000-4000-8000-0000000000e2',
          notification_id: '00000000-0000-4000-8000-0000000000b2',
          conversation_id: '00000000-0000-4000-8000-0000000000c1',
          planned_at: '2026-11-23T11:00:00.000Z',
          status: 'delivered',
          delivered_at: '2026-11-23T11:00:05.000Z',
          outcome: 'pending',
          acknowledged_via: null,
          resolved_at: null,
          declined_reason: null,
        },
        {
          retention_id: '00000000-0000-4000-8000-0000000000e1',
          notification_id: '00000000-0000-4000-8000-0000000000b1',
          conversation_id: '00000000-0000-4000-8000-0000000000c1',
          planned_at: '2026-11-20T11:00:00.000Z',
          status: 'delivered',
          delivered_at: '2026-11-20T11:00:05.000Z',
          outcome: 'acknowledged',
          acknowledged_via: 'app_open_notification',
          resolved_at: '2026-11-20T18:00:00.000Z',
          declined_reason: null,
        },
        {
          retention_id: '00000000-0000-4000-8000-0000000000e0',
          notification_id: '00000000-0000-4000-8000-0000000000b0',
          conversation_id: '00000000-0000-4000-8000-0000000000c1',
          planned_at: '2026-11-18T11:00:00.000Z',
          status: 'declined',
          delivered_at: null,
          outcome: '',
          acknowledged_via: null,
          resolved_at: null,
          declined_reason: 'gate: personal facts',
        },
      ],
    });
  });

  it('shows a user retention knows nothing of as not evaluated yet, without backoff or messages', () => {
    expect(retentionView(USER, retention.GetRetentionResponse.fromPartial({ found: false }))).toEqual({
      user_id: USER,
      evaluated_through: null,
      backoff_multiplier: INITIAL_BACKOFF_MULTIPLIER,
      messages: [],
    });
    expect(INITIAL_BACKOFF_MULTIPLIER).toBe(1);
  });
});
