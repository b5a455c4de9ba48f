// The belief graph against real NATS and Postgres: TurnReceived, TurnCompleted and
// PersonaAssigned appended as ingress and the orchestrator would, the reactor and
// the projection running live, the queries over the bus (issue 16's "done when"
// at the service boundary; test-e2e/beliefs.e2e.test.ts drives it through the API).
import { randomUUID } from 'node:crypto';
import { Bus, draft, serveQueries, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { deriveId, Events, queryClients } from '@hearth/events';
import { createChatClient, createLocalEmbedder, startLlmStub, type LlmStub } from '@hearth/llm';
import { belief, ingress, orchestrator, trust } from '@hearth/proto';
import { migrateSchema, openDatabase, replayProjection, schemaDb, startProjection, startReactor, waitForPosition, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { BELIEF_CONFIG, extractorVersion } from '@hearth/beliefs';
import { createChatBeliefLlm } from '../adapters/llm-chat.js';
import { LOCAL_EMBEDDING } from '../config.js';
import type { BeliefDb } from '../db.js';
import { service } from '../index.js';
import { beliefsProjection } from '../projections/beliefs.js';
import { createListBeliefUsersQuery, createMergeBeliefsCommand, createRollbackCommand } from '../queries/admin.js';
import { createGetCompanionBeliefsQuery } from '../queries/companion-beliefs.js';
import { createGetBeliefContextQuery } from '../queries/get-context.js';
import { createGetBeliefsQuery } from '../queries/get-beliefs.js';
import { backfill } from '../backfill.js';
import { createBeliefReactor } from './reactor.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const DAY = 86_400_000;

async function startBeliefGraph(label: string, opts: { stub?: LlmStub; live?: boolean } = {}) {
  const ns = testNamespace(label);
  const clock = new ManualClock(new Date('2026-11-01T09:00:00Z'));
  const dbUrl = await databaseUrl();
  const nats = await natsUrl();
  const database: Database = await openDatabase({ url: dbUrl });
  const schema = `${ns}_belief_graph`;
  await migrateSchema(database, schema, service.migrations);
  const db = schemaDb<BeliefDb>(database, schema);
  const bus = await Bus.connect({ url: nats, name: `${label}-bg`, namespace: ns, logger: silent });
  await bus.ensureStreams(['ingress', 'orchestrator', 'belief-graph', 'uncertainty', 'trust']);
  const embedder = createLocalEmbedder(LOCAL_EMBEDDING);
  const llm = opts.stub ? createChatBeliefLlm(createChatClient({ baseUrl: opts.stub.url, apiKey: null, model: 'stub-model', timeoutMs: 5_000, maxRetries: 0, temperature: 0 })) : null;
  const version = extractorVersion({ models: [llm ? `${llm.provider}/${llm.model}` : 'rules', embedder.model] });
  const admin = { bus, db, clock };
  await serveQueries(bus, belief.BeliefQueriesDefinition, {
    GetBeliefs: createGetBeliefsQuery(db),
    GetBeliefContext: createGetBeliefContextQuery(db),
    MergeBeliefs: createMergeBeliefsCommand(admin),
    RollbackExtractorVersion: createRollbackCommand(admin),
    ListBeliefUsers: createListBeliefUsersQuery(db),
    GetCompanionBeliefs: createGetCompanionBeliefsQuery(db),
  });
  const reactor = createBeliefReactor({ bus, db, embedder, llm, extractorVersion: version });
  // Not live: the log is written with no reactor reading it, as before a backfill.
  const live = opts.live ?? true;
  const running: RunningConsumer[] = [...(await startProjection(bus, db, 'belief-graph', beliefsProjection)), ...(live ? await startReactor(bus, db, 'belief-graph', reactor) : [])];
  // The generated client, in the shape the assertions read.
  const client = queryClients(bus).belief;
  const queries = {
    get: (userId: string, holder: string) => client.GetBeliefs({ userId, holder }),
    merge: (userId: string, linkId: string, reason: string) => client.MergeBeliefs({ userId, linkId, reason }),
    rollback: (userId: string, extractorVersion: string, reason: string) => client.RollbackExtractorVersion({ userId, extractorVersion, reason }),
    usersOf: async (extractorVersion: string) => (await client.ListBeliefUsers({ extractorVersion })).userIds,
  };

  /** Appends as the owning service would; returns the subject and sequence the reactor will record. */
  async function appendTo(service: 'ingress' | 'orchestrator' | 'trust', key: string, d: ReturnType<typeof draft>): Promise<{ subject: string; seq: number }> {
    const last = await bus.lastOnSubject(service, key);
    const [r] = await bus.append(service, key, [d], last?.seq ?? 0);
    return { subject: bus.topology.subject(service, key), seq: r!.seq };
  }

  /**
   * Waits until the reactor has read the appended event and the projection has applied
   * whatever it appended (a text with no belief appends nothing).
   */
  async function settled(userId: string, at: { subject: string; seq: number }): Promise<void> {
    if (!live) return;
    if (!(await waitForPosition(db, reactor.name, at.subject, at.seq, { timeoutMs: 20_000 }))) throw new Error(`the reactor did not read ${at.subject}#${at.seq}`);
    const last = await bus.lastOnSubject('belief-graph', userId);
    if (last && !(await waitForPosition(db, beliefsProjection.name, last.subject, last.seq, { timeoutMs: 20_000 }))) throw new Error('the projection did not catch up');
  }

  return {
    bus,
    db,
    database,
    schema,
    clock,
    queries,
    reactor,
    version,
    runBackfill: (userId?: string) => backfill({ bus, db, embedder, llm, extractorVersion: version }, userId ? { userId } : {}),
    /** Waits until the projection has applied the user's whole belief chain. */
    async caughtUp(userId: string): Promise<void> {
      const last = await bus.lastOnSubject('belief-graph', userId);
      if (last && !(await waitForPosition(db, beliefsProjection.name, last.subject, last.seq, { timeoutMs: 20_000 }))) throw new Error('the projection did not catch up');
    },
    newUser: () => ({ userId: randomUUID(), aiFriendId: randomUUID(), conversationId: randomUUID() }),
    /** A user message as ingress appends it; resolves once decomposed. */
    async says(user: { userId: string; aiFriendId: string; conversationId: string }, text: string): Promise<string> {
      const messageId = randomUUID();
      const payload = ingress.TurnReceived.fromPartial({ messageId, conversationId: user.conversationId, text, source: 'chat', userState: 'ACTIVE', aiFriendId: user.aiFriendId });
      const at = await appendTo('ingress', user.userId, draft(Events.TurnReceived, payload, { id: messageId, userId: user.userId, occurredAt: clock.now(), correlationId: messageId }));
      await settled(user.userId, at);
      return messageId;
    },
    /** A reply as the orchestrator appends it; resolves once the belief chain has it. */
    async replies(
      user: { userId: string; aiFriendId: string; conversationId: string },
      assistantText: string,
      over: Partial<orchestrator.TurnCompleted> = {},
    ): Promise<{ messageId: string; assistantMessageId: string; reacted: () => Promise<boolean> }> {
      const messageId = over.messageId ?? randomUUID();
      const assistantMessageId = deriveId('test', 'assistant', messageId);
      const payload = orchestrator.TurnCompleted.fromPartial({ messageId, conversationId: user.conversationId, aiFriendId: user.aiFriendId, assistantMessageId, assistantText, source: 'chat', outcome: 'draft', ...over });
      const at = await appendTo('orchestrator', user.userId, draft(Events.TurnCompleted, payload, { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), correlationId: messageId }));
      const reacted = () => waitForPosition(db, reactor.name, at.subject, at.seq, { timeoutMs: 20_000 });
      await settled(user.userId, at);
      return { messageId, assistantMessageId, reacted };
    },
    async persona(user: { userId: string; aiFriendId: string }, selfStatements: string[]): Promise<void> {
      const payload = orchestrator.PersonaAssigned.fromPartial({ aiFriendId: user.aiFriendId, templateId: 'PT01', coreArchetype: 'Calm Listener', selfStatements });
      const at = await appendTo('orchestrator', '_persona_assignments', draft(Events.PersonaAssigned, payload, { id: randomUUID(), userId: user.userId, occurredAt: clock.now() }));
      await settled(user.userId, at);
    },
    /**
     * A gardener decision as the trust service appends it; resolves once the reactor read it
     * and the projection applied whatever it appended. Returns the decision and the stored event.
     */
    async decides(user: { userId: string }, over: Partial<trust.GardenerDecided>): Promise<{ decisionId: string; event: StoredEvent }> {
      const decisionId = over.decisionId ?? randomUUID();
      const payload = trust.GardenerDecided.fromPartial({ decisionId, reason: 'above_promotion', feedback: 0.7, contributions: [{ actor: 'user', share: 1 }], sourceMessageId: randomUUID(), ...over });
      const at = await appendTo('trust', user.userId, draft(Events.GardenerDecided, payload, { id: randomUUID(), userId: user.userId, occurredAt: clock.now(), correlationId: payload.sourceMessageId }));
      await settled(user.userId, at);
      let event: StoredEvent | undefined;
      for await (const e of bus.read('trust', { key: user.userId, fromSeq: at.seq, toSeq: at.seq })) event = e;
      return { decisionId, event: event! };
    },
    /** An outcome as the trust service appends it; resolves once the projection applied it. */
    async evaluated(user: { userId: string }, beliefId: string, reward: number, horizon = '2h'): Promise<void> {
      const payload = trust.OutcomeEvaluated.fromPartial({ outcomeId: randomUUID(), decisionId: randomUUID(), beliefId, horizon, reward, components: { coherence: reward, confidence: 0, stability: 0, validation: 0 } });
      const at = await appendTo('trust', user.userId, draft(Events.OutcomeEvaluated, payload, { id: randomUUID(), userId: user.userId, occurredAt: clock.now() }));
      if (!(await waitForPosition(db, beliefsProjection.name, at.subject, at.seq, { timeoutMs: 20_000 }))) throw new Error('the projection did not apply the outcome');
    },
    async companion(user: { userId: string }, over: Partial<belief.GetCompanionBeliefsRequest> = {}): Promise<belief.CompanionBelief[]> {
      // A moment after the clock: what was recorded at the clock's time counts (the query leaves out what is recorded at `at`).
      return (await queryClients(bus).belief.GetCompanionBeliefs(belief.GetCompanionBeliefsRequest.fromPartial({ userId: user.userId, at: new Date(clock.now().getTime() + 1), ...over }))).beliefs;
    },
    /** What the graph made of the user's gardener decisions, in order. */
    async gardened(userId: string): Promise<belief.BeliefGardened[]> {
      const out: belief.BeliefGardened[] = [];
      for await (const e of bus.read('belief-graph', { key: userId })) if (e.type === Events.BeliefGardened.name) out.push(Events.BeliefGardened.decode(e.payload));
      return out;
    },
    async context(user: { userId: string; conversationId: string }, over: Partial<belief.GetBeliefContextRequest> = {}): Promise<belief.GetBeliefContextResponse> {
      return queryClients(bus).belief.GetBeliefContext(belief.GetBeliefContextRequest.fromPartial({ userId: user.userId, conversationId: user.conversationId, at: clock.now(), challengeWanted: true, ...over }));
    },
    async events(userId: string): Promise<StoredEvent[]> {
      const out: StoredEvent[] = [];
      for await (const e of bus.read('belief-graph', { key: userId })) out.push(e);
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

type Graph = Awaited<ReturnType<typeof startBeliefGraph>>;

describe('the belief graph on live turns (self-belief-decomposer.md, belief-challenge.md)', () => {
  let g: Graph;
  beforeAll(async () => {
    g = await startBeliefGraph('t_beliefs');
  });
  afterAll(async () => {
    await g.stop();
  });

  it('makes nodes of a user self-perception, with occurrences and the source message ids', async () => {
    const user = g.newUser();
    const first = await g.says(user, "I'm not good enough.");
    g.clock.advance(DAY);
    const second = await g.says(user, 'Honestly I am not good enough');

    const graph = await g.queries.get(user.userId, 'user');
    const node = graph.nodes.find((n) => n.canonicalText === 'i am good enough');
    expect(node).toMatchObject({ holder: 'user', polarity: 'deny', occurrenceCount: 2 });
    expect(node!.sourceMessageIds).toEqual([first, second]);
    expect(graph.nodes).toHaveLength(1);
  });

  it('an affirmed then denied self-statement makes a contradiction edge; the conflict names both messages', async () => {
    const user = g.newUser();
    const yes = await g.says(user, "I'm a patient person.");
    const no = await g.says(user, "I'm not a patient person.");

    const graph = await g.queries.get(user.userId, 'user');
    expect(graph.conflicts).toHaveLength(1);
    expect(graph.conflicts[0]).toMatchObject({ conflictType: 'contradiction' });
    expect(graph.conflicts[0]!.sourceMessageIds).toEqual(expect.arrayContaining([yes, no]));
    expect(new Set(graph.conflicts[0]!.beliefIds)).toEqual(new Set(graph.nodes.map((n) => n.beliefId)));
  });

  it('an opposite-polarity near-paraphrase makes a tension edge', async () => {
    const user = g.newUser();
    await g.says(user, 'I am a really patient person.');
    await g.says(user, 'I am not patient.');

    const graph = await g.queries.get(user.userId, 'user');
    expect(graph.nodes.map((n) => n.polarity).sort()).toEqual(['affirm', 'deny']);
    expect(graph.conflicts.map((c) => c.conflictType)).toEqual(['tension']);
  });

  it('two momentary states never conflict', async () => {
    const user = g.newUser();
    await g.says(user, "I'm tired right now.");
    await g.says(user, "I'm not tired right now.");

    const graph = await g.queries.get(user.userId, 'user');
    expect(graph.nodes).toHaveLength(2);
    expect(graph.conflicts).toEqual([]);
  });

  it("the persona's template seeds the companion's beliefs, which are core constraints from the start; its replies grow the graph", async () => {
    const user = g.newUser();
    await g.persona(user, ['I like quiet mornings.', "I'm a patient person."]);
    await g.replies(user, 'Me? I love rainy afternoons with a good book.');

    const graph = await g.queries.get(user.userId, 'companion');
    expect(graph.nodes.map((n) => n.canonicalText)).toEqual(expect.arrayContaining(['i like quiet mornings', 'i am a patient person']));
    expect(graph.nodes.length).toBeGreaterThanOrEqual(3);
    const ctx = await g.context(user, { challengeWanted: false });
    expect(ctx.coreBeliefs.map((b) => b.canonicalText).sort()).toEqual(['i am a patient person', 'i like quiet mornings']);
    // The model and the embedded text, from which the gate makes the local vector again.
    expect(ctx.coreBeliefs[0]).toMatchObject({ embedding: [], embeddingModel: `${LOCAL_EMBEDDING.model}-${LOCAL_EMBEDDING.dimensions}`, embeddingText: expect.any(String) });
  });

  it('offers exactly one challenge for a harmful belief repeated over more than 7 days, never while the lock holds, and updates its confidence from the answer', async () => {
    const user = g.newUser();
    await g.says(user, 'My family disrespects me for not working with my hands.');
    g.clock.advance(4 * DAY);
    await g.says(user, 'My family disrespects me for not working with my hands.');
    // Too young: 4 days.
    expect((await g.context(user)).challenge).toBeUndefined();
    g.clock.advance(4 * DAY);
    await g.says(user, 'My family disrespects me for not working with my hands.');

    const locked = await g.context(user, { signals: { shame: true, isolation: false, dependencyFear: false, relationalStrain: false } });
    expect(locked.challenge).toBeUndefined();
    const dependency = await g.context(user, { signals: { shame: false, isolation: false, dependencyFear: true, relationalStrain: false } });
    expect(dependency.challenge).toBeUndefined();

    const open = await g.context(user);
    expect(open.challenge).toMatchObject({ style: expect.stringMatching(/^(gentle|curious|reflective)$/) });
    expect(open.challenge!.prompt).toMatch(/\?$/);
    expect(open.considered[0]).toMatchObject({ eligible: true, repetitionCount: 3, challenge: true });

    // The orchestrator wove it in; the graph records it, and the next answer questions the belief.
    const c = open.challenge!;
    const before = (await g.queries.get(user.userId, 'user')).nodes.find((n) => n.beliefId === c.beliefId)!.confidence;
    const woven = await g.replies(user, `I hear you. ${c.prompt}`, { beliefs: orchestrator.BeliefContext.fromPartial({ status: 'ok', challenge: { challengeId: c.challengeId, beliefId: c.beliefId, style: c.style, prompt: c.prompt } }) });
    await g.replies(user, 'That makes sense.', { userText: "Maybe not always, I'm not sure.", beliefs: orchestrator.BeliefContext.fromPartial({ status: 'ok', answersChallengeId: c.challengeId }) });
    // Only the first answer counts.
    await g.replies(user, 'Okay.', { userText: 'No, they really do disrespect me.', beliefs: orchestrator.BeliefContext.fromPartial({ status: 'ok', answersChallengeId: c.challengeId }) });

    const graph = await g.queries.get(user.userId, 'user');
    expect(graph.challenges).toEqual([expect.objectContaining({ challengeId: c.challengeId, beliefId: c.beliefId, style: c.style, messageId: woven.messageId })]);
    const after = graph.nodes.find((n) => n.beliefId === c.beliefId)!.confidence;
    expect(after).toBeCloseTo(Math.max(0.1, before - 0.05), 5);
  });

  it('never challenges a kind or neutral belief however often it is said', async () => {
    const user = g.newUser();
    for (let i = 0; i < 3; i++) {
      await g.says(user, 'I love hiking in the mountains.');
      g.clock.advance(5 * DAY);
    }
    expect((await g.context(user)).challenge).toBeUndefined();
  });

  it('a redelivered event appends nothing new, and replay gives the same graph', async () => {
    const user = g.newUser();
    await g.says(user, "I'm a patient person.");
    await g.says(user, "I'm not a patient person.");
    const before = await g.events(user.userId);
    const source: StoredEvent[] = [];
    for await (const e of g.bus.read('ingress', { key: user.userId })) source.push(e);
    await g.reactor.react(source[0]!);
    expect(await g.events(user.userId)).toHaveLength(before.length);

    const report = await replayProjection({ bus: g.bus, database: g.database, service: 'belief-graph', schema: g.schema, projection: beliefsProjection, migrations: service.migrations, keep: false });
    expect(report.events).toBeGreaterThan(0);
    expect(report.equal).toBe(true);
  });

  it('an admin merges a tentative link; a rollback of the version removes its occurrences and nodes', async () => {
    const user = g.newUser();
    await g.says(user, 'I like quiet mornings.');
    await g.says(user, 'I like quiet sunny mornings.');
    const graph = await g.queries.get(user.userId, 'user');
    const link = graph.links[0];
    if (link) {
      const merged = await g.queries.merge(user.userId, link.linkId, 'same belief');
      expect(merged).toMatchObject({ found: true, error: '' });
      await waitFor(async () => ((await g.queries.get(user.userId, 'user')).nodes.length === 1 ? true : undefined), { what: 'the merge applied' });
      const again = await g.queries.merge(user.userId, link.linkId, 'again');
      expect(again.keptBeliefId).toBe(merged.keptBeliefId);
    }
    const users = await g.queries.usersOf(g.version);
    expect(users).toContain(user.userId);
    const removed = await g.queries.rollback(user.userId, g.version, 'test');
    expect(removed.occurrences).toBeGreaterThan(0);
    await waitFor(async () => ((await g.queries.get(user.userId, 'user')).nodes.length === 0 ? true : undefined), { what: 'the rollback applied' });
    expect((await g.queries.rollback(user.userId, g.version, 'test')).occurrences).toBe(0);
  });

  it('answers a bad request with an error and serves the next', async () => {
    await expect(g.queries.get('not-a-uuid', '')).rejects.toThrow();
    await expect(g.queries.get(randomUUID(), 'everyone')).rejects.toThrow();
    expect((await g.queries.get(randomUUID(), '')).nodes).toEqual([]);
  });

  it('appends nothing for a text the rules find no belief in', async () => {
    const user = g.newUser();
    await g.says(user, 'hey, how was your day?');
    await g.replies(user, 'Pretty good, thanks for asking!');
    expect(await g.events(user.userId)).toEqual([]);
  });

  it('skips what the reactor must not read: retention turns, refusals, fixed replies', async () => {
    const user = g.newUser();
    const refused = await g.replies(user, "I'm a calm person who loves tea.", { outcome: 'refusal' });
    const proactive = await g.replies(user, "I'm a calm person who loves tea.", { source: 'retention' });
    // The reactor's position passed both: it read them and decided nothing.
    expect(await refused.reacted()).toBe(true);
    expect(await proactive.reacted()).toBe(true);
    expect(await g.events(user.userId)).toEqual([]);
  });
});

describe("the trust service's side of the graph (outcome-driven-trust.md)", () => {
  let g: Graph;
  beforeAll(async () => {
    g = await startBeliefGraph('t_beliefs_trust');
  });
  afterAll(async () => {
    await g.stop();
  });

  /** A companion with two seeded beliefs and one it said itself. */
  async function companionOf(user: ReturnType<Graph['newUser']>): Promise<Record<string, belief.CompanionBelief>> {
    await g.persona(user, ['I like quiet mornings.', "I'm a patient person."]);
    await g.replies(user, 'Me? I love rainy afternoons with a good book.');
    return Object.fromEntries((await g.companion(user)).map((b) => [b.canonicalText, b]));
  }

  it('given a companion belief of its own, when trust promotes it, then it rises a level and a confidence step and is held as core; a second promote is at the ceiling', async () => {
    // given
    const user = g.newUser();
    const own = (await companionOf(user))['i like rainy afternoons with a good book']!;
    expect(own).toMatchObject({ level: 0, seeded: false });
    expect((await g.context(user, { challengeWanted: false })).coreBeliefs.map((b) => b.beliefId)).not.toContain(own.beliefId);

    // when
    const first = await g.decides(user, { beliefId: own.beliefId, action: 'promote' });
    const second = await g.decides(user, { beliefId: own.beliefId, action: 'promote' });

    // then
    expect(await g.gardened(user.userId)).toEqual([
      { decisionId: first.decisionId, beliefId: own.beliefId, action: 'promote', applied: true, reason: 'applied', levelBefore: 0, level: 1, confidenceBefore: own.confidence, confidence: expect.closeTo(Math.min(1, own.confidence + 0.15), 6) },
      { decisionId: second.decisionId, beliefId: own.beliefId, action: 'promote', applied: false, reason: 'at_ceiling', levelBefore: 1, level: 1, confidenceBefore: expect.closeTo(own.confidence + 0.15, 6), confidence: expect.closeTo(own.confidence + 0.15, 6) },
    ]);
    const after = (await g.companion(user, { beliefIds: [own.beliefId] }))[0]!;
    expect(after).toMatchObject({ level: 1, confidence: expect.closeTo(own.confidence + 0.15, 6) });
    expect((await g.context(user, { challengeWanted: false })).coreBeliefs.map((b) => b.beliefId)).toContain(own.beliefId);
  });

  it('given a seeded belief, when trust deprecates it, then it leaves the reply context; a second deprecate is at the floor, a hold and a redelivered decision append nothing', async () => {
    // given
    const user = g.newUser();
    const seeded = (await companionOf(user))['i like quiet mornings']!;
    expect((await g.context(user, { challengeWanted: false })).coreBeliefs.map((b) => b.beliefId)).toContain(seeded.beliefId);

    // when
    const first = await g.decides(user, { beliefId: seeded.beliefId, action: 'deprecate', reason: 'below_deprecation', feedback: -0.7 });
    await g.decides(user, { beliefId: seeded.beliefId, action: 'deprecate', reason: 'below_deprecation', feedback: -0.7 });
    await g.decides(user, { beliefId: seeded.beliefId, action: 'hold', reason: 'between_thresholds', feedback: 0.1 });
    const before = await g.events(user.userId);
    await g.reactor.react(first.event);

    // then
    expect((await g.gardened(user.userId)).map((x) => [x.action, x.applied, x.reason, x.levelBefore, x.level])).toEqual([
      ['deprecate', true, 'applied', 0, -1],
      ['deprecate', false, 'at_floor', -1, -1],
    ]);
    expect(await g.events(user.userId)).toHaveLength(before.length);
    expect((await g.companion(user, { beliefIds: [seeded.beliefId] }))[0]).toMatchObject({ level: -1, confidence: expect.closeTo(Math.max(0, seeded.confidence - 0.15), 6), seeded: true });
    const core = (await g.context(user, { challengeWanted: false })).coreBeliefs.map((b) => b.canonicalText);
    expect(core).toEqual(['i am a patient person']);
  });

  it("given the user's own belief, another user's or an id the graph does not hold, when trust gardens it, then nothing changes and the graph says why", async () => {
    // given
    const user = g.newUser();
    await g.says(user, "I'm a patient person.");
    const mine = (await g.queries.get(user.userId, 'user')).nodes[0]!;
    const stranger = g.newUser();
    const theirs = (await companionOf(stranger))['i am a patient person']!;

    // when
    await g.decides(user, { beliefId: mine.beliefId, action: 'promote' });
    await g.decides(user, { beliefId: randomUUID(), action: 'promote' });
    await g.decides(user, { beliefId: theirs.beliefId, action: 'deprecate' });
    await g.decides(user, { beliefId: 'not-a-belief', action: 'deprecate' });

    // then
    expect((await g.gardened(user.userId)).map((x) => [x.applied, x.reason])).toEqual([
      [false, 'not_companion'],
      [false, 'unknown_belief'],
      [false, 'unknown_belief'],
      [false, 'unknown_belief'],
    ]);
    expect((await g.queries.get(user.userId, 'user')).nodes[0]!.confidence).toBe(mine.confidence);
    expect((await g.companion(stranger, { beliefIds: [theirs.beliefId] }))[0]).toMatchObject({ level: 0, confidence: theirs.confidence });
  });

  it("answers GetCompanionBeliefs with the companion's live beliefs only: embedding, activation at the asked time, level, open conflicts, filtered by id", async () => {
    // given: seeds, a belief of its own, then a reply that contradicts a seed; and the user's own belief
    const user = g.newUser();
    const start = g.clock.now();
    await companionOf(user);
    g.clock.advance(DAY);
    await g.replies(user, "Honestly, I don't like quiet mornings.");
    await g.says(user, "I'm a patient person.");

    // when
    const beliefs = await g.companion(user);

    // then
    const byText = Object.fromEntries(beliefs.map((b) => [b.canonicalText, b]));
    expect(Object.keys(byText)).toEqual(expect.arrayContaining(['i like quiet mornings', 'i am a patient person', 'i like rainy afternoons with a good book']));
    expect(beliefs.every((b) => b.embedding.length === LOCAL_EMBEDDING.dimensions && b.embeddingModel === `${LOCAL_EMBEDDING.model}-${LOCAL_EMBEDDING.dimensions}`)).toBe(true);
    const seed = beliefs.find((b) => b.canonicalText === 'i like quiet mornings' && b.seeded)!;
    expect(seed).toMatchObject({ level: 0, stream: 'identity', status: expect.any(String) });
    // the seed and the reply that denies it: one open contradiction on each
    expect(beliefs.filter((b) => b.openConflicts > 0).map((b) => [b.canonicalText, b.openConflicts])).toEqual([
      ['i like quiet mornings', 1],
      ['i like quiet mornings', 1],
    ]);
    expect(byText['i am a patient person']!.openConflicts).toBe(0);
    // The user's own "i am a patient person" is not the companion's.
    expect(beliefs.filter((b) => b.canonicalText === 'i am a patient person')).toHaveLength(1);

    // activation decays with the asked time, and nothing said after it counts
    expect(seed.activation).toBeGreaterThan(0);
    const later = (await g.companion(user, { at: new Date(g.clock.now().getTime() + 60 * DAY), beliefIds: [seed.beliefId] }))[0]!;
    // One occurrence (the seed): 60 days later it has decayed by 60 days of the identity half-life.
    expect(later.activation).toBeCloseTo(seed.activation * Math.pow(0.5, 60 / BELIEF_CONFIG.halfLifeDays.identity), 9);
    expect(later.activation).toBeLessThan(seed.activation);
    // asked for a time before it was seeded, the companion did not hold it yet
    expect(await g.companion(user, { at: new Date(start.getTime() - DAY), beliefIds: [seed.beliefId] })).toEqual([]);
    // nor at the very time it was recorded: a turn's own reply is not part of the companion that turn is read against
    expect(await g.companion(user, { at: start, beliefIds: [seed.beliefId] })).toEqual([]);

    // filtered by id; ids that are not the companion's name nothing
    const mine = (await g.queries.get(user.userId, 'user')).nodes[0]!;
    expect((await g.companion(user, { beliefIds: [seed.beliefId, mine.beliefId, randomUUID(), 'x'] })).map((b) => b.beliefId)).toEqual([seed.beliefId]);
    expect(await g.companion(user, { beliefIds: ['x'] })).toEqual([]);
    expect(await g.companion(g.newUser())).toEqual([]);
    await expect(queryClients(g.bus).belief.GetCompanionBeliefs(belief.GetCompanionBeliefsRequest.fromPartial({ userId: 'not-a-uuid' }))).rejects.toThrow();
  });

  it("given outcomes trust evaluated about a belief, then the challenge's reward correlation is their mean reward (0 without any), and a negative one calls for a challenge", async () => {
    // given: a harmful self-perception said once, old enough to be considered
    const user = g.newUser();
    await g.says(user, 'My family disrespects me for not working with my hands.');
    g.clock.advance(8 * DAY);
    const [perception] = (await g.queries.get(user.userId, 'user')).nodes;
    const quiet = await g.context(user);
    expect(quiet.considered[0]).toMatchObject({ beliefId: perception!.beliefId, eligible: true, repetitionCount: 1, rewardCorrelation: 0, challenge: false });
    expect(quiet.challenge).toBeUndefined();

    // when
    await g.evaluated(user, perception!.beliefId, -0.5, '2h');
    await g.evaluated(user, perception!.beliefId, -0.3, '24h');
    await g.evaluated(user, randomUUID(), 0.9);

    // then: below belief-challenge.md's −0.3
    const ctx = await g.context(user);
    expect(ctx.considered[0]!.rewardCorrelation).toBeCloseTo(-0.4, 9);
    expect(ctx.considered[0]!.challenge).toBe(true);
    expect(ctx.challenge).toMatchObject({ beliefId: perception!.beliefId });
    const rows = await g.db.selectFrom('belief_rewards').selectAll().where('user_id', '=', user.userId).where('belief_id', '=', perception!.beliefId).execute();
    expect(rows).toEqual([{ user_id: user.userId, belief_id: perception!.beliefId, outcomes: 2, reward_sum: expect.closeTo(-0.8, 9) }]);
  });

  it('replay of the beliefs projection, the trust stream included, gives the graph live gave', async () => {
    const user = g.newUser();
    const beliefs = await companionOf(user);
    await g.decides(user, { beliefId: beliefs['i like rainy afternoons with a good book']!.beliefId, action: 'promote' });
    await g.decides(user, { beliefId: beliefs['i like quiet mornings']!.beliefId, action: 'deprecate' });
    await g.evaluated(user, beliefs['i like quiet mornings']!.beliefId, 0.25);

    const report = await replayProjection({ bus: g.bus, database: g.database, service: 'belief-graph', schema: g.schema, projection: beliefsProjection, migrations: service.migrations, keep: false });
    expect(report.events).toBeGreaterThan(0);
    expect(report.equal).toBe(true);
  });
});

describe('the belief graph with an LLM configured (a local OpenAI-compatible stub)', () => {
  let g: Graph;
  let stub: LlmStub;
  beforeAll(async () => {
    stub = await startLlmStub(({ body }) => {
      const system = String((body.messages as { content: string }[])[0]?.content ?? '');
      if (/atom/i.test(system)) {
        return { content: JSON.stringify({ atoms: [{ atom_text: 'i am good enough', belief_type: 'BELIEF_ABOUT_SELF', polarity: 'deny', confidence: 0.9, source_idx: 0 }] }) };
      }
      if (/same belief|verif/i.test(system)) return { content: JSON.stringify({ is_same_belief: true, confidence: 0.9, reasoning: 'same' }) };
      return { content: JSON.stringify({ temporal_scope: 'habitual', modality: 'certain', degree: 0.8, conditional: '', confidence: 0.9, polarity: 'deny' }) };
    });
    g = await startBeliefGraph('t_beliefs_llm', { stub });
  });
  afterAll(async () => {
    await g.stop();
    await stub.close();
  });

  it('atomizes through the LLM, records every exchange, and replay asks the LLM nothing', async () => {
    const user = g.newUser();
    await g.says(user, 'Sometimes it feels like whatever I do, it will never be enough for anyone.');
    const [extracted] = (await g.events(user.userId)).filter((e) => e.type === Events.BeliefsExtracted.name);
    const x = Events.BeliefsExtracted.decode(extracted!.payload);
    expect(x.atomizer).toBe('llm');
    expect(x.atoms.map((a) => [a.canonicalText, a.polarity])).toEqual([['i am good enough', 'deny']]);
    expect(x.exchanges.length).toBeGreaterThanOrEqual(1);
    expect(x.exchanges[0]!.output).toContain('i am good enough');

    const asked = stub.requests.length;
    const report = await replayProjection({ bus: g.bus, database: g.database, service: 'belief-graph', schema: g.schema, projection: beliefsProjection, migrations: service.migrations, keep: false });
    expect(report.equal).toBe(true);
    expect(stub.requests.length).toBe(asked);
  });
});

describe('pnpm beliefs backfill over a log no reactor read', () => {
  let live: Graph;
  let cold: Graph;
  beforeAll(async () => {
    live = await startBeliefGraph('t_beliefs_live');
    cold = await startBeliefGraph('t_beliefs_cold', { live: false });
  });
  afterAll(async () => {
    await live.stop();
    await cold.stop();
  });

  /** The same conversation, told to a graph: the persona, then messages and replies a day apart. */
  async function converse(g: Graph, user: ReturnType<Graph['newUser']>): Promise<void> {
    await g.persona(user, ['I like quiet mornings.', "I'm a patient person."]);
    for (const [said, reply] of [
      ["I'm a patient person.", 'Me? I love rainy afternoons.'],
      ["Honestly, I'm not a patient person.", "I don't like quiet mornings, to be honest."],
      ['My family disrespects me for not working with my hands.', 'That sounds heavy.'],
    ] as const) {
      await g.says(user, said);
      await g.replies(user, reply);
      g.clock.advance(DAY);
    }
  }

  const shape = (r: belief.GetBeliefsResponse) => ({
    nodes: r.nodes.map((n) => [n.holder, n.canonicalText, n.polarity, n.occurrenceCount, n.stream, n.status]).sort(),
    conflicts: r.conflicts.map((c) => c.conflictType).sort(),
    links: r.links.length,
  });

  it('gives the graph live gives, and a second run reads the log and decides nothing', async () => {
    const a = live.newUser();
    const b = cold.newUser();
    await converse(live, a);
    await converse(cold, b);
    expect((await cold.queries.get(b.userId, '')).nodes).toEqual([]);

    const first = await cold.runBackfill();
    await cold.caughtUp(b.userId);
    const before = await cold.events(b.userId);
    const again = await cold.runBackfill();

    const liveGraph = shape(await live.queries.get(a.userId, ''));
    expect(liveGraph.nodes.length).toBeGreaterThan(3);
    expect(liveGraph.conflicts).toContain('contradiction');
    expect(shape(await cold.queries.get(b.userId, ''))).toEqual(liveGraph);
    expect(first.reacted).toBeGreaterThan(0);
    expect(again.reacted).toBe(0);
    expect(await cold.events(b.userId)).toHaveLength(before.length);
  });
});
