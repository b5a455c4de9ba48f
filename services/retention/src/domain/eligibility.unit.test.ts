import type { Stage } from '../config.js';
import { attributeAppOpen, awaitingDelivery, backoffAt, dueIgnored, evaluateSlot, repliedTo } from './eligibility.js';
import { floorHour, localTime } from './local-time.js';
import type { RetentionRecord, UserSnapshot } from './types.js';

const HOUR = 3_600_000;
const at = (iso: string) => new Date(iso);
const hoursAfter = (d: Date, h: number) => new Date(d.getTime() + h * HOUR);

function user(over: Partial<UserSnapshot> = {}): UserSnapshot {
  return {
    userId: 'u1',
    userState: 'ACTIVE',
    timezone: 'UTC',
    proactiveEnabled: true,
    muteUntil: null,
    stage: 'FRIEND',
    lastInteractionAt: at('2026-06-01T00:00:00Z'),
    conversationId: 'c1',
    aiFriendId: 'f1',
    ...over,
  };
}

let n = 0;
function sent(deliveredAt: Date, over: Partial<RetentionRecord> = {}): RetentionRecord {
  n++;
  return {
    retentionId: `r${n}`,
    notificationId: `n${n}`,
    conversationId: 'c1',
    plannedAt: deliveredAt,
    deliveredAt,
    declinedReason: null,
    outcome: '',
    acknowledgedVia: null,
    resolvedAt: null,
    ...over,
  };
}
const ignored = (deliveredAt: Date) => sent(deliveredAt, { outcome: 'ignored', resolvedAt: hoursAfter(deliveredAt, 24) });
const acknowledged = (deliveredAt: Date) => sent(deliveredAt, { outcome: 'acknowledged', acknowledgedVia: 'reply', resolvedAt: hoursAfter(deliveredAt, 1) });

function reason(u: UserSnapshot, records: RetentionRecord[], slot: Date): string {
  const e = evaluateSlot(u, records, slot);
  return e.send ? 'send' : e.reason;
}

describe('local time (the user timezone, by the IANA rules)', () => {
  it('reads wall time across both 2026 DST changes in New York', () => {
    expect(localTime(at('2026-03-08T06:59:00Z'), 'America/New_York').label).toBe('01:59');
    // 02:00 EST does not exist: the next minute reads 03:00 EDT.
    expect(localTime(at('2026-03-08T07:00:00Z'), 'America/New_York').label).toBe('03:00');
    // 01:00–02:00 happens twice on 1 November.
    expect(localTime(at('2026-11-01T05:30:00Z'), 'America/New_York').label).toBe('01:30');
    expect(localTime(at('2026-11-01T06:30:00Z'), 'America/New_York').label).toBe('01:30');
  });

  it('floors to the UTC hour', () => {
    expect(floorHour(at('2026-06-01T10:59:59.999Z')).toISOString()).toBe('2026-06-01T10:00:00.000Z');
    expect(floorHour(at('2026-06-01T10:00:00Z')).toISOString()).toBe('2026-06-01T10:00:00.000Z');
  });
});

describe('§14.0–§14.1 quiet hours and the attempt window, at every boundary (local time)', () => {
  const seoul = user({ timezone: 'Asia/Seoul' }); // UTC+9, no DST
  // Local Seoul wall time → the instant.
  const seoulAt = (hhmm: string, day = '2026-06-03') => new Date(`${day}T${hhmm}:00+09:00`);

  it.each([
    ['23:59', 'outside_attempt_window'],
    ['00:00', 'quiet_hours'],
    ['07:59', 'quiet_hours'],
    ['08:00', 'outside_attempt_window'],
    ['09:59', 'outside_attempt_window'],
    ['10:00', 'send'],
    ['20:59', 'send'],
    ['21:00', 'outside_attempt_window'],
  ])('%s local → %s', (hhmm, expected) => {
    expect(reason(seoul, [], seoulAt(hhmm))).toBe(expected);
  });

  it('follows the zone offset, half hours included (Asia/Kolkata is UTC+5:30)', () => {
    const kolkata = user({ timezone: 'Asia/Kolkata' });
    expect(reason(kolkata, [], at('2026-06-03T04:29:00Z'))).toBe('outside_attempt_window');
    expect(reason(kolkata, [], at('2026-06-03T04:30:00Z'))).toBe('send');
    expect(evaluateSlot(kolkata, [], at('2026-06-03T04:30:00Z')).reading.localTime).toBe('10:00');
  });

  it('is correct on the DST change days (America/New_York, 2026)', () => {
    const ny = user({ timezone: 'America/New_York', lastInteractionAt: at('2026-02-01T00:00:00Z') });
    // 14:00Z is 09:00 EST the day before spring-forward and 10:00 EDT on it.
    expect(reason(ny, [], at('2026-03-07T14:00:00Z'))).toBe('outside_attempt_window');
    expect(reason(ny, [], at('2026-03-08T14:00:00Z'))).toBe('send');
    // 01:00Z on 8 March is 20:00 EST (7 March); 02:00Z is 21:00 EST: closed.
    expect(reason(ny, [], at('2026-03-08T01:00:00Z'))).toBe('send');
    expect(reason(ny, [], at('2026-03-08T02:00:00Z'))).toBe('outside_attempt_window');
    // The night of the change: 01:59 EST and 03:00 EDT are both quiet; 08:00 EDT (12:00Z) is not.
    expect(reason(ny, [], at('2026-03-08T06:59:00Z'))).toBe('quiet_hours');
    expect(reason(ny, [], at('2026-03-08T07:00:00Z'))).toBe('quiet_hours');
    expect(reason(ny, [], at('2026-03-08T12:00:00Z'))).toBe('outside_attempt_window');
    // Fall back: 14:00Z is 10:00 EDT on 31 October and 09:00 EST on 1 November; 15:00Z is 10:00 EST.
    expect(reason(ny, [], at('2026-10-31T14:00:00Z'))).toBe('send');
    expect(reason(ny, [], at('2026-11-01T14:00:00Z'))).toBe('outside_attempt_window');
    expect(reason(ny, [], at('2026-11-01T15:00:00Z'))).toBe('send');
    // Both 01:30s of 1 November are quiet.
    expect(reason(ny, [], at('2026-11-01T05:30:00Z'))).toBe('quiet_hours');
    expect(reason(ny, [], at('2026-11-01T06:30:00Z'))).toBe('quiet_hours');
  });
});

describe('§14.1 controls', () => {
  const slot = at('2026-06-03T12:00:00Z');

  it('sends nothing with proactive messages off', () => {
    expect(reason(user({ proactiveEnabled: false }), [], slot)).toBe('proactive_disabled');
  });

  it('sends nothing until mute_until has passed', () => {
    expect(reason(user({ muteUntil: hoursAfter(slot, 1) }), [], slot)).toBe('muted');
    expect(reason(user({ muteUntil: slot }), [], slot)).toBe('muted');
    expect(reason(user({ muteUntil: hoursAfter(slot, -0.001) }), [], slot)).toBe('send');
  });

  it('sends nothing to a user who is not ACTIVE or has no conversation yet', () => {
    expect(reason(user({ userState: 'ONBOARDING' }), [], slot)).toBe('not_active');
    expect(reason(user({ lastInteractionAt: null }), [], slot)).toBe('not_active');
    expect(reason(user({ conversationId: null }), [], slot)).toBe('no_conversation');
  });

  it('never sends to a STRANGER (cap 0)', () => {
    expect(reason(user({ stage: 'STRANGER' }), [], slot)).toBe('stage_cap_zero');
  });

  it('skips a zone it does not know rather than guess', () => {
    expect(reason(user({ timezone: 'Mars/Olympus' }), [], slot)).toBe('invalid_timezone');
  });
});

describe('§14.0 minimum inactivity by stage', () => {
  const slot = at('2026-06-03T12:00:00Z');
  it.each<[Stage, number]>([
    ['ACQUAINTANCE', 48],
    ['FRIEND', 24],
    ['CLOSE_FRIEND', 12],
  ])('%s waits %d h since the last message', (stage, hours) => {
    expect(reason(user({ stage, lastInteractionAt: hoursAfter(slot, -hours + 0.01) }), [], slot)).toBe('too_recent');
    expect(reason(user({ stage, lastInteractionAt: hoursAfter(slot, -hours) }), [], slot)).toBe('send');
  });

  it('counts the wait from the last proactive message when that is later', () => {
    const u = user({ lastInteractionAt: at('2026-05-01T00:00:00Z') });
    expect(reason(u, [acknowledged(hoursAfter(slot, -23))], slot)).toBe('too_recent');
    expect(reason(u, [acknowledged(hoursAfter(slot, -24))], slot)).toBe('send');
  });
});

describe('§14.1 stage caps over rolling windows', () => {
  const slot = at('2026-06-10T12:00:00Z');
  const longAgo = at('2026-05-01T00:00:00Z');

  it('ACQUAINTANCE: at most 1 in any 3 days', () => {
    const u = user({ stage: 'ACQUAINTANCE', lastInteractionAt: longAgo });
    // 71 h ago is inside the window (the 48 h wait has passed): the cap decides.
    expect(reason(u, [acknowledged(hoursAfter(slot, -71))], slot)).toBe('cap_reached');
    expect(reason(u, [acknowledged(hoursAfter(slot, -72))], slot)).toBe('send');
    expect(evaluateSlot(u, [acknowledged(hoursAfter(slot, -71))], slot).reading).toMatchObject({ cap: 1, capWindowHours: 72, sentInWindow: 1 });
  });

  it('CLOSE_FRIEND: at most 2 in any 24 h', () => {
    const u = user({ stage: 'CLOSE_FRIEND', lastInteractionAt: longAgo });
    const two = [acknowledged(hoursAfter(slot, -23)), acknowledged(hoursAfter(slot, -12))];
    expect(reason(u, two, slot)).toBe('cap_reached');
    expect(reason(u, [acknowledged(hoursAfter(slot, -25)), acknowledged(hoursAfter(slot, -12))], slot)).toBe('send');
  });

  it('FRIEND: at most 1 in any 24 h', () => {
    const u = user({ stage: 'FRIEND', lastInteractionAt: longAgo });
    // The wait is measured from the same message, so the cap and the wait agree at 24 h.
    expect(evaluateSlot(u, [acknowledged(hoursAfter(slot, -24))], slot).send).toBe(true);
    expect(evaluateSlot(u, [acknowledged(hoursAfter(slot, -24))], slot).reading.sentInWindow).toBe(0);
  });

  it('does not count a message the orchestrator declined', () => {
    const u = user({ stage: 'ACQUAINTANCE', lastInteractionAt: longAgo });
    expect(reason(u, [sent(hoursAfter(slot, -50), { declinedReason: 'muted', deliveredAt: null })], slot)).toBe('send');
  });

  it('counts a planned message not yet delivered', () => {
    const u = user({ stage: 'ACQUAINTANCE', lastInteractionAt: longAgo });
    expect(reason(u, [sent(hoursAfter(slot, -50), { deliveredAt: null })], slot)).toBe('cap_reached');
  });
});

describe('§14.2 backoff: ×2 per ignored message in a row', () => {
  const longAgo = at('2026-05-01T00:00:00Z');
  const u = user({ stage: 'FRIEND', lastInteractionAt: longAgo });

  it('doubles the wait for each ignored message, counting back from the most recent', () => {
    const t0 = at('2026-06-01T12:00:00Z');
    const one = [ignored(t0)];
    expect(backoffAt(one, hoursAfter(t0, 24))).toEqual({ streak: 1, multiplier: 2 });
    expect(reason(u, one, hoursAfter(t0, 47))).toBe('too_recent');
    expect(reason(u, one, hoursAfter(t0, 48))).toBe('send');
    expect(evaluateSlot(u, one, hoursAfter(t0, 48)).reading).toMatchObject({ minInactiveHours: 48, backoffMultiplier: 2 });

    const two = [ignored(t0), ignored(hoursAfter(t0, 48))];
    expect(backoffAt(two, hoursAfter(t0, 72))).toEqual({ streak: 2, multiplier: 4 });
    expect(reason(u, two, hoursAfter(t0, 48 + 95))).toBe('too_recent');
    expect(reason(u, two, hoursAfter(t0, 48 + 96))).toBe('send');
  });

  it('ends the run at an acknowledged message, and applies only once the ignore is known', () => {
    const t0 = at('2026-06-01T12:00:00Z');
    expect(backoffAt([ignored(t0), acknowledged(hoursAfter(t0, 48))], hoursAfter(t0, 100)).multiplier).toBe(1);
    expect(backoffAt([acknowledged(t0), ignored(hoursAfter(t0, 48))], hoursAfter(t0, 100)).multiplier).toBe(2);
    // Not yet 24 h: still pending, so no backoff yet.
    expect(backoffAt([ignored(t0)], hoursAfter(t0, 23)).multiplier).toBe(1);
  });
});

describe('§14.2 ignored and acknowledged', () => {
  const d = at('2026-06-01T12:00:00Z');

  it('is ignored once 24 h pass after delivery with no acknowledgement', () => {
    const r = sent(d);
    expect(dueIgnored([r], hoursAfter(d, 23.99))).toEqual([]);
    expect(dueIgnored([r], hoursAfter(d, 24))).toEqual([r]);
    expect(dueIgnored([sent(d, { outcome: 'acknowledged' })], hoursAfter(d, 30))).toEqual([]);
    expect(dueIgnored([sent(d, { deliveredAt: null })], hoursAfter(d, 30))).toEqual([]);
  });

  it('waits for the delivery of a planned message before judging it', () => {
    const r = sent(d, { deliveredAt: null });
    expect(awaitingDelivery([r], hoursAfter(d, 24))).toEqual([r]);
    expect(awaitingDelivery([r], hoursAfter(d, 23))).toEqual([]);
  });

  it('A: a reply in the same conversation within 24 h acknowledges', () => {
    const r = sent(d);
    expect(repliedTo([r], 'c1', hoursAfter(d, 24))).toEqual([r]);
    expect(repliedTo([r], 'c1', hoursAfter(d, 24.01))).toEqual([]);
    expect(repliedTo([r], 'other', hoursAfter(d, 1))).toEqual([]);
  });

  it('C1: an app open names its notification', () => {
    const a = sent(d);
    const b = sent(hoursAfter(d, 2));
    expect(attributeAppOpen([a, b], a.notificationId, hoursAfter(d, 3))).toEqual({ rule: 'notification', record: a });
  });

  it('C2: else the single message delivered in the last 24 h', () => {
    const a = sent(d);
    expect(attributeAppOpen([a], '', hoursAfter(d, 3))).toEqual({ rule: 'single', record: a });
    // An unknown notification id falls through to C2.
    expect(attributeAppOpen([a], 'nope', hoursAfter(d, 3))).toEqual({ rule: 'single', record: a });
    expect(attributeAppOpen([a], '', hoursAfter(d, 24.5))).toEqual({ rule: 'none', record: null });
  });

  it('C3: several delivered and no notification match → not attributed', () => {
    const a = sent(d);
    const b = sent(hoursAfter(d, 2));
    expect(attributeAppOpen([a, b], '', hoursAfter(d, 3))).toEqual({ rule: 'none', record: null });
  });
});
