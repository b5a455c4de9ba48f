// The §9 invariants of self-belief-decomposer.md as the belief graph's schema
// and projection keep them, on Postgres: events applied by hand, one by one.
import { randomUUID } from 'node:crypto';
import { Events } from '@hearth/events';
import { belief, trust, uncertainty } from '@hearth/proto';
import type { StoredEvent } from '@hearth/bus';
import { applyEvents, diffTable, migrateSchema, openDatabase, schemaDb, type Database } from '@hearth/store';
import { databaseUrl, dropSchemas, storedEvent, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import type { BeliefDb } from '../db.js';
import { service } from '../index.js';
import { applyBeliefEvents, beliefsProjection } from './beliefs.js';

const DAY = 86_400_000;
const T0 = new Date('2026-11-01T09:00:00Z');

describe('the belief graph projection keeps the §9 invariants (Postgres)', () => {
  let database: Database;
  let db: Kysely<BeliefDb>;
  let ns: string;
  let dbUrl: string;
  let seq = 0;

  beforeAll(async () => {
    ns = testNamespace('t_beliefs_inv');
    dbUrl = await databaseUrl();
    database = await openDatabase({ url: dbUrl });
    await migrateSchema(database, `${ns}_belief_graph`, service.migrations);
    db = schemaDb<BeliefDb>(database, `${ns}_belief_graph`);
  });
  afterAll(async () => {
    await database.close();
    await dropSchemas(dbUrl, ns);
  });

  function atom(over: Partial<belief.ExtractedAtom>): belief.ExtractedAtom {
    return belief.ExtractedAtom.fromPartial({
      occurrenceId: randomUUID(),
      atomText: 'i am patient',
      canonicalText: 'i am patient',
      canonicalHash: 'a'.repeat(32),
      beliefType: 'TRAIT',
      polarity: 'affirm',
      atomConfidence: 0.8,
      frame: { temporalScope: 'unknown', modality: 'certain', degree: 0.5, conditional: '' },
      epistemicConfidence: 0.8,
      embedding: [1, 0, 0],
      embeddingText: 'patient',
      resolution: 'no_match',
      created: true,
      primaryStream: 'identity',
      ...over,
    });
  }

  async function apply(userId: string, at: Date, value: Partial<belief.BeliefsExtracted>): Promise<void> {
    seq++;
    const x = belief.BeliefsExtracted.fromPartial({ holder: 'user', sourceMessageId: randomUUID(), sourceKind: 'user_message', mode: 'normal_chat', sourceWeight: 0.8, contextId: `c:${seq % 7}`, extractorVersion: 'v1', embeddingModel: 'm', ...value });
    const e = storedEvent(Events.BeliefsExtracted, x, { id: randomUUID(), userId, occurredAt: at, subject: `s.${userId}.${seq}`, seq, prevSeq: 0 });
    const { outcomes } = await applyEvents(db, beliefsProjection, [e]);
    expect(outcomes[0]).toEqual({ kind: 'ack' });
  }

  it('§9.1 one live node per meaning: a second node of the same hash, holder and polarity is refused', async () => {
    const userId = randomUUID();
    await apply(userId, T0, { atoms: [atom({ beliefId: randomUUID() })] });
    await expect(apply(userId, T0, { atoms: [atom({ beliefId: randomUUID() })] })).rejects.toThrow(/nodes_meaning_uq|duplicate key/);
    // The opposite polarity is a different node (a contradiction, not a duplicate).
    await apply(userId, T0, { atoms: [atom({ beliefId: randomUUID(), polarity: 'deny' })] });
    const n = await db.selectFrom('nodes').select('polarity').where('user_id', '=', userId).execute();
    expect(n.map((r) => r.polarity).sort()).toEqual(['affirm', 'deny']);
  });

  it('§9.2 one occurrence per (belief, source, version): the same source again adds no evidence', async () => {
    const userId = randomUUID();
    const beliefId = randomUUID();
    const source = randomUUID();
    await apply(userId, T0, { sourceMessageId: source, atoms: [atom({ beliefId })] });
    await apply(userId, T0, { sourceMessageId: source, atoms: [atom({ beliefId, created: false, resolution: 'match', occurrenceId: randomUUID() })] });
    const occ = await db.selectFrom('occurrences').select('occurrence_id').where('belief_id', '=', beliefId).execute();
    expect(occ).toHaveLength(1);
  });

  it('§9.3 link pairs are ordered; §9.4 an accepted link never merges its nodes by itself', async () => {
    const userId = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()].sort();
    await apply(userId, T0, { atoms: [atom({ beliefId: a!, canonicalHash: '1'.repeat(32) }), atom({ beliefId: b!, canonicalHash: '2'.repeat(32) })] });
    const now = new Date();
    await expect(
      db
        .insertInto('links')
        .values({ link_id: randomUUID(), user_id: userId, from_belief_id: b!, to_belief_id: a!, confidence: 0.5, state: 'pending', last_support_at: now, extractor_version: 'v1', created_at: now, updated_at: now })
        .execute(),
    ).rejects.toThrow(/links_ordered/);
    // Evidence until sigmoid(1.2·both) > 0.85: auto-accepted.
    for (let i = 0; i < 3; i++) {
      await apply(userId, T0, { links: [{ linkId: '00000000-0000-4000-8000-0000000000aa', fromBeliefId: a!, toBeliefId: b!, support: 'both', similarity: 0.8, reason: 'uncertain' }] });
    }
    const link = await db.selectFrom('links').selectAll().where('from_belief_id', '=', a!).executeTakeFirstOrThrow();
    expect(link.support_both).toBe(3);
    expect(link.confidence).toBeCloseTo(1 / (1 + Math.exp(-3.6)), 6);
    expect(link.state).toBe('accepted');
    const live = await db.selectFrom('nodes').select('belief_id').where('belief_id', 'in', [a!, b!]).where('deleted_at', 'is', null).execute();
    expect(live).toHaveLength(2);
  });

  it('§4.12 a link whose evidence points one way only is auto-rejected', async () => {
    const userId = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()].sort();
    await apply(userId, T0, { atoms: [atom({ beliefId: a!, canonicalHash: '3'.repeat(32) }), atom({ beliefId: b!, canonicalHash: '4'.repeat(32) })] });
    await apply(userId, T0, { links: [{ linkId: '00000000-0000-4000-8000-0000000000bb', fromBeliefId: a!, toBeliefId: b!, support: 'both', similarity: 0.8, reason: 'uncertain' }] });
    for (let i = 0; i < 3; i++) await apply(userId, new Date(T0.getTime() + (i + 1) * DAY), { links: [{ linkId: '00000000-0000-4000-8000-0000000000bb', fromBeliefId: a!, toBeliefId: b!, support: 'one', similarity: 0.95, reason: 'definite match to one side' }] });
    const link = await db.selectFrom('links').selectAll().where('from_belief_id', '=', a!).executeTakeFirstOrThrow();
    // sigmoid(1.2·1 − 0.9·3 − 0.06·3) = sigmoid(−1.68) ≈ 0.157: still pending; one more and it falls under 0.15.
    expect(link.confidence).toBeCloseTo(1 / (1 + Math.exp(1.68)), 6);
    expect(link.state).toBe('pending');
    await apply(userId, new Date(T0.getTime() + 4 * DAY), { links: [{ linkId: '00000000-0000-4000-8000-0000000000bb', fromBeliefId: a!, toBeliefId: b!, support: 'one', similarity: 0.95, reason: 'definite match to one side' }] });
    expect((await db.selectFrom('links').select('state').where('from_belief_id', '=', a!).executeTakeFirstOrThrow()).state).toBe('rejected');
  });

  it('§4.14 a state belief said across weeks and contexts migrates to identity, and §9.5 the ratchet never demotes it', async () => {
    const userId = randomUUID();
    const beliefId = randomUUID();
    await apply(userId, T0, { contextId: 'conv-0:normal_chat', atoms: [atom({ beliefId, canonicalText: 'i feel anxious', canonicalHash: '5'.repeat(32), beliefType: 'FEELING_STATE', primaryStream: 'state', frame: { temporalScope: 'state', modality: 'certain', degree: 0.5, conditional: '' } })] });
    for (let i = 1; i <= 12; i++) {
      await apply(userId, new Date(T0.getTime() + i * 2 * DAY), {
        contextId: `conv-${i}:normal_chat`,
        sourceWeight: 1,
        atoms: [atom({ beliefId, created: false, resolution: 'match', atomConfidence: 1, canonicalText: 'i feel anxious', canonicalHash: '5'.repeat(32) })],
      });
    }
    const node = await db.selectFrom('nodes').selectAll().where('belief_id', '=', beliefId).executeTakeFirstOrThrow();
    expect(node.stream).toBe('identity');
    expect(node.migrated_from).toBe('state');
    expect(node.migration_history).toEqual([expect.objectContaining({ from: 'state', to: 'identity' })]);
    // Months later, activation has decayed far below the promotion bar: still identity.
    await apply(userId, new Date(T0.getTime() + 400 * DAY), { contextId: 'late:normal_chat', atoms: [atom({ beliefId, created: false, resolution: 'match', canonicalText: 'i feel anxious', canonicalHash: '5'.repeat(32) })] });
    expect((await db.selectFrom('nodes').select('stream').where('belief_id', '=', beliefId).executeTakeFirstOrThrow()).stream).toBe('identity');
  });

  it('a conflict lowers the earlier belief by the contradicted step and counts on both nodes', async () => {
    const userId = randomUUID();
    const [a, b] = [randomUUID(), randomUUID()];
    await apply(userId, T0, { atoms: [atom({ beliefId: a, canonicalHash: '6'.repeat(32) })] });
    const before = (await db.selectFrom('nodes').select('confidence').where('belief_id', '=', a).executeTakeFirstOrThrow()).confidence;
    await apply(userId, new Date(T0.getTime() + DAY), {
      atoms: [atom({ beliefId: b, canonicalHash: '6'.repeat(32), polarity: 'deny' })],
      conflicts: [{ conflictId: randomUUID(), nodeAId: a, nodeBId: b, conflictType: 'contradiction', detectionMethod: 'polarity_flip', similarity: 1, occurrenceIds: [] }],
    });
    const rows = await db.selectFrom('nodes').select(['belief_id', 'confidence', 'conflict_count']).where('belief_id', 'in', [a, b]).execute();
    const older = rows.find((r) => r.belief_id === a)!;
    expect(older.confidence).toBeCloseTo(before - 0.1, 6);
    expect(rows.map((r) => r.conflict_count)).toEqual([1, 1]);
  });

  it("issue 17: a node carries the reliability state the uncertainty service gave it, even one given before the node was applied; another user's, a memory's and an unknown state change nothing", async () => {
    const userId = randomUUID();
    const stranger = randomUUID();
    const [early, late, other] = [randomUUID(), randomUUID(), randomUUID()];
    const changed = async (on: string, id: string, to: string, kind = 'belief') => {
      seq++;
      const r = uncertainty.ReliabilityChanged.fromPartial({ subject: { kind, id, store: 'concept' }, from: 'reliable', to, reason: 'test', uncertaintyId: randomUUID() });
      const e = storedEvent(Events.ReliabilityChanged, r, { id: randomUUID(), userId: on, occurredAt: T0, service: 'uncertainty', subject: `u.${on}.${seq}`, seq, prevSeq: 0 });
      expect((await applyEvents(db, beliefsProjection, [e])).outcomes[0]).toEqual({ kind: 'ack' });
    };

    // the uncertainty stream runs ahead for one node, behind for the other
    await changed(userId, early, 'contradicted');
    await apply(userId, T0, { atoms: [atom({ beliefId: early, canonicalHash: '7'.repeat(32) }), atom({ beliefId: late, canonicalHash: '8'.repeat(32) }), atom({ beliefId: other, canonicalHash: '9'.repeat(32) })] });
    await changed(userId, late, 'uncertain');
    await changed(userId, late, 'superseded');
    await changed(stranger, other, 'contradicted');
    await changed(userId, other, 'contradicted', 'memory');
    await changed(userId, other, 'doubtful');

    const nodes = await db.selectFrom('nodes').select(['belief_id', 'reliability']).where('user_id', '=', userId).execute();
    expect(Object.fromEntries(nodes.map((n) => [n.belief_id, n.reliability]))).toEqual({ [early]: 'contradicted', [late]: 'superseded', [other]: 'reliable' });
    // Erasure takes the kept states with the nodes.
    await db.transaction().execute((trx) => beliefsProjection.erase(trx, userId));
    expect(await db.selectFrom('belief_reliability').select('belief_id').where('user_id', '=', userId).execute()).toEqual([]);
  });

  it("issue 18: BeliefGardened sets a node's gardener level and confidence when applied and is kept either way; OutcomeEvaluated adds to the belief's rewards, node or not; erasure takes both", async () => {
    const userId = randomUUID();
    const [own, absent] = [randomUUID(), randomUUID()];
    const gardenedEvent = async (value: Partial<belief.BeliefGardened>) => {
      seq++;
      const g = belief.BeliefGardened.fromPartial({ decisionId: randomUUID(), beliefId: own, action: 'promote', ...value });
      const e = storedEvent(Events.BeliefGardened, g, { id: randomUUID(), userId, occurredAt: T0, subject: `s.${userId}.${seq}`, seq, prevSeq: 0 });
      expect((await applyEvents(db, beliefsProjection, [e])).outcomes[0]).toEqual({ kind: 'ack' });
    };
    const outcome = async (beliefId: string, reward: number) => {
      seq++;
      const o = trust.OutcomeEvaluated.fromPartial({ outcomeId: randomUUID(), decisionId: randomUUID(), beliefId, horizon: '2h', reward });
      const e = storedEvent(Events.OutcomeEvaluated, o, { id: randomUUID(), userId, occurredAt: T0, service: 'trust', subject: `t.${userId}.${seq}`, seq, prevSeq: 0 });
      expect((await applyEvents(db, beliefsProjection, [e])).outcomes[0]).toEqual({ kind: 'ack' });
    };

    // given: a companion belief; an outcome about it arrives before anything else
    await outcome(own, 0.5);
    await apply(userId, T0, { holder: 'companion', atoms: [atom({ beliefId: own, canonicalHash: 'a1'.repeat(16) })] });
    const before = await db.selectFrom('nodes').select(['confidence', 'gardener_level']).where('belief_id', '=', own).executeTakeFirstOrThrow();
    expect(before.gardener_level).toBe(0);

    // when
    await gardenedEvent({ applied: true, reason: 'applied', levelBefore: 0, level: 1, confidenceBefore: before.confidence, confidence: 0.9 });
    await gardenedEvent({ applied: false, reason: 'at_ceiling', levelBefore: 1, level: 1, confidenceBefore: 0.9, confidence: 0.9 });
    await gardenedEvent({ beliefId: absent, action: 'deprecate', applied: false, reason: 'unknown_belief' });
    await outcome(own, -0.1);
    await outcome(absent, 1);

    // then
    expect(await db.selectFrom('nodes').select(['confidence', 'gardener_level']).where('belief_id', '=', own).executeTakeFirstOrThrow()).toEqual({ confidence: 0.9, gardener_level: 1 });
    const audit = await db.selectFrom('gardened').select(['belief_id', 'action', 'applied', 'reason', 'level']).where('user_id', '=', userId).orderBy('reason').execute();
    expect(audit).toEqual([
      { belief_id: own, action: 'promote', applied: true, reason: 'applied', level: 1 },
      { belief_id: own, action: 'promote', applied: false, reason: 'at_ceiling', level: 1 },
      { belief_id: absent, action: 'deprecate', applied: false, reason: 'unknown_belief', level: 0 },
    ]);
    const rewards = await db.selectFrom('belief_rewards').select(['belief_id', 'outcomes', 'reward_sum']).where('user_id', '=', userId).orderBy('outcomes').execute();
    expect(rewards).toEqual(
      expect.arrayContaining([
        { belief_id: own, outcomes: 2, reward_sum: expect.closeTo(0.4, 9) },
        { belief_id: absent, outcomes: 1, reward_sum: 1 },
      ]),
    );

    // Erasure takes the audit and the rewards with the nodes.
    await db.transaction().execute((trx) => beliefsProjection.erase(trx, userId));
    expect(await db.selectFrom('gardened').select('decision_id').where('user_id', '=', userId).execute()).toEqual([]);
    expect(await db.selectFrom('belief_rewards').select('belief_id').where('user_id', '=', userId).execute()).toEqual([]);
  });

  it('issue 20: a run of events applied together writes the rows they write one by one', async () => {
    // given: one user's chain, with runs of BeliefsExtracted between other events of the graph
    const userId = randomUUID();
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()].sort();
    const subject = `s.${userId}`;
    const chain: StoredEvent[] = [];
    const add = <T>(type: Parameters<typeof storedEvent<T>>[0], value: T, days: number) =>
      chain.push(storedEvent(type, value, { id: randomUUID(), userId, occurredAt: new Date(T0.getTime() + days * DAY), subject, seq: chain.length + 1, prevSeq: chain.length }));
    const extracted = (days: number, value: Partial<belief.BeliefsExtracted>) =>
      add(Events.BeliefsExtracted, belief.BeliefsExtracted.fromPartial({ holder: 'user', sourceMessageId: `m${Math.floor(days)}`, sourceKind: 'user_message', mode: 'normal_chat', sourceWeight: 0.9, contextId: `c${days}`, extractorVersion: 'v1', embeddingModel: 'm', ...value }), days);
    const matched = (beliefId: string) => atom({ beliefId, created: false, resolution: 'match', occurrenceId: randomUUID() });
    const link = (support: string) => ({ linkId: randomUUID(), fromBeliefId: a!, toBeliefId: b!, support, similarity: 0.8, reason: 'uncertain' });
    const conflict = (nodeAId: string, nodeBId: string) => ({ conflictId: randomUUID(), nodeAId, nodeBId, conflictType: 'contradiction', detectionMethod: 'polarity_flip', similarity: 1, occurrenceIds: [] });
    extracted(0, { atoms: [atom({ beliefId: a, canonicalHash: 'b1'.repeat(16), primaryStream: 'state', occurrenceId: randomUUID() }), atom({ beliefId: b, canonicalHash: 'b2'.repeat(16), occurrenceId: randomUUID() })] });
    extracted(1, { atoms: [matched(a!), atom({ beliefId: c, canonicalHash: 'b2'.repeat(16), polarity: 'deny', occurrenceId: randomUUID() })], links: [link('both')], conflicts: [conflict(b!, c!)] });
    extracted(2, { atoms: [matched(a!), matched(b!), matched(a!)], links: [link('both'), link('one')] });
    add(Events.BeliefConfidenceUpdated, belief.BeliefConfidenceUpdated.fromPartial({ beliefId: a, signal: 'questioned', sourceMessageId: 'm2' }), 2.5);
    extracted(3, { atoms: [matched(c!)], conflicts: [conflict(a!, c!), conflict(b!, c!)] });
    extracted(3.5, { atoms: [matched(a!)] });
    add(Events.BeliefsMerged, belief.BeliefsMerged.fromPartial({ linkId: randomUUID(), keptBeliefId: a, mergedBeliefId: b, reason: 'admin' }), 4);
    extracted(5, { atoms: [matched(a!), matched(c!)] });
    const [one, run] = [`${ns}_one_by_one`, `${ns}_as_a_run`];
    for (const schema of [one, run]) await migrateSchema(database, schema, service.migrations);

    // when
    for (const e of chain) expect((await applyEvents(schemaDb<BeliefDb>(database, one), beliefsProjection, [e])).outcomes[0]).toEqual({ kind: 'ack' });
    await schemaDb<BeliefDb>(database, run).transaction().execute((trx) => applyBeliefEvents(trx, chain));

    // then
    for (const table of beliefsProjection.tables) expect(await diffTable(database.root, one, run, table)).toMatchObject({ onlyLive: 0, onlyReplay: 0 });
    expect(await schemaDb<BeliefDb>(database, run).selectFrom('links').select(['support_both', 'support_one']).executeTakeFirstOrThrow()).toEqual({ support_both: 2, support_one: 1 });
  });
});
