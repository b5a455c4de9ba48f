// One real turn through the HTTP API, against Hearth started as the README
// starts it (scripts/start: every service in one process) on Postgres.
import { randomUUID } from 'node:crypto';
import { Bus } from '@hearth/bus';
import { schemaFor } from '@hearth/host';
import { openDatabase, replayProjection } from '@hearth/store';
import { databaseUrl, natsUrl } from '@hearth/testing';
import { ALL_SERVICES } from '../services/registry.js';
import { ANSWERS, HearthClient } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

describe('a turn through the HTTP API (scripts/start, Postgres)', () => {
  let hearth: RunningHearth;
  let anon: HearthClient;
  let admin: HearthClient;

  beforeAll(async () => {
    hearth = await startHearth({ mode: 'all', database: 'postgres' });
    anon = new HearthClient(hearth.url);
    admin = await anon.as({ admin: true });
  });

  afterAll(async () => {
    const codes = await hearth?.stop();
    // Graceful shutdown: SIGTERM ends the process cleanly.
    expect(codes).toEqual([0]);
  });

  async function timeline(userId: string): Promise<any[]> {
    const r = await admin.call('GET', `/v1/admin/users/${userId}/timeline`);
    expect(r.status).toBe(200);
    return r.body.events;
  }

  it('serves health, readiness, metrics and docs', async () => {
    expect((await anon.call('GET', '/healthz')).status).toBe(200);
    expect((await anon.call('GET', '/readyz')).status).toBe(200);
    const metrics = await anon.call('GET', '/metrics');
    expect(metrics.status).toBe(200);
    expect(String(metrics.body)).toContain('hearth_consumer_bound');
    expect(String(metrics.body)).toMatch(/hearth_consumer_lag\{consumer="ingress-turns-orchestrator"[^}]*\} \d+/);
  });

  it('refuses a CREATED user, keeps the message out of history, then onboards, activates and chats', async () => {
    const me = await anon.as();
    const created = await me.call('POST', '/v1/me');
    expect(created).toMatchObject({ status: 200, body: { user_id: me.userId, user_state: 'CREATED', answers: null, persona: null } });
    expect((await me.call('POST', '/v1/me')).body).toEqual(created.body);

    const conversation = randomUUID();
    const refused = await me.say(conversation, 'hello?');
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ user_state: 'CREATED', routing: { pipeline: 'REFUSAL', memory_write_policy: 'NONE' } });
    expect(refused.body.assistant.text).toMatch(/onboarding/i);
    expect((await me.call('GET', `/v1/conversations/${conversation}/messages`)).body).toEqual({ messages: [] });

    const onboarded = await me.call('PUT', '/v1/me/onboarding', ANSWERS);
    expect(onboarded.status).toBe(200);
    expect(onboarded.body).toMatchObject({ user_state: 'ONBOARDING', answers: ANSWERS });
    expect(onboarded.body.ai_friend_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(onboarded.body.persona).toMatchObject({ template_id: expect.stringMatching(/^PT\d\d$/), core_archetype: expect.any(String) });
    expect(Object.keys(onboarded.body.persona.stable_style_params).sort()).toEqual(
      ['directness_level', 'emoji_freq', 'followup_question_rate', 'humor_mode', 'lexicon_bias', 'msg_length_pref', 'punctuation_quirks'],
    );

    const first = await me.say(conversation, 'hi! I just signed up');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({
      conversation_id: conversation,
      user_state: 'ACTIVE',
      routing: { pipeline: 'ONBOARDING_CHAT', memory_read_policy: 'LIGHT', vector_search_policy: 'OFF' },
      assistant: { surfaced_memory_ids: [] },
    });
    expect(first.body.assistant.text.length).toBeGreaterThan(0);
    expect((await me.call('GET', '/v1/me')).body.user_state).toBe('ACTIVE');

    const second = await me.say(conversation, 'what a day');
    expect(second.body).toMatchObject({ user_state: 'ACTIVE', routing: { pipeline: 'FRIEND_CHAT', memory_read_policy: 'FULL', vector_search_policy: 'ON_DEMAND' } });

    const history = await me.call('GET', `/v1/conversations/${conversation}/messages`);
    expect(history.body.messages.map((m: any) => [m.role, m.source, m.text])).toEqual([
      ['user', 'chat', 'hi! I just signed up'],
      ['assistant', 'chat', first.body.assistant.text],
      ['user', 'chat', 'what a day'],
      ['assistant', 'chat', second.body.assistant.text],
    ]);
    expect(history.body.messages[1].surfaced_memory_ids).toEqual([]);
    const page = await me.call('GET', `/v1/conversations/${conversation}/messages?limit=1`);
    expect(page.body.messages.map((m: any) => m.text)).toEqual(['what a day', second.body.assistant.text]);

    // The activation is the first message's own event: one TurnReceived with activates_user.
    const events = await timeline(me.userId!);
    const received = events.filter((e) => e.type === 'hearth.ingress.v1.TurnReceived');
    expect(received.map((e) => [e.payload.text, e.payload.userState, e.payload.activatesUser ?? false])).toEqual([
      ['hello?', 'CREATED', false],
      ['hi! I just signed up', 'ONBOARDING', true],
      ['what a day', 'ACTIVE', false],
    ]);
  });

  it('answers the same message_id with the identical body and appends nothing; other text is 409', async () => {
    const me = await anon.as();
    await me.call('POST', '/v1/me');
    await me.call('PUT', '/v1/me/onboarding', ANSWERS);
    const conversation = randomUUID();
    const messageId = randomUUID();
    const first = await me.say(conversation, 'same message', messageId);
    expect(first.status).toBe(200);
    const before = await timeline(me.userId!);
    const again = await me.say(conversation, 'same message', messageId);
    expect(again).toEqual(first);
    const concurrent = await Promise.all([1, 2, 3].map(() => me.say(conversation, 'same message', messageId)));
    for (const c of concurrent) expect(c).toEqual(first);
    expect(await timeline(me.userId!)).toEqual(before);

    const conflict = await me.say(conversation, 'different text', messageId);
    expect(conflict).toMatchObject({ status: 409, body: { error: { code: 'MESSAGE_ID_CONFLICT' } } });
    expect(await timeline(me.userId!)).toEqual(before);
  });

  it('replies once to concurrent first sends of one new message_id', async () => {
    const me = await anon.as();
    await me.call('POST', '/v1/me');
    await me.call('PUT', '/v1/me/onboarding', ANSWERS);
    const conversation = randomUUID();
    const messageId = randomUUID();
    const replies = await Promise.all([1, 2, 3, 4].map(() => me.say(conversation, 'racing', messageId)));
    for (const r of replies) expect(r).toEqual(replies[0]);
    const events = await timeline(me.userId!);
    expect(events.filter((e) => e.type === 'hearth.ingress.v1.TurnReceived')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'hearth.orchestrator.v1.TurnCompleted')).toHaveLength(1);
  });

  it('keeps one user’s concurrent messages apart: each gets its own reply, none lost', async () => {
    const me = await anon.as();
    await me.call('POST', '/v1/me');
    await me.call('PUT', '/v1/me/onboarding', ANSWERS);
    const conversation = randomUUID();
    await me.say(conversation, 'first');
    const texts = ['one', 'two', 'three', 'four', 'five', 'six'];
    const replies = await Promise.all(texts.map((t) => me.say(conversation, t)));
    for (const r of replies) expect(r.status).toBe(200);
    expect(new Set(replies.map((r) => r.body.assistant.message_id)).size).toBe(texts.length);
    const history = await me.call('GET', `/v1/conversations/${conversation}/messages`);
    const userTexts = history.body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.text);
    expect([...userTexts].sort()).toEqual(['first', ...texts].sort());
    expect(history.body.messages).toHaveLength(2 * (texts.length + 1));
  });

  it('never lets one user read or reuse another user’s conversation', async () => {
    const alice = await anon.as();
    const bob = await anon.as();
    for (const u of [alice, bob]) {
      await u.call('POST', '/v1/me');
      await u.call('PUT', '/v1/me/onboarding', ANSWERS);
    }
    const conversation = randomUUID();
    const messageId = randomUUID();
    await alice.say(conversation, 'a secret', messageId);
    const read = await bob.call('GET', `/v1/conversations/${conversation}/messages`);
    expect(read).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN' } } });
    expect(JSON.stringify(read.body)).not.toContain('a secret');
    expect((await bob.say(conversation, 'let me in')).status).toBe(403);
    const reuse = await bob.say(randomUUID(), 'a secret', messageId);
    expect(reuse.status).toBe(409);
    expect(JSON.stringify(reuse.body)).not.toContain('a secret');
    expect((await bob.call('GET', `/v1/admin/users/${alice.userId}/timeline`)).status).toBe(403);
  });

  it('rejects bad input with a clear error and changes nothing', async () => {
    const me = await anon.as();
    expect((await anon.call('GET', '/v1/me')).status).toBe(401);
    expect((await new HearthClient(hearth.url, 'not-a-jwt').call('GET', '/v1/me')).status).toBe(401);
    expect((await me.call('GET', '/v1/me')).status).toBe(404);
    expect((await me.call('PUT', '/v1/me/onboarding', ANSWERS)).status).toBe(404);
    await me.call('POST', '/v1/me');
    const bad = await me.call('PUT', '/v1/me/onboarding', { ...ANSWERS, age_band: '30-40', suppressed_topics: ['WEATHER'] });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details.fields.map((f: any) => f.field).sort()).toEqual(['age_band', 'suppressed_topics.0']);
    expect((await me.call('POST', `/v1/conversations/${randomUUID()}/messages`, '{not json')).status).toBe(400);
    expect((await me.call('POST', `/v1/conversations/not-a-uuid/messages`, { message_id: randomUUID(), text: 'x' })).status).toBe(422);
    expect((await me.call('POST', `/v1/conversations/${randomUUID()}/messages`, { message_id: 'nope', text: 'x' })).status).toBe(422);
    expect((await me.call('POST', `/v1/conversations/${randomUUID()}/messages`, { message_id: randomUUID(), text: 'x'.repeat(70_000) })).status).toBe(413);
    const events = await timeline(me.userId!);
    expect(events.map((e) => e.type)).toEqual(['hearth.ingress.v1.UserCreated']);
    expect((await me.call('GET', '/v1/me')).body).toMatchObject({ user_state: 'CREATED', answers: null });
  });

  it('returns every event of a user across streams in order', async () => {
    const me = await anon.as();
    await me.call('POST', '/v1/me');
    await me.call('PUT', '/v1/me/onboarding', ANSWERS);
    await me.say(randomUUID(), 'hello there');
    const events = await timeline(me.userId!);
    expect(events.map((e) => e.type)).toEqual([
      'hearth.ingress.v1.UserCreated',
      'hearth.ingress.v1.OnboardingAnswered',
      'hearth.orchestrator.v1.PersonaAssigned',
      'hearth.ingress.v1.TurnReceived',
      'hearth.router.v1.TurnRouted',
      'hearth.orchestrator.v1.TurnCompleted',
    ]);
    expect(events.map((e) => e.service)).toEqual(['ingress', 'ingress', 'orchestrator', 'ingress', 'router', 'orchestrator']);
    const times = events.map((e) => Date.parse(e.occurred_at));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('traces one turn across every NATS hop: its events carry one trace id', async () => {
    const me = await anon.as();
    await me.call('POST', '/v1/me');
    await me.call('PUT', '/v1/me/onboarding', ANSWERS);
    const traceId = 'aa'.repeat(16);
    const res = await me.call('POST', `/v1/conversations/${randomUUID()}/messages`, { message_id: randomUUID(), text: 'trace me' }, {
      traceparent: `00-${traceId}-${'bb'.repeat(8)}-01`,
    });
    expect(res.status).toBe(200);
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const bus = await Bus.connect({ url: await natsUrl(), name: 'e2e-trace', namespace: hearth.namespace, logger: silent });
    try {
      const traces: Record<string, string | undefined> = {};
      for (const service of ['ingress', 'router', 'orchestrator'] as const) {
        const m = await bus.jsm.streams.getMessage(bus.topology.stream(service), { last_by_subj: bus.topology.subject(service, me.userId!) });
        traces[service] = m?.header.get('traceparent').split('-')[1];
      }
      expect(traces).toEqual({ ingress: traceId, router: traceId, orchestrator: traceId });
    } finally {
      await bus.close();
    }
  });

  it('moves the virtual clock of every service', async () => {
    const before = Date.parse((await anon.call('GET', '/v1/dev/clock')).body.now);
    const r = await anon.call('POST', '/v1/dev/clock', { advance_seconds: 86_400 });
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.now) - before).toBeGreaterThanOrEqual(86_400_000);
    expect((await anon.call('POST', '/v1/dev/clock', { advance_seconds: -5 })).status).toBe(422);
  });

  // Last: after every flow above, each projection of every service rebuilt from
  // the log into an empty schema equals the live one.
  it('replays every projection of every service equal to its live rows', async () => {
    await new Promise((r) => setTimeout(r, 500));
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const bus = await Bus.connect({ url: await natsUrl(), name: 'e2e-replay', namespace: hearth.namespace, logger: silent });
    const database = await openDatabase({ url: await databaseUrl() });
    try {
      const results: [string, boolean, number][] = [];
      for (const s of ALL_SERVICES) {
        for (const p of s.projections) {
          const report = await replayProjection({
            bus,
            database,
            service: s.name,
            schema: schemaFor(hearth.namespace, s.name),
            projection: p,
            migrations: s.migrations,
          });
          results.push([`${s.name}/${p.name}`, report.equal, report.events]);
        }
      }
      expect(results.map(([name, equal]) => [name, equal])).toEqual([
        ['ingress/users', true],
        ['ingress/personas', true],
        ['ingress/turns', true],
        ['orchestrator/profiles', true],
        ['orchestrator/personas', true],
      ]);
      for (const [, , events] of results) expect(events).toBeGreaterThan(0);
    } finally {
      await bus.close();
      await database.close();
    }
  });
});
