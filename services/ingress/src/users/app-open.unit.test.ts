import { appOpenCommand, appOpenSchema, appOpenView } from './app-open.js';

const NOTIFICATION = '8F14E45F-CEEA-467A-9575-3A6B2C4E1D01';

describe('app opens (turn-pipeline §14.2)', () => {
  it('accepts an empty body or a notification uuid, nothing else', () => {
    expect(appOpenSchema.safeParse({}).success).toBe(true);
    expect(appOpenSchema.safeParse({ opened_notification_id: NOTIFICATION }).success).toBe(true);
    expect(appOpenSchema.safeParse({ opened_notification_id: 'push-123' }).success).toBe(false);
    expect(appOpenSchema.safeParse({ opened_notification_id: '' }).success).toBe(false);
    expect(appOpenSchema.safeParse({ opened_notification_id: null }).success).toBe(false);
    expect(appOpenSchema.safeParse({ notification_id: NOTIFICATION }).success).toBe(false);
  });

  it('lower-cases the ids, and no notification is null', () => {
    expect(appOpenCommand('A1B2C3D4-0000-4000-8000-000000000001', { opened_notification_id: NOTIFICATION })).toEqual({
      appOpenId: 'a1b2c3d4-0000-4000-8000-000000000001',
      openedNotificationId: NOTIFICATION.toLowerCase(),
    });
    expect(appOpenCommand('a1b2c3d4-0000-4000-8000-000000000001', {}).openedNotificationId).toBeNull();
  });

  it('answers the app open with its time as ISO', () => {
    const cmd = appOpenCommand('a1b2c3d4-0000-4000-8000-000000000001', {});

    expect(appOpenView(cmd, new Date('2026-11-23T12:30:00Z'))).toEqual({
      app_open_id: 'a1b2c3d4-0000-4000-8000-000000000001',
      opened_notification_id: null,
      opened_at: '2026-11-23T12:30:00.000Z',
    });
  });
});
