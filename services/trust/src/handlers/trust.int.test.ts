// The trust service against real NATS and Postgres: TurnCompleted appended as the
// orchestrator would, belief challenges and the user's answers as belief-graph
// would; belief-graph's GetCompanionBeliefs and GetBeliefs answered by a stand-in
// over the bus (the companion's beliefs and the user's graph as each test sets
// them: no service imports another's package); the reactor and the projection
// running live, and the outcome scheduler driven on a manual clock by two
// replicas at once.
import { randomUUID } from 'node:crypto';
import { Bus, draft, serveQueries, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { BELIEF_CONFIG, embeddingTextOf } from '@hearth/beliefs';
import { deriveId, Events, GET_BELIEFS, GET_COMPANION_BELIEFS, queryClients } from '@hearth/events';
import { createChatClient, createLocalEmbedder, startLlmStub } from '@hearth/llm';
import { belief, orchestrator, trust } from '@hearth/proto';
import { migrateSchema, openDatabase, replayProjection, schemaDb, startProjection, startReactor, waitForPosition, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import type { Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import { beliefGraph } from '../adapters/beliefs.js';
import { createTagLlm, type TagLlm } from '../adapters/llm.js';
import { LOCAL_EMBEDDING, SCHEDULER } from '../config.js';
import type { TrustDb } from '../db.js';
import { service } from '../index.js';
import { trustProjection } from '../projections/trust.js';
import { createGetTrustQuery } from '../queries/get-trust.js';
import { evaluateDueOutcomes } from '../schedule/scheduler.js';
import { createTrustReactor } from './reactor.js';

const silent = { info: () => undefined, warn: (...a: unknown[]) => console.warn(...a), error: (...a: unknown[]) => console.error(...a), debug: () => undefined } as unknown as Logger;
const T0 = new Date('2026-11-01T09:00:00Z');
const MIN = 60_000;
const HOUR = 3_600_000;
const local = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: LOCAL_EMBEDDING.model });

describe('trust service (live, NATS + Postgres)', () => {
  let ns: string;
  let dbUrl: string;
  let nats: string;
  let database: Database;
  let schema: string;
  let db: Kysely<TrustDb>;
  let bus: Bus;
  let running: RunningConsumer[] = [];
  const clock = new ManualClock(T0);
  // The labeller is switched on by the LLM test only.
  const deps: { bus: Bus; db: Kysely<TrustDb>; beliefGraph: belief.BeliefQueries; embedder: typeof local; logger: Logger; llm: TagLlm | null } = {
    bus: undefined as unknown as Bus,
    db: undefined as unknown as Kysely<TrustDb>,
    beliefGraph: undefined as unknown as belief.BeliefQueries,
    embedder: local,
    logger: silent,
    llm: null,
  };
  // belief-graph's answer per user, and how often it was asked.
  const companions = new Map<string, belief.CompanionBelief[]>();
  let beliefQueries = 0;
  const companionAskedFor = new Set<string>();
  // The user's own graph per user (GetBeliefs, holder user), and how often it was asked.
  const graphs = new Map<string, belief.GetBeliefsResponse>();
  let graphQueries = 0;

  beforeAll(async () => {
    ns = testNamespace('trust');
    dbUrl = await databaseUrl();
    nats = await natsUrl();
    database = await openDatabase({ url: dbUrl });
    schema = `${ns}_trust`;
    await migrateSchema(database, schema, service.migrations);
    db = schemaDb<TrustDb>(database, schema);
    bus = await Bus.connect({ url: nats, name: `${ns}-trust`, namespace: ns, logger: silent });
    await bus.ensureStreams(['orchestrator', 'belief-graph', 'trust']);
    deps.bus = bus;
    deps.db = db;
    deps.beliefGraph = beliefGraph(bus);
    await bus.serveQuery('belief-graph', GET_COMPANION_BELIEFS, async (request) => {
      beliefQueries++;
      const { userId } = belief.GetCompanionBeliefsRequest.decode(request);
      companionAskedFor.add(userId);
      return belief.GetCompanionBeliefsResponse.encode({ beliefs: companions.get(userId) ?? [] }).finish();
    });
    await bus.serveQuery('belief-graph', GET_BELIEFS, async (request) => {
      graphQueries++;
      const { userId, holder } = belief.GetBeliefsRequest.decode(request);
      expect(holder).toBe('user');
      return belief.GetBeliefsResponse.encode(graphs.get(userId) ?? { nodes: [], links: [], conflicts: [], challenges: [] }).finish();
    });
    await serveQueries(bus, trust.TrustQueriesDefinition, { GetTrust: createGetTrustQuery(db) });
    running = [...(await startProjection(bus, db, 'trust', trustProjection)), ...(await startReactor(bus, db, 'trust', createTrustReactor(deps)))];
  }, 60_000);

  afterAll(async () => {
    for (const r of running) await r.stop();
    await bus.close();
    await database.close();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(nats, ns);
  });

  function companionBelief(text: string, opts: Partial<belief.CompanionBelief> = {}): belief.CompanionBelief {
    return {
      beliefId: randomUUID(),
      canonicalText: text,
      embedding: local.embedSync(embeddingTextOf(text)),
      embeddingModel: local.model,
      stream: 'identity',
      activation: 0.6,
      confidence: 0.6,
      seeded: true,
      level: 0,
      openConflicts: 0,
      status: 'active',
      ...opts,
    };
  }

  /** Waits until the projection holds everything on the user's trust chain. */
  async function settled(userId: string) {
    const last = await bus.lastOnSubject('trust', userId);
    if (last) expect(await waitForPosition(db, trustProjection.name, last.subject, last.seq, { timeoutMs: 20_000 })).toBe(true);
  }

  async function trustEvents(userId: string, type?: string): Promise<StoredEvent[]> {
    const out: StoredEvent[] = [];
    for await (const e of bus.read('trust', { key: userId })) if (!type || e.type === type) out.push(e);
    return out;
  }

  function user() {
    const userId = randomUUID();
    const conversationId = randomUUID();
    return {
      userId,
      conversationId,
      /** The orchestrator's TurnCompleted of one chat turn, once the reactor and the projection have read it. */
      async turn(userText: string, assistantText: string, opts: { at?: Date; outcome?: string } = {}) {
        const messageId = randomUUID();
        const at = opts.at ?? clock.now();
        const completed = orchestrator.TurnCompleted.fromPartial({ messageId, conversationId, assistantMessageId: randomUUID(), assistantText, userText, source: 'chat', outcome: opts.outcome ?? 'draft', aiFriendId: 'f' });
        const last = await bus.lastOnSubject('orchestrator', userId);
        const [r] = await bus.append('orchestrator', userId, [draft(Events.TurnCompleted, completed, { userId, causationId: messageId, correlationId: messageId, id: randomUUID(), occurredAt: at })], last?.seq ?? 0);
        expect(await waitForPosition(db, 'feedback', bus.topology.subject('orchestrator', userId), r!.seq, { timeoutMs: 20_000 })).toBe(true);
        await settled(userId);
        return { messageId, assistantMessageId: completed.assistantMessageId };
      },
    };
  }

  /** The user's graph as GetBeliefs gives it: one node per belief with its confidence, and conflicts among them. */
  function graphOf(nodes: { beliefId: string; confidence: number }[], conflicts: [string, string][] = []): belief.GetBeliefsResponse {
    return belief.GetBeliefsResponse.fromPartial({
      nodes: nodes.map((n) => ({ beliefId: n.beliefId, holder: 'user', canonicalText: 'my family disrespects me', polarity: 'affirm', confidence: n.confidence })),
      conflicts: conflicts.map(([a, b]) => ({ conflictId: randomUUID(), beliefIds: [a, b], conflictType: 'contradiction' })),
    });
  }

  /** Appends to the user's belief-graph chain as belief-graph would; resolves once the reactor and the projection read it, and the trust chain settled. */
  async function onBeliefGraph(userId: string, make: (at: Date) => ReturnType<typeof draft>) {
    const last = await bus.lastOnSubject('belief-graph', userId);
    const [r] = await bus.append('belief-graph', userId, [make(clock.now())], last?.seq ?? 0);
    const subject = bus.topology.subject('belief-graph', userId);
    expect(await waitForPosition(db, 'feedback', subject, r!.seq, { timeoutMs: 20_000 })).toBe(true);
    expect(await waitForPosition(db, trustProjection.name, subject, r!.seq, { timeoutMs: 20_000 })).toBe(true);
    await settled(userId);
  }

  /** The companion wove a challenge of `beliefId` into its reply (BeliefChallengeIssued). */
  async function challenged(userId: string, beliefId: string) {
    const challengeId = randomUUID();
    const messageId = randomUUID();
    await onBeliefGraph(userId, (at) =>
      draft(
        Events.BeliefChallengeIssued,
        { challengeId, beliefId, style: 'curious', messageId, assistantMessageId: randomUUID(), conversationId: randomUUID(), prompt: 'Can I ask something, just to understand better?' },
        { userId, causationId: messageId, correlationId: messageId, id: deriveId('belief-graph', 'challenge-issued', challengeId), occurredAt: at },
      ),
    );
    return { challengeId, messageId };
  }

  /** The user's next message answered it (BeliefConfidenceUpdated). */
  async function answered(userId: string, beliefId: string, challengeId: string, signal: string, confidence: number) {
    const messageId = randomUUID();
    const delta = { reinforced: 0.05, questioned: -0.05, contradicted: -0.1, none: 0 }[signal] ?? 0;
    await onBeliefGraph(userId, (at) =>
      draft(
        Events.BeliefConfidenceUpdated,
        { beliefId, signal, delta, confidence, sourceMessageId: messageId, challengeId },
        { userId, causationId: messageId, correlationId: messageId, id: deriveId('belief-graph', 'confidence', challengeId), occurredAt: at },
      ),
    );
  }

  const decode = {
    feedback: (e: StoredEvent) => Events.FeedbackRecorded.decode(e.payload),
    decided: (e: StoredEvent) => Events.GardenerDecided.decode(e.payload),
    outcome: (e: StoredEvent) => Events.OutcomeEvaluated.decode(e.payload),
    updated: (e: StoredEvent) => Events.TrustUpdated.decode(e.payload),
  };

  /** Two scheduler replicas at once, on the manual clock. */
  async function evaluateWithTwoReplicas() {
    const [a, b] = await Promise.all([evaluateDueOutcomes({ bus, db, clock, beliefGraph: deps.beliefGraph, logger: silent }, { replica: 'a' }), evaluateDueOutcomes({ bus, db, clock, beliefGraph: deps.beliefGraph, logger: silent }, { replica: 'b' })]);
    return { outcomes: a.outcomes + b.outcomes, trustUpdates: a.trustUpdates + b.trustUpdates, skipped: a.skipped + b.skipped };
  }

  it('a user +keep on a held belief is counted and promotes it; the outcomes are judged once at 2 h and 24 h by two replicas, and T_user learns', async () => {
    // given a companion that holds it is patient, with two open conflicts on it
    const u = user();
    const patient = companionBelief('i am a patient person', { openConflicts: 2 });
    companions.set(u.userId, [patient, companionBelief('i love bad puns')]);

    // when the user affirms it and the companion reaffirms it
    clock.set(T0);
    const t = await u.turn('You really are so patient with me.', 'I really am a patient person, that is who I am.');

    // then both tags count for that belief and the gardener promotes it
    const [recorded] = await trustEvents(u.userId, Events.FeedbackRecorded.name);
    const f = decode.feedback(recorded!);
    expect(f).toMatchObject({ messageId: t.messageId, detector: 'rules', embeddingModel: local.model, exchanges: [] });
    expect(f.tags.map((x) => [x.actor, x.tag, x.beliefId, x.applied, x.reason])).toEqual([
      ['user', '+keep', patient.beliefId, true, 'counted'],
      ['agent', '+keep', patient.beliefId, true, 'counted'],
    ]);
    expect(f.tags[0]).toMatchObject({ sourceMessageId: t.messageId, gTrust: 1, gAlign: 1, baseWeight: 1 });
    expect(f.tags[1]!.sourceMessageId).toBe(t.assistantMessageId);
    const [decidedEvent] = await trustEvents(u.userId, Events.GardenerDecided.name);
    const d = decode.decided(decidedEvent!);
    expect(d).toMatchObject({ beliefId: patient.beliefId, action: 'promote', reason: 'above_promotion', conflicts: 2, confidence: 0.6, shortDueAt: new Date(T0.getTime() + 2 * HOUR), longDueAt: new Date(T0.getTime() + 24 * HOUR) });
    expect(d.contributions.map((c) => c.actor).sort()).toEqual(['agent', 'user']);
    const pending = await db.selectFrom('outcomes').select(['horizon', 'due_at', 'evaluated_at']).where('user_id', '=', u.userId).orderBy('due_at').execute();
    expect(pending.map((o) => [o.horizon, o.evaluated_at])).toEqual([
      ['2h', null],
      ['24h', null],
    ]);

    // when the conflicts are resolved and 1 h passes: nothing is due yet
    companions.set(u.userId, [{ ...patient, level: 1, openConflicts: 0 }, companions.get(u.userId)![1]!]);
    clock.set(new Date(T0.getTime() + HOUR));
    expect((await evaluateWithTwoReplicas()).outcomes).toBe(0);

    // when 2 h have passed, two replicas evaluate at once
    clock.set(new Date(T0.getTime() + 2 * HOUR));
    const short = await evaluateWithTwoReplicas();
    await settled(u.userId);

    // then the short outcome is judged once, with the short step on both actors
    expect(short).toMatchObject({ outcomes: 1, skipped: 0 });
    let outcomes = (await trustEvents(u.userId, Events.OutcomeEvaluated.name)).map(decode.outcome);
    expect(outcomes).toHaveLength(1);
    expect(outcomes[0]).toMatchObject({ decisionId: d.decisionId, horizon: '2h', alphaScale: 0.15, components: { confidence: 1, stability: 1 } });
    expect(outcomes[0]!.reward).toBeGreaterThan(0.1);
    let updates = (await trustEvents(u.userId, Events.TrustUpdated.name)).map(decode.updated);
    expect(updates.map((x) => [x.actor, x.horizon, x.updates])).toEqual([
      ['user', '2h', 1],
      ['agent', '2h', 1],
    ]);
    expect(updates[0]!.trust).toBeGreaterThan(0.5);
    expect(updates[0]!.trustBefore).toBe(0.5);

    // when a day has passed
    clock.set(new Date(T0.getTime() + 25 * HOUR));
    const long = await evaluateWithTwoReplicas();
    await settled(u.userId);

    // then the long outcome is judged once with the full step, starting from the short one's trust
    expect(long.outcomes).toBe(1);
    outcomes = (await trustEvents(u.userId, Events.OutcomeEvaluated.name)).map(decode.outcome);
    expect(outcomes.map((o) => o.horizon)).toEqual(['2h', '24h']);
    updates = (await trustEvents(u.userId, Events.TrustUpdated.name)).map(decode.updated);
    expect(updates.map((x) => [x.actor, x.horizon, x.updates])).toEqual([
      ['user', '2h', 1],
      ['agent', '2h', 1],
      ['user', '24h', 2],
      ['agent', '24h', 2],
    ]);
    expect(updates[2]!.trustBefore).toBe(updates[0]!.trust);
    expect(updates[2]!.alpha).toBeGreaterThan(updates[0]!.alpha);
    const row = await db.selectFrom('schedule').selectAll().where('user_id', '=', u.userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ next_due_at: null, claimed_by: null });
    expect((await evaluateWithTwoReplicas()).outcomes).toBe(0);

    // and GetTrust shows both actors, the outcomes by evaluation and the feedback
    const view = await queryClients(bus).trust.GetTrust({ userId: u.userId });
    expect(view.actors.map((a) => [a.actor, a.updates])).toEqual([
      ['user', 2],
      ['agent', 2],
    ]);
    expect(view.actors[0]!.trust).toBeCloseTo(updates[2]!.trust, 10);
    expect(view.outcomes.map((o) => [o.horizon, o.decisionId, o.beliefId])).toEqual([
      ['2h', d.decisionId, patient.beliefId],
      ['24h', d.decisionId, patient.beliefId],
    ]);
    expect(view.outcomes[0]!.components).toMatchObject({ confidence: 1, stability: 1 });
    expect(view.feedback.map((x) => [x.actor, x.tag, x.applied, x.reason])).toEqual([
      ['user', '+keep', true, 'counted'],
      ['agent', '+keep', true, 'counted'],
    ]);
  }, 60_000);

  it("one user's unreadable decision is skipped and released; the users after it are still judged", async () => {
    // given two users whose companions were each promoted at T0, one with a decision row the code chokes on
    clock.set(T0);
    const good = user();
    const bad = user();
    for (const u of [good, bad]) {
      companions.set(u.userId, [companionBelief('i am a patient person', { openConflicts: 1 })]);
      await u.turn('You really are so patient with me.', 'I really am a patient person, that is who I am.');
    }
    const broken = db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        if (args.result.rows.some((r) => r.user_id === bad.userId && 'doubt_rate' in r)) return Promise.reject(new Error('corrupt decision row'));
        return Promise.resolve(args.result);
      },
    });

    // when a pass runs 3 h later
    clock.set(new Date(T0.getTime() + 3 * HOUR));
    const errors: unknown[] = [];
    const report = await evaluateDueOutcomes({ bus, db: broken, clock, beliefGraph: deps.beliefGraph, logger: { ...silent, error: (o: unknown) => errors.push(o) } as unknown as Logger }, { replica: 'a' });

    // then the good user's short outcome is judged, the bad one is logged, released and still due
    expect(report).toMatchObject({ outcomes: 1, skipped: 1 });
    expect(errors).toEqual([expect.objectContaining({ userId: bad.userId })]);
    expect((await trustEvents(good.userId, Events.OutcomeEvaluated.name)).map(decode.outcome).map((o) => o.horizon)).toEqual(['2h']);
    expect(await trustEvents(bad.userId, Events.OutcomeEvaluated.name)).toEqual([]);
    const row = await db.selectFrom('schedule').selectAll().where('user_id', '=', bad.userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ claimed_by: null, next_due_at: new Date(T0.getTime() + 2 * HOUR) });

    // when the next pass reads the row again
    const next = await evaluateDueOutcomes({ bus, db, clock, beliefGraph: deps.beliefGraph, logger: silent }, { replica: 'a' });

    // then the bad user is judged too
    expect(next).toMatchObject({ outcomes: 1, skipped: 0 });
    expect((await trustEvents(bad.userId, Events.OutcomeEvaluated.name)).map(decode.outcome).map((o) => o.horizon)).toEqual(['2h']);
  }, 60_000);

  it('a pass over more users than a lease batch leases a skipped user once and judges every other user', async () => {
    // given a full lease batch and one more user promoted, the unreadable one first due
    const bad = user();
    companions.set(bad.userId, [companionBelief('i am a patient person', { openConflicts: 1 })]);
    clock.set(new Date(T0.getTime() - MIN));
    await bad.turn('You really are so patient with me.', 'I really am a patient person, that is who I am.');
    clock.set(T0);
    const good = Array.from({ length: SCHEDULER.batchSize }, () => user());
    for (const u of good) {
      companions.set(u.userId, [companionBelief('i am a patient person', { openConflicts: 1 })]);
      await u.turn('You really are so patient with me.', 'I really am a patient person, that is who I am.');
    }
    const broken = db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: (args) => {
        if (args.result.rows.some((r) => r.user_id === bad.userId && 'doubt_rate' in r)) return Promise.reject(new Error('corrupt decision row'));
        return Promise.resolve(args.result);
      },
    });

    // when one pass runs 3 h later
    clock.set(new Date(T0.getTime() + 3 * HOUR));
    const report = await evaluateDueOutcomes({ bus, db: broken, clock, beliefGraph: deps.beliefGraph, logger: { ...silent, error: () => undefined } as unknown as Logger }, { replica: 'a' });

    // then the bad user is tried once in it (it stays due, so it is not leased again), and every good user is judged
    expect(report).toMatchObject({ users: SCHEDULER.batchSize, outcomes: SCHEDULER.batchSize, skipped: 1 });
    for (const u of good) expect((await trustEvents(u.userId, Events.OutcomeEvaluated.name)).length).toBe(1);
    const row = await db.selectFrom('schedule').selectAll().where('user_id', '=', bad.userId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ claimed_by: null, next_due_at: new Date(T0.getTime() + 2 * HOUR - MIN) });

    // and the next pass judges it
    expect(await evaluateDueOutcomes({ bus, db, clock, beliefGraph: deps.beliefGraph, logger: silent }, { replica: 'a' })).toMatchObject({ outcomes: 1, skipped: 0 });
  }, 60_000);

  it('the same +keep again within 120 s is a duplicate (tag storm dedup); a redelivered turn appends nothing new', async () => {
    const u = user();
    const patient = companionBelief('i am a patient person');
    companions.set(u.userId, [patient]);
    clock.set(T0);
    await u.turn('You really are so patient.', 'Thanks!');
    await u.turn('You really are so patient, honestly.', 'Ha, thank you.', { at: new Date(T0.getTime() + MIN) });
    const tags = (await trustEvents(u.userId, Events.FeedbackRecorded.name)).map(decode.feedback).map((f) => f.tags.map((x) => [x.tag, x.reason, x.applied]));
    expect(tags).toEqual([[['+keep', 'counted', true]], [['+keep', 'duplicate', false]]]);

    // a replica reading the same turn again decides nothing new
    const before = await bus.lastOnSubject('trust', u.userId);
    const [turn] = await (async () => {
      const out: StoredEvent[] = [];
      for await (const e of bus.read('orchestrator', { key: u.userId })) out.push(e);
      return out;
    })();
    await createTrustReactor(deps).react(turn!);
    expect((await bus.lastOnSubject('trust', u.userId))?.seq).toBe(before?.seq);
  }, 60_000);

  it('a vague doubt that aligns with no belief closely enough is gated off-target and decides nothing', async () => {
    const u = user();
    const patient = companionBelief('i am a patient person');
    companions.set(u.userId, [patient]);
    await u.turn("I don't think you're really anything you say you are.", 'I hear you.');
    const [f] = (await trustEvents(u.userId, Events.FeedbackRecorded.name)).map(decode.feedback);
    expect(f!.tags.map((x) => [x.actor, x.tag, x.beliefId, x.applied, x.reason])).toEqual([['user', '+doubt', patient.beliefId, false, 'off_target']]);
    expect(f!.tags[0]!.alignment).toBeLessThan(0.2);
    expect(await trustEvents(u.userId, Events.GardenerDecided.name)).toEqual([]);
  }, 60_000);

  it('a turn with no tag cue asks nothing and appends nothing; a refusal reply is not read', async () => {
    const u = user();
    companions.set(u.userId, [companionBelief('i am a patient person')]);
    const asked = beliefQueries;
    await u.turn('what a long day', "I'm here for you. Want to talk about it?");
    await u.turn('You really are so patient.', "I can't help with that.", { outcome: 'refusal' });
    expect(beliefQueries).toBe(asked);
    expect(await bus.lastOnSubject('trust', u.userId)).toBeNull();
  }, 60_000);

  it('tags with no companion belief are recorded as no_belief', async () => {
    const u = user();
    companions.set(u.userId, []);
    await u.turn('You really are so patient.', 'Thanks!');
    const [f] = (await trustEvents(u.userId, Events.FeedbackRecorded.name)).map(decode.feedback);
    expect(f!.tags.map((x) => [x.tag, x.beliefId, x.applied, x.reason])).toEqual([['+keep', '', false, 'no_belief']]);
    expect(f!.coherence).toBe(0);
    expect(await trustEvents(u.userId, Events.GardenerDecided.name)).toEqual([]);
  }, 60_000);

  it('with an LLM configured, the labeller decides the tags, its exchange is recorded, and replay asks it nothing', async () => {
    const stub = await startLlmStub(() => ({ content: JSON.stringify({ labels: [{ id: 1, tag: '+keep' }] }) }));
    deps.llm = createTagLlm(createChatClient({ baseUrl: stub.url, apiKey: null, model: 'stub-model', timeoutMs: 2_000, maxRetries: 0, temperature: 0 }));
    try {
      const u = user();
      const patient = companionBelief('i am a patient person');
      companions.set(u.userId, [patient]);
      await u.turn('You really are so patient with me.', 'That means a lot.');
      const [f] = (await trustEvents(u.userId, Events.FeedbackRecorded.name)).map(decode.feedback);
      expect(f).toMatchObject({ detector: 'llm' });
      expect(f!.exchanges).toHaveLength(1);
      expect(f!.exchanges[0]).toMatchObject({ purpose: 'trust-tags', model: 'stub-model', error: '' });
      expect(f!.tags.map((x) => [x.actor, x.tag, x.cue, x.beliefId, x.reason])).toEqual([['user', '+keep', 'llm', patient.beliefId, 'counted']]);

      // a late or malformed answer leaves the rules to decide, the failed exchange recorded
      stub.setHandler(() => ({ content: 'not json' }));
      const v = user();
      companions.set(v.userId, [patient]);
      await v.turn('You really are so patient with me.', 'That means a lot.');
      const [g] = (await trustEvents(v.userId, Events.FeedbackRecorded.name)).map(decode.feedback);
      expect(g).toMatchObject({ detector: 'rules' });
      expect(g!.exchanges[0]!.error).toMatch(/LLM_INVALID_JSON/);
      expect(g!.tags.map((x) => [x.tag, x.cue === 'llm'])).toEqual([['+keep', false]]);

      const asked = stub.requests.length;
      const report = await replayProjection({ bus, database, service: 'trust', schema, projection: trustProjection, migrations: service.migrations, keep: false });
      expect(report.equal).toBe(true);
      expect(stub.requests.length).toBe(asked);
    } finally {
      deps.llm = null;
      await stub.close();
    }
  }, 60_000);

  it("a challenge the companion wove in is the agent's decision: the user's answer validates it (+1 reconsidered, −1 reinforced) at 2 h and 24 h, T_agent alone learns, and replay equals live", async () => {
    // given two users, each holding a harmful belief with one contradicting statement on it
    clock.set(T0);
    const [open, firm] = [user(), user()];
    const belief0 = { [open.userId]: randomUUID(), [firm.userId]: randomUUID() };
    for (const u of [open, firm]) graphs.set(u.userId, graphOf([{ beliefId: belief0[u.userId]!, confidence: 0.45 }, { beliefId: `${u.userId.slice(0, 8)}-other`, confidence: 0.5 }], [[belief0[u.userId]!, `${u.userId.slice(0, 8)}-other`]]));

    // when the companion challenges each one's belief
    const c = { [open.userId]: await challenged(open.userId, belief0[open.userId]!), [firm.userId]: await challenged(firm.userId, belief0[firm.userId]!) };

    // then each challenge is a decision of the agent's about the user's belief, due at both horizons
    for (const u of [open, firm]) {
      const decided = (await trustEvents(u.userId, Events.GardenerDecided.name)).map(decode.decided);
      expect(decided).toEqual([
        expect.objectContaining({
          beliefId: belief0[u.userId],
          action: 'challenge',
          reason: 'challenge_issued',
          contributions: [{ actor: 'agent', share: 1 }],
          conflicts: 1,
          confidence: 0.45,
          level: 0,
          sourceMessageId: c[u.userId]!.messageId,
          shortDueAt: new Date(T0.getTime() + 2 * HOUR),
          longDueAt: new Date(T0.getTime() + 24 * HOUR),
        }),
      ]);
    }

    // when ten minutes on one user reconsiders and the other insists
    clock.set(new Date(T0.getTime() + 10 * MIN));
    await answered(open.userId, belief0[open.userId]!, c[open.userId]!.challengeId, 'questioned', 0.4);
    await answered(firm.userId, belief0[firm.userId]!, c[firm.userId]!.challengeId, 'reinforced', 0.5);
    const row = await db.selectFrom('challenges').selectAll().where('challenge_id', '=', c[open.userId]!.challengeId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ belief_id: belief0[open.userId], answer_signal: 'questioned', answer_confidence: 0.4, answered_at: new Date(T0.getTime() + 10 * MIN) });

    // and 2 h have passed
    clock.set(new Date(T0.getTime() + 2 * HOUR));
    // (Other tests' users may have outcomes due too.)
    expect((await evaluateWithTwoReplicas()).skipped).toBe(0);
    for (const u of [open, firm]) await settled(u.userId);

    // then the one who reconsidered validates the challenge, the one who insisted does not; all credit is the agent's
    const [openShort] = (await trustEvents(open.userId, Events.OutcomeEvaluated.name)).map(decode.outcome);
    expect(openShort).toMatchObject({ beliefId: belief0[open.userId], horizon: '2h', components: { coherence: 0, confidence: 0, stability: 1, validation: 1 }, validationExplicit: 1, validationImplicit: 0 });
    expect(openShort!.reward).toBeCloseTo(0.4, 9);
    expect(openShort!.credit).toEqual([{ actor: 'agent', share: expect.closeTo(0.4, 9) }]);
    const [firmShort] = (await trustEvents(firm.userId, Events.OutcomeEvaluated.name)).map(decode.outcome);
    expect(firmShort).toMatchObject({ beliefId: belief0[firm.userId], horizon: '2h', components: { coherence: 0, confidence: 0, stability: 0, validation: -1 }, validationExplicit: -1 });
    expect(firmShort!.reward).toBeCloseTo(-0.2, 9);
    const steps = (await trustEvents(firm.userId, Events.TrustUpdated.name)).map(decode.updated);
    expect(steps.map((x) => [x.actor, x.horizon])).toEqual([['agent', '2h']]);
    expect(steps[0]!.trust).toBeLessThan(0.5);

    // when the user who reconsidered voices contradicting evidence (a second conflict on the belief) and a day has passed
    const other = `${open.userId.slice(0, 8)}-other`;
    graphs.set(open.userId, graphOf([{ beliefId: belief0[open.userId]!, confidence: 0.4 }, { beliefId: other, confidence: 0.5 }, { beliefId: 'said-since', confidence: 0.5 }], [[belief0[open.userId]!, other], ['said-since', belief0[open.userId]!]]));
    clock.set(new Date(T0.getTime() + 25 * HOUR));
    expect((await evaluateWithTwoReplicas()).skipped).toBe(0);
    for (const u of [open, firm]) await settled(u.userId);

    // then the long outcomes are judged the same way, the new conflict counting for the challenge
    const openLong = (await trustEvents(open.userId, Events.OutcomeEvaluated.name)).map(decode.outcome)[1]!;
    expect(openLong).toMatchObject({ horizon: '24h', components: { coherence: 0, stability: 1, validation: 1 } });
    expect(openLong.components!.confidence).toBeGreaterThan(0);
    const firmLong = (await trustEvents(firm.userId, Events.OutcomeEvaluated.name)).map(decode.outcome)[1]!;
    expect(firmLong).toMatchObject({ horizon: '24h', components: { confidence: 0, stability: 0, validation: -1 } });
    expect(firmLong.reward).toBeCloseTo(-0.2, 9);
    expect((await queryClients(bus).trust.GetTrust({ userId: firm.userId })).actors.map((a) => [a.actor, a.updates])).toEqual([
      ['user', 0],
      ['agent', 2],
    ]);
    // Only challenge outcomes were due: the companion's beliefs were never asked for.
    expect([open, firm].filter((u) => companionAskedFor.has(u.userId))).toEqual([]);

    // and replay folds both streams into the same rows
    const report = await replayProjection({ bus, database, service: 'trust', schema, projection: trustProjection, migrations: service.migrations, keep: false });
    expect(report.equal).toBe(true);
  }, 60_000);

  it('a redelivered challenge asks and appends nothing; the other belief-graph events are passed over unread', async () => {
    const u = user();
    const beliefId = randomUUID();
    graphs.set(u.userId, graphOf([{ beliefId, confidence: 0.45 }]));
    clock.set(T0);
    const asked = graphQueries;
    await challenged(u.userId, beliefId);
    expect(graphQueries).toBe(asked + 1);
    const before = await bus.lastOnSubject('trust', u.userId);

    // belief-graph's own extraction on the same chain: nothing to decide, nothing asked
    await onBeliefGraph(u.userId, (at) => draft(Events.BeliefsExtracted, belief.BeliefsExtracted.fromPartial({ holder: 'user', sourceMessageId: randomUUID(), sourceKind: 'user_message' }), { userId: u.userId, id: randomUUID(), occurredAt: at }));
    // the challenge read again (a redelivery, another replica)
    const [issued] = await (async () => {
      const out: StoredEvent[] = [];
      for await (const e of bus.read('belief-graph', { key: u.userId })) if (e.type === Events.BeliefChallengeIssued.name) out.push(e);
      return out;
    })();
    await createTrustReactor(deps).react(issued!);

    expect(graphQueries).toBe(asked + 1);
    expect((await bus.lastOnSubject('trust', u.userId))?.seq).toBe(before?.seq);
    expect(await trustEvents(u.userId, Events.GardenerDecided.name)).toHaveLength(1);
  }, 60_000);

  it('replays into an empty schema with the same rows', async () => {
    const report = await replayProjection({ bus, database, service: 'trust', schema, projection: trustProjection, migrations: service.migrations, keep: false });
    expect(report.events).toBeGreaterThan(0);
    expect(report.equal).toBe(true);
  }, 60_000);

  it('erasure deletes every row of the user, the schedule and the challenges too', async () => {
    const u = user();
    companions.set(u.userId, [companionBelief('i am a patient person')]);
    clock.set(T0);
    await u.turn('You really are so patient with me.', 'I really am a patient person, that is who I am.');
    await challenged(u.userId, randomUUID());
    await db.transaction().execute((trx) => trustProjection.erase(trx, u.userId));
    for (const table of ['actors', 'feedback', 'decisions', 'outcomes', 'schedule', 'challenges'] as const) {
      expect(await db.selectFrom(table).select('user_id').where('user_id', '=', u.userId).execute()).toEqual([]);
    }
  }, 60_000);
});
