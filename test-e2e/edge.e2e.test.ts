// The edge of the whole system (scripts/start, Postgres): one user's burst of
// concurrent messages all answered, and text that would poison an event refused
// without wedging its user.
import { randomUUID } from 'node:crypto';
import { HearthClient, onboard } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

describe('the ingress edge (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;
  let admin: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
    admin = await anon.as({ admin: true });
  });

  afterAll(async () => {
    expect(await hearth?.stop()).toEqual([0]);
  });

  /** The types of the user's events, less the admin's own reads of them (each read is recorded: AdminAccessed). */
  async function types(userId: string): Promise<string[]> {
    const r = await admin.call('GET', `/v1/admin/users/${userId}/timeline`);
    expect(r.status).toBe(200);
    return r.body.events.map((e: { type: string }) => e.type).filter((t: string) => t !== 'hearth.ingress.v1.AdminAccessed');
  }

  it('answers all of 40 messages one user sends at once with 200, and loses none', async () => {
    const me = await onboard(anon);
    const conversation = randomUUID();
    const texts = Array.from({ length: 40 }, (_, i) => `offline message ${i}`);
    const replies = await Promise.all(texts.map((t) => me.say(conversation, t)));
    expect(replies.map((r) => r.status)).toEqual(texts.map(() => 200));
    expect(new Set(replies.map((r) => r.body.assistant.message_id)).size).toBe(texts.length);
    const history = await me.call('GET', `/v1/conversations/${conversation}/messages?limit=200`);
    const userTexts = history.body.messages.filter((m: { role: string }) => m.role === 'user').map((m: { text: string }) => m.text);
    expect([...userTexts].sort()).toEqual([...texts].sort());
    const events = await types(me.userId!);
    expect(events.filter((t) => t === 'hearth.ingress.v1.TurnReceived')).toHaveLength(40);
    expect(events.filter((t) => t === 'hearth.orchestrator.v1.TurnCompleted')).toHaveLength(40);
  });

  it('refuses a message with NUL or an unpaired surrogate with 422, appends nothing, and the next message is answered', async () => {
    const me = await onboard(anon);
    const conversation = randomUUID();
    const before = await types(me.userId!);
    for (const text of ['bad \u0000 byte', 'lone \uD83D surrogate', 'lone \uDE00 low']) {
      const r = await me.say(conversation, text);
      expect(r).toMatchObject({ status: 422, body: { error: { code: 'INVALID_FIELDS', details: { fields: [{ field: 'text' }] } } } });
    }
    expect((await me.call('PUT', '/v1/me/onboarding', { preferred_name: 'Mi\u0000na' })).status).toBe(422);
    expect(await types(me.userId!)).toEqual(before);

    const next = await me.say(conversation, 'hello again 😀');
    expect(next.status).toBe(200);
    expect(next.body.assistant.text).not.toBe('');
  });

  it('records a retried app open once', async () => {
    const me = await onboard(anon);
    const appOpenId = randomUUID();
    const first = await me.call('POST', '/v1/me/app-opens', { app_open_id: appOpenId });
    const retry = await me.call('POST', '/v1/me/app-opens', { app_open_id: appOpenId });
    expect(first.status).toBe(202);
    expect(retry).toEqual(first);
    expect((await types(me.userId!)).filter((t) => t === 'hearth.ingress.v1.AppOpened')).toHaveLength(1);
  });
});
