// GET /v1/me/export and the admin access trail against real NATS and Postgres:
// ingress hosted as in production, its HTTP API called over the network; the
// memory, orchestrator, belief-graph, uncertainty, trust and retention queries answered by fake responders. One
// user's history of 10,000 chat turns (20,000 messages) is exported as one
// streamed document; another user's data must not appear in it.
import { randomUUID } from 'node:crypto';
import { appendDecided, draft, type Bus, type EventDraft } from '@hearth/bus';
import { Events, GET_BELIEFS, GET_RELATIONSHIP, GET_RETENTION, GET_TRUST, GET_UNCERTAINTIES, LIST_MEMORIES } from '@hearth/events';
import { runHearth, type HearthProcess } from '@hearth/host';
import { belief, ingress, memory, orchestrator, retention, trust, uncertainty } from '@hearth/proto';
import { waitForPosition } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import type { Insertable, Kysely } from 'kysely';
import pg from 'pg';
import type { IngressDb, TurnsTable } from '../db.js';
import { service } from '../index.js';
import { turnsProjection } from '../projections/turns.js';
import { usersProjection } from '../projections/users.js';

// The query names the memory and orchestrator services serve (their packages export only the clients).

const TURNS = 10_000;
const HOUR_MS = 3_600_000;

interface Reply {
  status: number;
  body: any;
  headers: Headers;
}

describe('GET /v1/me/export and the admin access trail', () => {
  const ns = testNamespace('t_ingress_export');
  let dbUrl: string;
  let hearth: HearthProcess;
  let db: Kysely<IngressDb>;
  /**
   * The hosted process's own bus (it holds the data keys payloads are sealed with),
   * on which the test also plays the memory, orchestrator, belief-graph, uncertainty, trust and retention services.
   */
  let bus: Bus;
  let admin: { token: string; userId: string };
  const memoriesOf = new Map<string, memory.MemoryRecord[]>();
  const listAsked: { userId: string; all: boolean }[] = [];
  const failMemoriesFor = new Set<string>();
  const beliefsOf = new Map<string, belief.GetBeliefsResponse>();
  const beliefsAsked: { userId: string; holder: string }[] = [];
  const failBeliefsFor = new Set<string>();
  const uncertaintiesOf = new Map<string, uncertainty.GetUncertaintiesResponse>();
  const uncertaintiesAsked: string[] = [];
  const failUncertaintiesFor = new Set<string>();
  const trustOf = new Map<string, trust.GetTrustResponse>();
  const trustAsked: string[] = [];
  const failTrustFor = new Set<string>();

  beforeAll(async () => {
    const nats = await natsUrl();
    dbUrl = await databaseUrl();
    hearth = await runHearth({
      services: [service],
      env: {
        HEARTH_ENV: 'test',
        HEARTH_NAMESPACE: ns,
        NATS_URL: nats,
        DATABASE_URL: dbUrl,
        LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
        RATE_LIMIT_PER_MINUTE: '0',
        RATE_LIMIT_ANON_PER_MINUTE: '0',
      },
      port: 0,
    });
    db = hearth.contexts.get('ingress')!.db as Kysely<IngressDb>;
    bus = hearth.bus;
    await bus.serveQuery('memory', LIST_MEMORIES, async (request) => {
      const { userId, all } = memory.ListMemoriesRequest.decode(request);
      listAsked.push({ userId, all });
      if (failMemoriesFor.has(userId)) throw new Error('memory store unavailable');
      return memory.ListMemoriesResponse.encode({ memories: memoriesOf.get(userId) ?? [] }).finish();
    });
    await bus.serveQuery('orchestrator', GET_RELATIONSHIP, async (request) => {
      const { userId } = orchestrator.GetRelationshipRequest.decode(request);
      const state = orchestrator.RelationshipState.fromPartial({ stage: 'ACQUAINTANCE', rapportScore: 31, sessionsCount: 4, lastInteractionAt: new Date(Date.parse('2026-11-20T09:00:00Z')) });
      return orchestrator.GetRelationshipResponse.encode({ found: memoriesOf.has(userId), state }).finish();
    });
    await bus.serveQuery('belief-graph', GET_BELIEFS, async (request) => {
      const { userId, holder } = belief.GetBeliefsRequest.decode(request);
      beliefsAsked.push({ userId, holder });
      if (failBeliefsFor.has(userId)) throw new Error('belief graph unavailable');
      return belief.GetBeliefsResponse.encode(beliefsOf.get(userId) ?? belief.GetBeliefsResponse.fromPartial({})).finish();
    });
    await bus.serveQuery('uncertainty', GET_UNCERTAINTIES, async (request) => {
      const { userId } = uncertainty.GetUncertaintiesRequest.decode(request);
      uncertaintiesAsked.push(userId);
      if (failUncertaintiesFor.has(userId)) throw new Error('uncertainty store unavailable');
      return uncertainty.GetUncertaintiesResponse.encode(uncertaintiesOf.get(userId) ?? uncertainty.GetUncertaintiesResponse.fromPartial({ tolerance: 0.5 })).finish();
    });
    await bus.serveQuery('trust', GET_TRUST, async (request) => {
      const { userId } = trust.GetTrustRequest.decode(request);
      trustAsked.push(userId);
      if (failTrustFor.has(userId)) throw new Error('trust store unavailable');
      return trust.GetTrustResponse.encode(trustOf.get(userId) ?? trust.GetTrustResponse.fromPartial({})).finish();
    });
    await bus.serveQuery('retention', GET_RETENTION, async (request) => {
      const { userId } = retention.GetRetentionRequest.decode(request);
      return retention.GetRetentionResponse.encode(retention.GetRetentionResponse.fromPartial({ found: true, backoffMultiplier: userId === a.userId ? 2 : 4, messages: [] })).finish();
    });
    admin = await devToken(randomUUID(), true);
  }, 60_000);

  afterAll(async () => {
    await hearth?.stop();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(await natsUrl(), ns);
  });

  async function call(method: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<Reply> {
    const res = await fetch(`${hearth.url}${path}`, {
      method,
      headers: {
        ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
      },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined, headers: res.headers };
  }

  async function devToken(userId: string, isAdmin = false): Promise<{ token: string; userId: string }> {
    const r = await call('POST', '/v1/dev/token', { body: { user_id: userId, ...(isAdmin ? { roles: ['admin'] } : {}) } });
    expect(r.status).toBe(200);
    return { token: r.body.token, userId };
  }

  const answers = (name: string) =>
    ingress.OnboardingAnswers.fromPartial({
      preferredName: name,
      ageBand: '25-34',
      countryOrRegion: 'KR',
      occupationCategory: 'working',
      clientTimezone: 'Asia/Seoul',
      proactiveMessagesEnabled: true,
      suppressedTopics: ['POLITICS'],
    });

  /** A user created with POST /v1/me and onboarded as ingress records it (no orchestrator here to assign a persona). */
  async function onboardedUser(name: string): Promise<{ userId: string; token: string }> {
    const { userId, token } = await devToken(randomUUID());
    expect((await call('POST', '/v1/me', { token })).status).toBe(200);
    const results = await appendDecided(bus, 'ingress', userId, () => [
      draft(Events.OnboardingAnswered, { answers: answers(name), aiFriendId: randomUUID() }, { id: randomUUID(), userId, occurredAt: hearth.clock.now(), correlationId: '' }),
    ]);
    expect(await waitForPosition(db, usersProjection.name, bus.topology.subject('ingress', userId), results[0]!.seq)).toBe(true);
    return { userId, token };
  }

  function record(userId: string, over: Partial<memory.MemoryRecord>): memory.MemoryRecord {
    return memory.MemoryRecord.fromPartial({
      memoryId: randomUUID(),
      type: 'FACT',
      memoryKey: 'fact:current_city',
      memoryValue: 'busan',
      confidence: 0.75,
      status: 'ACTIVE',
      // Field 7, the confidence memory still sends; the API shows the state.
      reliability: 0.75,
      reliabilityState: 'uncertain',
      sourceMessageIds: [randomUUID()],
      createdAt: new Date(Date.parse('2026-11-01T00:00:00Z')),
      lastConfirmedAt: new Date(Date.parse('2026-11-02T00:00:00Z')),
      aiFriendId: userId,
      ...over,
    });
  }

  /**
   * `count` chat turns of one user, oldest first, written straight into the turns
   * table (what the projection holds for them), the user side of each also as its
   * TurnReceived on the user's ingress subject, as a real history has it.
   */
  async function seedTurns(userId: string, conversations: string[], count: number, text: (i: number) => string): Promise<Insertable<TurnsTable>[]> {
    const start = hearth.clock.now().getTime() - 30 * 24 * HOUR_MS;
    const rows: Insertable<TurnsTable>[] = Array.from({ length: count }, (_, i) => ({
      message_id: randomUUID(),
      user_id: userId,
      conversation_id: conversations[i % conversations.length]!,
      text: text(i),
      source: 'chat',
      user_state: 'ACTIVE',
      activates_user: false,
      received_at: new Date(start + i * 60_000),
      routing: JSON.stringify({ pipeline: 'NORMAL' }),
      assistant_message_id: randomUUID(),
      assistant_text: `reply ${i}: that sounds good`,
      surfaced_memory_ids: JSON.stringify([]),
      completed_at: new Date(start + i * 60_000 + 1_500),
      refused: false,
    }));
    for (let i = 0; i < rows.length; i += 1_000) await db.insertInto('turns').values(rows.slice(i, i + 1_000)).execute();
    const drafts: EventDraft[] = rows.map((r) =>
      draft(
        Events.TurnReceived,
        ingress.TurnReceived.fromPartial({ messageId: r.message_id, conversationId: r.conversation_id, text: r.text!, source: 'chat', userState: 'ACTIVE' }),
        { id: r.message_id, userId, occurredAt: r.received_at as Date, correlationId: r.message_id },
      ),
    );
    const last = await bus.lastOnSubject('ingress', userId);
    const appended = await bus.append('ingress', userId, drafts, last?.seq ?? 0);
    // The projection applies the same values again: nothing changes, but wait for it.
    expect(await waitForPosition(db, turnsProjection.name, bus.topology.subject('ingress', userId), appended.at(-1)!.seq, { timeoutMs: 60_000 })).toBe(true);
    return rows;
  }

  const a = { userId: '', token: '' };
  const b = { userId: '', token: '' };
  const aConversations = [randomUUID(), randomUUID(), randomUUID()];
  const bConversation = randomUUID();
  const B_SECRET = `b-secret-${randomUUID()}`;
  let aTurns: Insertable<TurnsTable>[] = [];
  /** a's own beliefs as the belief graph answers them for holder user: two in contradiction, with a challenge. */
  const aBelief = { affirmed: randomUUID(), denied: randomUUID(), said: [randomUUID(), randomUUID()], conflict: randomUUID(), challenge: randomUUID() };
  const aBeliefs = belief.GetBeliefsResponse.fromPartial({
    nodes: [
      {
        beliefId: aBelief.affirmed,
        holder: 'user',
        canonicalText: 'i am too shy to make friends',
        beliefType: 'TRAIT',
        polarity: 'affirm',
        stream: 'identity',
        status: 'developing',
        confidence: 0.6,
        activation: 0.9,
        coreScore: 0.3,
        occurrenceCount: 3,
        sourceMessageIds: [aBelief.said[0]!],
        createdAt: new Date(Date.parse('2026-11-03T07:00:00Z')),
      },
      {
        beliefId: aBelief.denied,
        holder: 'user',
        canonicalText: 'i am too shy to make friends',
        beliefType: 'TRAIT',
        polarity: 'deny',
        stream: 'identity',
        status: 'surface',
        confidence: 0.45,
        activation: 1,
        coreScore: 0.1,
        occurrenceCount: 1,
        sourceMessageIds: [aBelief.said[1]!],
        createdAt: new Date(Date.parse('2026-11-05T07:00:00Z')),
      },
    ],
    // A link the graph holds: the export leaves links out (API.md).
    links: [{ linkId: randomUUID(), fromBeliefId: aBelief.affirmed, toBeliefId: aBelief.denied, confidence: 0.7, state: 'pending' }],
    conflicts: [
      { conflictId: aBelief.conflict, beliefIds: [aBelief.affirmed, aBelief.denied], conflictType: 'contradiction', sourceMessageIds: aBelief.said, createdAt: new Date(Date.parse('2026-11-05T07:00:01Z')) },
    ],
    challenges: [{ challengeId: aBelief.challenge, beliefId: aBelief.affirmed, style: 'curious', messageId: aBelief.said[0]!, createdAt: new Date(Date.parse('2026-11-12T07:00:00Z')) }],
  });

  /** a's uncertainties: an open contradiction between two memories, and the tolerance. */
  const aUncertainty = { id: randomUUID(), memories: [randomUUID(), randomUUID()], said: randomUUID() };
  const aUncertainties = uncertainty.GetUncertaintiesResponse.fromPartial({
    tolerance: 0.44,
    uncertainties: [
      {
        uncertaintyId: aUncertainty.id,
        uncertaintyType: 'contradiction',
        subjects: aUncertainty.memories.map((id) => ({ kind: 'memory', id, store: 'trait' })),
        severity: 'critical',
        state: 'surfaced',
        detectionContext: 'ingestion',
        temporalSignal: false,
        resolutionStrategy: '',
        surfacedCount: 1,
        sourceMessageIds: [aUncertainty.said],
        createdAt: new Date(Date.parse('2026-11-06T07:00:00Z')),
      },
    ],
  });

  /** a's trust: the user's T after one update, the agent's never updated, one outcome and one tag. */
  const aTrust = { outcome: randomUUID(), belief: randomUUID() };
  const aTrustState = trust.GetTrustResponse.fromPartial({
    actors: [
      { actor: 'user', trust: 0.53, updates: 1, updatedAt: new Date(Date.parse('2026-11-07T09:00:00Z')) },
      { actor: 'agent', trust: 0.5, updates: 0 },
    ],
    outcomes: [
      {
        outcomeId: aTrust.outcome,
        horizon: '2h',
        reward: 0.2,
        components: { coherence: 0.25, confidence: 0, stability: 1, validation: -0.5 },
        evaluatedAt: new Date(Date.parse('2026-11-07T09:00:00Z')),
        decisionId: randomUUID(),
        beliefId: aTrust.belief,
      },
    ],
    feedback: [{ tag: '+keep', actor: 'user', beliefId: aTrust.belief, weight: 0.64, applied: true, reason: 'counted', createdAt: new Date(Date.parse('2026-11-07T07:00:00Z')) }],
  });

  describe('a user with 10,000 chat turns, and another user', () => {
    beforeAll(async () => {
      Object.assign(a, await onboardedUser('Mina'));
      Object.assign(b, await onboardedUser('Jun'));
      memoriesOf.set(a.userId, [
        record(a.userId, {}),
        record(a.userId, { memoryKey: 'pref:food:sushi', memoryValue: 'like|sushi', type: 'PREFERENCE', status: 'SUPERSEDED', supersededBy: randomUUID() }),
        // Never rated by uncertainty: reliable, the default.
        record(a.userId, { memoryKey: 'fact:job', memoryValue: 'nurse', status: 'INVALID', reliabilityState: '' }),
      ]);
      memoriesOf.set(b.userId, [record(b.userId, { memoryValue: B_SECRET })]);
      beliefsOf.set(a.userId, aBeliefs);
      uncertaintiesOf.set(a.userId, aUncertainties);
      trustOf.set(a.userId, aTrustState);
      trustOf.set(b.userId, trust.GetTrustResponse.fromPartial({ feedback: [{ tag: '+doubt', actor: 'user', beliefId: B_SECRET, reason: 'counted', createdAt: new Date(0) }] }));
      uncertaintiesOf.set(b.userId, uncertainty.GetUncertaintiesResponse.fromPartial({ tolerance: 0.6, uncertainties: [{ uncertaintyId: randomUUID(), sourceMessageIds: [B_SECRET] }] }));
      beliefsOf.set(b.userId, belief.GetBeliefsResponse.fromPartial({ nodes: [{ beliefId: randomUUID(), holder: 'user', canonicalText: `i am ${B_SECRET}`, createdAt: new Date(0) }] }));

      const seedStart = performance.now();
      aTurns = await seedTurns(a.userId, aConversations, TURNS, (i) => `message ${i} from mina about her day`);
      await seedTurns(b.userId, [bConversation], 3, (i) => `${B_SECRET} ${i}`);
      console.log(`seeded ${TURNS} turns (+ their TurnReceived events) in ${Math.round(performance.now() - seedStart)} ms`);
      // A refused message of a CREATED user: kept out of the history, but held, so exported.
      await db
        .insertInto('turns')
        .values({
          message_id: randomUUID(),
          user_id: a.userId,
          conversation_id: aConversations[0]!,
          text: 'hello before onboarding',
          source: 'chat',
          user_state: 'CREATED',
          received_at: new Date(Date.parse('2026-10-01T00:00:00Z')),
          assistant_message_id: randomUUID(),
          assistant_text: 'finish onboarding first',
          completed_at: new Date(Date.parse('2026-10-01T00:00:01Z')),
          refused: true,
          surfaced_memory_ids: JSON.stringify([]),
        })
        .execute();
    }, 120_000);

    it('leaves an AdminAccessed on the user for every admin read, shown in their timeline, and ignored by the projections', async () => {
      // given: admin reads of a's data, and one of b's
      const first = await call('GET', `/v1/admin/users/${a.userId}/timeline`, { token: admin.token });
      const ret = await call('GET', `/v1/admin/users/${a.userId}/retention`, { token: admin.token });
      const trail = await call('GET', `/v1/admin/turns/${aTurns[0]!.message_id}`, { token: admin.token });
      const theirs = await call('GET', `/v1/admin/users/${b.userId}/timeline`, { token: admin.token });
      expect([first.status, ret.status, trail.status, theirs.status]).toEqual([200, 200, 200, 200]);

      // when
      const second = await call('GET', `/v1/admin/users/${a.userId}/timeline`, { token: admin.token });

      // then: the reads before this one, in order, readable, by this admin
      const accesses = (second.body.events as any[]).filter((e) => e.type === Events.AdminAccessed.name);
      expect(accesses.map((e) => [e.service, e.erased, e.payload.adminId, e.payload.route, e.payload.resource])).toEqual([
        ['ingress', false, admin.userId, 'GET /v1/admin/users/{user_id}/timeline', 'timeline'],
        ['ingress', false, admin.userId, 'GET /v1/admin/users/{user_id}/retention', 'retention'],
        ['ingress', false, admin.userId, 'GET /v1/admin/turns/{message_id}', `turn:${aTurns[0]!.message_id}`],
      ]);
      for (const e of accesses) expect(Date.parse(e.payload.accessedAt)).toBe(Date.parse(e.occurred_at));
      expect((second.body.events as any[]).every((e) => e.erased === false)).toBe(true);
      // The turn trail is the turn's own events: the read of it is not one of them.
      expect((trail.body.events as any[]).map((e) => e.type)).not.toContain(Events.AdminAccessed.name);
      // Ingress's projections passed over them: the users projection is at the last one, and a change still applies.
      const patched = await call('PATCH', '/v1/me/controls', { token: a.token, body: { proactive_messages_enabled: false } });
      expect(patched).toMatchObject({ status: 200, body: { proactive_messages_enabled: false } });
      expect((await call('GET', '/v1/admin/dead-letters', { token: admin.token })).body.dead_letters).toEqual([]);
    });

    it("exports everything held about the caller as one valid JSON document, in a few seconds, with nothing of another user's", async () => {
      // when
      const heapBefore = process.memoryUsage().heapUsed;
      let heapPeak = heapBefore;
      const sampler = setInterval(() => (heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed)), 5);
      const started = performance.now();
      const res = await fetch(`${hearth.url}/v1/me/export`, { headers: { authorization: `Bearer ${a.token}` } });
      // Kept as bytes while it streams, so the heap figure is mostly the server's (plus these bytes).
      const chunks: Uint8Array[] = [];
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
      const ms = performance.now() - started;
      clearInterval(sampler);
      const text = Buffer.concat(chunks).toString('utf8');
      console.log(
        `export of ${TURNS} turns: ${Math.round(ms)} ms, ${(text.length / 1e6).toFixed(1)} MB in ${chunks.length} network chunks; ` +
          `heap peak +${((heapPeak - heapBefore) / 1e6).toFixed(1)} MB while streaming (server and client in this process)`,
      );

      // then: an attachment of valid JSON, in API.md order
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="hearth-export-${a.userId}.json"`);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const doc = JSON.parse(text);
      expect(Object.keys(doc)).toEqual(['exported_at', 'user', 'controls', 'relationship', 'conversations', 'memories', 'beliefs', 'uncertainties', 'trust', 'retention', 'admin_access']);
      expect(ms).toBeLessThan(30_000);

      // the caller's profile, controls, relationship, memories of every status, retention
      expect(Date.parse(doc.exported_at)).toBeLessThanOrEqual(hearth.clock.now().getTime());
      expect(doc.user).toMatchObject({ user_id: a.userId, user_state: 'ONBOARDING', answers: { preferred_name: 'Mina', suppressed_topics: ['POLITICS'] } });
      expect(doc.controls).toEqual({ proactive_messages_enabled: false, mute_until: null, suppressed_topics: ['POLITICS'] });
      expect(doc.relationship).toMatchObject({ relationship_stage: 'ACQUAINTANCE', rapport_score: 31, sessions_count: 4 });
      expect(doc.memories.map((m: any) => m.status).sort()).toEqual(['ACTIVE', 'INVALID', 'SUPERSEDED']);
      expect(doc.memories.find((m: any) => m.status === 'SUPERSEDED').superseded_by).toEqual(expect.any(String));
      expect(doc.memories.map((m: any) => m.reliability)).toEqual(['uncertain', 'uncertain', 'reliable']);
      expect(listAsked).toContainEqual({ userId: a.userId, all: true });
      expect(doc.retention).toMatchObject({ user_id: a.userId, backoff_multiplier: 2 });
      // the caller's own beliefs (holder user) from the belief graph: nodes, conflicts and challenges, no links
      expect(beliefsAsked).toContainEqual({ userId: a.userId, holder: 'user' });
      expect(beliefsAsked.filter((q) => q.userId === a.userId && q.holder !== 'user')).toEqual([]);
      expect(Object.keys(doc.beliefs)).toEqual(['nodes', 'conflicts', 'challenges']);
      expect(doc.beliefs.nodes).toEqual([
        {
          belief_id: aBelief.affirmed,
          holder: 'user',
          canonical_text: 'i am too shy to make friends',
          belief_type: 'TRAIT',
          polarity: 'affirm',
          stream: 'identity',
          status: 'developing',
          confidence: 0.6,
          activation: 0.9,
          core_score: 0.3,
          occurrence_count: 3,
          source_message_ids: [aBelief.said[0]],
          created_at: '2026-11-03T07:00:00.000Z',
        },
        expect.objectContaining({ belief_id: aBelief.denied, polarity: 'deny', occurrence_count: 1, created_at: '2026-11-05T07:00:00.000Z' }),
      ]);
      expect(doc.beliefs.conflicts).toEqual([
        { conflict_id: aBelief.conflict, belief_ids: [aBelief.affirmed, aBelief.denied], conflict_type: 'contradiction', source_message_ids: aBelief.said, created_at: '2026-11-05T07:00:01.000Z' },
      ]);
      expect(doc.beliefs.challenges).toEqual([
        { challenge_id: aBelief.challenge, belief_id: aBelief.affirmed, style: 'curious', message_id: aBelief.said[0], created_at: '2026-11-12T07:00:00.000Z' },
      ]);
      // the caller's uncertainties and tolerance, as the admin view shows them
      expect(uncertaintiesAsked).toContainEqual(a.userId);
      expect(doc.uncertainties).toEqual({
        uncertainties: [
          {
            uncertainty_id: aUncertainty.id,
            uncertainty_type: 'contradiction',
            subjects: aUncertainty.memories.map((id) => ({ kind: 'memory', id })),
            severity: 'critical',
            state: 'surfaced',
            detection_context: 'ingestion',
            temporal_signal: false,
            resolution_strategy: null,
            surfaced_count: 1,
            source_message_ids: [aUncertainty.said],
            created_at: '2026-11-06T07:00:00.000Z',
            resolved_at: null,
          },
        ],
        tolerance: 0.44,
      });
      // the companion's learned trust for the caller, as the admin view shows it
      expect(trustAsked).toContainEqual(a.userId);
      expect(doc.trust).toEqual({
        actors: [
          { actor: 'user', trust: 0.53, updates: 1, updated_at: '2026-11-07T09:00:00.000Z' },
          { actor: 'agent', trust: 0.5, updates: 0, updated_at: null },
        ],
        outcomes: [{ outcome_id: aTrust.outcome, horizon: '2h', reward: 0.2, components: { coherence: 0.25, confidence: 0, stability: 1, validation: -0.5 }, evaluated_at: '2026-11-07T09:00:00.000Z' }],
        feedback: [{ tag: '+keep', actor: 'user', belief_id: aTrust.belief, weight: 0.64, applied: true, reason: 'counted', created_at: '2026-11-07T07:00:00.000Z' }],
      });

      // every message of every conversation, oldest first, the refused turn included
      expect(doc.conversations.map((c: any) => c.conversation_id)).toEqual([...aConversations].sort());
      const messages = doc.conversations.flatMap((c: any) => c.messages);
      expect(messages).toHaveLength(2 * TURNS + 2);
      for (const c of doc.conversations) {
        const times = c.messages.map((m: any) => Date.parse(m.created_at));
        expect(times).toEqual([...times].sort((x, y) => x - y));
      }
      expect(new Set(messages.map((m: any) => m.message_id)).size).toBe(messages.length);
      expect(messages.filter((m: any) => m.refused).map((m: any) => m.text)).toEqual(['hello before onboarding', 'finish onboarding first']);
      const last = aTurns.at(-1)!;
      expect(messages).toContainEqual({ message_id: last.message_id, role: 'user', source: 'chat', text: last.text, created_at: (last.received_at as Date).toISOString() });

      // the admin reads of this user's data, and only those
      expect(doc.admin_access.map((x: any) => x.resource)).toEqual(['timeline', 'retention', `turn:${aTurns[0]!.message_id}`, 'timeline']);
      expect(doc.admin_access[0]).toEqual({
        event_id: expect.any(String),
        admin_id: admin.userId,
        route: 'GET /v1/admin/users/{user_id}/timeline',
        resource: 'timeline',
        accessed_at: expect.any(String),
      });

      // nothing of the other user
      expect(text).not.toContain(b.userId);
      expect(text).not.toContain(bConversation);
      expect(text).not.toContain(B_SECRET);
      expect(text).not.toContain('Jun');
    }, 60_000);

    it('closes the connection when reading fails after the export started, and logs it: a cut body is never valid JSON', async () => {
      // given: the turns table locked, so the export stops at its first page (its failure is logged on purpose)
      const logger = hearth.contexts.get('ingress')!.logger;
      const error = logger.error;
      const logged: unknown[][] = [];
      logger.error = ((...args: unknown[]) => {
        logged.push(args);
        return (error as (...a: unknown[]) => void).apply(logger, args);
      }) as typeof logger.error;
      const schema = hearth.contexts.get('ingress')!.schema;
      const locker = new pg.Client({ connectionString: dbUrl });
      await locker.connect();
      try {
        await locker.query('BEGIN');
        await locker.query(`LOCK TABLE "${schema}".turns IN ACCESS EXCLUSIVE MODE`);
        const res = await fetch(`${hearth.url}/v1/me/export`, { headers: { authorization: `Bearer ${a.token}` } });
        expect(res.status).toBe(200);
        const reader = res.body!.getReader();
        const head = new TextDecoder().decode((await reader.read()).value);
        expect(head).toMatch(/^\{"exported_at":"[^"]+","user":\{/);

        // when: the page query fails
        const blocked = await waitFor(
          async () =>
            (await locker.query(`SELECT pid FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%"turns"%' AND pid <> pg_backend_pid()`)).rows[0]?.pid as
              | number
              | undefined,
          { what: 'the export to wait for the lock' },
        );
        await locker.query('SELECT pg_cancel_backend($1)', [blocked]);

        // then: the body ends in an error, not in a valid document
        let rest = head;
        const ended = (async () => {
          for (;;) {
            const r = await reader.read();
            if (r.done) return;
            rest += new TextDecoder().decode(r.value);
          }
        })();
        await expect(ended).rejects.toThrow();
        expect(() => JSON.parse(rest)).toThrow();
        await waitFor(async () => logged.some(([obj, msg]) => String(msg).includes('export failed') && (obj as { userId?: string }).userId === a.userId), {
          what: 'the failure to be logged',
        });
      } finally {
        await locker.query('ROLLBACK').catch(() => undefined);
        await locker.end();
        logger.error = error;
      }
    });
  });

  it('answers 404 to a caller with no profile and 401 without a token, without reading any data', async () => {
    const ghost = await devToken(randomUUID());
    expect(await call('GET', '/v1/me/export', { token: ghost.token })).toMatchObject({ status: 404, body: { error: { code: 'USER_NOT_FOUND' } } });
    expect(await call('GET', '/v1/me/export')).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHENTICATED' } } });
  });

  it('answers 503, an error body and no document, when a service the export reads fails', async () => {
    const { token, userId } = await onboardedUser('Sora');
    failMemoriesFor.add(userId);

    const r = await call('GET', '/v1/me/export', { token });

    expect(r).toMatchObject({ status: 503, body: { error: { code: 'UNAVAILABLE' } } });
    expect(r.headers.get('content-disposition')).toBeNull();
  });

  it('answers 503, an error body and no document, when the belief graph fails, as when retention does', async () => {
    const { token, userId } = await onboardedUser('Hana');
    failBeliefsFor.add(userId);

    const r = await call('GET', '/v1/me/export', { token });

    expect(r).toEqual({
      status: 503,
      body: { error: { code: 'UNAVAILABLE', message: 'the belief graph is not available right now; retry shortly' } },
      headers: expect.anything(),
    });
    expect(r.headers.get('content-disposition')).toBeNull();
    expect(beliefsAsked).toContainEqual({ userId, holder: 'user' });
  });

  it('answers 503, an error body and no document, when the uncertainty service fails', async () => {
    const { token, userId } = await onboardedUser('Yuna');
    failUncertaintiesFor.add(userId);

    const r = await call('GET', '/v1/me/export', { token });

    expect(r).toEqual({
      status: 503,
      body: { error: { code: 'UNAVAILABLE', message: 'uncertainties are not available right now; retry shortly' } },
      headers: expect.anything(),
    });
    expect(r.headers.get('content-disposition')).toBeNull();
    expect(uncertaintiesAsked).toContainEqual(userId);
  });

  it('answers 503, an error body and no document, when the trust service fails', async () => {
    const { token, userId } = await onboardedUser('Aki');
    failTrustFor.add(userId);

    const r = await call('GET', '/v1/me/export', { token });

    expect(r).toEqual({
      status: 503,
      body: { error: { code: 'UNAVAILABLE', message: 'trust is not available right now; retry shortly' } },
      headers: expect.anything(),
    });
    expect(r.headers.get('content-disposition')).toBeNull();
    expect(trustAsked).toContainEqual(userId);
  });

  it('records no trail for a timeline of an id that never was a user', async () => {
    const nobody = randomUUID();
    const r = await call('GET', `/v1/admin/users/${nobody}/timeline`, { token: admin.token });
    expect(r).toMatchObject({ status: 200, body: { events: [] } });
    expect(await bus.lastOnSubject('ingress', nobody)).toBeNull();
  });
});
