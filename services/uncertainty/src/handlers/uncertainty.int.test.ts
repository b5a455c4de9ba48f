// The uncertainty service against real NATS and Postgres: memory's events appended
// as memory would, the orchestrator's CheckMessage over the bus, TurnCompleted as the
// orchestrator would append it; the reactor and the projection running live
// (test-e2e/uncertainty.e2e.test.ts drives the same through the HTTP API).
import { randomUUID } from 'node:crypto';
import { Bus, draft, serveQueries, type RunningConsumer } from '@hearth/bus';
import { deriveId, Events, queryClients } from '@hearth/events';
import { migrateSchema, openDatabase, replayProjection, schemaDb, startProjection, startReactor, waitForPosition, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import { orchestrator, uncertainty } from '@hearth/proto';
import type { Kysely } from 'kysely';
import type { UncertaintyDb } from '../db.js';
import { service } from '../index.js';
import { uncertaintiesProjection } from '../projections/uncertainties.js';
import { createCheckMessageCommand } from '../queries/check-message.js';
import { createCheckReliabilityQuery } from '../queries/check-reliability.js';
import { createGetUncertaintiesQuery } from '../queries/get-uncertainties.js';
import { createUncertaintyReactor } from './reactor.js';
import { createChatClient, startLlmStub } from '@hearth/llm';
import { createClassifierLlm, type ClassifierLlm } from '../adapters/llm.js';

const silent = { info: () => undefined, warn: (...a: unknown[]) => console.warn(...a), error: (...a: unknown[]) => console.error(...a), debug: () => undefined };
const T0 = new Date('2026-11-01T09:00:00Z').getTime();
const MIN = 60_000;

describe('uncertainty service (live, NATS + Postgres)', () => {
  let ns: string;
  let dbUrl: string;
  let nats: string;
  let database: Database;
  let schema: string;
  let db: Kysely<UncertaintyDb>;
  let bus: Bus;
  let running: RunningConsumer[] = [];
  // The classifier is switched on by the LLM test only.
  const deps: { bus: Bus; db: Kysely<UncertaintyDb>; llm: ClassifierLlm | null } = { bus: undefined as unknown as Bus, db: undefined as unknown as Kysely<UncertaintyDb>, llm: null };
  const reactor = () => createUncertaintyReactor(deps);

  beforeAll(async () => {
    ns = testNamespace('uncertainty');
    dbUrl = await databaseUrl();
    nats = await natsUrl();
    database = await openDatabase({ url: dbUrl });
    schema = `${ns}_uncertainty`;
    await migrateSchema(database, schema, service.migrations);
    db = schemaDb<UncertaintyDb>(database, schema);
    bus = await Bus.connect({ url: nats, name: `${ns}-unc`, namespace: ns, logger: silent });
    await bus.ensureStreams(['memory', 'orchestrator', 'belief-graph', 'uncertainty']);
    deps.bus = bus;
    deps.db = db;
    await serveQueries(bus, uncertainty.UncertaintyQueriesDefinition, {
      CheckMessage: createCheckMessageCommand(deps),
      CheckReliability: createCheckReliabilityQuery(db),
      GetUncertainties: createGetUncertaintiesQuery(db),
    });
    running = [...(await startProjection(bus, db, 'uncertainty', uncertaintiesProjection)), ...(await startReactor(bus, db, 'uncertainty', reactor()))];
  }, 60_000);

  afterAll(async () => {
    for (const r of running) await r.stop();
    await bus.close();
    await database.close();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(nats, ns);
  });

  /** Appends as memory or the orchestrator would, and waits until the reactor and the projection have read it and applied what followed. */
  async function append(service: 'memory' | 'orchestrator', userId: string, d: ReturnType<typeof draft>) {
    const last = await bus.lastOnSubject(service, userId);
    const [r] = await bus.append(service, userId, [d], last?.seq ?? 0);
    const subject = bus.topology.subject(service, userId);
    expect(await waitForPosition(db, 'uncertainty', subject, r!.seq, { timeoutMs: 20_000 })).toBe(true);
    if (uncertaintiesProjection.sources.includes(service)) expect(await waitForPosition(db, uncertaintiesProjection.name, subject, r!.seq, { timeoutMs: 20_000 })).toBe(true);
    await settled(userId);
  }

  async function settled(userId: string) {
    const last = await bus.lastOnSubject('uncertainty', userId);
    if (last) expect(await waitForPosition(db, uncertaintiesProjection.name, last.subject, last.seq, { timeoutMs: 20_000 })).toBe(true);
  }

  function user() {
    const userId = randomUUID();
    const conversationId = randomUUID();
    let minute = 0;
    const at = () => new Date(T0 + minute++ * MIN);
    return {
      userId,
      conversationId,
      at,
      async remember(type: string, key: string, value: string, opts: { supersedes?: string } = {}) {
        const messageId = randomUUID();
        const memoryId = randomUUID();
        const when = at();
        await append('memory', userId, draft(Events.MemoryRecorded, { memoryId, aiFriendId: 'f', type, memoryKey: key, memoryValue: value, confidence: 0.6, extractor: 'heuristic', sourceMessageId: messageId, supersedes: opts.supersedes ?? '', topicIds: [], embedding: [], embeddingModel: '', embeddingText: '', occurredOn: '', occurredPrecision: '', occurredText: '' }, { userId, causationId: messageId, correlationId: messageId, id: randomUUID(), occurredAt: when }));
        await append('memory', userId, writtenBack(userId, messageId, when));
        return { messageId, memoryId };
      },
      async writeBack(messageId: string, type: string, key: string, value: string, supersedes: string) {
        const memoryId = randomUUID();
        const when = at();
        await append('memory', userId, draft(Events.MemoryRecorded, { memoryId, aiFriendId: 'f', type, memoryKey: key, memoryValue: value, confidence: 0.55, extractor: 'heuristic', sourceMessageId: messageId, supersedes, topicIds: [], embedding: [], embeddingModel: '', embeddingText: '', occurredOn: '', occurredPrecision: '', occurredText: '' }, { userId, causationId: messageId, correlationId: messageId, id: randomUUID(), occurredAt: when }));
        await append('memory', userId, writtenBack(userId, messageId, when));
        return memoryId;
      },
      check(text: string, opts: { after?: string; answers?: string; messageId?: string } = {}) {
        const messageId = opts.messageId ?? randomUUID();
        return queryClients(bus).uncertainty.CheckMessage({ userId, messageId, conversationId, text, afterMessageId: opts.after ?? '', memoryIds: [], topicIds: [], at: at(), answersUncertaintyId: opts.answers ?? '' }).then((r) => ({ ...r, messageId }));
      },
      async replied(messageId: string, uncertainty: { status: string; surfacedUncertaintyId?: string; phrasingId?: string; userText?: string }) {
        const assistantMessageId = deriveId('orchestrator', 'assistant', messageId);
        await append(
          'orchestrator',
          userId,
          draft(Events.TurnCompleted, orchestrator.TurnCompleted.fromPartial({ messageId, conversationId, assistantMessageId, assistantText: 'ok', surfacedMemoryIds: [], source: 'chat', exchanges: [], gates: [], outcome: 'draft', openerNorm: '', relationshipStage: 'STRANGER', userText: uncertainty.userText ?? '', aiFriendId: 'f', retentionId: '', retentionStep: '', retentionRenders: 0, uncertainty: { status: uncertainty.status, error: '', verdict: '', withheldMemoryIds: [], surfacedUncertaintyId: uncertainty.surfacedUncertaintyId ?? '', phrasingId: uncertainty.phrasingId ?? '', answersUncertaintyId: '' } }), { userId, causationId: messageId, correlationId: messageId, id: randomUUID(), occurredAt: at() }),
        );
      },
    };
  }

  function writtenBack(userId: string, messageId: string, at: Date) {
    return draft(Events.TurnMemoryWritten, { messageId, conversationId: '', assistantMessageId: '', aiFriendId: 'f', source: 'chat', surfacedMemoryIds: [], extractedMemoryCandidateIds: [], candidates: [], correction: '', invalidatedMemoryIds: [], clarificationNeeded: false, suppressTopicIds: [], heuristicRan: true, llmRan: false, llmReasons: [], exchanges: [], skipped: '', turnAt: at, topicIds: [] }, { userId, causationId: messageId, correlationId: messageId, id: randomUUID(), occurredAt: at });
  }

  it('a stance flip is an open contradiction: both sides contradicted, surfaced, then answered (user_clarified), and replay equals live', async () => {
    const u = user();
    const liked = await u.remember('PREFERENCE', 'pref:food:sushi', 'like|sushi');
    const flip = await u.check('I hate sushi', { after: liked.messageId });
    expect(flip.verdict).toBe('contradiction');
    expect(flip.contradictedMemoryIds).toEqual([liked.memoryId]);
    expect(flip.surface).toMatchObject({ reason: 'contradiction', heldValue: 'like|sushi', statedValue: 'dislike|sushi' });
    await settled(u.userId);
    // The orchestrator wove it in; memory wrote the new stance back (superseding, §12.3.2).
    await u.replied(flip.messageId, { status: 'ok', surfacedUncertaintyId: flip.surface!.uncertaintyId, phrasingId: 'thought' });
    const hated = await u.writeBack(flip.messageId, 'PREFERENCE', 'pref:food:sushi', 'dislike|sushi', liked.memoryId);
    let view = await queryClients(bus).uncertainty.GetUncertainties({ userId: u.userId });
    expect(view.uncertainties).toHaveLength(1);
    expect(view.uncertainties[0]).toMatchObject({ uncertaintyType: 'contradiction', severity: 'critical', state: 'surfaced', surfacedCount: 1, detectionContext: 'ingestion', temporalSignal: false });
    expect(view.uncertainties[0]!.subjects.map((s) => s.id)).toEqual([liked.memoryId, hated]);
    const rel = await queryClients(bus).uncertainty.CheckReliability({ userId: u.userId, memoryIds: [liked.memoryId, hated] });
    expect(rel.reliability.map((r) => r.reliability)).toEqual(['contradicted', 'contradicted']);

    // The next message answers the question: the loved side wins.
    const answer = await u.check('no, I still love it honestly', { after: flip.messageId, answers: flip.surface!.uncertaintyId });
    expect(answer.verdict).toBe('answer');
    await settled(u.userId);
    view = await queryClients(bus).uncertainty.GetUncertainties({ userId: u.userId });
    expect(view.uncertainties[0]).toMatchObject({ state: 'resolved', resolutionStrategy: 'user_clarified' });
    const after = await queryClients(bus).uncertainty.CheckReliability({ userId: u.userId, memoryIds: [liked.memoryId, hated] });
    expect(after.reliability.map((r) => r.reliability)).toEqual(['reliable', 'superseded']);

    const report = await replayProjection({ bus, database, service: 'uncertainty', schema, projection: uncertaintiesProjection, migrations: service.migrations, keep: false });
    expect(report.events).toBeGreaterThan(0);
    expect(report.equal).toBe(true);
  }, 60_000);

  it('a moved city supersedes silently; a correction too, lowering tolerance; asking twice appends once', async () => {
    const u = user();
    const seoul = await u.remember('FACT', 'fact:current_city', 'seoul');
    const moved = await u.check('I moved to Busan', { after: seoul.messageId });
    expect(moved.verdict).toBe('temporal_change');
    expect(moved.surface).toBeUndefined();
    expect(moved.contradictedMemoryIds).toEqual([seoul.memoryId]);
    const again = await u.check('I moved to Busan', { after: seoul.messageId, messageId: moved.messageId });
    expect(again.verdict).toBe('temporal_change');
    await settled(u.userId);
    const checked = await db.selectFrom('checks').select('message_id').where('user_id', '=', u.userId).execute();
    expect(checked).toHaveLength(1);
    const busan = await u.writeBack(moved.messageId, 'FACT', 'fact:current_city', 'busan', seoul.memoryId);
    const corrected = await u.check('Actually I live in Daegu, not Busan', { after: moved.messageId });
    expect(corrected.verdict).toBe('correction');
    await settled(u.userId);
    const view = await queryClients(bus).uncertainty.GetUncertainties({ userId: u.userId });
    expect(view.uncertainties.map((x) => [x.state, x.resolutionStrategy, x.temporalSignal])).toEqual([
      ['resolved', 'temporal_supersede', true],
      ['resolved', 'user_clarified', false],
    ]);
    expect(view.tolerance).toBeCloseTo(0.47);
    expect((await queryClients(bus).uncertainty.CheckReliability({ userId: u.userId, memoryIds: [seoul.memoryId, busan] })).reliability.map((r) => r.reliability)).toEqual(['superseded', 'superseded']);
  }, 60_000);

  it('a check the orchestrator never got in time still runs after the reply (late), against what was held before the message', async () => {
    const u = user();
    const liked = await u.remember('PREFERENCE', 'pref:food:ramen', 'like|ramen');
    const messageId = randomUUID();
    // Memory wrote the flip back before uncertainty saw the turn.
    await u.writeBack(messageId, 'PREFERENCE', 'pref:food:ramen', 'dislike|ramen', liked.memoryId);
    await u.replied(messageId, { status: 'timeout', userText: 'I hate ramen' });
    const row = await db.selectFrom('checks').selectAll().where('message_id', '=', messageId).executeTakeFirst();
    expect(row).toMatchObject({ verdict: 'contradiction', late: true });
    const view = await queryClients(bus).uncertainty.GetUncertainties({ userId: u.userId });
    expect(view.uncertainties[0]).toMatchObject({ state: 'open', surfacedCount: 0 });
  }, 60_000);

  it('a message that states nothing and meets no open uncertainty appends nothing', async () => {
    const u = user();
    await u.remember('PREFERENCE', 'pref:food:sushi', 'like|sushi');
    const r = await u.check('what a long day');
    expect(r.verdict).toBe('none');
    expect(await bus.lastOnSubject('uncertainty', u.userId)).toBeNull();
  }, 30_000);

  it('with an LLM configured, the classifier decides what the rules call a contradiction, its exchange is recorded, and replay asks it nothing', async () => {
    const stub = await startLlmStub(() => ({ content: JSON.stringify({ classification: 'compatible', confidence: 0.8, reasoning: 'hating one dish can sit beside liking sushi', recommended_resolution: 'keep_both' }) }));
    deps.llm = createClassifierLlm(createChatClient({ baseUrl: stub.url, apiKey: null, model: 'stub-model', timeoutMs: 2_000, maxRetries: 0, temperature: 0 }));
    try {
      const u = user();
      const liked = await u.remember('PREFERENCE', 'pref:food:sushi', 'like|sushi');
      const r = await u.check('I hate sushi', { after: liked.messageId });
      expect(r.verdict).toBe('none');
      expect(r.surface).toBeUndefined();
      await settled(u.userId);
      const events = [];
      for await (const e of bus.read('uncertainty', { key: u.userId })) events.push(e);
      const [checked] = events.filter((e) => e.type === Events.MessageChecked.name);
      const x = Events.MessageChecked.decode(checked!.payload);
      expect(x.classifier).toBe('llm');
      expect(x.exchanges).toHaveLength(1);
      expect(x.matches[0]).toMatchObject({ classification: 'compatible', cue: expect.stringContaining('llm:') });
      const asked = stub.requests.length;
      const report = await replayProjection({ bus, database, service: 'uncertainty', schema, projection: uncertaintiesProjection, migrations: service.migrations, keep: false });
      expect(report.equal).toBe(true);
      expect(stub.requests.length).toBe(asked);
    } finally {
      deps.llm = null;
      await stub.close();
    }
  }, 30_000);

  it('drift runs on the virtual clock a cooldown after the first memory, once per cooldown: a job not heard of for two years becomes a stale uncertainty', async () => {
    const u = user();
    await u.remember('FACT', 'fact:occupation', 'nurse');
    const DAY = 86_400_000;
    const later = new Date(T0 + 800 * DAY);
    await append('memory', u.userId, writtenBack(u.userId, randomUUID(), later));
    await append('memory', u.userId, writtenBack(u.userId, randomUUID(), new Date(later.getTime() + 5 * MIN)));
    const events = [];
    for await (const e of bus.read('uncertainty', { key: u.userId })) events.push(e);
    const cycles = events.filter((e) => e.type === Events.DriftCycled.name).map((e) => Events.DriftCycled.decode(e.payload));
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ cycle: 0, domain: 'work', sampledMemoryIds: [expect.any(String)] });
    const view = await queryClients(bus).uncertainty.GetUncertainties({ userId: u.userId });
    expect(view.uncertainties).toEqual([expect.objectContaining({ uncertaintyType: 'stale', severity: 'low', state: 'open', detectionContext: 'drift' })]);
  }, 30_000);
});
