import { randomUUID } from 'node:crypto';
import { Bus, QueryError, queryRpc, serveSomeQueries } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { schemaFor } from '@hearth/host';
import { migrateSchema, openDatabase, schemaDb, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import type { Insertable, Kysely } from 'kysely';
import type { OrchestratorDb, RelationshipsTable } from '../db.js';
import { service } from '../index.js';
import { GET_RELATIONSHIP } from '@hearth/events';
import { orchestrator } from '@hearth/proto';
import { createGetRelationshipQuery } from './get-relationship.js';

/** The generated client, as a caller asks. */
const getRelationship = (bus: Bus, userId: string, timeoutMs?: number) => new orchestrator.OrchestratorQueriesClientImpl(queryRpc(bus, { timeoutMs })).GetRelationship({ userId });

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const DAY_MS = 24 * 60 * 60 * 1000;
const T0 = new Date('2026-11-22T10:00:00Z');

describe('GetRelationship', () => {
  const ns = testNamespace('t_orch_rel');
  const clock = new ManualClock(T0);
  let dbUrl: string;
  let nats: string;
  let database: Database;
  let db: Kysely<OrchestratorDb>;
  let server: Bus;
  let client: Bus;

  beforeAll(async () => {
    [dbUrl, nats] = await Promise.all([databaseUrl(), natsUrl()]);
    database = await openDatabase({ url: dbUrl });
    const schema = schemaFor(ns, 'orchestrator');
    await migrateSchema(database, schema, service.migrations);
    db = schemaDb<OrchestratorDb>(database, schema);
    server = await Bus.connect({ url: nats, name: 'get-relationship-server', namespace: ns, logger: silent });
    client = await Bus.connect({ url: nats, name: 'get-relationship-client', namespace: ns, logger: silent });
    await serveSomeQueries(server, orchestrator.OrchestratorQueriesDefinition, { GetRelationship: createGetRelationshipQuery(db, clock) });
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await database?.close();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(nats, ns);
  });

  beforeEach(() => clock.set(T0));

  async function givenRelationship(row: Partial<Insertable<RelationshipsTable>> = {}): Promise<string> {
    const userId = randomUUID();
    await db
      .insertInto('relationships')
      .values({
        user_id: userId,
        ai_friend_id: randomUUID(),
        stage: 'ACQUAINTANCE',
        rapport_score: 20,
        sessions_count: 4,
        last_interaction_at: T0,
        last_session_at: new Date(T0.getTime() - 2 * 60 * 60 * 1000),
        last_stage_promotion_at: new Date('2026-11-01T09:00:00Z'),
        session_disengaged: 1,
        updated_at: T0,
        ...row,
      })
      .execute();
    return userId;
  }

  it('answers found false for a user before the first turn', async () => {
    expect(await getRelationship(client, randomUUID())).toEqual({ found: false, state: undefined });
  });

  it('answers the projected state of a user', async () => {
    const userId = await givenRelationship();

    const response = await getRelationship(client, userId);

    expect(response).toEqual({
      found: true,
      state: {
        stage: 'ACQUAINTANCE',
        rapportScore: 20,
        sessionsCount: 4,
        lastInteractionAt: T0,
        lastSessionAt: new Date(T0.getTime() - 2 * 60 * 60 * 1000),
        lastStagePromotionAt: new Date('2026-11-01T09:00:00Z'),
        sessionDisengaged: 1,
      },
    });
  });

  it('answers a timestamp not set yet as absent', async () => {
    const userId = await givenRelationship({
      stage: 'STRANGER',
      rapport_score: 3,
      sessions_count: 1,
      last_session_at: T0,
      last_stage_promotion_at: null,
      session_disengaged: 0,
    });

    expect((await getRelationship(client, userId)).state).toMatchObject({ stage: 'STRANGER', rapportScore: 3, lastStagePromotionAt: undefined });
  });

  it('applies the inactivity decay due at the injected clock (§11.4), without storing it', async () => {
    const userId = await givenRelationship({ stage: 'ACQUAINTANCE', rapport_score: 20 });

    clock.advance(14 * DAY_MS);
    const twoWeeks = await getRelationship(client, userId);
    clock.set(new Date(T0.getTime() + 70 * DAY_MS));
    const tenWeeks = await getRelationship(client, userId);

    // −1 per 7 days: 20 → 18 after 14 days; after 70 days 20 − 10 stops at the ACQUAINTANCE floor.
    expect(twoWeeks.state).toMatchObject({ stage: 'ACQUAINTANCE', rapportScore: 18, lastInteractionAt: T0 });
    expect(tenWeeks.state).toMatchObject({ stage: 'ACQUAINTANCE', rapportScore: 15, lastInteractionAt: T0 });
    const row = await db.selectFrom('relationships').select('rapport_score').where('user_id', '=', userId).executeTakeFirstOrThrow();
    expect(row.rapport_score).toBe(20);
  });

  it('fails, as a QueryError, on a row whose stage is none of §2.5', async () => {
    const userId = await givenRelationship({ stage: 'BEST_FRIEND' });

    await expect(getRelationship(client, userId, 2_000)).rejects.toMatchObject({ code: 'QUERY_FAILED', message: expect.stringContaining('unknown stage') });
  });

  it.each([
    ['an empty user id', ''],
    ['a user id that is no uuid', 'not-a-uuid'],
    ['a user id with a line break', 'abc\ndef'],
  ])('rejects %s with a QueryError', async (_, userId) => {
    const failed = getRelationship(client, userId, 2_000);

    await expect(failed).rejects.toBeInstanceOf(QueryError);
    await expect(failed).rejects.toMatchObject({ code: 'QUERY_FAILED', message: expect.stringContaining('user_id must be a uuid') });
  });

  it('rejects request bytes that do not decode', async () => {
    const failed = client.query('orchestrator', GET_RELATIONSHIP, Uint8Array.of(0x0a, 0xff), 2_000);

    await expect(failed).rejects.toMatchObject({ code: 'QUERY_FAILED', message: expect.stringContaining('does not decode') });
  });
});
