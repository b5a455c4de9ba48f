// The turn recipe (turn-pipeline §7–§11) against real NATS and Postgres: the
// user-state gates (ChatRefused, kept out of the history), the fixed safety
// replies, a memory service answered over the bus, the offline provider, and the
// LLM path against a local OpenAI-compatible stub server (repair, rewrite, fallback),
// and an LLM outage (503, 429, a dropped connection, no answer) answered offline.
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Bus, draft, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { Events, type TurnCompleted } from '@hearth/events';
import { schemaFor } from '@hearth/host';
import { createChatClient, startLlmStub, type ChatClient, type LlmStub } from '@hearth/llm';
import { memory, type router } from '@hearth/proto';
import { migrateSchema, openDatabase, reactOnce, replayProjection, schemaDb, startProjection, startReactor, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { detectTopics, normalizeUserText } from '@hearth/text';
import { createLlmHealth, type LlmHealth } from '../adapters/llm-health.js';
import { createMemoryClient, FIND_MEMORIES, SEARCH_MEMORIES } from '../adapters/memory.js';
import type { OrchestratorDb } from '../db.js';
import { service } from '../index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { turnsProjection } from '../projections/turns.js';
import { CIRCUIT_OPEN_ERROR } from '../responder/failover.js';
import { CORRECTION_TEXT, CRISIS_SAFE_TEXT, FINISH_ONBOARDING_TEXT, REFUSAL_TEXT } from '../responder/fixed.js';
import { createRespondReactor } from './respond.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

function decision(over: Partial<router.RoutingDecision> = {}): router.RoutingDecision {
  return {
    pipeline: 'FRIEND_CHAT',
    safetyPolicy: 'ALLOW',
    memoryReadPolicy: 'FULL',
    vectorSearchPolicy: 'ON_DEMAND',
    memoryWritePolicy: 'SELECTIVE',
    relationshipUpdatePolicy: 'ON',
    retentionPolicy: '',
    retrievalQueryText: '',
    notes: '',
    safetyReason: '',
    crisisSafe: false,
    ...over,
  };
}

// PT01 Calm Listener: medium sentences, no emoji, clean, no quirks, taboo POLITICS and RELIGION.
const TEMPLATE = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;

/** One orchestrator with its respond reactor and projections, in its own namespace. */
async function startOrchestrator(label: string, opts: { stub?: LlmStub; chat?: ChatClient; llmHealth?: LlmHealth; memories?: memory.MemorySnippet[] }) {
  const ns = testNamespace(label);
  const clock = new ManualClock(new Date('2026-11-22T09:00:00Z'));
  const dbUrl = await databaseUrl();
  const nats = await natsUrl();
  const database: Database = await openDatabase({ url: dbUrl });
  const schema = schemaFor(ns, 'orchestrator');
  await migrateSchema(database, schema, service.migrations);
  const db = schemaDb<OrchestratorDb>(database, schema);
  const bus = await Bus.connect({ url: nats, name: `${label}-orch`, namespace: ns, logger: silent });
  await bus.ensureStreams(['router', 'orchestrator']);
  const memoryRequests: { name: string; body: memory.FindMemoriesRequest | memory.SearchMemoriesRequest }[] = [];
  if (opts.memories) {
    const found = opts.memories;
    // A stand-in for memory's relevance: a memory whose value is a word of the query is about it.
    const answer = (memories: memory.MemorySnippet[], queryText: string) => {
      const words = new Set(queryText.toLowerCase().split(/[^\p{L}\p{N}]+/u));
      const relevance = (m: memory.MemorySnippet) => Math.max(m.relevance, words.has(m.memoryValue.replace(/^(like|dislike)\|/, '')) ? 0.8 : 0);
      return memory.MemoriesResponse.encode({ memories: memories.map((m) => ({ ...m, relevance: relevance(m) })) }).finish();
    };
    await bus.serveQuery('memory', FIND_MEMORIES, (req) => {
      const body = memory.FindMemoriesRequest.decode(req);
      memoryRequests.push({ name: FIND_MEMORIES, body });
      return Promise.resolve(answer(found.slice(0, 2), body.queryText));
    });
    await bus.serveQuery('memory', SEARCH_MEMORIES, (req) => {
      const body = memory.SearchMemoriesRequest.decode(req);
      memoryRequests.push({ name: SEARCH_MEMORIES, body });
      return Promise.resolve(answer(found.slice(1), body.queryText));
    });
  }
  const chat = opts.chat ?? (opts.stub ? createChatClient({ baseUrl: opts.stub.url, apiKey: null, model: 'stub-model', timeoutMs: 5_000, maxRetries: 0, temperature: 0.7 }) : null);
  const reactor = createRespondReactor({ bus, db, clock, memory: createMemoryClient(bus, { timeoutMs: 1_000 }), chat, ...(opts.llmHealth ? { llmHealth: opts.llmHealth } : {}) });
  const running: RunningConsumer[] = [
    ...(await startProjection(bus, db, 'orchestrator', turnsProjection)),
    ...(await startReactor(bus, db, 'orchestrator', reactor)),
  ];

  async function newUser(over: { suppressed?: string[] } = {}): Promise<{ userId: string; aiFriendId: string }> {
    const userId = randomUUID();
    const aiFriendId = randomUUID();
    await db
      .insertInto('profiles')
      .values({
        user_id: userId,
        user_state: 'ACTIVE',
        preferred_name: 'Mina',
        age_band: '25-34',
        client_timezone: 'Asia/Seoul',
        suppressed_topics: JSON.stringify(over.suppressed ?? []) as unknown as string[],
        ai_friend_id: aiFriendId,
        updated_at: clock.now(),
      })
      .execute();
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
        persona_seed: 1,
        assigned_at: clock.now(),
      })
      .execute();
    return { userId, aiFriendId };
  }

  /** Appends a TurnRouted as the router would and waits for the orchestrator's TurnCompleted. */
  async function turn(
    user: { userId: string; aiFriendId: string },
    text: string,
    over: { decision?: Partial<router.RoutingDecision>; conversationId?: string; source?: string; userState?: string; activatesUser?: boolean; missingOnboarding?: string[]; messageId?: string } = {},
  ) {
    const messageId = over.messageId ?? randomUUID();
    const n = normalizeUserText(text);
    const last = await bus.lastOnSubject('router', user.userId);
    await bus.append(
      'router',
      user.userId,
      [
        draft(
          Events.TurnRouted,
          {
            messageId,
            conversationId: over.conversationId ?? CONVERSATION,
            decision: decision(over.decision),
            flags: [],
            topicMatches: detectTopics(n.normNoPunct).map((m) => ({ topicId: m.topicId, confidence: m.confidence, keywords: [...m.keywords] })),
            userState: over.userState ?? 'ACTIVE',
            text,
            aiFriendId: user.aiFriendId,
            source: over.source ?? 'chat',
            userTextNorm: n.userTextNorm,
            normNoPunct: n.normNoPunct,
            tokenEstimate: 1,
            heuristicFlags: [],
            ageBand: '25-34',
            activatesUser: over.activatesUser ?? false,
            missingOnboarding: over.missingOnboarding ?? [],
          },
          { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), correlationId: messageId },
        ),
      ],
      last?.seq ?? 0,
    );
    const expectRelationship = (over.decision?.relationshipUpdatePolicy ?? 'ON') === 'ON' && (over.source ?? 'chat') === 'chat';
    const events = await waitFor(
      async () => {
        const out: StoredEvent[] = [];
        for await (const e of bus.read('orchestrator', { key: user.userId })) if (e.correlationId === messageId) out.push(e);
        if (out.some((e) => e.type === Events.ChatRefused.name)) return out;
        const wanted = [Events.TurnCompleted.name, ...(expectRelationship ? [Events.RelationshipUpdated.name] : [])];
        return wanted.every((t) => out.some((e) => e.type === t)) ? out : undefined;
      },
      { timeoutMs: 20_000, what: `the reply to "${text}"` },
    );
    const done = events.find((e) => e.type === Events.TurnCompleted.name);
    const refused = events.find((e) => e.type === Events.ChatRefused.name);
    const rel = events.find((e) => e.type === Events.RelationshipUpdated.name);
    return {
      // Tests of ordinary turns read `completed`; the user-state gates read `refused`.
      completed: done ? Events.TurnCompleted.decode(done.payload) : (undefined as unknown as TurnCompleted),
      refused: refused ? Events.ChatRefused.decode(refused.payload) : null,
      relationship: rel ? Events.RelationshipUpdated.decode(rel.payload) : null,
      events,
    };
  }

  return {
    ns,
    bus,
    db,
    clock,
    database,
    schema,
    memoryRequests,
    reactor,
    newUser,
    turn,
    async routedOf(userId: string): Promise<StoredEvent[]> {
      const out: StoredEvent[] = [];
      for await (const e of bus.read('router', { key: userId })) out.push(e);
      return out;
    },
    async stop() {
      await Promise.all(running.map((c) => c.stop()));
      await bus.close();
      await database.close();
      await dropSchemas(dbUrl, ns);
      await cleanupNamespace(nats, ns);
    },
  };
}

const CONVERSATION = '00000000-0000-4000-8000-000000000001';

function failedGates(c: TurnCompleted, pass: number): string[] {
  return c.gates.filter((g) => g.passNumber === pass && !g.pass).map((g) => g.gate);
}

const GATE_COUNT = 13;

describe('the turn recipe with the offline provider and a memory service', () => {
  const snippet = { createdAt: undefined, lastConfirmedAt: undefined, score: 0, occurredOn: '', occurredPrecision: '', relevance: 0, reliability: 'reliable' };
  const memories: memory.MemorySnippet[] = [
    { ...snippet, memoryId: randomUUID(), type: 'PREFERENCE', memoryKey: 'pref:food', memoryValue: 'like|sushi', confidence: 0.75, topicIds: [] },
    { ...snippet, memoryId: randomUUID(), type: 'FACT', memoryKey: 'fact:occupation', memoryValue: 'nurse', confidence: 0.6, topicIds: ['WORK_SCHOOL'] },
    // The search finds it relevant to anything; it is sensitive (§14.6) all the same.
    { ...snippet, memoryId: randomUUID(), type: 'FACT', memoryKey: 'fact:diagnosis', memoryValue: 'asthma', confidence: 0.6, topicIds: ['MEDICAL_HEALTH'], score: 0.9, relevance: 0.9 },
  ];
  let o: Awaited<ReturnType<typeof startOrchestrator>>;

  beforeAll(async () => {
    o = await startOrchestrator('t_orch_recipe', { memories });
  });

  afterAll(async () => {
    await o?.stop();
  });

  it('runs the whole recipe: loads memories by policy, plans, renders, gates every candidate and writes the relationship', async () => {
    const user = await o.newUser();
    const { completed, relationship } = await o.turn(user, 'I love sushi and my work as a nurse has been so busy lately, honestly');
    // §7.1 step 2: FULL policy loads structured memories; no vector trigger fired.
    expect(completed.retrieval).toMatchObject({ memoryReadPolicy: 'FULL', status: 'ok', vectorSearched: false, vectorTriggers: [] });
    expect(completed.retrieval!.memories.map((m) => m.memoryId)).toEqual(memories.slice(0, 2).map((m) => m.memoryId));
    expect(o.memoryRequests.at(-1)).toMatchObject({
      name: FIND_MEMORIES,
      body: { userId: user.userId, aiFriendId: user.aiFriendId, readPolicy: 'FULL', limit: 8, queryText: 'I love sushi and my work as a nurse has been so busy lately, honestly' },
    });
    // Issue 15: the recorded retrieval carries each memory's relevance, and the text it was weighed against.
    expect(completed.retrieval!.memories.map((m) => m.relevance)).toEqual([0.8, 0.8]);
    expect(completed.retrieval!.queryText).toBe('I love sushi and my work as a nurse has been so busy lately, honestly');
    // §8: the plan chose both memories the message is about; the reply surfaced exactly those.
    expect(completed.plan!.memoryIds.sort()).toEqual(memories.slice(0, 2).map((m) => m.memoryId).sort());
    expect(completed.surfacedMemoryIds.sort()).toEqual(memories.slice(0, 2).map((m) => m.memoryId).sort());
    expect(completed.assistantText).toMatch(/sushi/);
    // §10: one verdict per gate on the draft, all passing.
    expect(completed.gates.filter((g) => g.passNumber === 0)).toHaveLength(GATE_COUNT);
    expect(failedGates(completed, 0)).toEqual([]);
    expect(completed.outcome).toBe('draft');
    expect(completed.llm).toMatchObject({ provider: 'offline-template', purpose: 'reply' });
    expect(completed.openerNorm.split(' ').length).toBeLessThanOrEqual(12);
    expect(completed.relationshipStage).toBe('STRANGER');
    // §11: one new session, the preference (+1) counted.
    expect(relationship).toMatchObject({ sessionStarted: true, next: { stage: 'STRANGER', sessionsCount: 1 } });
    expect(relationship!.parts.map((p) => p.rule)).toContain('preference_share');
  });

  it('searches vectors only ON_DEMAND and only on a §7.1 trigger, and never surfaces a sensitive memory uninvited', async () => {
    const user = await o.newUser();
    const before = o.memoryRequests.length;
    const { completed } = await o.turn(user, 'Do you remember what I told you last time?');
    expect(completed.retrieval!.vectorSearched).toBe(true);
    expect(completed.retrieval!.vectorTriggers).toContain('recall_reference');
    expect(o.memoryRequests.slice(before).map((r) => r.name)).toEqual([FIND_MEMORIES, SEARCH_MEMORIES]);
    expect(completed.retrieval!.memories.map((m) => m.via)).toEqual(['structured', 'structured', 'vector']);
    // Recall was asked, yet the MEDICAL_HEALTH memory stays out (§14.6), and the
    // others are not what "what I told you" is about: nothing is surfaced.
    expect(completed.plan!.recallAsked).toBe(true);
    expect(completed.surfacedMemoryIds).not.toContain(memories[2]!.memoryId);
    expect(completed.surfacedMemoryIds).toEqual([]);

    // A recall question about what it holds surfaces it.
    const named = await o.turn(user, 'Do you remember what I said about sushi?');
    expect(named.completed.surfacedMemoryIds).toEqual([memories[0]!.memoryId]);

    const off = await o.turn(user, 'Do you remember what I told you last time?', { decision: { vectorSearchPolicy: 'OFF', memoryReadPolicy: 'NONE' } });
    expect(off.completed.retrieval).toMatchObject({ status: 'skipped', vectorSearched: false, memories: [] });
  });

  it('says it got it wrong when the previous reply had surfaced a memory, and surfaces nothing now', async () => {
    // given: a reply that surfaced the sushi memory
    const user = await o.newUser();
    const first = await o.turn(user, 'I love sushi so much');
    expect(first.completed.surfacedMemoryIds).toContain(memories[0]!.memoryId);

    // when
    const { completed } = await o.turn(user, "No, that's not true");

    // then
    expect(completed).toMatchObject({ outcome: 'correction', assistantText: CORRECTION_TEXT.notTrue, surfacedMemoryIds: [] });
  });

  it('writes no relationship when the router says OFF, nor for a retention turn', async () => {
    const user = await o.newUser();
    expect((await o.turn(user, 'hello there', { decision: { relationshipUpdatePolicy: 'OFF' } })).relationship).toBeNull();
    expect((await o.turn(user, '', { source: 'retention' })).relationship).toBeNull();
  });

  it('answers a CREATED user with ChatRefused asking to finish onboarding (§6.1.1)', async () => {
    const user = await o.newUser();
    const r = await o.turn(user, 'hello?', { userState: 'CREATED', decision: { pipeline: 'REFUSAL', relationshipUpdatePolicy: 'OFF' } });
    expect(r.refused?.text).toBe(FINISH_ONBOARDING_TEXT);
    expect(r.events.map((e) => e.type)).toEqual([Events.ChatRefused.name]);
  });

  it('answers an ONBOARDING message that could not activate with ChatRefused naming what is missing (§4.1.2 step 5)', async () => {
    const user = await o.newUser();
    const r = await o.turn(user, 'hi', {
      userState: 'ONBOARDING',
      missingOnboarding: ['persona'],
      decision: { pipeline: 'ONBOARDING_CHAT', memoryWritePolicy: 'NONE', relationshipUpdatePolicy: 'OFF', notes: 'onboarding incomplete: missing persona' },
    });
    expect(r.refused?.text).toMatch(/getting ready to meet you/);
    expect(r.refused?.reason).toBe('onboarding incomplete: missing persona');
  });

  it('answers the activating first message with an ordinary reply that welcomes the user by name', async () => {
    const user = await o.newUser();
    const r = await o.turn(user, 'hi!', { userState: 'ONBOARDING', activatesUser: true, decision: { pipeline: 'ONBOARDING_CHAT', memoryReadPolicy: 'LIGHT', vectorSearchPolicy: 'OFF' } });
    expect(r.completed.assistantText).toContain('Mina');
    expect(r.relationship).toMatchObject({ sessionStarted: true, next: { sessionsCount: 1 } });
  });

  it('answers a hard refusal with the fixed refusal text as an ordinary reply: no LLM, persona bands exempt, no relationship', async () => {
    const user = await o.newUser();
    const r = await o.turn(user, 'x', {
      decision: { pipeline: 'REFUSAL', safetyPolicy: 'HARD_REFUSE', safetyReason: 'sexual_explicit', relationshipUpdatePolicy: 'OFF', memoryWritePolicy: 'NONE', memoryReadPolicy: 'NONE', vectorSearchPolicy: 'OFF' },
    });
    expect(r.completed).toMatchObject({ assistantText: REFUSAL_TEXT.HARD_REFUSE, outcome: 'refusal', routing: { safetyReason: 'sexual_explicit' } });
    expect(r.completed.gates.find((g) => g.gate === 'safety')).toMatchObject({ pass: true });
    expect(r.completed.gates.find((g) => g.gate === 'emoji_band')).toMatchObject({ pass: true, detail: 'exempt' });
    // §2.2: a hard refusal updates no relationship.
    expect(r.events.map((e) => e.type)).toEqual([Events.TurnCompleted.name]);
  });

  it('answers a soft refusal and self-harm intent with their fixed replies', async () => {
    const user = await o.newUser();
    const soft = await o.turn(user, 'x', { decision: { pipeline: 'REFUSAL', safetyPolicy: 'SOFT_REFUSE', safetyReason: 'hate_harassment', memoryWritePolicy: 'NONE' } });
    expect(soft.completed).toMatchObject({ assistantText: REFUSAL_TEXT.SOFT_REFUSE, outcome: 'refusal' });
    const crisis = await o.turn(user, 'x', { decision: { pipeline: 'EMOTIONAL_SUPPORT', crisisSafe: true, safetyReason: 'self_harm_intent' } });
    expect(crisis.completed).toMatchObject({ assistantText: CRISIS_SAFE_TEXT.replace('{name}', 'Mina'), outcome: 'crisis_safe' });
  });

  it('keeps the whole conversation in its projections: replay equals live', async () => {
    for (const projection of [turnsProjection]) {
      const report = await replayProjection({ bus: o.bus, database: o.database, service: 'orchestrator', schema: o.schema, projection, migrations: service.migrations });
      expect(report.equal).toBe(true);
      expect(report.events).toBeGreaterThan(0);
    }
  });
});

describe('the turn recipe when the memory service does not answer', () => {
  let o: Awaited<ReturnType<typeof startOrchestrator>>;

  beforeAll(async () => {
    o = await startOrchestrator('t_orch_nomem', {});
  });

  afterAll(async () => {
    await o?.stop();
  });

  it('replies without memories and records the retrieval as unavailable', async () => {
    const user = await o.newUser();
    const { completed } = await o.turn(user, 'hi, how are you today?');
    expect(completed.retrieval).toMatchObject({ status: 'unavailable', memories: [] });
    expect(completed.retrieval!.error).toMatch(/memory/i);
    expect(completed.assistantText.length).toBeGreaterThan(0);
  });
});

describe('the turn recipe with an LLM (local OpenAI-compatible stub)', () => {
  let stub: LlmStub;
  let o: Awaited<ReturnType<typeof startOrchestrator>>;
  const medium = 'It sounds like a calm and steady day for you so far, which is really nice to hear. I am glad you took a moment to tell me about it today.';

  beforeAll(async () => {
    stub = await startLlmStub();
    o = await startOrchestrator('t_orch_llm', { stub });
  });

  afterAll(async () => {
    await o?.stop();
    await stub?.close();
  });

  const isRewrite = (body: { messages: { content: string }[] }) => body.messages.at(-1)!.content.startsWith('Rewrite your reply');
  const isRepair = (body: { messages: { content: string }[] }) => body.messages.at(-1)!.content.includes('Reply with only the corrected JSON object');

  it('sends the §9 prompt and takes a passing draft as it is', async () => {
    stub.setHandler(() => ({ content: JSON.stringify({ text: medium, surfaced_memory_ids: ['not-a-planned-memory'] }) }));
    const user = await o.newUser();
    const before = stub.requests.length;
    const { completed } = await o.turn(user, 'just a quiet day at home');
    expect(stub.requests.length - before).toBe(1);
    const system: string = stub.requests.at(-1)!.body.messages[0].content;
    expect(system).toMatch(/Persona: Calm Listener/);
    expect(system).toMatch(/2–5 sentences, 10–22 words per sentence/);
    expect(system).toMatch(/Emoji: between 0 and 0/);
    expect(system).toMatch(/Relationship stage: STRANGER/);
    expect(system).toMatch(/Avoid these topics: POLITICS, RELIGION/);
    expect(completed).toMatchObject({ outcome: 'draft', assistantText: medium });
    // An id the model invented is not surfaced.
    expect(completed.surfacedMemoryIds).toEqual([]);
    expect(completed.exchanges.map((x) => [x.purpose, x.attempt, x.provider, x.model])).toEqual([['reply', 1, 'openai-compatible', 'stub-model']]);
    expect(completed.llm!.output).toContain(medium);
  });

  it('repairs malformed JSON once', async () => {
    stub.setHandler(({ body }) => ({ content: isRepair(body) ? JSON.stringify({ text: medium, surfaced_memory_ids: [] }) : '{"text": "broken' }));
    const user = await o.newUser();
    const { completed } = await o.turn(user, 'a quiet evening again');
    expect(completed.exchanges.map((x) => [x.purpose, x.attempt])).toEqual([
      ['reply', 1],
      ['reply', 2],
    ]);
    expect(completed.exchanges[0]!.error).toMatch(/LLM_INVALID_JSON/);
    expect(completed.outcome).toBe('draft');
  });

  it('rewrites once when a gate fails, telling the model which gate', async () => {
    // An emoji for a persona with none (§10.4) and a taboo topic (§2.8) in the draft.
    stub.setHandler(({ body }) => ({
      content: JSON.stringify({ text: isRewrite(body) ? medium : `${medium} Anyway, what do you think of the election? 😊`, surfaced_memory_ids: [] }),
    }));
    const user = await o.newUser();
    const { completed } = await o.turn(user, 'nothing much going on');
    expect(failedGates(completed, 0).sort()).toEqual(['emoji_band', 'taboo_topics']);
    const rewrite = stub.requests.at(-1)!.body.messages.at(-1).content as string;
    expect(rewrite).toMatch(/emoji_band: /);
    expect(rewrite).toMatch(/taboo_topics: /);
    expect(failedGates(completed, 1)).toEqual([]);
    expect(completed).toMatchObject({ outcome: 'rewrite', assistantText: medium });
    expect(completed.exchanges.map((x) => x.purpose)).toEqual(['reply', 'rewrite']);
  });

  it('falls back to the safe shorter reply when the rewrite fails too', async () => {
    stub.setHandler(() => ({ content: JSON.stringify({ text: 'ok 😊😊', surfaced_memory_ids: [] }) }));
    const user = await o.newUser();
    const { completed } = await o.turn(user, 'hey');
    expect(failedGates(completed, 0)).toContain('emoji_band');
    expect(failedGates(completed, 1)).toContain('emoji_band');
    expect(completed.outcome).toBe('fallback');
    expect(failedGates(completed, 2)).toEqual([]);
    expect(completed.surfacedMemoryIds).toEqual([]);
    expect(completed.llm).toBeUndefined();
    expect(completed.exchanges).toHaveLength(2);
  });

  it('catches a repeated opener and a near-copy of an earlier reply (§10.2, §10.3)', async () => {
    const other = 'That sounds like a genuinely good plan, and I think it could work out well for you. Let me know how it goes whenever you get the chance to try it.';
    stub.setHandler(({ body }) => ({ content: JSON.stringify({ text: isRewrite(body) ? other : medium, surfaced_memory_ids: [] }) }));
    const user = await o.newUser();
    expect((await o.turn(user, 'first message of the day')).completed.outcome).toBe('draft');
    const second = (await o.turn(user, 'second message of the day')).completed;
    expect(failedGates(second, 0).sort()).toEqual(['repeated_opener', 'similarity']);
    expect(second).toMatchObject({ outcome: 'rewrite', assistantText: other });
  });

  it('answers as the offline provider when the LLM fails, with the failed exchange recorded', async () => {
    stub.setHandler(() => ({ status: 500, body: { error: { message: 'boom' } } }));
    const user = await o.newUser();
    const { completed } = await o.turn(user, 'hello again');
    expect(completed.outcome).toBe('draft');
    expect(completed.exchanges[0]!.error).toMatch(/LLM_HTTP_ERROR/);
    expect(completed.llm).toMatchObject({ provider: 'offline-template', error: '' });
  });

  it('answers a redelivered turn once, without asking the LLM again', async () => {
    stub.setHandler(() => ({ content: JSON.stringify({ text: medium, surfaced_memory_ids: [] }) }));
    const user = await o.newUser();
    const { events } = await o.turn(user, 'one more quiet day');
    const routed = (await o.routedOf(user.userId)).at(-1)!;
    const before = stub.requests.length;
    // As after a crash between the append and the ack: the reactor's position is lost.
    await o.db.deleteFrom('projection_positions' as never).where('projection' as never, '=', 'respond' as never).execute();
    await reactOnce(o.db, o.reactor, routed);
    expect(stub.requests.length).toBe(before);
    const after: string[] = [];
    for await (const e of o.bus.read('orchestrator', { key: user.userId })) after.push(e.id);
    expect(after).toEqual(events.map((e) => e.id));
  });

  it('answers a §12.4 correction with its fixed words, asks the LLM nothing and surfaces nothing', async () => {
    // given: a reply that used nothing the friend knew
    stub.setHandler(() => ({ content: JSON.stringify({ text: medium }) }));
    const user = await o.newUser();
    await o.turn(user, 'just a quiet day at home');
    const before = stub.requests.length;

    // when
    const notTrue = await o.turn(user, "That's not true");
    const forget = await o.turn(user, 'Forget that');
    const topic = await o.turn(user, "Don't bring this topic up again");

    // then
    expect(stub.requests.length).toBe(before);
    expect(notTrue.completed).toMatchObject({ outcome: 'correction', assistantText: CORRECTION_TEXT.whichPart, surfacedMemoryIds: [] });
    expect(forget.completed).toMatchObject({ outcome: 'correction', assistantText: CORRECTION_TEXT.nothingToForget });
    expect(topic.completed).toMatchObject({ outcome: 'correction', assistantText: CORRECTION_TEXT.suppressTopic });
    // Their gates are recorded like any fixed reply's.
    expect(notTrue.completed.gates.length).toBeGreaterThan(0);
  });

  it('never calls the LLM on replay', async () => {
    const before = stub.requests.length;
    const report = await replayProjection({ bus: o.bus, database: o.database, service: 'orchestrator', schema: o.schema, projection: turnsProjection, migrations: service.migrations });
    expect(report.equal).toBe(true);
    expect(stub.requests.length).toBe(before);
  });
});

type ProviderMode = '503' | '429' | 'close' | 'hang' | 'ok';

/**
 * An OpenAI-compatible endpoint in trouble: it answers 503 or 429, drops the
 * connection, never answers, or (ok) answers a reply that passes PT01's gates.
 */
async function startFlakyProvider(reply: string) {
  let mode: ProviderMode = '503';
  let requests = 0;
  const server: Server = createServer((req, res) => {
    requests++;
    req.resume();
    req.on('end', () => {
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
        res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
      if (mode === '503') json(503, { error: { message: 'overloaded', type: 'server_error' } });
      else if (mode === '429') json(429, { error: { message: 'slow down', type: 'rate_limit' } }, { 'retry-after': '1' });
      else if (mode === 'close') req.socket.destroy();
      else if (mode === 'ok') {
        const content = JSON.stringify({ text: reply, surfaced_memory_ids: [] });
        json(200, { id: 'c1', object: 'chat.completion', created: 0, model: 'flaky', choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] });
      }
      // 'hang': no answer; the client's timeout ends it.
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests: () => requests,
    set: (m: ProviderMode) => {
      mode = m;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe('the turn recipe during an LLM outage', () => {
  const medium = 'It sounds like a calm and steady day for you so far, which is really nice to hear. I am glad you took a moment to tell me about it today.';
  let provider: Awaited<ReturnType<typeof startFlakyProvider>>;
  let offline: Awaited<ReturnType<typeof startOrchestrator>>;
  let down: Awaited<ReturnType<typeof startOrchestrator>>;
  // The breaker's wall clock, moved by hand past the cool-down.
  let now = Date.parse('2026-11-22T09:00:00Z');
  const health = createLlmHealth({ openAfterFailures: 5, coolDownMs: 30_000, now: () => now });

  beforeAll(async () => {
    provider = await startFlakyProvider(medium);
    // No retries and a short timeout, so that the hanging provider costs half a second.
    const chat = createChatClient({ baseUrl: provider.url, apiKey: null, model: 'flaky-model', timeoutMs: 500, maxRetries: 0, temperature: 0.7 });
    [offline, down] = await Promise.all([startOrchestrator('t_orch_offline', {}), startOrchestrator('t_orch_outage', { chat, llmHealth: health })]);
  });

  afterAll(async () => {
    await Promise.all([offline?.stop(), down?.stop()]);
    await provider?.close();
  });

  /** The same message, from a user in the same state, to the offline orchestrator and to the one whose LLM is down. */
  async function bothAnswer(text: string) {
    const messageId = randomUUID();
    const [a, b] = await Promise.all([offline.turn(await offline.newUser(), text, { messageId }), down.turn(await down.newUser(), text, { messageId })]);
    return { offline: a.completed, outage: b.completed };
  }

  it.each([
    ['503', 'LLM_HTTP_ERROR: HTTP 503', 'server (HTTP 503)'],
    ['429', 'LLM_HTTP_ERROR: HTTP 429', 'rate_limited (HTTP 429)'],
    ['close', 'LLM_UNAVAILABLE', 'transport (LLM_UNAVAILABLE)'],
    ['hang', 'LLM_TIMEOUT', 'timeout (LLM_TIMEOUT)'],
  ] as const)('answers like the offline provider when the provider fails (%s), and records the failed exchange', async (mode, error, reason) => {
    // given the provider in trouble
    provider.set(mode);
    const before = provider.requests();

    // when the same message reaches both orchestrators
    const r = await bothAnswer('hi');

    // then the reply is the offline provider's for the same plan, not the safe fallback
    expect(provider.requests() - before).toBe(1);
    expect(r.outage.assistantText).toBe(r.offline.assistantText);
    expect(r.outage.assistantText).not.toMatch(/I'm here with you/);
    expect(r.outage.plan).toEqual(r.offline.plan);
    expect(r.outage.outcome).toBe(r.offline.outcome);
    expect(r.outage.gates).toEqual(r.offline.gates);
    // and the event says what happened: the LLM's failed try, then the offline render that became the text
    expect(r.outage.exchanges.map((x) => [x.provider, x.purpose, x.output])).toEqual([
      ['openai-compatible', 'reply', ''],
      ['offline-template', 'reply', r.outage.assistantText],
    ]);
    expect(r.outage.exchanges[0]!.error.startsWith(error)).toBe(true);
    expect(r.outage.llm).toMatchObject({ provider: 'offline-template', model: 'template-v0', error: '', output: r.outage.assistantText });
    expect(health.up).toBe(false);
    expect(health.status()).toMatchObject({ ok: false, reason: expect.stringContaining(`last: ${reason}`) });
  });

  it('skips the provider once failures run on (the breaker), then probes it after the cool-down and goes back to it', async () => {
    // given a fifth failure in a row, which opens the breaker
    provider.set('503');
    await bothAnswer('are you there?');
    const before = provider.requests();

    // when the next message comes
    const skipped = await bothAnswer('hello?');

    // then the provider is not asked, the skip is recorded, and the reply is the offline one
    expect(provider.requests()).toBe(before);
    expect(skipped.outage.exchanges.map((x) => [x.provider, x.error])).toEqual([
      ['openai-compatible', CIRCUIT_OPEN_ERROR],
      ['offline-template', ''],
    ]);
    expect(skipped.outage.assistantText).toBe(skipped.offline.assistantText);

    // and once the cool-down is over and the provider is back, one turn probes it and replies come from it again
    provider.set('ok');
    now += 30_000;
    const user = await down.newUser();
    const back = await down.turn(user, 'a quiet day at home');
    expect(provider.requests()).toBe(before + 1);
    expect(back.completed).toMatchObject({ assistantText: medium, llm: { provider: 'openai-compatible' } });
    expect(health.status()).toMatchObject({ ok: true });
  });

  it('replays the outage turns from their events: no LLM call, the same rows as live', async () => {
    const before = provider.requests();
    const report = await replayProjection({ bus: down.bus, database: down.database, service: 'orchestrator', schema: down.schema, projection: turnsProjection, migrations: service.migrations });
    expect(report.equal).toBe(true);
    expect(report.events).toBeGreaterThan(0);
    expect(provider.requests()).toBe(before);
  });
});
