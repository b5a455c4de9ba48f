import { randomUUID } from 'node:crypto';
import { Bus, QueryError, queryRpc, serveSomeQueries } from '@hearth/bus';
import { schemaFor } from '@hearth/host';
import { migrateSchema, openDatabase, schemaDb, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import type { OrchestratorDb } from '../db.js';
import { service } from '../index.js';
import { GET_PERSONA } from '@hearth/events';
import { orchestrator } from '@hearth/proto';
import { createGetPersonaQuery } from './get-persona.js';

/** The generated client, as a caller asks. */
const getPersona = (bus: Bus, userId: string, timeoutMs?: number) => new orchestrator.OrchestratorQueriesClientImpl(queryRpc(bus, { timeoutMs })).GetPersona({ userId });

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

describe('GetPersona', () => {
  const ns = testNamespace('t_orch_q');
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
    server = await Bus.connect({ url: nats, name: 'get-persona-server', namespace: ns, logger: silent });
    client = await Bus.connect({ url: nats, name: 'get-persona-client', namespace: ns, logger: silent });
    await serveSomeQueries(server, orchestrator.OrchestratorQueriesDefinition, { GetPersona: createGetPersonaQuery(db) });
  });

  afterAll(async () => {
    await client?.close();
    await server?.close();
    await database?.close();
    await dropSchemas(dbUrl, ns);
    await cleanupNamespace(nats, ns);
  });

  it('answers the persona projected for a user', async () => {
    const userId = randomUUID();
    const aiFriendId = randomUUID();
    await db
      .insertInto('personas')
      .values({
        user_id: userId,
        ai_friend_id: aiFriendId,
        template_id: 'PT07',
        core_archetype: 'Dry Humor',
        humor_mode: 'deadpan',
        friend_energy: 'balanced',
        stable_style_params: JSON.stringify({
          msg_length_pref: 'short',
          emoji_freq: 'light',
          humor_mode: 'deadpan',
          directness_level: 'high',
          followup_question_rate: 'low',
          lexicon_bias: 'clean',
          punctuation_quirks: ['…', '!?'],
        }),
        // Above 2^31: the uint32 seed must survive the bigint column.
        persona_seed: 4_000_000_123,
        assigned_at: new Date('2026-11-22T10:00:00Z'),
        mutated_categories: JSON.stringify(['humor_mode', 'friend_energy']) as unknown as string[],
        resamples: 3,
        fallback: false,
        window_total: 40,
        window_combo_count: 1,
      })
      .execute();

    const response = await getPersona(client, userId);

    expect(response).toEqual({
      found: true,
      persona: {
        aiFriendId,
        templateId: 'PT07',
        coreArchetype: 'Dry Humor',
        friendEnergy: 'balanced',
        humorMode: 'deadpan',
        stableStyleParams: {
          msgLengthPref: 'short',
          emojiFreq: 'light',
          humorMode: 'deadpan',
          directnessLevel: 'high',
          followupQuestionRate: 'low',
          lexiconBias: 'clean',
          punctuationQuirks: ['…', '!?'],
        },
        personaSeed: 4_000_000_123,
        mutatedCategories: ['humor_mode', 'friend_energy'],
        resamples: 3,
        fallback: false,
        windowTotal: 40,
        windowComboCount: 1,
        // The template's (issue 16), as PersonaAssigned carried them.
        selfStatements: ['I believe in small steps.', "I'm an encouraging person.", 'I like morning walks.', 'I value steady progress over big leaps.'],
      },
    });
  });

  it('answers found false for a user without a persona', async () => {
    expect(await getPersona(client, randomUUID())).toEqual({ found: false, persona: undefined });
  });

  it.each([
    ['an empty user id', ''],
    ['a user id that is no uuid', 'not-a-uuid'],
    ['a user id with a line break', 'abc\ndef'],
  ])('rejects %s with a QueryError', async (_, userId) => {
    const failed = getPersona(client, userId, 2_000);

    await expect(failed).rejects.toBeInstanceOf(QueryError);
    await expect(failed).rejects.toMatchObject({ code: 'QUERY_FAILED', message: expect.stringContaining('user_id must be a uuid') });
  });

  it('rejects request bytes that do not decode', async () => {
    const failed = client.query('orchestrator', GET_PERSONA, Uint8Array.of(0x0a, 0xff), 2_000);

    await expect(failed).rejects.toMatchObject({ code: 'QUERY_FAILED', message: expect.stringContaining('does not decode') });
  });
});
