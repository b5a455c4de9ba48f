// Proactive messages through the HTTP API on the virtual clock, against Hearth
// started as the README starts it (scripts/start, offline provider, Postgres and PGlite):
// a FRIEND who goes silent hears at most once a day and only within 10:00–21:00
// in their own timezone; an ignored message doubles the wait; an app open from
// the notification acknowledges it; a mute holds it until it passes; turning
// proactive off stops it all
// (turn-pipeline §14, API.md).
import { randomUUID } from 'node:crypto';
import { HearthClient, onboard, sayOk, settled } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

const MINUTE = 60;
const HOUR = 3600;
const DAY = 24 * HOUR;
const ZONE = 'America/New_York';

interface HistoryMessage {
  message_id: string;
  role: string;
  source: string;
  text: string;
  created_at: string;
}

/** Local wall-clock hour in ZONE, written out here so the test does not grade retention with its own code. */
function localHour(iso: string): number {
  return Number(new Intl.DateTimeFormat('en-US', { timeZone: ZONE, hour: '2-digit', hourCycle: 'h23' }).format(new Date(iso)));
}

// Postgres, and the embedded PGlite of the laptop default (one connection: the scheduler holds no transaction open).
describe.each(['postgres', 'pglite'] as const)('proactive messages through the HTTP API on the virtual clock (scripts/start, %s)', (database) => {
  let hearth: RunningHearth;
  let anon: HearthClient;

  beforeAll(async () => {
    // The scheduler looks for due hours every 200 ms, so a jump of the clock is picked up at once.
    hearth = await startHearth({ mode: 'all', database, env: { RETENTION_POLL_MS: '200' } });
    anon = new HearthClient(hearth.url);
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  const clockNow = async (): Promise<number> => Date.parse((await anon.clock()).body.now);

  async function advance(seconds: number): Promise<void> {
    expect((await anon.advanceClock(seconds)).status).toBe(200);
  }

  const say = sayOk;

  /** The user's retention state once every hour up to now is evaluated and every planned message is delivered or declined. */
  async function evaluated(userId: string): Promise<any> {
    const hour = Math.floor((await clockNow()) / (HOUR * 1000)) * HOUR * 1000;
    const admin = await anon.as({ admin: true });
    const r = await settled(
      () => admin.call('GET', `/v1/admin/users/${userId}/retention`),
      (x) => x.status === 200 && x.body.evaluated_through !== null && Date.parse(x.body.evaluated_through) >= hour && x.body.messages.every((m: any) => m.status !== 'planned'),
    );
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.evaluated_through)).toBeGreaterThanOrEqual(hour);
    return r.body;
  }

  async function proactive(me: HearthClient, conversation: string): Promise<HistoryMessage[]> {
    const r = await me.call('GET', `/v1/conversations/${conversation}/messages?limit=200`);
    expect(r.status).toBe(200);
    return (r.body.messages as HistoryMessage[]).filter((m) => m.source === 'retention');
  }

  /** A user brought to FRIEND the way turn-pipeline §11 allows (three sessions, a 7-day cooldown), proactive off meanwhile. */
  async function friend(): Promise<{ me: HearthClient; conversation: string }> {
    let me = await onboard(anon, { client_timezone: ZONE, proactive_messages_enabled: false });
    const conversation = randomUUID();
    for (const wait of [0, MINUTE, MINUTE, 4 * HOUR - 30, 4 * HOUR + 1, 4 * HOUR + 1, MINUTE, MINUTE, 7 * DAY]) {
      if (wait) {
        await advance(wait);
        me = await anon.as({ userId: me.userId! });
      }
      await say(me, conversation, 'remember i was heartbroken');
    }
    const rel = await settled(
      () => me.call('GET', '/v1/me/relationship'),
      (r) => r.body.relationship_stage === 'FRIEND',
    );
    expect(rel.body.relationship_stage).toBe('FRIEND');
    return { me, conversation };
  }

  it('a silent FRIEND hears at most once a day within 10:00–21:00 local; ignored doubles the wait; an app open acknowledges; a mute holds; proactive off stops it', async () => {
    // given a FRIEND in New York who turns proactive messages on and goes silent
    const started = await friend();
    let me = started.me;
    const conversation = started.conversation;
    const lastMessage = await clockNow();
    expect((await me.call('PATCH', '/v1/me/controls', { proactive_messages_enabled: true })).status).toBe(200);
    expect(await proactive(me, conversation)).toEqual([]);

    // Six hours at a time: each message is seen within hours of being sent.
    const seen: HistoryMessage[] = [];
    async function until(count: number, maxHours: number): Promise<void> {
      for (let h = 0; h < maxHours && seen.length < count; h += 6) {
        await advance(6 * HOUR);
        me = await anon.as({ userId: me.userId! });
        await evaluated(me.userId!);
        const now = await proactive(me, conversation);
        seen.splice(0, seen.length, ...now);
      }
      expect(seen.length).toBe(count);
    }

    // when a day and a half passes: the first message, 24 h or more after the last word
    await until(1, 48);
    const [first] = seen;
    expect(first).toMatchObject({ role: 'assistant', source: 'retention' });
    expect(Date.parse(first!.created_at) - lastMessage).toBeGreaterThanOrEqual(24 * HOUR * 1000);
    expect(Date.parse(first!.created_at) % (HOUR * 1000)).toBe(0);

    // then unanswered it is ignored 24 h on, and the next waits 48 h instead of 24
    await until(2, 72);
    expect(Date.parse(seen[1]!.created_at) - Date.parse(first!.created_at)).toBe(48 * HOUR * 1000);
    let state = await evaluated(me.userId!);
    const byId = (id: string) => state.messages.find((m: any) => m.notification_id === id);
    expect(byId(first!.message_id)).toMatchObject({ status: 'delivered', outcome: 'ignored' });

    // when the app is opened from the second message's notification
    const opened = await me.call('POST', '/v1/me/app-opens', { opened_notification_id: seen[1]!.message_id });
    expect(opened.status).toBe(202);
    state = (
      await settled(
        async () => ({ status: 200, body: await evaluated(me.userId!) }),
        (r) => r.body.messages.some((m: any) => m.notification_id === seen[1]!.message_id && m.outcome === 'acknowledged'),
      )
    ).body;
    expect(byId(seen[1]!.message_id)).toMatchObject({ outcome: 'acknowledged', acknowledged_via: 'app_open_notification' });

    // then acknowledged, there is no backoff: the next comes 24 h after it
    await until(3, 48);
    expect(Date.parse(seen[2]!.created_at) - Date.parse(seen[1]!.created_at)).toBe(24 * HOUR * 1000);

    // and a reply in the conversation acknowledges the third
    await say(me, conversation, 'thanks, all good here');
    state = (
      await settled(
        async () => ({ status: 200, body: await evaluated(me.userId!) }),
        (r) => r.body.messages.some((m: any) => m.notification_id === seen[2]!.message_id && m.outcome === 'acknowledged'),
      )
    ).body;
    expect(byId(seen[2]!.message_id)).toMatchObject({ acknowledged_via: 'reply' });

    // when the user mutes for three days: nothing until the mute has passed, then it resumes
    const muteUntil = (await clockNow()) + 3 * DAY * 1000;
    expect((await me.call('PATCH', '/v1/me/controls', { mute_until: new Date(muteUntil).toISOString() })).status).toBe(200);
    await until(4, 6 * 24);
    expect(Date.parse(seen[3]!.created_at)).toBeGreaterThan(muteUntil);

    // every message: in the window in the user's zone, at most one a day, short and undemanding
    for (const m of seen) {
      expect(localHour(m.created_at)).toBeGreaterThanOrEqual(10);
      expect(localHour(m.created_at)).toBeLessThan(21);
      expect((m.text.match(/\?/g) ?? []).length).toBeLessThanOrEqual(1);
      expect(m.text.split(/[.!?]+/).filter((s) => /\p{L}/u.test(s)).length).toBeLessThanOrEqual(2);
    }
    for (let i = 1; i < seen.length; i++) expect(Date.parse(seen[i]!.created_at) - Date.parse(seen[i - 1]!.created_at)).toBeGreaterThanOrEqual(24 * HOUR * 1000);

    // when proactive messages are turned off, nothing more comes, however long the silence
    expect((await me.call('PATCH', '/v1/me/controls', { proactive_messages_enabled: false })).status).toBe(200);
    for (let d = 0; d < 4; d++) {
      await advance(DAY);
      me = await anon.as({ userId: me.userId! });
      await evaluated(me.userId!);
    }
    expect(await proactive(me, conversation)).toHaveLength(4);
  });

  it('rejects an app open naming a notification that is not the caller’s, and records nothing', async () => {
    const me = await onboard(anon);
    const other = await onboard(anon);
    expect((await me.call('POST', '/v1/me/app-opens', { opened_notification_id: randomUUID() })).status).toBe(404);
    expect((await me.call('POST', '/v1/me/app-opens', { opened_notification_id: 'nope' })).status).toBe(422);
    expect((await other.call('POST', '/v1/me/app-opens', {})).status).toBe(202);
    const admin = await anon.as({ admin: true });
    const timeline = await admin.call('GET', `/v1/admin/users/${me.userId}/timeline`);
    expect(timeline.body.events.map((e: any) => e.type)).not.toContain('hearth.ingress.v1.AppOpened');
  });
});
