// Every endpoint of API.md as data: route → how its auth, path, query and body are
// generated, valid and hostile values mixed, and what an answer teaches the fuzzer.
import fc from 'fast-check';
import { TOPIC_IDS } from '@hearth/text';
import type { HttpRequest, HttpResponse } from './http.js';
import { ABSENT, anyText, benignText, bodyOf, field, objectOf, POISON, poisonText, wrongType, type BodySpec } from './inputs.js';
import type { RequestFacts } from './recorder.js';
import { isRef, nth, resolve, type FuzzUser, type IdKind, type Ref, type World } from './world.js';

/** Who signs a request: the actor, the admin, nobody, or a token that is no token. */
export type AuthMode = 'self' | 'admin' | 'none' | 'garbage';

/** A request ready to send, and what to check of its answer. */
export interface Built extends RequestFacts {
  req: HttpRequest;
  /** A BOLA attempt: the statuses that refuse it, and whose data it aims at. */
  bola?: { attack: string; victim: string; accept: readonly number[] };
  /** Called with a 2xx answer: the fuzzer learns ids from it. */
  learn?: (res: HttpResponse) => void;
}

/** Marks a generated body that is valid but for a NUL or lone surrogate in one text field. */
export const POISONED = Symbol('poisoned');

/** One generated request: its row in the figures, and how it is built once the world exists. */
export interface Generated {
  route: string;
  /** Whom it may act as (default: the pool). */
  actors: 'pool' | 'erasable';
  actor: number;
  build(w: World, actor: FuzzUser): Built;
}

type QueryValue = string | Ref | (string | Ref)[] | typeof ABSENT;

interface Route {
  /** Share of the generated requests. */
  weight: number;
  auth: fc.Arbitrary<AuthMode>;
  params?: Record<string, fc.Arbitrary<string | Ref>>;
  query?: Record<string, fc.Arbitrary<QueryValue>>;
  /** The JSON body (valid and fuzzed values); no body when absent (POST/PUT/PATCH/DELETE get a stray one now and then). */
  body?: fc.Arbitrary<unknown>;
  /** The key of the string field the huge bodies fill. */
  bigKey?: string;
  actors?: 'pool' | 'erasable';
  /** What a 2xx answer teaches about the actor's own ids. */
  learn?: (actor: FuzzUser, res: HttpResponse) => void;
}

// ---- auth, ids and query values ----

const auth = (weights: Partial<Record<AuthMode, number>>): fc.Arbitrary<AuthMode> =>
  fc.oneof(...Object.entries(weights).map(([mode, weight]) => ({ weight, arbitrary: fc.constant(mode as AuthMode) })));
const USER_AUTH = auth({ self: 24, none: 1, garbage: 1, admin: 1 });
const ADMIN_AUTH = auth({ admin: 6, self: 3, none: 1, garbage: 1 });
const PUBLIC_AUTH = auth({ none: 6, self: 1, garbage: 1 });

/** Bearer values that are not tokens. */
const GARBAGE_TOKENS = ['x', 'a.b.c', 'eyJhbGciOiJub25lIn0.e30.', 'null', 'undefined', '....', 'Bearer', '%00', 'ey' + 'A'.repeat(4_000)];

/** Path segments that are not ids: empty, negative, huge, traversal, encoded NUL, SQL, lists, case and brace variants. */
const BAD_PATH_IDS = [
  '',
  'abc',
  '-1',
  '0',
  '99999999999999999999999999',
  '1e309',
  'null',
  'undefined',
  '..',
  '%2e%2e%2fme',
  '%00',
  '%ff',
  'a,b',
  '[]',
  '%7B%7D',
  '%27%20OR%201%3D1--',
  '00000000-0000-0000-0000-000000000000',
  'ffffffff-ffff-ffff-ffff-ffffffffffff',
  '%7Bd3b07384-d113-4ec6-a1c3-9a3ad4f4d1a2%7D',
  'D3B07384-D113-4EC6-A1C3-9A3AD4F4D1A2',
  'd3b07384d1134ec6a1c39a3ad4f4d1a2',
  'd3b07384-d113-4ec6-a1c3-9a3ad4f4d1a2%20',
  'd3b07384-d113-4ec6-a1c3-9a3ad4f4d1a2%00',
  'x'.repeat(5_000),
];

/** Encodes text for a path or query, lone surrogates included (as their CESU-8 bytes, which a server must refuse). */
function encodeText(s: string): string {
  try {
    return encodeURIComponent(s);
  } catch {
    return Array.from(s, (ch) => {
      const c = ch.charCodeAt(0);
      if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) return `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`;
      return encodeURIComponent(ch);
    }).join('');
  }
}

/** One of the actor's own ids (a random uuid while it has none). */
const own = (kind: IdKind): fc.Arbitrary<Ref> => fc.tuple(fc.nat(), fc.uuid()).map(([i, u]) => (_w: World, a: FuzzUser) => nth(a[kind], i) ?? u);
/** One of a victim's ids. */
const victims = (kind: IdKind): fc.Arbitrary<Ref> =>
  fc.tuple(fc.nat(), fc.nat(), fc.uuid()).map(([v, i, u]) => (w: World) => nth(nth(w.victims, v)?.[kind] ?? [], i) ?? u);
const selfId: fc.Arbitrary<Ref> = fc.constant((_w: World, a: FuzzUser) => a.id);
const victimId: fc.Arbitrary<Ref> = fc.nat().map((v) => (w: World) => nth(w.victims, v)?.id ?? '');
const badId: fc.Arbitrary<string> = fc.oneof(fc.constantFrom(...BAD_PATH_IDS), anyText(40).map(encodeText));

/** A path id: mostly the actor's own, else random, a victim's (BOLA in passing) or not an id at all. */
function idParam(kind: IdKind | 'user'): fc.Arbitrary<string | Ref> {
  return fc.oneof(
    { weight: 6, arbitrary: kind === 'user' ? selfId : own(kind) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 1, arbitrary: kind === 'user' ? victimId : victims(kind) },
    { weight: 2, arbitrary: badId },
  );
}

/** A query value: `valid`, absent, or hostile (negative, huge, text, repeated as an array). */
function queryParam(valid: fc.Arbitrary<string | Ref>, absentWeight = 3): fc.Arbitrary<QueryValue> {
  const hostile = fc.oneof(
    fc.constantFrom('', '-1', '0', '1.5', '1e10', '99999999999999999999', 'NaN', 'Infinity', '0x10', ' 5', 'true', 'null', '[]', '%00', 'x'.repeat(3_000)),
    anyText(64).map(encodeText),
  );
  return fc.oneof(
    { weight: 5, arbitrary: valid },
    { weight: absentWeight, arbitrary: fc.constant(ABSENT) },
    { weight: 2, arbitrary: hostile },
    { weight: 1, arbitrary: fc.array(fc.oneof(valid, hostile), { minLength: 2, maxLength: 3 }) },
  );
}

// ---- field values ----

const TIMEZONES = ['Asia/Seoul', 'UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Pacific/Chatham'];
const BAD_TIMEZONES = ['Mars/Olympus', 'UTC+25', '../../etc/localtime', 'asia/seoul', 'Etc/GMT+99', ''];
const timezone = fc.constantFrom(...TIMEZONES);
const topics = fc.subarray([...TOPIC_IDS], { maxLength: 4 });
const isoTime = fc.date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
/** Chat text that makes memories (so DELETE /v1/me/memories has ids of its own to forget). */
const MEMORY_TEXT = ['I work as a nurse at the hospital', 'I love hiking with my dog', 'my sister lives in Busan', 'I started learning the cello', 'I hate waking up early'];
const chatText = fc.oneof({ weight: 4, arbitrary: benignText }, { weight: 2, arbitrary: fc.constantFrom(...MEMORY_TEXT) });

const chatValid = fc.record({
  message_id: fc.uuid(),
  text: chatText.filter((t) => t.trim().length > 0 && t.length <= 4_000),
  client_timezone: fc.option(timezone, { nil: ABSENT }),
  client_locale: fc.option(fc.constantFrom('ko-KR', 'en', 'ar-EG', 'he-IL', 'zh-Hant-TW'), { nil: ABSENT }),
});
/** A valid message but for one text field carrying NUL or a lone surrogate (API.md: 422, and never a wedged user). */
const chatPoisoned = fc
  .tuple(chatValid, poisonText.filter((t) => t.length <= 4_000), fc.constantFrom(...Object.values(POISON)), fc.boolean())
  .map(([body, text, short, inLocale]) => ({ ...body, ...(inLocale ? { client_locale: short } : { text }), [POISONED]: true }));
const chatFuzz = objectOf({
  message_id: field(fc.oneof(fc.uuid(), own('messageIds'), victims('messageIds'))),
  text: field(fc.oneof(chatText, poisonText), 4_000),
  client_timezone: field(fc.oneof(timezone, fc.constantFrom(...BAD_TIMEZONES))),
  client_locale: field(fc.constantFrom('ko-KR', 'en-US'), 35),
});

const AGE_BANDS = ['13-17', '18-24', '25-34', '35-44', '45+', '25–34'];
const answersValid = fc.record({
  preferred_name: fc.oneof(fc.constantFrom('Mina', 'José', 'Zoë', '美咲', 'محمد', 'O\u2019Brien'), benignText.filter((t) => t.trim().length > 0 && t.length <= 64)),
  age_band: fc.constantFrom(...AGE_BANDS),
  country_or_region: fc.constantFrom('KR', 'US', 'kr', 'EG', 'IL', 'JP'),
  occupation_category: fc.constantFrom('student', 'working', 'between_jobs', 'other'),
  client_timezone: timezone,
  proactive_messages_enabled: fc.boolean(),
  suppressed_topics: topics,
});
const answersPoisoned = fc.tuple(answersValid, fc.constantFrom(...Object.values(POISON))).map(([a, name]) => ({ ...a, preferred_name: name, [POISONED]: true }));
const answersFuzz = objectOf({
  preferred_name: field(fc.constantFrom('Mina'), 64),
  age_band: field(fc.constantFrom(...AGE_BANDS, '12', '45-')),
  country_or_region: field(fc.constantFrom('KR', 'XX', 'KOR', 'k')),
  occupation_category: field(fc.constantFrom('working', 'astronaut')),
  client_timezone: field(fc.oneof(timezone, fc.constantFrom(...BAD_TIMEZONES))),
  proactive_messages_enabled: field(fc.boolean()),
  suppressed_topics: field(fc.oneof(topics, fc.array(fc.oneof(fc.constantFrom('NOT_A_TOPIC', 'politics'), wrongType), { maxLength: 3 }), fc.constant(Array(50).fill('POLITICS')))),
});

const controlsValid = fc
  .record({
    proactive_messages_enabled: fc.option(fc.boolean(), { nil: ABSENT }),
    mute_until: fc.option(fc.oneof(isoTime, fc.constant(null)), { nil: ABSENT }),
    suppressed_topics: fc.option(topics, { nil: ABSENT }),
  })
  .filter((p) => Object.values(p).some((v) => v !== ABSENT));
const controlsFuzz = objectOf({
  proactive_messages_enabled: field(fc.boolean()),
  mute_until: field(fc.oneof(isoTime, fc.constantFrom(null, '2026-13-45T25:61:00Z', 'tomorrow', '9999-12-31T23:59:59Z', '0000-01-01T00:00:00Z'))),
  suppressed_topics: field(fc.oneof(topics, fc.constant(['NOT_A_TOPIC']))),
});

const appOpenValid = fc.record({
  app_open_id: fc.option(fc.uuid(), { nil: ABSENT }),
  opened_notification_id: fc.option(own('notificationIds'), { nil: ABSENT }),
});
const appOpenFuzz = objectOf({
  app_open_id: field(fc.uuid()),
  opened_notification_id: field(fc.oneof(fc.uuid(), own('notificationIds'), own('replyIds'), victims('notificationIds'))),
});

/** Dev token bodies: never a victim's or the admin's id, so the fuzz cannot act as them. */
const devTokenBody = fc.oneof(
  fc.record({ user_id: fc.option(fc.uuid(), { nil: ABSENT }), roles: fc.option(fc.constantFrom([], ['admin']), { nil: ABSENT }) }),
  objectOf({ user_id: field(fc.uuid()), roles: field(fc.constantFrom(['admin'], ['root'], 'admin', [['admin']])) }),
);

/**
 * Clock bodies: a valid one moves the clock by at most a second, and no hostile one
 * is a valid larger number (a day forward would expire every token and wake retention).
 */
const clockBody = fc.oneof(
  fc.record({ advance_seconds: fc.constantFrom(0, 0.25, 1) }),
  objectOf({
    advance_seconds: fc.oneof(
      fc.constantFrom(-1, -0.001, -1e308, 315_360_001, 1e12, 1e308, '1', '0', 'NaN', '', null, true, [], {}, [1]),
      anyText(16),
    ),
  }),
);

const anyUuidOrBad = fc.oneof({ weight: 2, arbitrary: fc.uuid() }, { weight: 1, arbitrary: badId });

// ---- what answers teach ----

function learnChat(actor: FuzzUser, res: HttpResponse): void {
  const body = res.json as { message_id?: unknown; conversation_id?: unknown; assistant?: { message_id?: unknown } } | undefined;
  const add = (list: string[], id: unknown) => typeof id === 'string' && !list.includes(id) && list.push(id);
  add(actor.messageIds, body?.message_id);
  add(actor.replyIds, body?.assistant?.message_id);
  add(actor.conversations, body?.conversation_id);
}

function learnMemories(actor: FuzzUser, res: HttpResponse): void {
  const list = (res.json as { memories?: { memory_id?: unknown }[] } | undefined)?.memories;
  if (Array.isArray(list)) actor.memoryIds = list.flatMap((m) => (typeof m.memory_id === 'string' ? [m.memory_id] : []));
}

// ---- the table ----

/** API.md, endpoint by endpoint (and the admin retention view the ingress serves besides). */
export const ROUTES: Record<string, Route> = {
  'POST /v1/dev/token': { weight: 3, auth: PUBLIC_AUTH, body: devTokenBody, bigKey: 'user_id' },
  'GET /v1/dev/clock': { weight: 1, auth: USER_AUTH },
  'POST /v1/dev/clock': { weight: 2, auth: USER_AUTH, body: clockBody, bigKey: 'advance_seconds' },
  'POST /v1/me': { weight: 3, auth: USER_AUTH },
  'GET /v1/me': { weight: 3, auth: USER_AUTH },
  'DELETE /v1/me': { weight: 1, auth: USER_AUTH, actors: 'erasable' },
  'PUT /v1/me/onboarding': { weight: 6, auth: USER_AUTH, body: fc.oneof(answersValid, answersPoisoned, answersFuzz), bigKey: 'preferred_name' },
  'POST /v1/conversations/{conversation_id}/messages': {
    weight: 22,
    auth: USER_AUTH,
    params: { conversation_id: fc.oneof({ weight: 8, arbitrary: own('conversations') }, { weight: 3, arbitrary: idParam('conversations') }) },
    body: fc.oneof({ weight: 3, arbitrary: chatValid }, { weight: 1, arbitrary: chatPoisoned }, { weight: 2, arbitrary: chatFuzz }),
    learn: learnChat,
  },
  'GET /v1/conversations/{conversation_id}/messages': {
    weight: 8,
    auth: USER_AUTH,
    params: { conversation_id: idParam('conversations') },
    query: {
      limit: queryParam(fc.integer({ min: 1, max: 200 }).map(String)),
      before: queryParam(fc.oneof(own('messageIds'), own('replyIds'), isoTime, fc.uuid(), victims('messageIds')), 6),
    },
  },
  'GET /v1/me/memories': { weight: 4, auth: USER_AUTH, query: { status: queryParam(fc.constantFrom('all', 'active')) }, learn: learnMemories },
  'DELETE /v1/me/memories/{memory_id}': { weight: 4, auth: USER_AUTH, params: { memory_id: idParam('memoryIds') } },
  'GET /v1/me/controls': { weight: 3, auth: USER_AUTH },
  'PATCH /v1/me/controls': { weight: 6, auth: USER_AUTH, body: fc.oneof(controlsValid, controlsFuzz), bigKey: 'mute_until' },
  'GET /v1/me/relationship': { weight: 3, auth: USER_AUTH },
  'POST /v1/me/app-opens': { weight: 5, auth: USER_AUTH, body: fc.oneof(appOpenValid, appOpenFuzz), bigKey: 'opened_notification_id' },
  'GET /v1/me/export': { weight: 2, auth: USER_AUTH },
  'GET /v1/admin/users/{user_id}/timeline': { weight: 3, auth: ADMIN_AUTH, params: { user_id: idParam('user') } },
  'GET /v1/admin/users/{user_id}/retention': { weight: 2, auth: ADMIN_AUTH, params: { user_id: idParam('user') } },
  'GET /v1/admin/turns/{message_id}': { weight: 3, auth: ADMIN_AUTH, params: { message_id: fc.oneof(idParam('messageIds'), own('replyIds')) } },
  'GET /v1/admin/users/{user_id}/beliefs': {
    weight: 2,
    auth: ADMIN_AUTH,
    params: { user_id: idParam('user') },
    query: { holder: queryParam(fc.constantFrom('user', 'companion')) },
  },
  'GET /v1/admin/users/{user_id}/uncertainties': { weight: 2, auth: ADMIN_AUTH, params: { user_id: idParam('user') } },
  'GET /v1/admin/users/{user_id}/trust': { weight: 2, auth: ADMIN_AUTH, params: { user_id: idParam('user') } },
  'GET /v1/admin/dead-letters': { weight: 2, auth: ADMIN_AUTH },
  'POST /v1/admin/dead-letters/{event_id}/redrive': { weight: 2, auth: ADMIN_AUTH, params: { event_id: anyUuidOrBad } },
  'GET /healthz': { weight: 1, auth: PUBLIC_AUTH },
  'GET /readyz': { weight: 1, auth: PUBLIC_AUTH },
  'GET /metrics': { weight: 1, auth: PUBLIC_AUTH },
  'GET /docs': { weight: 1, auth: PUBLIC_AUTH },
  'GET /docs/openapi.json': { weight: 1, auth: PUBLIC_AUTH },
};

/** The routes the table covers, as `METHOD /path/{param}`. */
export const ROUTE_KEYS = Object.keys(ROUTES);

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The Authorization header of a mode. */
function authHeader(mode: AuthMode, w: World, actor: FuzzUser, garbage: number): Record<string, string> {
  if (mode === 'none') return {};
  if (mode === 'garbage') return { authorization: `Bearer ${nth(GARBAGE_TOKENS, garbage)!}` };
  return { authorization: `Bearer ${mode === 'admin' ? w.admin.token : actor.token}` };
}

function queryString(query: Record<string, QueryValue>, w: World, actor: FuzzUser): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(query)) {
    if (v === ABSENT) continue;
    for (const one of Array.isArray(v) ? v : [v]) parts.push(`${k}=${isRef(one) ? encodeText(one(w, actor)) : one}`);
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** A stray body for a route that takes none: empty JSON, or anything. */
const strayBody = fc.option(fc.oneof(fc.constant({}), fc.jsonValue({ maxDepth: 2 })), { freq: 3 });

/**
 * What API.md says a request must get, where the fuzz can tell: a JSON body past the
 * limit is 413; a valid body but for NUL or a lone surrogate, sent by its user, is 422.
 */
function expectation(d: { auth: AuthMode; body: BodySpec | null }, req: HttpRequest, bodyLimit: number): Built['expect'] {
  if (d.body?.contentType !== 'application/json' || req.body === undefined) return undefined;
  const bytes = typeof req.body === 'string' ? Buffer.byteLength(req.body) : req.body.length;
  if (bytes > bodyLimit) return { what: 'a body past the limit', statuses: [413] };
  const value = d.body.value as Record<PropertyKey, unknown> | undefined;
  if (d.auth === 'self' && value?.[POISONED]) return { what: 'NUL or a lone surrogate in a text field', statuses: [422] };
  return undefined;
}

/** The arbitrary of one route's requests. */
function routeArbitrary(key: string, route: Route, bodyLimit: number): fc.Arbitrary<Generated> {
  const [method, template] = key.split(' ') as [string, string];
  const takesBody = BODY_METHODS.has(method);
  const body: fc.Arbitrary<BodySpec | null> = !takesBody
    ? fc.constant(null)
    : route.body
      ? bodyOf(route.body, bodyLimit, route.bigKey)
      : strayBody.chain((v) => (v === null ? fc.constant(null) : bodyOf(fc.constant(v), bodyLimit)));
  return fc
    .record({
      actor: fc.nat(),
      auth: route.auth,
      garbage: fc.nat(),
      params: fc.record(route.params ?? {}),
      query: fc.record(route.query ?? {}),
      body,
    })
    .map((d) => ({
      route: key,
      actors: route.actors ?? 'pool',
      actor: d.actor,
      build(w: World, actor: FuzzUser): Built {
        const path = template.replace(/\{(\w+)\}/g, (_m, name: string) => {
          const p = d.params[name];
          return p === undefined ? '' : isRef(p) ? encodeText(p(w, actor)) : p;
        });
        const headers: Record<string, string> = { ...authHeader(d.auth, w, actor, d.garbage) };
        if (d.body?.contentType !== undefined) headers['content-type'] = d.body.contentType;
        const body = d.body === null ? undefined : d.body.kind === 'json' ? JSON.stringify(resolve(d.body.value, w, actor)) : d.body.raw;
        const req: HttpRequest = { method, path: path + queryString(d.query, w, actor), headers, body };
        return { req, kind: d.body?.kind ?? 'no body', expect: expectation(d, req, bodyLimit), learn: route.learn && ((res) => route.learn!(actor, res)) };
      },
    }));
}

const STRAY_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const STRAY_PATHS = [
  '/',
  '/v1',
  '/v1/',
  '/v2/me',
  '/v1/me/',
  '/v1//me',
  '/V1/ME',
  '/v1/me/../admin/dead-letters',
  '/v1/me/%2e%2e/admin/dead-letters',
  '/v1/me%00',
  '/v1/me;admin',
  '/v1/me?__proto__[admin]=1',
  '/v1/conversations',
  '/v1/conversations//messages',
  '/v1/admin',
  '/v1/admin/users',
  '/v1/dev',
  '/.env',
  '/docs/../package.json',
  `/v1/${'a/'.repeat(2_000)}`,
  `/v1/me?${'x=1&'.repeat(3_000)}`,
];

/** Unknown routes and known paths with the wrong method. */
const stray: fc.Arbitrary<Generated> = fc
  .record({
    method: fc.constantFrom(...STRAY_METHODS),
    path: fc.oneof(fc.constantFrom(...STRAY_PATHS), fc.constantFrom(...ROUTE_KEYS.map((k) => k.split(' ')[1]!.replace(/\{\w+\}/g, 'd3b07384-d113-4ec6-a1c3-9a3ad4f4d1a2')))),
    auth: USER_AUTH,
    garbage: fc.nat(),
    actor: fc.nat(),
  })
  .map((d) => ({
    route: '(unknown route or method)',
    actors: 'pool' as const,
    actor: d.actor,
    build: (w: World, actor: FuzzUser): Built => ({ req: { method: d.method, path: d.path, headers: authHeader(d.auth, w, actor, d.garbage) } }),
  }));

/** Every route's requests, weighted as the table says, with `extra` (the BOLA attempts) mixed in. */
export function requestArbitrary(bodyLimit: number, extra: { weight: number; arbitrary: fc.Arbitrary<Generated> }[]): fc.Arbitrary<Generated> {
  return fc.oneof(
    ...Object.entries(ROUTES).map(([key, route]) => ({ weight: route.weight, arbitrary: routeArbitrary(key, route, bodyLimit) })),
    { weight: 3, arbitrary: stray },
    ...extra,
  );
}
