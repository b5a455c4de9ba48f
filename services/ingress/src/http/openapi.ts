// The ingress API's OpenAPI 3.1 document, rendered by zod-openapi from the route
// table (routes.ts) and the zod schemas the controllers validate with (schemas.ts):
// nothing here restates a field.
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { isExempt } from './rate-limit.js';
import { E, HTTP_METHODS, ROUTES, type HttpMethod, type RouteSpec } from './routes.js';

/** A JSON Schema (OpenAPI 3.1 dialect), kept as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };

export interface OpenApiResponse {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema; example?: unknown }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  /** `[]` for a public endpoint; absent means the document's bearer JWT. */
  security?: Record<string, string[]>[];
  parameters?: JsonSchema[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, OpenApiResponse>;
}

export type OpenApiPathItem = Partial<Record<HttpMethod, OpenApiOperation>>;

/** An OpenAPI 3.1 document: a plain JSON-serialisable object. */
export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security: Record<string, string[]>[];
  paths: Record<string, OpenApiPathItem>;
  components: {
    securitySchemes: Record<string, JsonSchema>;
    schemas: Record<string, JsonSchema>;
  };
}

/**
 * One route as an OpenAPI operation. Every route the rate limits apply to answers
 * 429 as well: all but the dev routes, operations and docs (the same test as the
 * limits themselves).
 */
function operationOf(r: RouteSpec): ZodOpenApiOperationObject {
  const requestParams = { ...(r.params ? { path: r.params } : {}), ...(r.query ? { query: r.query } : {}) };
  return {
    operationId: r.operationId,
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    tags: [...r.tags],
    ...(r.public ? { security: [] } : {}),
    ...(r.params || r.query ? { requestParams: requestParams as ZodOpenApiOperationObject['requestParams'] } : {}),
    ...(r.body ? { requestBody: { required: r.body.required, content: { 'application/json': { schema: r.body.schema } } } } : {}),
    responses: {
      [r.ok.status]: {
        description: r.ok.description,
        ...(r.ok.headers ? { headers: r.ok.headers } : {}),
        content: { [r.ok.contentType ?? 'application/json']: { schema: r.ok.schema } },
      },
      ...r.errors,
      ...(isExempt(r.path) ? {} : { '429': E.rateLimited }),
    },
  };
}

function pathsOf(routes: readonly RouteSpec[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const r of routes) (paths[r.path] ??= {})[r.method] = operationOf(r);
  return paths;
}

/** The ingress HTTP API (../shared/API.md) as an OpenAPI 3.1 document, served at /docs/openapi.json. */
export const OPENAPI = createDocument({
  openapi: '3.1.0',
  info: {
    title: 'Hearth ingress API',
    version: '0.1.0',
    description:
      'The contract between Hearth and its clients. JSON in and out; every error is ' +
      '`{"error": {"code", "message", "details"}}`, and a request that fails changes nothing. ' +
      'Send `Authorization: Bearer <JWT>` (`sub` is the user id): an ID token, or a Cognito access token of the ' +
      'configured app client; role `admin` (in `roles` or `cognito:groups`) opens /v1/admin/*. Text fields refuse NUL ' +
      'and unpaired surrogates (422). Requests are rate limited (429 with `Retry-After`). The /v1/dev/* routes exist ' +
      'in dev mode only and are not limited.',
  },
  servers: [{ url: 'http://127.0.0.1:8080', description: 'Local default' }],
  tags: [
    { name: 'dev', description: 'Dev mode only (404 when HEARTH_ENV=production).' },
    { name: 'users', description: 'Users and onboarding.' },
    { name: 'chat', description: 'Conversations.' },
    { name: 'memories', description: 'What the companion knows about the user, and forgetting it (turn-pipeline §12).' },
    { name: 'retention', description: 'Proactive messages and their attribution (turn-pipeline §14).' },
    { name: 'beliefs', description: "The belief graph: the user's self-perceptions and the companion's self-beliefs (self-belief-decomposer.md, belief-challenge.md)." },
    { name: 'uncertainty', description: "Contradictions and uncertainties about the user's memories and beliefs, and their reliability (uncertainty-engine.md)." },
    { name: 'trust', description: 'Outcome-driven trust: learned trust per provenance actor, the outcomes it is learned from, and the tags (outcome-driven-trust.md).' },
    { name: 'admin', description: 'Admin and audit (role admin).' },
    { name: 'operations', description: 'Served by every service.' },
    { name: 'docs', description: 'This documentation.' },
  ],
  security: [{ bearerAuth: [] }],
  paths: pathsOf(Object.values(ROUTES)),
  components: {
    securitySchemes: {
      bearerAuth: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description:
          'Issuer, audience and JWKS are configured (AUTH_ISSUER, AUTH_AUDIENCE, AUTH_JWKS_URL); Cognito access tokens ' +
          '(token_use access, no aud) pass when their client_id is AUTH_CLIENT_ID.',
      },
    },
  },
}) as unknown as OpenApiDocument;

/** Every documented operation, in document order. */
export function operationsOf(doc: OpenApiDocument): { method: HttpMethod; path: string; operation: OpenApiOperation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
}
