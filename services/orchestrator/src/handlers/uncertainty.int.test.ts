// Issue 17 at turn time, against real NATS and Postgres: the turn asks
// uncertainty (a stand-in served on the bus) beside the memory queries, never
// asserts a memory the message contradicts (uncertainty's answer, the snippet's
// reliability, or the turn's own guard when uncertainty is late), weaves a
// contradiction in as a gentle question, names it to the next turn, and records
// all of it in TurnCompleted.uncertainty.
import { randomUUID } from 'node:crypto';
import { Bus, draft, type RunningConsumer } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { Events, GET_BELIEF_CONTEXT, type TurnCompleted } from '@hearth/events';
import { schemaFor } from '@hearth/host';
import { createChatClient, startLlmStub, type LlmStub } from '@hearth/llm';
import { belief, memory, uncertainty, type router } from '@hearth/proto';
import { migrateSchema, openDatabase, replayProjection, schemaDb, startProjection, startReactor, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { detectTopics, normalizeUserText } from '@hearth/text';
import { createBeliefClient } from '../adapters/beliefs.js';
import { createMemoryClient, FIND_MEMORIES } from '../adapters/memory.js';
import { CHECK_MESSAGE, createUncertaintyClient } from '../adapters/uncertainty.js';
import type { OrchestratorDb } from '../db.js';
import { uncertainAssertionGate } from '../gates/index.js';
import { service } from '../index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { turnsProjection } from '../projections/turns.js';
import { questionsFor } from '../turn/surface.js';
import { createRespondReactor } from './respond.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
// PT01 Calm Listener: medium sentences, no emoji, clean, no quirks.
const TEMPLATE = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;
const SNIPPET = { confidence: 0.75, topicIds: [] as string[], createdAt: undefined, lastConfirmedAt: undefined, score: 0, occurredOn: '', occurredPrecision: '', relevance: 0, reliability: 'reliable' };
const SUSHI_SURFACE: uncertainty.Surface = {
  uncertaintyId: 'u-sushi',
  reason: 'contradiction',
  memoryKey: 'pref:food:sushi',
  heldValue: 'like|sushi',
  statedValue: 'dislike|sushi',
  severity: 'critical',
  surfacedCount: 0,
  usedPhrasingIds: [],
};

function decision(over: Partial<router.RoutingDecision> = {}): router.RoutingDecision {
  return {
    pipeline: 'FRIEND_CHAT',
    safetyPolicy: 'ALLOW',
    memoryReadPolicy: 'FULL',
    vectorSearchPolicy: 'OFF',
    memoryWritePolicy: 'SELECTIVE',
    relationshipUpdatePolicy: 'OFF',
    retentionPolicy: '',
    retrievalQueryText: '',
    notes: '',
    safetyReason: '',
    crisisSafe: false,
    ...over,
  };
}

/** A stand-in uncertainty: answers each CheckMessage with `answer` (or after `delayMs`), and keeps what it was asked. */
function uncertaintyStub() {
  const requests: uncertainty.CheckMessageRequest[] = [];
  const stub = {
    requests,
    delayMs: 0,
    answer: (_req: uncertainty.CheckMessageRequest): Partial<uncertainty.CheckMessageResponse> => ({ verdict: 'none' }),
    async handler(req: Uint8Array): Promise<Uint8Array> {
      const r = uncertainty.CheckMessageRequest.decode(req);
      requests.push(r);
      if (stub.delayMs) await new Promise((resolve) => setTimeout(resolve, stub.delayMs));
      return uncertainty.CheckMessageResponse.encode(uncertainty.CheckMessageResponse.fromPartial(stub.answer(r))).finish();
    },
  };
  return stub;
}

async function startOrchestrator(label: string, opts: { uncertainty?: ReturnType<typeof uncertaintyStub>; stub?: LlmStub; challenge?: boolean }) {
  const ns = testNamespace(label);
  const clock = new ManualClock(new Date('2026-11-29T09:00:00Z'));
  const dbUrl = await databaseUrl();
  const nats = await natsUrl();
  const database: Database = await openDatabase({ url: dbUrl });
  const schema = schemaFor(ns, 'orchestrator');
  await migrateSchema(database, schema, service.migrations);
  const db = schemaDb<OrchestratorDb>(database, schema);
  const bus = await Bus.connect({ url: nats, name: `${label}-orch`, namespace: ns, logger: silent });
  await bus.ensureStreams(['router', 'orchestrator']);
  // Memory: each user's memories, relevant to a message that names their item.
  const memories = new Map<string, memory.MemorySnippet[]>();
  await bus.serveQuery('memory', FIND_MEMORIES, (req) => {
    const r = memory.FindMemoriesRequest.decode(req);
    const words = new Set(r.queryText.toLowerCase().split(/[^\p{L}\p{N}]+/u));
    const found = (memories.get(r.userId) ?? []).map((m) => ({ ...m, relevance: words.has(m.memoryValue.replace(/^(like|dislike)\|/, '').toLowerCase()) ? 0.8 : 0 }));
    return Promise.resolve(memory.MemoriesResponse.encode({ memories: found }).finish());
  });
  if (opts.uncertainty) await bus.serveQuery('uncertainty', CHECK_MESSAGE, (req) => opts.uncertainty!.handler(req));
  if (opts.challenge) {
    await bus.serveQuery('belief-graph', GET_BELIEF_CONTEXT, () =>
      Promise.resolve(
        belief.GetBeliefContextResponse.encode(
          belief.GetBeliefContextResponse.fromPartial({ challenge: { challengeId: 'ch-1', beliefId: 'b-1', canonicalText: 'i never get it right', rawText: 'I never get it right', style: 'curious', prompt: 'Does it feel true every single time?' } }),
        ).finish(),
      ),
    );
  }
  const chat = opts.stub ? createChatClient({ baseUrl: opts.stub.url, apiKey: null, model: 'stub-model', timeoutMs: 5_000, maxRetries: 0, temperature: 0.7 }) : null;
  const reactor = createRespondReactor({
    bus,
    db,
    clock,
    memory: createMemoryClient(bus, { timeoutMs: 1_000 }),
    beliefs: createBeliefClient(bus, { timeoutMs: 1_000 }),
    // A short budget, so that the slow stand-in is late.
    uncertainty: createUncertaintyClient(bus, { timeoutMs: 300, reliabilityTimeoutMs: 300 }),
    chat,
  });
  const running: RunningConsumer[] = [...(await startProjection(bus, db, 'orchestrator', turnsProjection)), ...(await startReactor(bus, db, 'orchestrator', reactor))];

  async function newUser(held: Partial<memory.MemorySnippet>[] = []): Promise<{ userId: string; aiFriendId: string; memories: memory.MemorySnippet[] }> {
    const userId = randomUUID();
    const aiFriendId = randomUUID();
    const mine = held.map((m) => ({ ...SNIPPET, memoryId: randomUUID(), type: 'PREFERENCE', memoryKey: '', memoryValue: '', ...m }));
    memories.set(userId, mine);
    await db
      .insertInto('profiles')
      .values({ user_id: userId, user_state: 'ACTIVE', preferred_name: 'Mina', age_band: '25-34', client_timezone: 'Asia/Seoul', suppressed_topics: JSON.stringify([]) as unknown as string[], ai_friend_id: aiFriendId, updated_at: clock.now() })
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
    return { userId, aiFriendId, memories: mine };
  }

  async function turn(user: { userId: string; aiFriendId: string }, text: string, over: { conversationId: string; decision?: Partial<router.RoutingDecision> }): Promise<TurnCompleted> {
    const messageId = randomUUID();
    const n = normalizeUserText(text);
    const last = await bus.lastOnSubject('router', user.userId);
    clock.advance(60_000);
    await bus.append(
      'router',
      user.userId,
      [
        draft(
          Events.TurnRouted,
          {
            messageId,
            conversationId: over.conversationId,
            decision: decision(over.decision),
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
    const done = await waitFor(
      async () => {
        for await (const e of bus.read('orchestrator', { key: user.userId })) if (e.correlationId === messageId && e.type === Events.TurnCompleted.name) return e;
        return undefined;
      },
      { timeoutMs: 20_000, what: `the reply to "${text}"` },
    );
    return Events.TurnCompleted.decode(done.payload);
  }

  return {
    db,
    bus,
    clock,
    database,
    schema,
    newUser,
    turn,
    async stop() {
      await Promise.all(running.map((c) => c.stop()));
      await bus.close();
      await database.close();
      await dropSchemas(dbUrl, ns);
      await cleanupNamespace(nats, ns);
    },
  };
}

const SUSHI = { type: 'PREFERENCE', memoryKey: 'pref:food:sushi', memoryValue: 'like|sushi' };

/** No sentence of the reply states the value, the woven question aside. */
function assertsNothingOf(text: string, value: string, questions: readonly string[] = []): boolean {
  return uncertainAssertionGate(text, [{ key: 'k', value }], questions.length ? { sides: [], questions } : null).pass;
}

describe('a turn and the uncertainty engine (offline responder)', () => {
  const stub = uncertaintyStub();
  let o: Awaited<ReturnType<typeof startOrchestrator>>;

  beforeAll(async () => {
    o = await startOrchestrator('t_orch_uncertainty', { uncertainty: stub, challenge: true });
  });

  afterAll(async () => {
    await o?.stop();
  });

  beforeEach(() => {
    stub.delayMs = 0;
    stub.answer = () => ({ verdict: 'none' });
  });

  it('weaves a flagged contradiction in as a question, does not assert the memory, and names it to the next turn', async () => {
    // given: a memory that the user loves sushi, and uncertainty flagging the message against it
    const user = await o.newUser([SUSHI]);
    const sushi = user.memories[0]!;
    const conversation = randomUUID();
    stub.answer = () => ({ verdict: 'contradiction', contradictedMemoryIds: [sushi.memoryId], surface: SUSHI_SURFACE });

    // when
    const first = await o.turn(user, 'Honestly I hate sushi, it tastes like nothing to me', { conversationId: conversation });

    // then: uncertainty was asked with the turn's message, beside memory
    expect(stub.requests.at(-1)).toMatchObject({
      userId: user.userId,
      messageId: first.messageId,
      conversationId: conversation,
      text: 'Honestly I hate sushi, it tastes like nothing to me',
      afterMessageId: '',
      memoryIds: [],
      answersUncertaintyId: '',
    });
    expect(stub.requests.at(-1)!.at).toEqual(o.clock.now());
    // and the reply closes with the question, asserting nothing of the memory
    const questions = questionsFor(SUSHI_SURFACE, 0).map((q) => q.text);
    const carried = questions.find((q) => first.assistantText.endsWith(q));
    expect([first.assistantText, carried]).toEqual([first.assistantText, expect.any(String)]);
    expect(first.assistantText).not.toMatch(/you like sushi|you love sushi/i);
    expect(assertsNothingOf(first.assistantText, 'like|sushi', [carried!])).toBe(true);
    expect(first.plan!.memoryIds).toEqual([]);
    expect(first.surfacedMemoryIds).toEqual([]);
    // and the turn records it, the phrasing the reply used among it
    expect(first.uncertainty).toMatchObject({
      status: 'ok',
      error: '',
      verdict: 'contradiction',
      withheldMemoryIds: [sushi.memoryId],
      surfacedUncertaintyId: 'u-sushi',
      answersUncertaintyId: '',
    });
    expect(['thought', 'had_you', 'sworn']).toContain(first.uncertainty!.phrasingId);
    expect(first.gates.find((g) => g.gate === 'uncertain_assertion' && g.passNumber === 0)).toMatchObject({ pass: true, measured: { surface: '1', question: '1' } });
    // and the challenge the graph offered gives way: one question a reply
    expect(first.beliefs).toMatchObject({ challenge: undefined, challengeSkipped: 'uncertainty' });
    const row = await waitFor(async () => o.db.selectFrom('dialogue').select('surfaced_uncertainty_id').where('user_message_id', '=', first.messageId).executeTakeFirst(), { what: 'the dialogue row' });
    expect(row.surfaced_uncertainty_id).toBe('u-sushi');

    // when the user answers in the same conversation
    stub.answer = () => ({ verdict: 'answer', contradictedMemoryIds: [sushi.memoryId] });
    const second = await o.turn(user, 'I just got tired of it after a bad dinner', { conversationId: conversation });

    // then the turn names the uncertainty its message answers, to uncertainty and on record
    expect(stub.requests.at(-1)).toMatchObject({ answersUncertaintyId: 'u-sushi', afterMessageId: first.messageId });
    expect(second.uncertainty).toMatchObject({ status: 'ok', verdict: 'answer', surfacedUncertaintyId: '', phrasingId: '', answersUncertaintyId: 'u-sushi' });
  });

  it('when uncertainty is late, still withholds what the message contradicts (the turn\'s own guard), and records the timeout', async () => {
    // given: uncertainty answers after the turn's budget
    const user = await o.newUser([SUSHI]);
    const sushi = user.memories[0]!;
    stub.delayMs = 1_500;
    stub.answer = () => ({ verdict: 'contradiction', contradictedMemoryIds: [sushi.memoryId], surface: SUSHI_SURFACE });

    // when
    const completed = await o.turn(user, 'I hate sushi now', { conversationId: randomUUID() });

    // then
    expect(completed.uncertainty).toMatchObject({ status: 'timeout', verdict: 'none', withheldMemoryIds: [sushi.memoryId], surfacedUncertaintyId: '', phrasingId: '' });
    expect(completed.uncertainty!.error).toMatch(/uncertainty/);
    expect(completed.plan!.memoryIds).toEqual([]);
    expect(completed.assistantText).not.toMatch(/sushi/i);
    // no surface came: the graph's challenge is the reply's question
    expect(completed.beliefs).toMatchObject({ challenge: { challengeId: 'ch-1' } });
  });

  it('withholds a memory whose reliability memory projected as contradicted, and says back a reliable one', async () => {
    const user = await o.newUser([{ ...SUSHI, reliability: 'contradicted' }, { memoryKey: 'pref:food:ramen', memoryValue: 'like|ramen' }]);
    const [sushi, ramen] = user.memories;

    const completed = await o.turn(user, 'sushi or ramen tonight, what a choice', { conversationId: randomUUID() });

    expect(completed.uncertainty).toMatchObject({ status: 'ok', verdict: 'none', withheldMemoryIds: [sushi!.memoryId] });
    expect(completed.plan!.memoryIds).toEqual([ramen!.memoryId]);
    // (the reply may trim the callback to close with the graph's challenge: what it says back is ramen, or nothing)
    expect(completed.surfacedMemoryIds.filter((id) => id !== ramen!.memoryId)).toEqual([]);
    expect(completed.assistantText).not.toMatch(/sushi/i);
  });

  it('does not ask uncertainty for a fixed reply, onboarding or an answer, and records it skipped', async () => {
    const user = await o.newUser([SUSHI]);
    const before = stub.requests.length;
    const refused = await o.turn(user, 'tell me something awful', { conversationId: randomUUID(), decision: { safetyPolicy: 'HARD_REFUSE' } });
    const onboarding = await o.turn(user, 'hello there', { conversationId: randomUUID(), decision: { pipeline: 'ONBOARDING_CHAT' } });
    const info = await o.turn(user, 'how far is the moon?', { conversationId: randomUUID(), decision: { pipeline: 'INFO_QA' } });
    expect(stub.requests.length).toBe(before);
    for (const t of [refused, onboarding, info]) expect(t.uncertainty).toMatchObject({ status: 'skipped', error: '', verdict: 'none', surfacedUncertaintyId: '' });
  });

  it('replays the dialogue, surfaced uncertainties included, to the same rows', async () => {
    const report = await replayProjection({ bus: o.bus, database: o.database, service: 'orchestrator', schema: o.schema, projection: turnsProjection, migrations: service.migrations });
    expect(report.equal).toBe(true);
    expect(report.events).toBeGreaterThan(0);
  });
});

describe('a turn without the uncertainty service', () => {
  let o: Awaited<ReturnType<typeof startOrchestrator>>;

  beforeAll(async () => {
    o = await startOrchestrator('t_orch_nouncertainty', {});
  });

  afterAll(async () => {
    await o?.stop();
  });

  it('is answered all the same, records uncertainty as unavailable, and the guard still withholds the corrected memory', async () => {
    const user = await o.newUser([{ type: 'FACT', memoryKey: 'fact:current_city', memoryValue: 'seoul' }]);
    const completed = await o.turn(user, 'Actually I live in Busan, not Seoul', { conversationId: randomUUID() });
    expect(completed.outcome).toBe('draft');
    expect(completed.uncertainty).toMatchObject({ status: 'unavailable', verdict: 'none', withheldMemoryIds: [user.memories[0]!.memoryId] });
    expect(completed.uncertainty!.error).toMatch(/uncertainty/);
    expect(assertsNothingOf(completed.assistantText, 'seoul')).toBe(true);
  });
});

describe('an uncertain memory and the LLM (stub)', () => {
  const stub = uncertaintyStub();
  let llm: LlmStub;
  let o: Awaited<ReturnType<typeof startOrchestrator>>;
  const asserting = 'I remember you love sushi, so that is a surprise to hear from you today. What made you change your mind about it lately?';
  const asking = 'Oh, that is a real change from what I had in mind for you. Wait, are you not into it anymore, or was it just one bad night?';
  const isRewrite = (body: { messages: { content: string }[] }) => body.messages.at(-1)!.content.startsWith('Rewrite your reply');

  beforeAll(async () => {
    llm = await startLlmStub();
    o = await startOrchestrator('t_orch_uncertainty_llm', { uncertainty: stub, stub: llm, challenge: true });
  });

  afterAll(async () => {
    await o?.stop();
    await llm?.close();
  });

  it('tells the model what it remembered and to ask, rewrites a draft that asserts it, and records the question as carried', async () => {
    const user = await o.newUser([SUSHI]);
    stub.answer = () => ({ verdict: 'contradiction', contradictedMemoryIds: [user.memories[0]!.memoryId], surface: SUSHI_SURFACE });
    llm.setHandler(({ body }) => ({ content: JSON.stringify({ text: isRewrite(body) ? asking : asserting, surfaced_memory_ids: [] }) }));

    const completed = await o.turn(user, 'I hate sushi now', { conversationId: randomUUID() });

    const system: string = llm.requests.at(-2)!.body.messages[0].content;
    expect(system).toContain("**UNCERTAIN MEMORY**: The user's message contradicts what you remembered: you loved sushi. Now it sounds like you're not into sushi.");
    expect(system).toContain('Do not assert either version as a fact.');
    expect(system).not.toContain('like|sushi');
    // the graph's challenge is not offered beside it: one question a reply
    expect(system).not.toContain('OPTIONAL BELIEF EXPLORATION');
    expect(completed.beliefs).toMatchObject({ challenge: undefined, challengeSkipped: 'uncertainty' });
    const draftVerdict = completed.gates.find((g) => g.gate === 'uncertain_assertion' && g.passNumber === 0)!;
    expect(draftVerdict).toMatchObject({ pass: false });
    expect(draftVerdict.detail).toContain('"sushi" (pref:food:sushi)');
    expect(llm.requests.at(-1)!.body.messages.at(-1).content).toMatch(/uncertain_assertion: states "sushi"/);
    expect(completed).toMatchObject({ outcome: 'rewrite', assistantText: asking });
    // the phrasing recorded is the one the prompt gave as its example
    expect(completed.uncertainty).toMatchObject({ status: 'ok', surfacedUncertaintyId: 'u-sushi' });
    const example = questionsFor(SUSHI_SURFACE, 0).find((q) => q.phrasingId === completed.uncertainty!.phrasingId)!;
    expect(system).toContain(`for example: "${example.text}"`);
  });

  it('falls back when every draft asserts it, and records no surfaced question', async () => {
    const user = await o.newUser([SUSHI]);
    stub.answer = () => ({ verdict: 'contradiction', contradictedMemoryIds: [user.memories[0]!.memoryId], surface: SUSHI_SURFACE });
    llm.setHandler(() => ({ content: JSON.stringify({ text: asserting, surfaced_memory_ids: [] }) }));

    const completed = await o.turn(user, 'I hate sushi now', { conversationId: randomUUID() });

    expect(completed.outcome).toBe('fallback');
    expect(completed.uncertainty).toMatchObject({ status: 'ok', surfacedUncertaintyId: '', phrasingId: '', withheldMemoryIds: [user.memories[0]!.memoryId] });
    const row = await waitFor(async () => o.db.selectFrom('dialogue').select('surfaced_uncertainty_id').where('user_message_id', '=', completed.messageId).executeTakeFirst(), { what: 'the dialogue row' });
    expect(row.surfaced_uncertainty_id).toBe('');
  });
});
