// Nest's decorators write their route metadata through the Reflect API.
import 'reflect-metadata';
import { RequestMethod } from '@nestjs/common';
import type { StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import { HealthController } from '@hearth/host';
import { adminAccessView } from '../app/admin-access.js';
import { buildTurnTrail } from '../app/audit.js';
import { belief, memory, trust, uncertainty } from '@hearth/proto';
import { RELIABILITY_STATES } from '@hearth/uncertainty';
import { beliefGraphView, BELIEF_HOLDERS, exportBeliefsView } from '../app/beliefs-view.js';
import { memoryView } from '../app/memory-view.js';
import { trustView } from '../app/trust-view.js';
import { uncertaintiesView } from '../app/uncertainties-view.js';
import { exportDocument, exportMessages } from '../app/export.js';
import { INITIAL_RELATIONSHIP } from '../app/relationship-view.js';
import { retentionView } from '../app/retention-view.js';
import { appOpenCommand, appOpenView } from '../users/app-open.js';
import { AGE_BANDS, OCCUPATIONS } from '../users/answers.js';
import { TOPIC_IDS } from '@hearth/text';
import { INGRESS_CONTROLLERS } from './controllers.js';
import { DocsController, renderDocsHtml } from './docs.controller.js';
import type { FastifyRequest } from 'fastify';
import { createSchema } from 'zod-openapi';
import { OPENAPI, operationsOf, type JsonSchema } from './openapi.js';
import { ROUTES, type RouteSpec } from './routes.js';
import { requestOf } from './validation.js';

/** Nest's metadata keys (PATH_METADATA, METHOD_METADATA, HTTP_CODE_METADATA of @nestjs/common). */
const PATH = 'path';
const METHOD = 'method';
const HTTP_CODE = '__httpCode__';

interface Route {
  method: string;
  path: string;
  /** The status Nest answers with on success. */
  status: number;
}

function joinPath(...parts: (string | undefined)[]): string {
  const joined = parts
    .flatMap((p) => (p ?? '').split('/'))
    .filter((s) => s !== '')
    .join('/');
  return `/${joined}`;
}

/** `/v1/x/:conversationId` and `/v1/x/{conversation_id}` both become `/v1/x/{}`. */
function template(path: string): string {
  return path.replace(/:[^/]+/g, '{}').replace(/\{[^}]+\}/g, '{}');
}

/** The routes Nest would mount for a controller class, from its decorators' metadata. */
function routesOf(controller: abstract new (...args: never[]) => unknown): Route[] {
  const base = Reflect.getMetadata(PATH, controller) as string | string[] | undefined;
  const bases = Array.isArray(base) ? base : [base];
  const proto = controller.prototype as Record<string, unknown>;
  return Object.getOwnPropertyNames(proto).flatMap((name) => {
    const handler = proto[name];
    if (name === 'constructor' || typeof handler !== 'function') return [];
    const path = Reflect.getMetadata(PATH, handler) as string | string[] | undefined;
    const method = Reflect.getMetadata(METHOD, handler) as RequestMethod | undefined;
    if (path === undefined || method === undefined) return [];
    const verb = RequestMethod[method].toLowerCase();
    const code = Reflect.getMetadata(HTTP_CODE, handler) as number | undefined;
    const status = code ?? (method === RequestMethod.POST ? 201 : 200);
    return bases.flatMap((b) => (Array.isArray(path) ? path : [path]).map((p) => ({ method: verb, path: joinPath(b, p), status })));
  });
}

/** What the ingress process serves: its own controllers plus the host's health endpoints. */
const served = [...INGRESS_CONTROLLERS, HealthController].flatMap(routesOf);
const documented = operationsOf(OPENAPI);
const key = (method: string, path: string) => `${method.toUpperCase()} ${template(path)}`;

function collectRefs(value: unknown, out: string[] = []): string[] {
  if (Array.isArray(value)) value.forEach((v) => collectRefs(v, out));
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else collectRefs(v, out);
    }
  }
  return out;
}

describe('OpenAPI document of the ingress API', () => {
  it('is OpenAPI 3.1.0', () => {
    expect(OPENAPI.openapi).toBe('3.1.0');
  });

  it('finds the routes of every controller (the metadata reader works)', () => {
    expect(served.map((r) => key(r.method, r.path))).toEqual(
      expect.arrayContaining(['POST /v1/me', 'GET /v1/conversations/{}/messages', 'GET /healthz', 'GET /docs']),
    );
    expect(served.length).toBeGreaterThanOrEqual(14);
  });

  it.each(served.map((r) => [key(r.method, r.path), r] as const))('documents %s', (_name, route) => {
    const doc = documented.find((d) => key(d.method, d.path) === key(route.method, route.path));
    expect(doc).toBeDefined();
    // The documented success status is the one Nest answers with.
    expect(Object.keys(doc!.operation.responses)).toContain(String(route.status));
  });

  it('documents no route that is not served', () => {
    const servedKeys = new Set(served.map((r) => key(r.method, r.path)));
    expect(documented.map((d) => key(d.method, d.path)).filter((k) => !servedKeys.has(k))).toEqual([]);
  });

  it('names every path parameter it templates', () => {
    for (const { path, operation } of documented) {
      const names = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = (operation.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared.sort()).toEqual(names.sort());
    }
  });

  it('resolves every $ref and uses unique operation ids', () => {
    for (const ref of collectRefs(OPENAPI)) {
      const name = ref.replace('#/components/schemas/', '');
      expect(OPENAPI.components.schemas[name]).toBeDefined();
    }
    const ids = documented.map((d) => d.operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('answers errors in the API shape on authenticated routes, public ones excepted', () => {
    for (const { operation } of documented) {
      if (operation.security?.length === 0) continue;
      expect(operation.responses['401']).toBeDefined();
    }
    expect(OPENAPI.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
  });

  it('documents 429 with Retry-After wherever the rate limits apply, and only there', () => {
    for (const { path, operation } of documented) {
      const limited = !path.startsWith('/v1/dev/') && !['/healthz', '/readyz', '/metrics'].includes(path) && !path.startsWith('/docs');
      expect([path, operation.responses['429'] !== undefined]).toEqual([path, limited]);
      if (limited) expect(operation.responses['429']!.headers).toHaveProperty('Retry-After');
    }
  });

  it('takes the enums from the validation code', () => {
    const input = OPENAPI.components.schemas.OnboardingAnswersInput!.properties as Record<string, JsonSchema>;
    expect(input.age_band!.enum).toEqual([...AGE_BANDS]);
    expect(input.occupation_category!.enum).toEqual([...OCCUPATIONS]);
    expect(OPENAPI.components.schemas.TopicId!.enum).toEqual([...TOPIC_IDS]);
  });

  it.each([
    ['GET', '/v1/me/relationship', ['200', '401', '404', '429', '503']],
    ['GET', '/v1/admin/turns/{message_id}', ['200', '401', '403', '404', '422', '429', '503']],
    ['GET', '/v1/admin/users/{user_id}/timeline', ['200', '401', '403', '422', '429', '503']],
    ['GET', '/v1/admin/dead-letters', ['200', '401', '403', '429', '503']],
    ['GET', '/v1/me/export', ['200', '401', '404', '429', '503']],
    ['POST', '/v1/me/app-opens', ['202', '400', '401', '404', '413', '422', '429', '503']],
    ['GET', '/v1/admin/users/{user_id}/retention', ['200', '401', '403', '404', '422', '429', '503']],
    ['GET', '/v1/admin/users/{user_id}/beliefs', ['200', '401', '403', '404', '422', '429', '503']],
    ['GET', '/v1/admin/users/{user_id}/uncertainties', ['200', '401', '403', '404', '422', '429', '503']],
    ['GET', '/v1/admin/users/{user_id}/trust', ['200', '401', '403', '404', '422', '429', '503']],
  ])('documents %s %s with its statuses', (method, path, statuses) => {
    const doc = documented.find((d) => key(d.method, d.path) === key(method, path));
    expect(Object.keys(doc!.operation.responses).sort()).toEqual(statuses);
  });

  it('describes the relationship body the app answers, the initial one included', () => {
    const schema = OPENAPI.components.schemas.Relationship!;
    expect([...(schema.required as string[])].sort()).toEqual(Object.keys(INITIAL_RELATIONSHIP).sort());
    expect(schema.examples).toEqual([INITIAL_RELATIONSHIP]);
  });

  it('describes the turn trail the app answers', () => {
    const trail = buildTurnTrail({ messageId: 'm', userId: 'u', conversationId: 'c' }, []);
    const schema = OPENAPI.components.schemas.TurnTrail!;
    expect([...(schema.required as string[])].sort()).toEqual(Object.keys(trail).sort());
    expect(Object.keys(schema.properties as object).sort()).toEqual(Object.keys(trail).sort());
  });

  it('describes the app open and the retention state the app answers', () => {
    const shapes = {
      AppOpen: appOpenView(appOpenCommand('a', {}), new Date(0)),
      Retention: retentionView('u', { found: true, evaluatedThrough: undefined, backoffMultiplier: 1, messages: [] }),
      RetentionMessage: retentionView('u', {
        found: true,
        evaluatedThrough: undefined,
        backoffMultiplier: 1,
        messages: [
          {
            retentionId: 'r',
            notificationId: 'n',
            conversationId: 'c',
            plannedAt: undefined,
            status: 'planned',
            deliveredAt: undefined,
            outcome: '',
            acknowledgedVia: '',
            resolvedAt: undefined,
            declinedReason: '',
          },
        ],
      }).messages[0]!,
    };
    for (const [name, shape] of Object.entries(shapes)) {
      const schema = OPENAPI.components.schemas[name]!;
      expect([...(schema.required as string[])].sort()).toEqual(Object.keys(shape).sort());
      expect(Object.keys(schema.properties as object).sort()).toEqual(Object.keys(shape).sort());
    }
    expect(OPENAPI.tags.map((t) => t.name)).toContain('retention');
    const source = (OPENAPI.components.schemas.HistoryMessage!.properties as Record<string, JsonSchema>).source!;
    expect(source.enum).toContain('retention');
  });

  it('describes the belief graph the app answers, part by part, and its holder parameter', () => {
    const view = beliefGraphView(
      belief.GetBeliefsResponse.fromPartial({
        nodes: [{ beliefId: 'b1', holder: 'user', createdAt: new Date(0) }],
        links: [{ linkId: 'l1' }],
        conflicts: [{ conflictId: 'k1', createdAt: new Date(0) }],
        challenges: [{ challengeId: 'c1', createdAt: new Date(0) }],
      }),
    );
    const shapes = { BeliefGraph: view, BeliefNode: view.nodes[0]!, BeliefLink: view.links[0]!, BeliefConflict: view.conflicts[0]!, BeliefChallenge: view.challenges[0]! };
    for (const [name, shape] of Object.entries(shapes)) {
      const schema = OPENAPI.components.schemas[name]!;
      expect([name, [...(schema.required as string[])].sort()]).toEqual([name, Object.keys(shape).sort()]);
      expect([name, Object.keys(schema.properties as object).sort()]).toEqual([name, Object.keys(shape).sort()]);
    }
    const route = documented.find((d) => key(d.method, d.path) === key('get', '/v1/admin/users/{user_id}/beliefs'))!;
    const holder = route.operation.parameters!.find((p) => p.name === 'holder');
    expect(holder).toMatchObject({ in: 'query', schema: { type: 'string', enum: [...BELIEF_HOLDERS] } });
    expect(holder!.required).not.toBe(true);
    // The export's beliefs are the same parts, without the links.
    const exported = (OPENAPI.components.schemas.Export!.properties as Record<string, JsonSchema>).beliefs!;
    expect(exported.required).toEqual(Object.keys(exportBeliefsView(belief.GetBeliefsResponse.fromPartial({}))));
    expect(exported.properties).toEqual({
      nodes: { type: 'array', items: { $ref: '#/components/schemas/BeliefNode' } },
      conflicts: { type: 'array', items: { $ref: '#/components/schemas/BeliefConflict' } },
      challenges: { type: 'array', items: { $ref: '#/components/schemas/BeliefChallenge' } },
    });
  });

  it('describes the uncertainties the app answers, part by part, in the admin route and the export', () => {
    const view = uncertaintiesView(
      uncertainty.GetUncertaintiesResponse.fromPartial({
        tolerance: 0.5,
        uncertainties: [{ uncertaintyId: 'x1', subjects: [{ kind: 'memory', id: 'm1' }], createdAt: new Date(0), resolvedAt: new Date(0) }],
      }),
    );
    const shapes = { Uncertainties: view, Uncertainty: view.uncertainties[0]!, UncertaintySubject: view.uncertainties[0]!.subjects[0]! };
    for (const [name, shape] of Object.entries(shapes)) {
      const schema = OPENAPI.components.schemas[name]!;
      // In the order the app writes them (API.md's).
      expect([name, schema.required]).toEqual([name, Object.keys(shape)]);
      expect([name, Object.keys(schema.properties as object)]).toEqual([name, Object.keys(shape)]);
    }
    const route = documented.find((d) => key(d.method, d.path) === key('get', '/v1/admin/users/{user_id}/uncertainties'))!;
    expect(route.operation.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Uncertainties' });
    const exported = (OPENAPI.components.schemas.Export!.properties as Record<string, JsonSchema>).uncertainties!;
    expect(exported.$ref).toBe('#/components/schemas/Uncertainties');
  });

  it('describes the trust state the app answers, part by part, in the admin route and the export', () => {
    const view = trustView(
      trust.GetTrustResponse.fromPartial({
        actors: [{ actor: 'user', trust: 0.5, updates: 0 }],
        outcomes: [{ outcomeId: 'o1', horizon: '2h', components: {}, evaluatedAt: new Date(0) }],
        feedback: [{ tag: '+keep', actor: 'agent', beliefId: 'b1', createdAt: new Date(0) }],
      }),
    );
    const shapes = { Trust: view, ActorTrust: view.actors[0]!, TrustOutcome: view.outcomes[0]!, OutcomeComponents: view.outcomes[0]!.components, TrustFeedback: view.feedback[0]! };
    for (const [name, shape] of Object.entries(shapes)) {
      const schema = OPENAPI.components.schemas[name]!;
      // In the order the app writes them (API.md's).
      expect([name, schema.required]).toEqual([name, Object.keys(shape)]);
      expect([name, Object.keys(schema.properties as object)]).toEqual([name, Object.keys(shape)]);
    }
    const feedback = OPENAPI.components.schemas.TrustFeedback!.properties as Record<string, JsonSchema>;
    expect(feedback.reason!.enum).toEqual(['counted', 'duplicate', 'off_target', 'no_belief']);
    const route = documented.find((d) => key(d.method, d.path) === key('get', '/v1/admin/users/{user_id}/trust'))!;
    expect(route.operation.responses['200']!.content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Trust' });
    const exported = (OPENAPI.components.schemas.Export!.properties as Record<string, JsonSchema>).trust!;
    expect(exported.$ref).toBe('#/components/schemas/Trust');
  });

  it("describes a memory's reliability as the state the app answers", () => {
    const schema = OPENAPI.components.schemas.Memory!;
    const reliability = (schema.properties as Record<string, JsonSchema>).reliability!;
    expect(reliability).toMatchObject({ type: 'string', enum: [...RELIABILITY_STATES] });
    const shown = memoryView(memory.MemoryRecord.fromPartial({ memoryId: 'm1' }), false);
    expect(reliability.enum).toContain(shown.reliability);
    expect([...(schema.required as string[])].sort()).toEqual(Object.keys(shown).sort());
  });

  it('describes the export the app writes, key by key, with its messages and admin accesses', () => {
    const none = (async function* () {})();
    const beliefs = exportBeliefsView(belief.GetBeliefsResponse.fromPartial({}));
    const uncertainties = uncertaintiesView(uncertainty.GetUncertaintiesResponse.fromPartial({}));
    const trustState = trustView(trust.GetTrustResponse.fromPartial({}));
    const doc = exportDocument({ exported_at: '', user: null, controls: null, relationship: null, memories: [], beliefs, uncertainties, trust: trustState, retention: null }, none, none);
    const schema = OPENAPI.components.schemas.Export!;
    const keys = [...doc.entries].map(([k]) => k);
    expect(schema.required).toEqual(keys);
    expect(Object.keys(schema.properties as object)).toEqual(keys);

    const at = new Date('2026-11-22T10:00:00.000Z');
    const [user, assistant] = exportMessages([
      {
        message_id: 'm',
        source: 'chat',
        text: 'hi',
        received_at: at,
        assistant_message_id: 'a',
        assistant_text: 'hey',
        surfaced_memory_ids: [],
        completed_at: at,
        refused: true,
      },
    ]);
    const message = OPENAPI.components.schemas.ExportMessage!;
    expect(Object.keys(message.properties as object).sort()).toEqual(Object.keys(assistant!).sort());
    for (const m of [user!, assistant!]) expect(Object.keys(m)).toEqual(expect.arrayContaining(message.required as string[]));

    const access = adminAccessView({
      id: 'e',
      type: Events.AdminAccessed.name,
      payload: Events.AdminAccessed.encode({ adminId: 'x', route: 'GET /', resource: 'timeline', accessedAt: at }),
      occurredAt: at,
      erased: false,
    } as StoredEvent);
    const schemaOfAccess = OPENAPI.components.schemas.AdminAccess!;
    expect([...(schemaOfAccess.required as string[])].sort()).toEqual(Object.keys(access).sort());
    expect(Object.keys(schemaOfAccess.properties as object).sort()).toEqual(Object.keys(access).sort());
  });

  it('describes erased events in the timeline and the turn trail', () => {
    for (const name of ['TimelineEvent', 'AuditEvent']) {
      const schema = OPENAPI.components.schemas[name]!;
      expect(schema.required).toContain('erased');
      expect((schema.properties as Record<string, JsonSchema>).erased).toMatchObject({ type: 'boolean' });
    }
  });

  /** A schema with its top-level $ref followed into the document's (or createSchema's) components. */
  function resolved(schema: unknown, components: Record<string, unknown>): unknown {
    const ref = (schema as { $ref?: string }).$ref;
    return ref ? components[ref.replace('#/components/schemas/', '')] : schema;
  }

  /** What a route validates, each part as JSON Schema, rendered on its own from the route's zod schema. */
  function ownSchema(schema: RouteSpec['body'] extends infer B ? (B extends { schema: infer S } ? S : never) : never) {
    const { schema: own, components } = createSchema(schema, { io: 'input' });
    return resolved(own, components);
  }

  it.each(Object.values(ROUTES).map((r) => [`${r.method.toUpperCase()} ${r.path}`, r as RouteSpec] as const))(
    'documents %s with the schemas its handler validates with',
    (_name, r) => {
      const op = OPENAPI.paths[r.path]![r.method]!;
      const docBody = op.requestBody?.content['application/json']?.schema;
      if (r.body) {
        expect(op.requestBody!.required).toBe(r.body.required);
        expect(resolved(docBody, OPENAPI.components.schemas)).toEqual(ownSchema(r.body.schema));
      } else {
        expect(op.requestBody).toBeUndefined();
      }
      for (const [where, part] of [['path', r.params], ['query', r.query]] as const) {
        const documented = (op.parameters ?? []).filter((p) => p.in === where);
        const shape = (part as unknown as { shape?: Record<string, Parameters<typeof ownSchema>[0]> } | undefined)?.shape ?? {};
        expect(documented.map((p) => p.name)).toEqual(Object.keys(shape));
        for (const p of documented) expect([p.name, p.schema]).toEqual([p.name, ownSchema(shape[p.name as string]!)]);
      }
    },
  );

  it('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(OPENAPI))).toEqual(OPENAPI);
  });
});

describe('requestOf', () => {
  const req = (method: string, url: string, parts: { params?: object; query?: object } = {}) =>
    ({ method, routeOptions: { url }, params: parts.params ?? {}, query: parts.query ?? {} }) as unknown as FastifyRequest;

  it('parses each part with the schemas of the route the request came in on', () => {
    const r = requestOf(ROUTES.listMessages, req('GET', '/v1/conversations/:conversation_id/messages', { params: { conversation_id: 'C1E6D3A4-1B2C-4D5E-8F90-0A1B2C3D4E5F' }, query: { limit: '7', x: '1' } }));
    expect(r).toEqual({ params: { conversation_id: 'C1E6D3A4-1B2C-4D5E-8F90-0A1B2C3D4E5F' }, query: { limit: 7 }, body: undefined });
  });

  it('refuses a field with a 422 naming it', () => {
    expect(() => requestOf(ROUTES.getUserBeliefs, req('GET', '/v1/admin/users/:user_id/beliefs', { params: { user_id: 'nope' } }))).toThrow(
      expect.objectContaining({ status: 422, response: { error: expect.objectContaining({ message: 'user_id must be a uuid', details: { fields: [{ field: 'user_id', message: 'must be a uuid' }] } }) } }),
    );
  });

  it('refuses to validate with the schemas of another route', () => {
    expect(() => requestOf(ROUTES.getUserTrust, req('GET', '/v1/admin/users/:user_id/beliefs', { params: { user_id: 'c1e6d3a4-1b2c-4d5e-8f90-0a1b2c3d4e5f' } }))).toThrow(
      'get /v1/admin/users/:user_id/beliefs validates with the route of get /v1/admin/users/{user_id}/trust',
    );
  });
});

describe('DocsController', () => {
  const controller = new DocsController();

  it('serves the document at /docs/openapi.json', () => {
    expect(controller.openapi()).toBe(OPENAPI);
  });

  it('renders a page linking the spec and listing every operation', () => {
    const html = controller.docs();
    expect(html).toContain('href="/docs/openapi.json"');
    for (const { method, path } of documented) {
      expect(html).toContain(`<code>${method.toUpperCase()}</code></td><td><code>${path}</code>`);
    }
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.0\.0\.1)/);
  });

  it('escapes text', () => {
    const html = renderDocsHtml({ ...OPENAPI, info: { ...OPENAPI.info, title: '<b>x</b>' } });
    expect(html).toContain('&#60;b&#62;x&#60;/b&#62;');
  });
});
