import { ApiHttpException } from '@hearth/host';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { RouteSpec } from './routes.js';

/** One field a request got wrong, as `details.fields` of a 422 lists it (API.md). */
export interface FieldIssue {
  field: string;
  message: string;
}

// Without the `u` flag a regex sees UTF-16 code units, so a lone half of a pair is visible.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Why a string may not reach an event, or null when it may: NUL (Postgres text
 * refuses it) and unpaired surrogates (not UTF-8 encodable) would poison every
 * projection of the event (API.md: text fields refuse them).
 */
export function badText(s: string): string | null {
  if (s.includes('\u0000')) return 'must not contain NUL (U+0000)';
  if (UNPAIRED_SURROGATE.test(s)) return 'must not contain an unpaired UTF-16 surrogate';
  return null;
}

/** A key as a field path may show it: a bad key is shown with U+FFFD in place of the bad characters. */
function shownKey(key: string): string {
  return key.replaceAll('\u0000', '\uFFFD').replace(/[\uD800-\uDFFF]/g, (c, i: number, s: string) => {
    const code = c.charCodeAt(0);
    const paired = code < 0xdc00 ? /[\uDC00-\uDFFF]/.test(s[i + 1] ?? '') : /[\uD800-\uDBFF]/.test(s[i - 1] ?? '');
    return paired ? c : '\uFFFD';
  });
}

/**
 * Every string in a parsed JSON value (at any depth, object keys included) that
 * {@link badText} refuses, by its dotted path (`suppressed_topics.0`).
 */
export function badTextFields(value: unknown, path = ''): FieldIssue[] {
  const issues: FieldIssue[] = [];
  // An explicit stack, not recursion: a body nested 10,000 deep must be a 422, not a stack overflow.
  // Field-name issues ride the stack too, so issues come out in document order.
  const stack: ({ value: unknown; path: string; depth: number } | { issue: FieldIssue })[] = [{ value, path, depth: 0 }];
  while (stack.length > 0) {
    const item = stack.pop()!;
    if ('issue' in item) {
      issues.push(item.issue);
      continue;
    }
    const at = (key: string | number) => (item.path === '' ? String(key) : `${item.path}.${key}`);
    const v = item.value;
    if (typeof v === 'string') {
      const message = badText(v);
      if (message) issues.push({ field: item.path || '(body)', message });
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (item.depth >= MAX_DEPTH) {
      issues.push({ field: item.path || '(body)', message: `nested deeper than ${MAX_DEPTH} levels` });
      continue;
    }
    if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], path: at(i), depth: item.depth + 1 });
      continue;
    }
    for (const [k, child] of Object.entries(v).reverse()) {
      stack.push({ value: child, path: at(shownKey(k)), depth: item.depth + 1 });
      const keyMessage = badText(k);
      if (keyMessage) stack.push({ issue: { field: at(shownKey(k)), message: `field name ${keyMessage}` } });
    }
  }
  return issues;
}

/** No request of the API nests more than a few levels; deeper is a hostile body. */
const MAX_DEPTH = 32;

export function invalidFields(fields: FieldIssue[]): ApiHttpException {
  return new ApiHttpException(422, 'INVALID_FIELDS', fields.map((f) => `${f.field}: ${f.message}`).join('; '), { fields });
}

/** Refuses NUL and unpaired surrogates in named request parts (query strings, path parameters) with a 422. */
export function checkText(parts: Record<string, unknown>): void {
  const fields = Object.entries(parts).flatMap(([name, v]) => (v === undefined ? [] : badTextFields(v, name)));
  if (fields.length > 0) throw invalidFields(fields);
}

/**
 * Parses a request body with zod; a failure is a 422 naming each field. Every
 * string in the body is checked for NUL and unpaired surrogates first, so no
 * schema can let one through to an event.
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  if (value === undefined || value === null || typeof value !== 'object') {
    throw new ApiHttpException(400, 'BAD_REQUEST', 'expected a JSON object body');
  }
  const bad = badTextFields(value);
  if (bad.length > 0) throw invalidFields(bad);
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  throw invalidFields(r.error.issues.map((i) => ({ field: i.path.join('.') || '(body)', message: i.message })));
}

/** What a route validated: its path parameters, query string and body, as its schemas output them. */
export interface RequestOf<R extends RouteSpec> {
  params: R['params'] extends z.ZodType ? z.output<R['params']> : undefined;
  query: R['query'] extends z.ZodType ? z.output<R['query']> : undefined;
  body: R extends { body: { schema: infer S extends z.ZodType } } ? z.output<S> : undefined;
}

/** `/v1/x/{conversation_id}` as Fastify names the route: `/v1/x/:conversation_id`. */
function fastifyPath(path: string): string {
  return path.replace(/\{([^}]+)\}/g, ':$1');
}

// A route's `method url` as Fastify reports it, worked out once per route, not per request.
const servedKeys = new WeakMap<RouteSpec, string>();

function servedKeyOf(route: RouteSpec): string {
  let key = servedKeys.get(route);
  if (key === undefined) {
    key = `${route.method} ${fastifyPath(route.path)}`;
    servedKeys.set(route, key);
  }
  return key;
}

/**
 * A path parameter or query value with the schema of its part: a failure is a 422
 * naming the field, its message reading "<field> <what is wrong>".
 */
function parsePart<S extends z.ZodType>(schema: S, value: Record<string, unknown>): z.output<S> {
  // Only the parts the route reads: a stray query parameter is ignored, as its schema strips it.
  const shape = (schema as unknown as { shape?: Record<string, unknown> }).shape ?? value;
  checkText(Object.fromEntries(Object.keys(shape).map((k) => [k, value[k]])));
  const r = schema.safeParse(value);
  if (r.success) return r.data;
  const fields = r.error.issues.map((i) => ({ field: i.path.join('.') || '(request)', message: i.message }));
  throw new ApiHttpException(422, 'INVALID_FIELDS', fields.map((f) => `${f.field} ${f.message}`).join('; '), { fields });
}

/**
 * Validates a request with the schemas of the route it came in on (routes.ts, the
 * same the OpenAPI document shows), in the order path parameters, query, body.
 * A handler that names a route other than the one it serves is a programming
 * error, refused loudly: what it validated would not be what the document says.
 */
export function requestOf<R extends RouteSpec>(route: R, req: FastifyRequest, body?: unknown): RequestOf<R> {
  // Fastify serves HEAD with the GET route's handler.
  const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
  const served = `${method} ${req.routeOptions.url ?? ''}`;
  if (served !== servedKeyOf(route)) throw new Error(`${served} validates with the route of ${route.method} ${route.path}`);
  const params = route.params ? parsePart(route.params, req.params as Record<string, unknown>) : undefined;
  const query = route.query ? parsePart(route.query, req.query as Record<string, unknown>) : undefined;
  // A body that may be left out is an empty object when it is.
  const parsedBody = route.body ? parse(route.body.schema, body ?? (route.body.required ? body : {})) : undefined;
  return { params, query, body: parsedBody } as RequestOf<R>;
}
