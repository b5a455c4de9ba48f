import { appOpenCommand, appOpenEventId, appOpenIdOf, appOpenSchema, appOpenView } from './app-open.js';

const NOTIFICATION = '8F14E45F-CEEA-467A-9575-3A6B2C4E1D01';
const OPEN = 'C0FFEE00-1111-4222-8333-444455556666';
const USER = '0b7e2b8e-3f4a-4c1d-9e2a-1c2d3e4f5a6b';
const OTHER_USER = '1b7e2b8e-3f4a-4c1d-9e2a-1c2d3e4f5a6b';

describe('app opens (turn-pipeline §14.2)', () => {
  it('accepts an empty body or a notification uuid, nothing else', () => {
    expect(appOpenSchema.safeParse({}).success).toBe(true);
    expect(appOpenSchema.safeParse({ opened_notification_id: NOTIFICATION }).success).toBe(true);
    expect(appOpenSchema.safeParse({ opened_notification_id: 'push-123' }).success).toBe(false);
    expect(appOpenSchema.safeParse({ opened_notification_id: '' }).success).toBe(false);
    expect(appOpenSchema.safeParse({ opened_notification_id: null }).success).toBe(false);
    expect(appOpenSchema.safeParse({ notification_id: NOTIFICATION }).success).toBe(false);
  });

  it('accepts the client’s app_open_id, a uuid', () => {
    expect(appOpenSchema.safeParse({ app_open_id: OPEN }).success).toBe(true);
    expect(appOpenSchema.safeParse({ app_open_id: OPEN, opened_notification_id: NOTIFICATION }).success).toBe(true);
    expect(appOpenSchema.safeParse({ app_open_id: 'open-1' }).success).toBe(false);
    expect(appOpenSchema.safeParse({ app_open_id: 7 }).success).toBe(false);
  });

  it('takes the client’s app_open_id; else derives one per user and notification; else a fresh one', () => {
    const fresh = () => 'F0000000-0000-4000-8000-000000000001';
    expect(appOpenIdOf(USER, { app_open_id: OPEN, opened_notification_id: NOTIFICATION }, fresh)).toBe(OPEN.toLowerCase());
    const derived = appOpenIdOf(USER, { opened_notification_id: NOTIFICATION }, fresh);
    // A retry of the same notification's open is the same open; another user's is not.
    expect(appOpenIdOf(USER, { opened_notification_id: NOTIFICATION.toLowerCase() }, fresh)).toBe(derived);
    expect(appOpenIdOf(OTHER_USER, { opened_notification_id: NOTIFICATION }, fresh)).not.toBe(derived);
    expect(derived).toMatch(/^[0-9a-f-]{36}$/);
    expect(appOpenIdOf(USER, {}, fresh)).toBe('f0000000-0000-4000-8000-000000000001');
  });

  it('scopes the event id to the user', () => {
    expect(appOpenEventId(USER, OPEN)).toBe(appOpenEventId(USER, OPEN));
    expect(appOpenEventId(USER, OPEN)).not.toBe(appOpenEventId(OTHER_USER, OPEN));
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
