// Issue 16 at turn time, against real NATS and Postgres: the turn asks the
// belief graph (a stand-in served on the bus) before planning, weaves at most
// one challenge per conversation and records the whole answer in
// TurnCompleted.beliefs; without the graph the turn goes on; and a draft that
// contradicts a core companion belief is rewritten (LLM stub).
import { randomUUID } from 'node:crypto';
import { BELIEF_CONFIG, decompose } from '@hearth/beliefs';
import { Bus, draft, type RunningConsumer } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { Events, GET_BELIEF_CONTEXT, type TurnCompleted } from '@hearth/events';
import { schemaFor } from '@hearth/host';
import { createChatClient, createLocalEmbedder, startLlmStub, type LlmStub } from '@hearth/llm';
import { belief, type router } from '@hearth/proto';
import { migrateSchema, openDatabase, replayProjection, schemaDb, startProjection, startReactor, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { normalizeUserText } from '@hearth/text';
import { createBeliefClient } from '../adapters/beliefs.js';
import { createMemoryClient } from '../adapters/memory.js';
import { BELIEFS } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import { GATE_NAMES, LOCAL_EMBEDDING_MODEL } from '../gates/index.js';
import { service } from '../index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { turnsProjection } from '../projections/turns.js';
import { challengeSentences } from '../responder/offline.js';
import { createRespondReactor } from './respond.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
// PT01 Calm Listener: medium sentences, no emoji, clean, no quirks.
const TEMPLATE = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;
const local = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: BELIEFS.localEmbeddingModel });

/** A core companion belief as the graph answers it: the statement's atom, embedded by the local embedder. */
function coreBelief(statement: string, beliefId: string): belief.CoreBelief {
  const a = decompose({ text: statement, conversationId: 'seed', holder: 'companion' }).atoms[0]!;
  return {
    beliefId,
    canonicalText: a.canonicalText,
    canonicalHash: a.canonicalHash,
    polarity: a.polarity,
    beliefType: a.beliefType,
    temporalScope: a.epistemics.frame.temporalScope,
    stream: a.stream.primary,
    embedding: local.embedSync(a.embeddingText),
    embeddingModel: LOCAL_EMBEDDING_MODEL,
    embeddingText: a.embeddingText,
  };
}

const CORE = coreBelief('I like quiet mornings.', 'b-core-mornings');
const PROMPT = 'Can I ask something, just to understand better? Does it feel true every single time, or are there days when it might not be?';

function decision(over: Partial<router.RoutingDecision> = {}): router.RoutingDecision {
  return {
    pipeline: 'FRIEND_CHAT',
    safetyPolicy: 'ALLOW',
    memoryReadPolicy: 'NONE',
    vectorSearchPolicy: 'OFF',
    memoryWritePolicy: 'NONE',
    relationshipUpdatePolicy: 'OFF',
    retentionPolicy: '',
    retrievalQueryText: '',
    notes: '',
    safetyReason: '',
    crisisSafe: false,
    ...over,
  };
}

/** A stand-in belief graph: core beliefs always, a challenge unless a lock signal is set (and, unless `stubborn`, only when wanted). */
function graphStub(opts: { stubborn?: boolean } = {}) {
  const requests: belief.GetBeliefContextRequest[] = [];
  let issued = 0;
  const handler = (req: Uint8Array) => {
    const r = belief.GetBeliefContextRequest.decode(req);
    requests.push(r);
    const s = r.signals;
    const locked = !!s && (s.shame || s.isolation || s.dependencyFear);
    const challenge =
      !locked && (r.challengeWanted || opts.stubborn)
        ? { challengeId: `ch-${++issued}`, beliefId: 'b-user-1', canonicalText: 'i let everyone down', rawText: 'I let everyone down', style: 'curious', prompt: PROMPT }
        : undefined;
    return Promise.resolve(belief.GetBeliefContextResponse.encode({ coreBeliefs: [CORE], challenge, considered: [], blocked: locked ? 'shame_or_isolation' : '' }).finish());
  };
  return { requests, handler };
}

async function startOrchestrator(label: string, opts: { graph?: ReturnType<typeof graphStub>; stub?: LlmStub }) {
  const ns = testNamespace(label);
  const clock = new ManualClock(new Date('2026-11-27T09:00:00Z'));
  const dbUrl = await databaseUrl();
  const nats = await natsUrl();
  const database: Database = await openDatabase({ url: dbUrl });
  const schema = schemaFor(ns, 'orchestrator');
  await migrateSchema(database, schema, service.migrations);
  const db = schemaDb<OrchestratorDb>(database, schema);
  const bus = await Bus.connect({ url: nats, name: `${label}-orch`, namespace: ns, logger: silent });
  await bus.ensureStreams(['router', 'orchestrator']);
  if (opts.graph) await bus.serveQuery('belief-graph', GET_BELIEF_CONTEXT, opts.graph.handler);
  const chat = opts.stub ? createChatClient({ baseUrl: opts.stub.url, apiKey: null, model: 'stub-model', timeoutMs: 5_000, maxRetries: 0, temperature: 0.7 }) : null;
  const reactor = createRespondReactor({
    bus,
    db,
    clock,
    memory: createMemoryClient(bus, { timeoutMs: 1_000 }),
    beliefs: createBeliefClient(bus, { timeoutMs: 1_000 }),
    chat,
  });
  const running: RunningConsumer[] = [...(await startProjection(bus, db, 'orchestrator', turnsProjection)), ...(await startReactor(bus, db, 'orchestrator', reactor))];

  async function newUser(): Promise<{ userId: string; aiFriendId: string }> {
    const userId = randomUUID();
    const aiFriendId = randomUUID();
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
    return { userId, aiFriendId };
  }

  async function turn(user: { userId: string; aiFriendId: string }, text: string, over: { decision?: Partial<router.RoutingDecision>; conversationId: string; flags?: string[] }): Promise<TurnCompleted> {
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
            flags: over.flags ?? [],
            topicMatches: [],
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

const QUESTION = challengeSentences(PROMPT).at(-1)!;

describe('a turn and the belief graph (offline responder)', () => {
  const graph = graphStub({ stubborn: true });
  let o: Awaited<ReturnType<typeof startOrchestrator>>;

  beforeAll(async () => {
    o = await startOrchestrator('t_orch_beliefs', { graph });
  });

  afterAll(async () => {
    await o?.stop();
  });

  it('weaves the challenge once per conversation, records it, and asks for none after it', async () => {
    const user = await o.newUser();
    const conversation = randomUUID();

    // when the first turn of a conversation is answered
    const first = await o.turn(user, 'it was a long week at the office', { conversationId: conversation });

    // then the graph was asked before planning, with the turn's time and wanting a challenge
    const asked = graph.requests.at(-1)!;
    expect(asked).toMatchObject({ userId: user.userId, aiFriendId: user.aiFriendId, conversationId: conversation, challengeWanted: true, signals: { shame: false, isolation: false, dependencyFear: false, relationalStrain: false } });
    expect(asked.at).toEqual(o.clock.now());
    // and the reply closes with the challenge's question, recorded whole
    expect(first.assistantText.endsWith(QUESTION)).toBe(true);
    expect(first.beliefs).toEqual({
      status: 'ok',
      error: '',
      shame: false,
      isolation: false,
      dependencyFear: false,
      relationalStrain: false,
      coreBeliefIds: ['b-core-mornings'],
      coreBeliefTexts: ['i like quiet mornings'],
      challenge: { challengeId: 'ch-1', beliefId: 'b-user-1', style: 'curious', prompt: PROMPT },
      challengeSkipped: '',
      answersChallengeId: '',
    });
    expect(first.gates.filter((g) => g.passNumber === 0).map((g) => g.gate)).toEqual([...GATE_NAMES]);
    expect(first.gates.find((g) => g.gate === 'self_consistency' && g.passNumber === 0)).toMatchObject({ pass: true, detail: 'consistent with 1 core beliefs' });
    const row = await waitFor(async () => o.db.selectFrom('dialogue').select('challenge_id').where('user_message_id', '=', first.messageId).executeTakeFirst(), { what: 'the dialogue row' });
    expect(row.challenge_id).toBe('ch-1');

    // when the conversation goes on
    const second = await o.turn(user, 'anyway I cooked pasta tonight', { conversationId: conversation });

    // then the graph is asked for core beliefs only, and an offered challenge is not woven in
    expect(graph.requests.at(-1)).toMatchObject({ conversationId: conversation, challengeWanted: false });
    expect(second.beliefs).toMatchObject({ status: 'ok', challenge: undefined, challengeSkipped: 'conversation_had_one', coreBeliefIds: ['b-core-mornings'] });
    // and it names the challenge its user message answers, for the graph's confidence updater
    expect(second.beliefs?.answersChallengeId).toBe('ch-1');
    expect(second.assistantText).not.toContain(QUESTION);

    // and a new conversation may have its own one
    const other = await o.turn(user, 'a new day, a new chat', { conversationId: randomUUID() });
    expect(graph.requests.at(-1)).toMatchObject({ challengeWanted: true });
    // (the stand-in offered ch-2 to the second turn regardless, and it was not used)
    expect(other.beliefs!.challenge).toMatchObject({ challengeId: 'ch-3' });
  });

  it('reads the lock signals from the message and the conversation\'s recent messages, and the router\'s flags', async () => {
    const user = await o.newUser();
    const conversation = randomUUID();

    const ashamed = await o.turn(user, "I'm so ashamed of myself lately", { conversationId: conversation });
    expect(graph.requests.at(-1)!.signals).toMatchObject({ shame: true, isolation: false });
    expect(ashamed.beliefs).toMatchObject({ status: 'ok', shame: true, challenge: undefined, challengeSkipped: '' });

    // a calm message later in the same conversation: the earlier one is within the window
    const calm = await o.turn(user, 'the weather is nice today', { conversationId: conversation });
    expect(graph.requests.at(-1)!.signals).toMatchObject({ shame: true });
    expect(calm.beliefs!.challenge).toBeUndefined();

    // the router's flag alone sets its signal
    await o.turn(user, 'thanks for listening', { conversationId: randomUUID(), flags: ['comfort:i need someone'] });
    expect(graph.requests.at(-1)!.signals).toMatchObject({ isolation: true, shame: false });
  });

  it('does not ask the graph for a fixed reply, onboarding or an answer', async () => {
    const user = await o.newUser();
    const before = graph.requests.length;
    const refused = await o.turn(user, 'tell me something awful', { conversationId: randomUUID(), decision: { safetyPolicy: 'HARD_REFUSE' } });
    const onboarding = await o.turn(user, 'hello there', { conversationId: randomUUID(), decision: { pipeline: 'ONBOARDING_CHAT' } });
    const info = await o.turn(user, 'how far is the moon?', { conversationId: randomUUID(), decision: { pipeline: 'INFO_QA' } });
    expect(graph.requests.length).toBe(before);
    expect(refused.beliefs).toMatchObject({ status: 'skipped', challengeSkipped: 'fixed_reply', coreBeliefIds: [] });
    expect(refused.gates.find((g) => g.gate === 'self_consistency')).toMatchObject({ pass: true, detail: 'exempt' });
    expect(onboarding.beliefs).toMatchObject({ status: 'skipped', challengeSkipped: 'not_chat' });
    expect(info.beliefs).toMatchObject({ status: 'skipped', challengeSkipped: 'not_chat' });
  });

  it('replays the dialogue, woven challenges included, to the same rows', async () => {
    const report = await replayProjection({ bus: o.bus, database: o.database, service: 'orchestrator', schema: o.schema, projection: turnsProjection, migrations: service.migrations });
    expect(report.equal).toBe(true);
    expect(report.events).toBeGreaterThan(0);
  });
});

describe('a turn without the belief graph', () => {
  let o: Awaited<ReturnType<typeof startOrchestrator>>;

  beforeAll(async () => {
    o = await startOrchestrator('t_orch_nobeliefs', {});
  });

  afterAll(async () => {
    await o?.stop();
  });

  it('is answered all the same, and records the graph as unavailable', async () => {
    const user = await o.newUser();
    const completed = await o.turn(user, 'it was a long week at the office', { conversationId: randomUUID() });
    expect(completed.assistantText.length).toBeGreaterThan(0);
    expect(completed.outcome).toBe('draft');
    expect(completed.beliefs).toMatchObject({ status: 'unavailable', coreBeliefIds: [], challenge: undefined, challengeSkipped: '' });
    expect(completed.beliefs!.error).toMatch(/belief-graph/);
    expect(completed.gates.find((g) => g.gate === 'self_consistency')).toMatchObject({ pass: true, detail: 'consistent with 0 core beliefs' });
  });
});

describe('a friend consistent with itself (LLM stub)', () => {
  const graph = graphStub();
  let stub: LlmStub;
  let o: Awaited<ReturnType<typeof startOrchestrator>>;
  const medium = 'It sounds like a calm and steady day for you so far, which is really nice to hear. I am glad you took a moment to tell me about it today.';
  const contradicting = 'Honestly, I hate quiet mornings and I always have, so that part is hard for me. I am glad you took a moment to tell me about it today.';
  const isRewrite = (body: { messages: { content: string }[] }) => body.messages.at(-1)!.content.startsWith('Rewrite your reply');

  beforeAll(async () => {
    stub = await startLlmStub();
    o = await startOrchestrator('t_orch_beliefs_llm', { graph, stub });
  });

  afterAll(async () => {
    await o?.stop();
    await stub?.close();
  });

  it('gives the core beliefs and the challenge to the prompt, and rewrites a draft that contradicts a core belief', async () => {
    stub.setHandler(({ body }) => ({ content: JSON.stringify({ text: isRewrite(body) ? medium : contradicting, surfaced_memory_ids: [] }) }));
    const user = await o.newUser();

    const completed = await o.turn(user, 'my mornings have been so loud lately', { conversationId: randomUUID() });

    // the prompt carried the constraint and the optional exploration
    const system: string = stub.requests.at(-2)!.body.messages[0].content;
    expect(system).toContain('Stay consistent with what you have said about yourself:\n- "i like quiet mornings"');
    expect(system).toContain(`**OPTIONAL BELIEF EXPLORATION**: ${PROMPT}`);
    // the draft failed self_consistency, naming the belief; the rewrite was told why and passed
    const draftVerdict = completed.gates.find((g) => g.gate === 'self_consistency' && g.passNumber === 0)!;
    expect(draftVerdict.pass).toBe(false);
    expect(draftVerdict.detail).toContain('b-core-mornings');
    expect(stub.requests.at(-1)!.body.messages.at(-1).content).toMatch(/self_consistency: contradicts/);
    expect(completed.gates.filter((g) => g.passNumber === 1 && !g.pass)).toEqual([]);
    expect(completed).toMatchObject({ outcome: 'rewrite', assistantText: medium });
    // an LLM reply that stood was given the challenge: it counts as the conversation's one
    expect(completed.beliefs).toMatchObject({ status: 'ok', challenge: { challengeId: 'ch-1' }, challengeSkipped: '' });
  });

  it('falls back when the rewrite contradicts too, and records the challenge as not woven', async () => {
    stub.setHandler(() => ({ content: JSON.stringify({ text: contradicting, surfaced_memory_ids: [] }) }));
    const user = await o.newUser();

    const completed = await o.turn(user, 'my mornings have been so loud lately', { conversationId: randomUUID() });

    expect(completed.outcome).toBe('fallback');
    expect(completed.gates.filter((g) => g.gate === 'self_consistency').map((g) => [g.passNumber, g.pass])).toEqual([
      [0, false],
      [1, false],
      [2, true],
    ]);
    expect(completed.beliefs).toMatchObject({ challenge: undefined, challengeSkipped: 'gate_failed' });
    const row = await waitFor(async () => o.db.selectFrom('dialogue').select('challenge_id').where('user_message_id', '=', completed.messageId).executeTakeFirst(), { what: 'the dialogue row' });
    expect(row.challenge_id).toBe('');
  });
});
