// Proactive messages (turn-pipeline §14.3–§14.5) against real NATS and Postgres:
// a RetentionPlanned on the retention stream becomes a TurnCompleted with source
// retention dated at the planned hour, or a RetentionDeclined when the user's
// controls or a message since stop it; a redelivery appends nothing; and a chat
// turn after a proactive message still goes through the ordinary recipe.
import { randomUUID } from 'node:crypto';
import { Bus, draft, type EventType, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { deriveId, Events, type ControlsUpdated, type OnboardingAnswered, type TurnReceived } from '@hearth/events';
import { schemaFor } from '@hearth/host';
import { memory, orchestrator, uncertainty, type router } from '@hearth/proto';
import { migrateSchema, openDatabase, reactOnce, replayProjection, schemaDb, startProjection, startReactor, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { detectTopics, normalizeUserText } from '@hearth/text';
import type { Kysely } from 'kysely';
import { createMemoryClient, FIND_MEMORIES } from '../adapters/memory.js';
import { CHECK_RELIABILITY, createUncertaintyClient } from '../adapters/uncertainty.js';
import type { OrchestratorDb } from '../db.js';
import { service } from '../index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { profilesProjection } from '../projections/profiles.js';
import { turnsProjection } from '../projections/turns.js';
import { createRenderRetentionReactor } from './render-retention.js';
import { createRespondReactor } from './respond.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const HOUR = 60 * 60 * 1000;
// PT03 Blunt Honest: slang, no quirks, taboo RELIGION.
const TEMPLATE = PERSONA_LIBRARY.find((t) => t.template_id === 'PT03')!;
const GATE_COUNT = 13;

interface User {
  userId: string;
  aiFriendId: string;
  conversationId: string;
}

describe('rendering proactive messages (RetentionPlanned → TurnCompleted | RetentionDeclined)', () => {
  const ns = testNamespace('t_orch_retention');
  const clock = new ManualClock(new Date('2026-11-22T09:00:00Z'));
  let dbUrl: string;
  let database: Database;
  let schema: string;
  let db: Kysely<OrchestratorDb>;
  let bus: Bus;
  let reactor: ReturnType<typeof createRenderRetentionReactor>;
  const running: RunningConsumer[] = [];
  const memories = new Map<string, memory.MemorySnippet[]>();
  const memoryRequests: memory.FindMemoriesRequest[] = [];
  // A stand-in uncertainty's Context 3: each memory's state (reliable unless set), or an error for a user it cannot answer.
  const reliability = new Map<string, string>();
  const uncertaintyDown = new Set<string>();
  const reliabilityRequests: uncertainty.CheckReliabilityRequest[] = [];

  beforeAll(async () => {
    dbUrl = await databaseUrl();
    database = await openDatabase({ url: dbUrl });
    schema = schemaFor(ns, 'orchestrator');
    await migrateSchema(database, schema, service.migrations);
    db = schemaDb<OrchestratorDb>(database, schema);
    bus = await Bus.connect({ url: await natsUrl(), name: 'retention-orch', namespace: ns, logger: silent });
    await bus.ensureStreams(['ingress', 'router', 'orchestrator', 'retention']);
    await bus.serveQuery('memory', FIND_MEMORIES, (req) => {
      const r = memory.FindMemoriesRequest.decode(req);
      memoryRequests.push(r);
      return Promise.resolve(memory.MemoriesResponse.encode({ memories: memories.get(r.userId) ?? [] }).finish());
    });
    await bus.serveQuery('uncertainty', CHECK_RELIABILITY, (req) => {
      const r = uncertainty.CheckReliabilityRequest.decode(req);
      reliabilityRequests.push(r);
      if (uncertaintyDown.has(r.userId)) return Promise.reject(new Error('uncertainty is restarting'));
      const answer = r.memoryIds.map((memoryId) => ({ memoryId, reliability: reliability.get(memoryId) ?? 'reliable', uncertaintyId: '' }));
      return Promise.resolve(uncertainty.CheckReliabilityResponse.encode({ reliability: answer }).finish());
    });
    const deps = {
      bus,
      db,
      clock,
      memory: createMemoryClient(bus, { timeoutMs: 1_000 }),
      uncertainty: createUncertaintyClient(bus, { timeoutMs: 1_000, reliabilityTimeoutMs: 1_000 }),
      chat: null,
    };
    reactor = createRenderRetentionReactor(deps);
    running.push(
      ...(await startProjection(bus, db, 'orchestrator', profilesProjection)),
      ...(await startProjection(bus, db, 'orchestrator', turnsProjection)),
      ...(await startReactor(bus, db, 'orchestrator', createRespondReactor(deps))),
      ...(await startReactor(bus, db, 'orchestrator', reactor)),
    );
  }, 60_000);

  afterAll(async () => {
    await Promise.all(running.map((c) => c.stop()));
    await bus?.close();
    await database?.close();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(await natsUrl(), ns);
  });

  async function appendIngress<T>(userId: string, type: EventType<T>, value: T) {
    const last = await bus.lastOnSubject('ingress', userId);
    await bus.append('ingress', userId, [draft(type, value, { id: randomUUID(), userId, occurredAt: clock.now() })], last?.seq ?? 0);
  }

  /** A user through ingress's own events (created, onboarded, activated by a first message), with a PT03 persona. */
  async function newUser(opts: { activate?: boolean } = {}): Promise<User> {
    const userId = randomUUID();
    const aiFriendId = randomUUID();
    await appendIngress(userId, Events.UserCreated, { userId });
    await appendIngress(userId, Events.OnboardingAnswered, {
      answers: { preferredName: 'Mina', ageBand: '25-34', countryOrRegion: 'KR', occupationCategory: 'working', clientTimezone: 'Asia/Seoul', proactiveMessagesEnabled: true, suppressedTopics: [] },
      aiFriendId,
    } satisfies OnboardingAnswered);
    if (opts.activate ?? true) {
      await appendIngress(userId, Events.TurnReceived, {
        messageId: randomUUID(),
        conversationId: randomUUID(),
        text: 'hi',
        source: 'chat',
        userState: 'ONBOARDING',
        activatesUser: true,
        aiFriendId,
        clientTimezone: 'Asia/Seoul',
        clientLocale: 'ko-KR',
        ageBand: '25-34',
        missingOnboarding: [],
      } satisfies TurnReceived);
    }
    await waitFor(async () => (await db.selectFrom('profiles').select('user_state').where('user_id', '=', userId).executeTakeFirst())?.user_state === (opts.activate ?? true ? 'ACTIVE' : 'ONBOARDING') || undefined, {
      timeoutMs: 10_000,
      what: 'the profile',
    });
    await db
      .insertInto('personas')
      .values({
        user_id: userId,
        ai_friend_id: aiFriendId,
        template_id: TEMPLATE.template_id,
        core_archetype: TEMPLATE.core_archetype,
        humor_mode: TEMPLATE.humor_mode,
        friend_energy: TEMPLATE.friend_energy,
        stable_style_params: JSON.stringify(styleOf(TEMPLATE)),
        persona_seed: 4242,
        assigned_at: clock.now(),
      })
      .execute();
    return { userId, aiFriendId, conversationId: randomUUID() };
  }

  async function controls(user: User, c: Partial<ControlsUpdated>) {
    await appendIngress(user.userId, Events.ControlsUpdated, { proactiveMessagesEnabled: true, muteUntil: undefined, suppressedTopics: [], via: 'api', requestId: '', ...c });
  }

  async function orchestratorEvents(userId: string): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    for await (const e of bus.read('orchestrator', { key: userId })) out.push(e);
    return out;
  }

  /** Appends a RetentionPlanned as the retention service would (occurred_at = the slot) and waits for the orchestrator's decision. */
  async function plan(user: User, opts: { slot?: Date; stage?: string; localTime?: string } = {}) {
    const slot = opts.slot ?? new Date(clock.now().getTime() - 2 * HOUR);
    const planned = {
      retentionId: randomUUID(),
      notificationId: randomUUID(),
      conversationId: user.conversationId,
      aiFriendId: user.aiFriendId,
      slot,
      eligibility: {
        stage: opts.stage ?? 'ACQUAINTANCE',
        timezone: 'Asia/Seoul',
        localTime: opts.localTime ?? '14:00',
        inactiveHours: 50,
        minInactiveHours: 48,
        backoffMultiplier: 1,
        cap: 1,
        capWindowHours: 72,
        sentInWindow: 0,
      },
    };
    const last = await bus.lastOnSubject('retention', user.userId);
    const id = randomUUID();
    await bus.append('retention', user.userId, [draft(Events.RetentionPlanned, planned, { id, userId: user.userId, occurredAt: slot, correlationId: planned.retentionId })], last?.seq ?? 0);
    const decision = await waitFor(async () => (await orchestratorEvents(user.userId)).find((e) => e.causationId === id), { timeoutMs: 20_000, what: 'the retention decision' });
    const planEvent = (await (async () => {
      for await (const e of bus.read('retention', { key: user.userId })) if (e.id === id) return e;
      return undefined;
    })())!;
    return {
      planned,
      planEvent,
      decision,
      completed: decision.type === Events.TurnCompleted.name ? Events.TurnCompleted.decode(decision.payload) : null,
      declined: decision.type === Events.RetentionDeclined.name ? Events.RetentionDeclined.decode(decision.payload) : null,
    };
  }

  /** A chat turn as the router would route it, answered by the respond reactor. */
  async function chat(user: User, text: string) {
    const messageId = randomUUID();
    const n = normalizeUserText(text);
    const decision: router.RoutingDecision = {
      pipeline: 'FRIEND_CHAT',
      safetyPolicy: 'ALLOW',
      memoryReadPolicy: 'LIGHT',
      vectorSearchPolicy: 'OFF',
      memoryWritePolicy: 'SELECTIVE',
      relationshipUpdatePolicy: 'ON',
      retentionPolicy: '',
      retrievalQueryText: '',
      notes: '',
      safetyReason: '',
      crisisSafe: false,
    };
    const last = await bus.lastOnSubject('router', user.userId);
    await bus.append(
      'router',
      user.userId,
      [
        draft(
          Events.TurnRouted,
          {
            messageId,
            conversationId: user.conversationId,
            decision,
            flags: [],
            topicMatches: detectTopics(n.normNoPunct).map((m) => ({ topicId: m.topicId, confidence: m.confidence, keywords: [...m.keywords] })),
            userState: 'ACTIVE',
            text,
            aiFriendId: user.aiFriendId,
            source: 'chat',
            userTextNorm: n.userTextNorm,
            normNoPunct: n.normNoPunct,
            tokenEstimate: 1,
            heuristicFlags: [],
            ageBand: '25-34',
            activatesUser: false,
            missingOnboarding: [],
          },
          { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), correlationId: messageId },
        ),
      ],
      last?.seq ?? 0,
    );
    const events = await waitFor(
      async () => {
        const out = (await orchestratorEvents(user.userId)).filter((e) => e.correlationId === messageId);
        return out.some((e) => e.type === Events.TurnCompleted.name) && out.some((e) => e.type === Events.RelationshipUpdated.name) ? out : undefined;
      },
      { timeoutMs: 20_000, what: `the reply to "${text}"` },
    );
    return {
      completed: Events.TurnCompleted.decode(events.find((e) => e.type === Events.TurnCompleted.name)!.payload),
      relationship: Events.RelationshipUpdated.decode(events.find((e) => e.type === Events.RelationshipUpdated.name)!.payload),
    };
  }

  /** An earlier chat reply on the orchestrator's chain, as the respond reactor would have written it. */
  async function earlierReply(user: User, text: string, at: Date) {
    const last = await bus.lastOnSubject('orchestrator', user.userId);
    const completed = orchestrator.TurnCompleted.fromPartial({
      messageId: randomUUID(),
      conversationId: user.conversationId,
      assistantMessageId: randomUUID(),
      assistantText: text,
      source: 'chat',
      outcome: 'draft',
      userText: 'I started playing a new game this weekend',
      aiFriendId: user.aiFriendId,
    });
    const appended = await bus.append('orchestrator', user.userId, [draft(Events.TurnCompleted, completed, { id: randomUUID(), userId: user.userId, occurredAt: at })], last?.seq ?? 0);
    await waitFor(async () => (await db.selectFrom('dialogue').select('assistant_message_id').where('assistant_message_id', '=', completed.assistantMessageId).executeTakeFirst()) ?? undefined, {
      timeoutMs: 10_000,
      what: `the reply at seq ${appended[0]!.seq} in the dialogue`,
    });
  }

  it('renders a check-in as a retention turn dated at the planned hour, with its ids, routing, gates and no LLM', async () => {
    // given
    const user = await newUser();
    const slot = new Date(clock.now().getTime() - 3 * HOUR);

    // when
    const { planned, planEvent, decision, completed } = await plan(user, { slot });

    // then
    expect(decision.type).toBe(Events.TurnCompleted.name);
    expect(decision.id).toBe(deriveId('orchestrator', 'retention', planEvent.id));
    // The planned hour, not the clock: the scheduler may have caught up on a skipped hour.
    expect(decision.occurredAt).toEqual(slot);
    expect(decision.occurredAt).not.toEqual(clock.now());
    expect(completed).toMatchObject({
      messageId: planned.retentionId,
      assistantMessageId: planned.notificationId,
      conversationId: user.conversationId,
      aiFriendId: user.aiFriendId,
      source: 'retention',
      userText: '',
      outcome: 'draft',
      surfacedMemoryIds: [],
      relationshipStage: 'ACQUAINTANCE',
      retentionId: planned.retentionId,
      retentionStep: 'check_in',
      routing: {
        pipeline: 'FRIEND_CHAT',
        safetyPolicy: 'ALLOW',
        memoryReadPolicy: 'LIGHT',
        vectorSearchPolicy: 'OFF',
        memoryWritePolicy: 'NONE',
        relationshipUpdatePolicy: 'OFF',
        retentionPolicy: 'SEND',
      },
      llm: { provider: 'offline-template', purpose: 'retention', output: completed!.assistantText },
      plan: { answerOutline: ['check_in: low-pressure hello'] },
    });
    expect(completed!.retentionRenders).toBeGreaterThanOrEqual(1);
    expect(completed!.exchanges).toHaveLength(1);
    // An ACQUAINTANCE gets no nudge: memory is not asked.
    expect(completed!.retrieval).toMatchObject({ status: 'skipped', memories: [] });
    expect(completed!.gates).toHaveLength(GATE_COUNT);
    expect(completed!.gates.filter((g) => !g.pass)).toEqual([]);
    expect(completed!.gates.find((g) => g.gate === 'emoji_band')).toMatchObject({ detail: 'exempt' });
    expect(completed!.gates.find((g) => g.gate === 'personal_facts')!.detail).toMatch(/limit 1 \(retention\)/);
    expect(completed!.assistantText.match(/\?/g)?.length ?? 0).toBeLessThanOrEqual(1);
    // No relationship event for a proactive message.
    expect((await orchestratorEvents(user.userId)).map((e) => e.type)).toEqual([Events.TurnCompleted.name]);
    // The conversation history shows it at the planned hour.
    const row = await waitFor(async () => db.selectFrom('dialogue').selectAll().where('assistant_message_id', '=', planned.notificationId).executeTakeFirst(), { what: 'the dialogue row' });
    expect(row).toMatchObject({ source: 'retention', user_message_id: planned.retentionId, user_text: '', created_at: slot, opener_norm: completed!.openerNorm });
  });

  it('nudges a FRIEND with the one most recently confirmed allowlisted fact, read as LIGHT', async () => {
    // given
    const user = await newUser();
    const occupation = { memoryId: randomUUID(), type: 'FACT', memoryKey: 'fact:occupation', memoryValue: 'art teacher', confidence: 0.8, topicIds: ['WORK_SCHOOL'], createdAt: undefined, lastConfirmedAt: new Date('2026-11-20T00:00:00Z'), score: 0, occurredOn: '', occurredPrecision: '', relevance: 0, reliability: 'reliable' };
    memories.set(user.userId, [
      { ...occupation, memoryId: randomUUID(), memoryKey: 'fact:current_city', memoryValue: 'Seoul', topicIds: [], lastConfirmedAt: new Date('2026-11-21T00:00:00Z') },
      occupation,
      { ...occupation, memoryId: randomUUID(), type: 'EMOTIONAL_PATTERN', memoryKey: 'pattern:baseline_mood', memoryValue: 'anxious at night', topicIds: ['MENTAL_HEALTH'] },
    ]);

    // when
    const { completed } = await plan(user, { stage: 'FRIEND' });

    // then
    expect(completed).toMatchObject({ retentionStep: 'context_nudge', surfacedMemoryIds: [occupation.memoryId], relationshipStage: 'FRIEND' });
    expect(completed!.assistantText).toContain('art teacher');
    expect(completed!.assistantText).not.toContain('Seoul');
    expect(completed!.retrieval).toMatchObject({ memoryReadPolicy: 'LIGHT', status: 'ok' });
    expect(memoryRequests.at(-1)).toMatchObject({ userId: user.userId, aiFriendId: user.aiFriendId, readPolicy: 'LIGHT', limit: 50 });
    expect(completed!.gates.filter((g) => !g.pass)).toEqual([]);
  });

  it('never names a memory uncertainty doubts (issue 17, Context 3): it asks for the facts a nudge could name, and without an answer reads the snippet', async () => {
    // given: two allowlisted facts, the newer one contradicted as far as uncertainty knows
    const user = await newUser();
    const base = { type: 'FACT', confidence: 0.8, topicIds: ['WORK_SCHOOL'], createdAt: undefined, score: 0, occurredOn: '', occurredPrecision: '', relevance: 0, reliability: 'reliable' };
    const school = { ...base, memoryId: randomUUID(), memoryKey: 'fact:school', memoryValue: 'Hanbit University', lastConfirmedAt: new Date('2026-11-21T00:00:00Z') };
    const major = { ...base, memoryId: randomUUID(), memoryKey: 'fact:major', memoryValue: 'marine biology', lastConfirmedAt: new Date('2026-11-10T00:00:00Z') };
    const city = { ...base, memoryId: randomUUID(), memoryKey: 'fact:current_city', memoryValue: 'Seoul', topicIds: [], lastConfirmedAt: new Date('2026-11-22T00:00:00Z') };
    memories.set(user.userId, [school, major, city]);
    reliability.set(school.memoryId, 'contradicted');

    // when
    const first = (await plan(user, { stage: 'FRIEND' })).completed!;

    // then: asked once, for the nameable facts only; the contradicted one left out and recorded
    expect(reliabilityRequests.filter((r) => r.userId === user.userId)).toEqual([{ userId: user.userId, memoryIds: [school.memoryId, major.memoryId] }]);
    expect(first).toMatchObject({ retentionStep: 'context_nudge', surfacedMemoryIds: [major.memoryId] });
    expect(first.assistantText).toContain('marine biology');
    expect(first.assistantText).not.toContain('Hanbit');
    expect(first.uncertainty).toEqual({ status: 'ok', error: '', verdict: 'none', withheldMemoryIds: [school.memoryId], surfacedUncertaintyId: '', phrasingId: '', answersUncertaintyId: '' });
    expect(first.gates.find((g) => g.gate === 'uncertain_assertion')).toMatchObject({ pass: true, measured: { withheld: '1' } });

    // given: uncertainty cannot answer, and memory's snippet says the major is superseded
    uncertaintyDown.add(user.userId);
    memories.set(user.userId, [school, { ...major, reliability: 'superseded' }, city]);
    clock.advance(HOUR);

    // when
    const second = (await plan(user, { stage: 'FRIEND' })).completed!;

    // then: the snippet decides: the major is not named, the school (reliable as memory knows it) is
    expect(second.uncertainty).toMatchObject({ status: 'unavailable', withheldMemoryIds: [major.memoryId] });
    expect(second.uncertainty!.error).toMatch(/restarting/);
    expect(second).toMatchObject({ retentionStep: 'context_nudge', surfacedMemoryIds: [school.memoryId] });
    expect(second.assistantText).not.toContain('marine biology');
  });

  it('follows up an unanswered question after 24 h, and the user answering it is a meaningful response to a question (§11.2)', async () => {
    // given: a chat reply that ended with its only question, 25 h before the slot
    const user = await newUser();
    const slot = new Date(clock.now().getTime() - HOUR);
    await earlierReply(user, "That's a real update on the game. What's next for you with the game?", new Date(slot.getTime() - 25 * HOUR));

    // when
    const { completed } = await plan(user, { slot, stage: 'FRIEND' });

    // then
    expect(completed).toMatchObject({ retentionStep: 'follow_up', surfacedMemoryIds: [] });
    expect(completed!.assistantText).toMatch(/what's next for you with the game\?$/);
    // Memory was not needed.
    expect(completed!.retrieval!.status).toBe('skipped');

    // and when the user answers, the ordinary recipe runs on a dialogue holding the retention row
    clock.advance(HOUR);
    const reply = await chat(user, 'I think I will finally try the ranked mode with my friends this weekend');
    expect(reply.completed.source).toBe('chat');
    expect(reply.relationship.evidence).toMatchObject({ meaningfulResponse: true });
    // §10.2 compared its opener with the retention message's too.
    expect(reply.completed.gates.find((g) => g.gate === 'repeated_opener')!.measured.compared).toBe('2');
  });

  it('declines, dated at the slot, when proactive messages were turned off after the plan', async () => {
    const user = await newUser();
    await controls(user, { proactiveMessagesEnabled: false });
    const slot = new Date(clock.now().getTime() - HOUR);
    const { decision, declined, planned } = await plan(user, { slot });
    expect(decision.occurredAt).toEqual(slot);
    expect(declined).toMatchObject({ retentionId: planned.retentionId, conversationId: user.conversationId, reason: 'proactive_disabled', routing: { retentionPolicy: 'SKIP' } });
    expect(await db.selectFrom('dialogue').select('assistant_message_id').where('user_id', '=', user.userId).execute()).toEqual([]);
  });

  it('declines while muted, and sends again once the mute has passed', async () => {
    const user = await newUser();
    await controls(user, { muteUntil: new Date(clock.now().getTime() + 2 * HOUR) });
    expect((await plan(user)).declined).toMatchObject({ reason: 'muted' });
    clock.advance(3 * HOUR);
    expect((await plan(user)).completed).toMatchObject({ source: 'retention' });
  });

  it('declines when the user wrote since the planned hour, and for a user who is not active', async () => {
    const user = await newUser();
    const slot = new Date(clock.now().getTime() - HOUR);
    await chat(user, 'just got back home from a long walk by the river');
    expect((await plan(user, { slot })).declined).toMatchObject({ reason: 'user_interacted' });

    const onboarding = await newUser({ activate: false });
    expect((await plan(onboarding)).declined).toMatchObject({ reason: 'not_active' });
  });

  it('decides nothing twice: a redelivered plan appends nothing, even after later events on the chain', async () => {
    const user = await newUser();
    const rendered = await plan(user);
    const declinedUser = await newUser();
    await controls(declinedUser, { proactiveMessagesEnabled: false });
    const declined = await plan(declinedUser);
    const before = (await orchestratorEvents(user.userId)).map((e) => e.id);
    const beforeDeclined = (await orchestratorEvents(declinedUser.userId)).map((e) => e.id);

    // As after a crash between the append and the ack: the reactor's position is lost.
    const redeliver = async (e: StoredEvent) => {
      await db.deleteFrom('projection_positions' as never).where('projection' as never, '=', 'render-retention' as never).execute();
      await reactOnce(db, reactor, e);
    };
    await redeliver(rendered.planEvent);
    await redeliver(declined.planEvent);
    expect((await orchestratorEvents(user.userId)).map((e) => e.id)).toEqual(before);
    expect((await orchestratorEvents(declinedUser.userId)).map((e) => e.id)).toEqual(beforeDeclined);

    // A chat turn since: the plan is no longer the chain's last event, and still renders nothing new.
    clock.advance(HOUR);
    await chat(user, 'hey, sorry I was away for a while with family stuff');
    const after = (await orchestratorEvents(user.userId)).map((e) => e.id);
    await redeliver(rendered.planEvent);
    expect((await orchestratorEvents(user.userId)).map((e) => e.id)).toEqual(after);
  });

  it('never repeats the opener of the last 10 proactive messages', async () => {
    const user = await newUser();
    const openers: string[] = [];
    for (let i = 0; i < 8; i++) {
      clock.advance(HOUR);
      const { completed } = await plan(user, { stage: 'FRIEND' });
      expect(openers).not.toContain(completed!.openerNorm);
      openers.push(completed!.openerNorm);
    }
  });

  it('keeps its projections replayable: replay equals live', async () => {
    for (const projection of [profilesProjection, turnsProjection]) {
      const report = await replayProjection({ bus, database, service: 'orchestrator', schema, projection, migrations: service.migrations });
      expect(report.equal).toBe(true);
      expect(report.events).toBeGreaterThan(0);
    }
  });
});
