// One real turn through the HTTP API, against Hearth started as the README
// starts it (scripts/start: every service in one process) on Postgres.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { Bus, LocalKek, SERVICE_NAMES } from '@hearth/bus';
import { schemaFor } from '@hearth/host';
import { openDatabase, replayProjection } from '@hearth/store';
import { databaseUrl, natsUrl, waitFor } from '@hearth/testing';
import { ALL_SERVICES } from '../services/registry.js';
import { ANSWERS, HearthClient } from './support/client.js';
import { startHearth, type RunningHearth } from './support/process.js';

/**
 * Nothing pending or unacked on any durable consumer of any stream, and no stream grew
 * while they were read: every projection and reactor has handled everything appended.
 */
async function quiescent(bus: Bus): Promise<boolean> {
  const lastSeqs = async () => Promise.all(SERVICE_NAMES.map(async (s) => (await bus.jsm.streams.info(bus.topology.stream(s))).state.last_seq));
  const before = await lastSeqs();
  for (const s of SERVICE_NAMES) {
    for (const c of await bus.jsm.consumers.list(bus.topology.stream(s)).next()) {
      if (c.num_pending + c.num_ack_pending > 0) return false;
    }
  }
  return (await lastSeqs()).every((seq, i) => seq === before[i]);
}

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

  /** The user's events, less the admin's own reads of them (each read is recorded: AdminAccessed). */
  async function timeline(userId: string): Promise<any[]> {
    const r = await admin.call('GET', `/v1/admin/users/${userId}/timeline`);
    expect(r.status).toBe(200);
    return r.body.events.filter((e: { type: string }) => e.type !== 'hearth.ingress.v1.AdminAccessed');
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

    const second = await me.say(conversation, 'had a long day at work');
    expect(second.body).toMatchObject({ user_state: 'ACTIVE', routing: { pipeline: 'FRIEND_CHAT', memory_read_policy: 'FULL', vector_search_policy: 'ON_DEMAND' } });

    const history = await me.call('GET', `/v1/conversations/${conversation}/messages`);
    expect(history.body.messages.map((m: any) => [m.role, m.source, m.text])).toEqual([
      ['user', 'chat', 'hi! I just signed up'],
      ['assistant', 'chat', first.body.assistant.text],
      ['user', 'chat', 'had a long day at work'],
      ['assistant', 'chat', second.body.assistant.text],
    ]);
    expect(history.body.messages[1].surfaced_memory_ids).toEqual([]);
    const page = await me.call('GET', `/v1/conversations/${conversation}/messages?limit=1`);
    expect(page.body.messages.map((m: any) => m.text)).toEqual(['had a long day at work', second.body.assistant.text]);

    // The activation is the first message's own event: one TurnReceived with activates_user.
    const events = await timeline(me.userId!);
    const received = events.filter((e) => e.type === 'hearth.ingress.v1.TurnReceived');
    expect(received.map((e) => [e.payload.text, e.payload.userState, e.payload.activatesUser ?? false])).toEqual([
      ['hello?', 'CREATED', false],
      ['hi! I just signed up', 'ONBOARDING', true],
      ['had a long day at work', 'ACTIVE', false],
    ]);
  });

  it('onboards with a sampled persona, activates on the first message, and routes each turn by §5–§6', async () => {
    const me = await anon.as();
    await me.call('POST', '/v1/me');
    const onboarded = await me.call('PUT', '/v1/me/onboarding', { ...ANSWERS, age_band: '18-24' });
    expect(onboarded.status).toBe(200);
    expect(Object.keys(onboarded.body.persona).sort()).toEqual(['core_archetype', 'friend_energy', 'stable_style_params', 'template_id']);
    expect((await me.call('GET', '/v1/me')).body.persona).toEqual(onboarded.body.persona);

    const conversation = randomUUID();
    const first = await me.say(conversation, 'hey, nice to meet you');
    expect(first.body.user_state).toBe('ACTIVE');
    expect(first.body.routing).toEqual({
      pipeline: 'ONBOARDING_CHAT',
      safety_policy: 'ALLOW',
      memory_read_policy: 'LIGHT',
      vector_search_policy: 'OFF',
      memory_write_policy: 'SELECTIVE',
    });

    const routing = (pipeline: string, safety: string, read: string, vector: string, write: string) => ({
      pipeline,
      safety_policy: safety,
      memory_read_policy: read,
      vector_search_policy: vector,
      memory_write_policy: write,
    });
    const cases: [string, ReturnType<typeof routing>][] = [
      ['what should I do about my breakup?', routing('FRIEND_CHAT', 'ALLOW', 'FULL', 'ON_DEMAND', 'SELECTIVE')],
      ['What is the capital of France?', routing('INFO_QA', 'ALLOW', 'NONE', 'OFF', 'NONE')],
      ['I’m so anxious and totally overwhelmed', routing('EMOTIONAL_SUPPORT', 'ALLOW', 'LIGHT', 'OFF', 'SELECTIVE')],
      ['요즘 너무 우울해', routing('EMOTIONAL_SUPPORT', 'ALLOW', 'LIGHT', 'OFF', 'SELECTIVE')],
      ['send nudes', routing('REFUSAL', 'HARD_REFUSE', 'NONE', 'OFF', 'NONE')],
      ['I want to kill myself', routing('EMOTIONAL_SUPPORT', 'ALLOW', 'LIGHT', 'OFF', 'SELECTIVE')],
    ];
    const replies: Record<string, any> = {};
    for (const [text, expected] of cases) {
      const r = await me.say(conversation, text);
      expect(r.status).toBe(200);
      expect([text, r.body.routing]).toEqual([text, expected]);
      replies[text] = r.body;
    }
    expect(replies['I want to kill myself'].assistant.text).toMatch(/emergency|crisis/i);
    expect(replies['send nudes'].assistant.text).toMatch(/not something I can talk about/);

    // A safety refusal is an ordinary turn: it stays in the visible history.
    const history = await me.call('GET', `/v1/conversations/${conversation}/messages`);
    expect(history.body.messages.filter((m: any) => m.role === 'user').map((m: any) => m.text)).toContain('send nudes');

    // The audit trail: the persona's sampling, and each decision's flags and topics.
    const events = await timeline(me.userId!);
    const persona = events.find((e) => e.type === 'hearth.orchestrator.v1.PersonaAssigned')!.payload;
    expect(persona.templateId).toBe(onboarded.body.persona.template_id);
    expect(persona.personaSeed).toEqual(expect.any(Number));
    expect([2, 3]).toContain(persona.mutatedCategories.length);
    const routed = new Map(events.filter((e) => e.type === 'hearth.router.v1.TurnRouted').map((e) => [e.payload.text, e.payload]));
    const breakup = routed.get('what should I do about my breakup?');
    expect(breakup.flags).toEqual(expect.arrayContaining(['is_question', 'has_personal_pronoun', 'tie_breaker:question_with_personal_pronoun']));
    expect(breakup.topicMatches).toEqual([{ topicId: 'RELATIONSHIPS', confidence: 0.5, keywords: ['breakup'] }]);
    expect(breakup.userTextNorm).toBe('what should i do about my breakup?');
    expect(routed.get('I want to kill myself').decision).toMatchObject({ safetyReason: 'self_harm_intent', crisisSafe: true });
    expect(routed.get('send nudes').decision).toMatchObject({ safetyReason: 'sexual_explicit', relationshipUpdatePolicy: 'OFF' });
  });

  it('hard-refuses sexual content for a 13–17 user but answers a sexual-health question', async () => {
    const teen = await anon.as();
    await teen.call('POST', '/v1/me');
    await teen.call('PUT', '/v1/me/onboarding', { ...ANSWERS, age_band: '13-17' });
    const conversation = randomUUID();
    await teen.say(conversation, 'hi');
    const refused = await teen.say(conversation, 'i had sex with my boyfriend last night');
    expect(refused.body.routing).toMatchObject({ pipeline: 'REFUSAL', safety_policy: 'HARD_REFUSE', memory_write_policy: 'NONE' });
    const education = await teen.say(conversation, 'how does birth control prevent pregnancy after sex?');
    expect(education.body.routing).toMatchObject({ pipeline: 'INFO_QA', safety_policy: 'ALLOW' });
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
    // Memory writes the turn back moments after the reply.
    // Memory writes the turn back moments after the reply; the belief graph has read the
    // persona's self-statements since the assignment ("hello there" and a greeting back tell
    // no belief: they append nothing).
    const belief = 'hearth.belief.v1.BeliefsExtracted';
    const all = await waitFor(
      async () => {
        const t = await timeline(me.userId!);
        return t.at(-1)?.type === 'hearth.memory.v1.TurnMemoryWritten' && t.some((e) => e.type === belief) ? t : undefined;
      },
      { what: 'the turn written back and the persona read by the belief graph', timeoutMs: 10_000, intervalMs: 100 },
    );
    // The belief graph's events land among the others wherever its consumers are: in order
    // among themselves, each at its source's time.
    const beliefs = all.filter((e) => e.type === belief);
    expect(beliefs.map((e) => e.service)).toEqual(['belief-graph']);
    const events = all.filter((e) => e.type !== belief);
    expect(events.map((e) => e.type)).toEqual([
      'hearth.ingress.v1.UserCreated',
      'hearth.ingress.v1.OnboardingAnswered',
      'hearth.orchestrator.v1.PersonaAssigned',
      'hearth.ingress.v1.TurnReceived',
      'hearth.router.v1.TurnRouted',
      'hearth.orchestrator.v1.RelationshipUpdated',
      'hearth.orchestrator.v1.TurnCompleted',
      'hearth.memory.v1.TurnMemoryWritten',
    ]);
    expect(events.map((e) => e.service)).toEqual(['ingress', 'ingress', 'orchestrator', 'ingress', 'router', 'orchestrator', 'orchestrator', 'memory']);
    const times = all.map((e) => Date.parse(e.occurred_at));
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
    const bus = await Bus.connect({ url: await natsUrl(), name: 'e2e-trace', namespace: hearth.namespace, logger: silent, encryption: { kek: LocalKek.forDevelopment(hearth.namespace) } });
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

  // Last: after every flow above, each projection of every service rebuilt from
  // the log into an empty schema equals the live one.
  it('replays every projection of every service equal to its live rows', async () => {
    // A turn that tells the companion what the user thinks of it: trust records a tag (its projection has events).
    const fan = await anon.as();
    await fan.call('POST', '/v1/me');
    await fan.call('PUT', '/v1/me/onboarding', ANSWERS);
    await waitFor(async () => (await fan.call('GET', '/v1/me')).body.persona !== null, { what: 'the persona assigned', timeoutMs: 10_000, intervalMs: 100 });
    expect((await fan.say(randomUUID(), "Honestly, you're so thoughtful, never change.")).status).toBe(200);
    await waitFor(async () => ((await admin.call('GET', `/v1/admin/users/${fan.userId!}/trust`)).body.feedback ?? []).length > 0, {
      what: 'trust to record the feedback',
      timeoutMs: 10_000,
      intervalMs: 100,
    });
    const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const bus = await Bus.connect({ url: await natsUrl(), name: 'e2e-replay', namespace: hearth.namespace, logger: silent, encryption: { kek: LocalKek.forDevelopment(hearth.namespace) } });
    const database = await openDatabase({ url: await databaseUrl() });
    try {
      // Every consumer of every stream has handled what was appended: the live rows are final.
      await waitFor(() => quiescent(bus), { what: 'every consumer to catch up', timeoutMs: 60_000 });
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
        ['ingress/app-opens', true],
        ['ingress/erasures', true],
        ['orchestrator/profiles', true],
        ['orchestrator/personas', true],
        ['orchestrator/turns', true],
        ['memory/memories', true],
        ['belief-graph/beliefs', true],
        ['uncertainty/uncertainties', true],
        ['trust/trust', true],
        ['retention/retention', true],
      ]);
      // Nobody was erased in this run: the erasures projection has nothing to replay.
      for (const [name, , events] of results) if (name !== 'ingress/erasures') expect(events).toBeGreaterThan(0);
    } finally {
      await bus.close();
      await database.close();
    }
  });

  it("replays every recorded routing, relationship, persona-constraint, plan, gate and memory write-back decision through today's deciders (pnpm audit:replay): none differs", async () => {
    const out = join(await mkdtemp(join(tmpdir(), 'audit-')), 'audit.json');
    // HEARTH_ENV as Hearth ran: its development KEK opens the payloads.
    const env = { ...process.env, NODE_OPTIONS: '', HEARTH_ENV: 'test', HEARTH_NAMESPACE: hearth.namespace, NATS_URL: await natsUrl() };
    const run = await promisify(execFile)('node', ['--import', 'tsx', 'scripts/audit-replay.ts', '--json', out, '--fail-on-change'], {
      cwd: resolve(import.meta.dirname, '..'),
      env,
    });
    expect(run.stdout).toContain('0 would be decided differently');
    const report = JSON.parse(await readFile(out, 'utf8'));
    expect(report).toMatchObject({ service: 'all', differing_decisions: 0, differing: [] });
    expect(report.decisions_by_decider.router).toBeGreaterThan(3);
    expect(report.decisions_by_decider['orchestrator.relationship']).toBeGreaterThan(0);
    // Every reply: its constraints and gates; a chat reply's plan; its write-back (those done by now).
    const replies = report.decisions_by_decider['orchestrator.gates'];
    expect(replies).toBeGreaterThan(3);
    expect(report.decisions_by_decider['orchestrator.constraints']).toBe(replies);
    expect(report.decisions_by_decider['orchestrator.plan']).toBeGreaterThan(0);
    expect(report.decisions_by_decider.memory).toBeGreaterThan(3);
  });

  // Last: tokens are checked against the virtual clock, so a day's jump expires every token
  // this file minted before it (the admin's among them: a later admin read answers 401).
  it('moves the virtual clock of every service', async () => {
    expect((await anon.call('GET', '/v1/dev/clock')).status).toBe(401);
    expect((await anon.call('POST', '/v1/dev/clock', { advance_seconds: 1 })).status).toBe(401);
    const before = Date.parse((await anon.clock()).body.now);
    const r = await anon.advanceClock(86_400);
    expect(r.status).toBe(200);
    expect(Date.parse(r.body.now) - before).toBeGreaterThanOrEqual(86_400_000);
    expect((await anon.advanceClock(-5)).status).toBe(422);
  });
});
