import { Events } from '@hearth/events';
import { appOpenEventId } from '../users/app-open.js';
import { DEFAULT_CONTROLS, type ControlsValue } from '../users/controls.js';
import { decideAppOpen, decideControlsPatch } from './controls-decision.js';

const AT = new Date('2026-03-01T09:00:00.000Z');
const USER = '0b6f4a52-6c1e-4d0b-9a43-1f3f1c7b2a10';
const OPEN = '3e9d8c7b-6a5f-4e3d-9c2b-1a0f9e8d7c6b';
const NOTIFICATION = '7f6e5d4c-3b2a-4190-8f7e-6d5c4b3a2910';

const controls: ControlsValue = { ...DEFAULT_CONTROLS, proactive_messages_enabled: true };

describe('PATCH /v1/me/controls (§2.7)', () => {
  it('given onboarded controls, when a field changes, then one ControlsUpdated whose id follows the chain head', () => {
    const d = decideControlsPatch(USER, controls, { proactive_messages_enabled: false }, 4, AT);

    const [e] = d.kind === 'append' ? d.events : [];
    expect(e).toMatchObject({ type: Events.ControlsUpdated.name, userId: USER, occurredAt: AT });
    expect(Events.ControlsUpdated.decode(e!.payload)).toMatchObject({ proactiveMessagesEnabled: false });
    expect(decideControlsPatch(USER, controls, { proactive_messages_enabled: false }, 4, AT)).toMatchObject({ events: [{ id: e!.id }] });
    expect(decideControlsPatch(USER, controls, { proactive_messages_enabled: false }, 5, AT)).not.toMatchObject({ events: [{ id: e!.id }] });
  });

  it('given onboarded controls, when the patch changes nothing, then nothing', () => {
    expect(decideControlsPatch(USER, controls, { proactive_messages_enabled: true }, 4, AT)).toEqual({ kind: 'noop' });
  });

  it('given a user not onboarded, when they patch, then 409 ONBOARDING_REQUIRED', () => {
    expect(decideControlsPatch(USER, null, { proactive_messages_enabled: false }, 1, AT)).toMatchObject({ kind: 'reject', status: 409, code: 'ONBOARDING_REQUIRED' });
  });
});

describe('POST /v1/me/app-opens (turn-pipeline §14.2)', () => {
  it('given no open recorded, when the app opens from an own notification, then AppOpened under a per-user id', () => {
    const d = decideAppOpen({ userId: USER, recorded: null, ownsNotification: true }, { appOpenId: OPEN, openedNotificationId: NOTIFICATION }, AT);

    const [e] = d.kind === 'append' ? d.events : [];
    expect(e).toMatchObject({ id: appOpenEventId(USER, OPEN), type: Events.AppOpened.name, userId: USER, occurredAt: AT, correlationId: OPEN });
    expect(Events.AppOpened.decode(e!.payload)).toMatchObject({ appOpenId: OPEN, openedNotificationId: NOTIFICATION });
  });

  it('given the open recorded earlier, when it is sent again, then the same answer and nothing appended', () => {
    const earlier = new Date('2026-02-01T08:00:00.000Z');
    const d = decideAppOpen({ userId: USER, recorded: { appOpenId: OPEN, openedNotificationId: null, openedAt: earlier }, ownsNotification: true }, { appOpenId: OPEN, openedNotificationId: null }, AT);

    expect(d).toEqual({ kind: 'repeat', view: { app_open_id: OPEN, opened_notification_id: null, opened_at: earlier.toISOString() } });
  });

  it("given a notification that is not the caller's, when the app opens from it, then 404 and nothing appended", () => {
    expect(decideAppOpen({ userId: USER, recorded: null, ownsNotification: false }, { appOpenId: OPEN, openedNotificationId: NOTIFICATION }, AT)).toMatchObject({
      kind: 'reject',
      status: 404,
      code: 'NOTIFICATION_NOT_FOUND',
    });
  });

  it('given no notification named, when the app opens, then AppOpened without one', () => {
    const d = decideAppOpen({ userId: USER, recorded: null, ownsNotification: false }, { appOpenId: OPEN, openedNotificationId: null }, AT);
    const [e] = d.kind === 'append' ? d.events : [];
    expect(Events.AppOpened.decode(e!.payload)).toMatchObject({ openedNotificationId: '' });
  });
});
