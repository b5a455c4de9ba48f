// The OpenAPI document against what the served app answers: ingress hosted as in
// production over real NATS and Postgres, the other services' queries answered by
// fake responders with every part filled in, and each route driven for real. Every
// answer's body is validated (JSON Schema 2020-12, ajv) against the document's schema
// for the route and status it came with; the document's answers are closed objects
// (additionalProperties: false), so a field a handler adds without its schema fails.
import { randomUUID } from 'node:crypto';
import { appendDecided, draft, GLOBAL_KEYS, type Bus } from '@hearth/bus';
import {
  Events,
  GET_BELIEFS,
  GET_RELATIONSHIP,
  GET_RETENTION,
  GET_TRUST,
  GET_UNCERTAINTIES,
  INVALIDATE_MEMORY,
  LIST_MEMORIES,
} from '@hearth/events';
import { runHearth, type HearthProcess } from '@hearth/host';
import { belief, memory, orchestrator, retention, trust, uncertainty } from '@hearth/proto';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Kysely } from 'kysely';
import type { IngressDb } from '../db.js';
import { service } from '../index.js';
import { operationsOf, type OpenApiDocument } from './openapi.js';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

interface Reply {
  status: number;
  contentType: string;
  body: unknown;
}

const at = (iso: string) => new Date(iso);

/** The document's id for ajv, so a response schema's $ref into it resolves. */
const DOC_ID = 'https://hearth.invalid/docs/openapi.json';

describe('the OpenAPI document against the served app', () => {
  const ns = testNamespace('t_ingress_openapi');
  let dbUrl: string;
  let hearth: HearthProcess;
  let bus: Bus;
  let doc: OpenApiDocument;
  let ajv: Ajv2020;
  const validators = new Map<string, ValidateFunction>();
  /** `METHOD /template status` of every answer checked. */
  const checked = new Set<string>();

  const memoryRecord = (status: string) =>
    memory.MemoryRecord.fromPartial({
      memoryId: randomUUID(),
      type: 'FACT',
      memoryKey: 'fact:current_city',
      memoryValue: status === 'INVALID' ? '' : 'busan',
      confidence: 0.75,
      status,
      reliabilityState: 'uncertain',
      sourceMessageIds: [randomUUID()],
      createdAt: at('2026-11-20T09:00:00Z'),
      lastConfirmedAt: at('2026-11-21T09:00:00Z'),
      occurredOn: '2026-05-01',
      occurredPrecision: 'month',
      supersededBy: status === 'SUPERSEDED' ? randomUUID() : '',
    });

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
        RATE_LIMIT_CHAT_PER_MINUTE: '0',
        RATE_LIMIT_CHAT_BURST: '0',
      },
      port: 0,
    });
    bus = hearth.bus;
    // The other services, each answer with every part filled in.
    await bus.serveQuery('memory', LIST_MEMORIES, async (request) => {
      const { all } = memory.ListMemoriesRequest.decode(request);
      const memories = all ? [memoryRecord('ACTIVE'), memoryRecord('SUPERSEDED'), memoryRecord('INVALID')] : [memoryRecord('ACTIVE')];
      return memory.ListMemoriesResponse.encode({ memories }).finish();
    });
    await bus.serveQuery('memory', INVALIDATE_MEMORY, async (request) => {
      const { memoryId } = memory.InvalidateMemoryRequest.decode(request);
      return memory.InvalidateMemoryResponse.encode({ found: true, memory: { ...memoryRecord('INVALID'), memoryId } }).finish();
    });
    await bus.serveQuery('orchestrator', GET_RELATIONSHIP, async () => {
      const state = orchestrator.RelationshipState.fromPartial({
        stage: 'ACQUAINTANCE',
        rapportScore: 31,
        sessionsCount: 4,
        lastInteractionAt: at('2026-11-20T09:00:00Z'),
        lastStagePromotionAt: at('2026-11-19T09:00:00Z'),
      });
      return orchestrator.GetRelationshipResponse.encode({ found: true, state }).finish();
    });
    const [b1, b2] = [randomUUID(), randomUUID()];
    await bus.serveQuery('belief-graph', GET_BELIEFS, async () =>
      belief.GetBeliefsResponse.encode(
        belief.GetBeliefsResponse.fromPartial({
          nodes: [b1, b2].map((beliefId, i) => ({
            beliefId,
            holder: 'user',
            canonicalText: 'i am patient',
            beliefType: 'TRAIT',
            polarity: i === 0 ? 'affirm' : 'deny',
            stream: 'identity',
            status: 'developing',
            confidence: 0.6,
            activation: 1.2,
            coreScore: 0.3,
            occurrenceCount: 2,
            sourceMessageIds: [randomUUID()],
            createdAt: at('2026-11-20T09:00:00Z'),
          })),
          links: [{ linkId: randomUUID(), fromBeliefId: b1, toBeliefId: b2, confidence: 0.7, state: 'pending' }],
          conflicts: [{ conflictId: randomUUID(), beliefIds: [b1, b2], conflictType: 'contradiction', sourceMessageIds: [randomUUID()], createdAt: at('2026-11-20T09:00:00Z') }],
          challenges: [{ challengeId: randomUUID(), beliefId: b1, style: 'gentle', messageId: randomUUID(), createdAt: at('2026-11-20T09:00:00Z') }],
        }),
      ).finish(),
    );
    await bus.serveQuery('uncertainty', GET_UNCERTAINTIES, async () =>
      uncertainty.GetUncertaintiesResponse.encode(
        uncertainty.GetUncertaintiesResponse.fromPartial({
          tolerance: 0.5,
          uncertainties: [
            {
              uncertaintyId: randomUUID(),
              uncertaintyType: 'contradiction',
              subjects: [
                { kind: 'memory', id: randomUUID() },
                { kind: 'belief', id: randomUUID() },
              ],
              severity: 'medium',
              state: 'resolved',
              detectionContext: 'ingestion',
              temporalSignal: true,
              resolutionStrategy: 'temporal_supersede',
              surfacedCount: 1,
              sourceMessageIds: [randomUUID()],
              createdAt: at('2026-11-20T09:00:00Z'),
              resolvedAt: at('2026-11-21T09:00:00Z'),
            },
          ],
        }),
      ).finish(),
    );
    await bus.serveQuery('trust', GET_TRUST, async () =>
      trust.GetTrustResponse.encode(
        trust.GetTrustResponse.fromPartial({
          actors: [
            { actor: 'user', trust: 0.55, updates: 1, updatedAt: at('2026-11-20T09:00:00Z') },
            { actor: 'agent', trust: 0.5, updates: 0 },
          ],
          outcomes: [
            {
              outcomeId: randomUUID(),
              horizon: '24h',
              reward: 0.4,
              components: { coherence: 0.5, confidence: 0.1, stability: 1, validation: -0.2 },
              evaluatedAt: at('2026-11-21T09:00:00Z'),
            },
          ],
          feedback: [
            { tag: '+keep', actor: 'user', beliefId: randomUUID(), weight: 0.8, applied: true, reason: 'counted', createdAt: at('2026-11-20T09:00:00Z') },
            { tag: '+doubt', actor: 'agent', beliefId: '', weight: -0.1, applied: false, reason: 'no_belief', createdAt: at('2026-11-20T09:00:00Z') },
          ],
        }),
      ).finish(),
    );
    await bus.serveQuery('retention', GET_RETENTION, async () =>
      retention.GetRetentionResponse.encode(
        retention.GetRetentionResponse.fromPartial({
          found: true,
          evaluatedThrough: at('2026-11-21T09:00:00Z'),
          backoffMultiplier: 2,
          messages: [
            {
              retentionId: randomUUID(),
              notificationId: randomUUID(),
              conversationId: randomUUID(),
              plannedAt: at('2026-11-20T09:00:00Z'),
              status: 'delivered',
              deliveredAt: at('2026-11-20T09:05:00Z'),
              outcome: 'acknowledged',
              acknowledgedVia: 'reply',
              resolvedAt: at('2026-11-20T10:00:00Z'),
              declinedReason: '',
            },
          ],
        }),
      ).finish(),
    );

    doc = (await call('GET', '/docs/openapi.json')).body as OpenApiDocument;
    ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
    // Each answer is validated against the document itself: its $refs (#/components/schemas/…) resolve in it.
    ajv.addSchema({ paths: doc.paths, components: doc.components }, DOC_ID);
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
    const contentType = (res.headers.get('content-type') ?? '').split(';')[0]!;
    const text = await res.text();
    return { status: res.status, contentType, body: contentType === 'application/json' && text ? JSON.parse(text) : text };
  }

  /**
   * Calls a route and validates its answer against the document: the status must be
   * one the operation lists, the content type the one it gives, the body valid for
   * that status's schema.
   */
  async function checked200(method: string, template: string, path: string, opts: { token?: string; body?: unknown } = {}): Promise<Reply> {
    const r = await call(method, path, opts);
    expectDocumented(method, template, r);
    return r;
  }

  function expectDocumented(method: string, template: string, r: Reply): void {
    const op = doc.paths[template]?.[method.toLowerCase() as 'get'];
    expect([method, template, op !== undefined]).toEqual([method, template, true]);
    const response = op!.responses[String(r.status)];
    expect([method, template, r.status, response !== undefined]).toEqual([method, template, r.status, true]);
    const media = response!.content?.[r.contentType];
    expect([method, template, r.status, r.contentType, media !== undefined]).toEqual([method, template, r.status, r.contentType, true]);
    const key = `${method} ${template} ${r.status}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOC_ID}#/paths/${pointer(template)}/${method.toLowerCase()}/responses/${r.status}/content/${pointer(r.contentType)}/schema` });
      validators.set(key, validate);
    }
    const valid = validate(r.body);
    expect([key, valid ? [] : validate.errors]).toEqual([key, []]);
    checked.add(key);
  }

  it('answers every route with a body its document schema accepts', async () => {
    const token = async (userId: string, roles: string[] = []) =>
      ((await checked200('POST', '/v1/dev/token', '/v1/dev/token', { body: { user_id: userId, roles } })).body as { token: string }).token;
    const userId = randomUUID();
    const user = await token(userId);
    const admin = await token(randomUUID(), ['admin']);
    const as = (t: string) => ({ token: t });

    await checked200('GET', '/v1/dev/clock', '/v1/dev/clock', as(user));
    await checked200('POST', '/v1/dev/clock', '/v1/dev/clock', { ...as(user), body: { advance_seconds: 0 } });
    await checked200('POST', '/v1/me', '/v1/me', as(user));
    // The orchestrator's persona, as it assigns one on the global log (§3.4.1).
    await appendDecided(bus, 'orchestrator', GLOBAL_KEYS.personaAssignments, () => [
      draft(
        Events.PersonaAssigned,
        orchestrator.PersonaAssigned.fromPartial({ aiFriendId: randomUUID(), templateId: 't1', coreArchetype: 'sunny', friendEnergy: 'calm', humorMode: 'dry' }),
        { id: randomUUID(), userId, occurredAt: new Date(), correlationId: randomUUID() },
      ),
    ]);
    const answers = {
      preferred_name: 'Mina',
      age_band: '25-34',
      country_or_region: 'kr',
      occupation_category: 'working',
      client_timezone: 'Asia/Seoul',
      proactive_messages_enabled: true,
      suppressed_topics: ['POLITICS'],
    };
    const onboarded = await checked200('PUT', '/v1/me/onboarding', '/v1/me/onboarding', { ...as(user), body: answers });
    expect(onboarded.body).toMatchObject({ user_state: 'ONBOARDING', persona: { template_id: 't1' } });
    await checked200('GET', '/v1/me', '/v1/me', as(user));

    // A chat turn, completed as the orchestrator completes it.
    const conversationId = randomUUID();
    const messageId = randomUUID();
    const sent = checked200('POST', '/v1/conversations/{conversation_id}/messages', `/v1/conversations/${conversationId}/messages`, {
      ...as(user),
      body: { message_id: messageId, text: 'I live in Busan', client_timezone: 'Asia/Seoul', client_locale: 'ko-KR' },
    });
    const db = hearth.contexts.get('ingress')!.db as Kysely<IngressDb>;
    await waitFor(async () => ((await db.selectFrom('turns').select('message_id').where('message_id', '=', messageId).executeTakeFirst()) ? true : undefined), {
      what: 'the turn to be received',
    });
    const completed = orchestrator.TurnCompleted.fromPartial({
      messageId,
      conversationId,
      assistantMessageId: randomUUID(),
      assistantText: 'Busan! How long have you lived there?',
      source: 'chat',
      userText: 'I live in Busan',
      outcome: 'draft',
      surfacedMemoryIds: [randomUUID()],
      routing: { pipeline: 'STANDARD', safetyPolicy: 'NORMAL', memoryReadPolicy: 'FULL', vectorSearchPolicy: 'ON', memoryWritePolicy: 'ON' },
    });
    await appendDecided(bus, 'orchestrator', userId, () => [
      draft(Events.TurnCompleted, completed, { id: randomUUID(), userId, occurredAt: new Date(), correlationId: messageId }),
    ]);
    expect((await sent).status).toBe(200);
    await checked200('GET', '/v1/conversations/{conversation_id}/messages', `/v1/conversations/${conversationId}/messages?limit=10`, as(user));

    await checked200('GET', '/v1/me/relationship', '/v1/me/relationship', as(user));
    await checked200('GET', '/v1/me/memories', '/v1/me/memories', as(user));
    await checked200('GET', '/v1/me/memories', '/v1/me/memories?status=all', as(user));
    await checked200('DELETE', '/v1/me/memories/{memory_id}', `/v1/me/memories/${randomUUID()}`, as(user));
    await checked200('GET', '/v1/me/controls', '/v1/me/controls', as(user));
    await checked200('PATCH', '/v1/me/controls', '/v1/me/controls', { ...as(user), body: { mute_until: '2026-12-01T00:00:00+09:00' } });
    await checked200('POST', '/v1/me/app-opens', '/v1/me/app-opens', as(user));

    const u = `/v1/admin/users/${userId}`;
    await checked200('GET', '/v1/admin/users/{user_id}/timeline', `${u}/timeline`, as(admin));
    await checked200('GET', '/v1/admin/users/{user_id}/retention', `${u}/retention`, as(admin));
    await checked200('GET', '/v1/admin/users/{user_id}/beliefs', `${u}/beliefs`, as(admin));
    await checked200('GET', '/v1/admin/users/{user_id}/uncertainties', `${u}/uncertainties`, as(admin));
    await checked200('GET', '/v1/admin/users/{user_id}/trust', `${u}/trust`, as(admin));
    await checked200('GET', '/v1/admin/turns/{message_id}', `/v1/admin/turns/${messageId}`, as(admin));
    await checked200('GET', '/v1/admin/dead-letters', '/v1/admin/dead-letters', as(admin));
    // No event is quarantined here: the redrive's answer is its documented 404.
    const redrive = await checked200('POST', '/v1/admin/dead-letters/{event_id}/redrive', `/v1/admin/dead-letters/${randomUUID()}/redrive`, as(admin));
    expect(redrive.status).toBe(404);
    // Read after the admin reads, so the export holds them too.
    const exported = await checked200('GET', '/v1/me/export', '/v1/me/export', as(user));
    expect((exported.body as { admin_access: unknown[] }).admin_access.length).toBeGreaterThan(0);

    await checked200('GET', '/healthz', '/healthz');
    await checked200('GET', '/readyz', '/readyz');
    await checked200('GET', '/metrics', '/metrics');
    await checked200('GET', '/docs', '/docs');
    await checked200('GET', '/docs/openapi.json', '/docs/openapi.json');
    await checked200('DELETE', '/v1/me', '/v1/me', as(user));

    // Every documented operation answered with its success status, the redrive excepted (above).
    const answered = new Set([...checked].filter((k) => /\s2\d\d$/.test(k)).map((k) => k.replace(/\s\d+$/, '')));
    const missing = operationsOf(doc)
      .map(({ method, path }) => `${method.toUpperCase()} ${path}`)
      .filter((k) => !answered.has(k) && k !== 'POST /v1/admin/dead-letters/{event_id}/redrive');
    expect(missing).toEqual([]);
  }, 60_000);

  it('answers errors in the documented shape on every authenticated route', async () => {
    for (const { method, path, operation } of operationsOf(doc)) {
      if (operation.security?.length === 0) continue;
      const concrete = path.replace(/\{[^}]+\}/g, randomUUID());
      const r = await call(method.toUpperCase(), concrete);
      expect([method, path, r.status]).toEqual([method, path, 401]);
      expectDocumented(method.toUpperCase(), path, r);
    }
  });
});

/** A JSON pointer segment (RFC 6901). */
function pointer(segment: string): string {
  return segment.replaceAll('~', '~0').replaceAll('/', '~1');
}
