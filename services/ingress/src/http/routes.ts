// Every route the ingress process serves, as data: method, path, auth, what it
// validates (path parameters, query string, body), what it answers and its errors.
// The controllers validate with these entries' schemas (validation.ts `requestOf`)
// and return their `ok` bodies; openapi.ts renders the document from them.
import type { z } from 'zod';
import type { ZodOpenApiResponseObject } from 'zod-openapi';
import { INGRESS } from '../config.js';
import {
  AdvanceClockRequest,
  AppOpen,
  AppOpenRequest,
  BeliefGraph,
  BeliefsQuery,
  Clock,
  Controls,
  ControlsPatchRequest,
  ConversationIdParams,
  DeadLetters,
  DevToken,
  DevTokenRequest,
  Erasure,
  ErrorBody,
  EventIdParams,
  Export,
  Health,
  History,
  HistoryQuery,
  Memory,
  MemoryIdParams,
  MemoryList,
  MemoriesQuery,
  OnboardingAnswersRequest,
  OpenApiJson,
  PostMessageRequest,
  Profile,
  Readiness,
  Redrive,
  Relationship,
  Retention,
  TextBody,
  Timeline,
  Trust,
  TurnIdParams,
  TurnReply,
  TurnTrail,
  Uncertainties,
  UserIdParams,
} from './schemas.js';

/** The HTTP methods an OpenAPI path item may hold. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** One served route. */
export interface RouteSpec {
  method: HttpMethod;
  /** The OpenAPI path template, e.g. `/v1/me/memories/{memory_id}`. */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: readonly string[];
  /** No bearer token needed. @default false */
  public?: boolean;
  /** The path parameters, by their names in `path`. */
  params?: z.ZodType;
  query?: z.ZodType;
  /** The JSON body; `required: false` when it may be left out. */
  body?: { schema: z.ZodType; required: boolean };
  /** The success answer: the status the route answers with and its body. */
  ok: {
    status: '200' | '202';
    description: string;
    schema: z.ZodType;
    /** @default 'application/json' */
    contentType?: string;
    headers?: Record<string, { description: string; schema: { type: 'string' } }>;
  };
  /** The error answers, by status. */
  errors: Record<string, ZodOpenApiResponseObject>;
}

/**
 * A value as the compiler ties it to its schema: enum members widen to string, as
 * the app passes the other services' protobuf strings through (the shape test checks
 * the values against the document).
 */
type Widened<T> = T extends string ? string : T extends readonly (infer U)[] ? Widened<U>[] : T extends object ? { [K in keyof T]: Widened<T[K]> } : T;

/** What `ok.schema` of a route says its handler answers: the return type of its controller method. */
export type OkBody<R extends RouteSpec> = Widened<z.output<R['ok']['schema']>>;

const route = <const R extends RouteSpec>(r: R): R => r;

/** An error answer in the API's shape, with the `code` it carries. */
function error(code: string, description: string): ZodOpenApiResponseObject {
  return { description, content: { 'application/json': { schema: ErrorBody, example: { error: { code, message: description } } } } };
}

/** What every admin read of a user's data says about the access trail. */
const ACCESS_TRAIL =
  "Before the answer is sent, the read is recorded in the user's access trail (an AdminAccessed event: admin, route, " +
  'resource, time), which their timeline and GET /v1/me/export show; when it cannot be recorded, nothing is returned (503).';

export const E = {
  badRequest: error('BAD_REQUEST', 'Malformed request: the body is not a JSON object, or not valid JSON.'),
  unauthenticated: error('UNAUTHENTICATED', 'Missing, malformed, expired or otherwise invalid bearer token.'),
  tooLarge: error('PAYLOAD_TOO_LARGE', 'The request body exceeds the configured limit (HTTP_BODY_LIMIT_BYTES, 64 KiB by default).'),
  invalid: error('INVALID_FIELDS', 'One or more fields are invalid; `details.fields` lists `{field, message}` for each.'),
  catchingUp: error('UNAVAILABLE', 'The user state is catching up with the event log; retry shortly.'),
  userNotFound: error('USER_NOT_FOUND', 'No such user: create it first with POST /v1/me.'),
  notRecorded: error('UNAVAILABLE', "The read could not be recorded in the user's access trail; nothing was returned. Retry shortly."),
  devOnly: error('NOT_FOUND', 'Dev mode is off (HEARTH_ENV=production): the route does not exist.'),
  notAdmin: error('FORBIDDEN', 'The token lacks the admin role.'),
  rateLimited: {
    description:
      'Rate limited (API.md): per user 30 chat messages a minute (burst 10) and 300 other requests a minute; per client ' +
      'address 30 requests without a valid token a minute (RATE_LIMIT_* settings). `Retry-After` gives the seconds to wait.',
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } } },
    content: {
      'application/json': {
        schema: ErrorBody,
        example: { error: { code: 'RATE_LIMITED', message: 'too many requests; retry in 12 s', details: { retry_after_seconds: 12 } } },
      },
    },
  } satisfies ZodOpenApiResponseObject,
};

export const ROUTES = {
  createDevToken: route({
    method: 'post',
    path: '/v1/dev/token',
    operationId: 'createDevToken',
    summary: 'Mint a dev token (dev mode only)',
    tags: ['dev'],
    public: true,
    body: { schema: DevTokenRequest, required: false },
    ok: { status: '200', description: 'A signed token for the user.', schema: DevToken },
    errors: { '400': E.badRequest, '404': E.devOnly, '413': E.tooLarge, '422': E.invalid },
  }),
  getDevClock: route({
    method: 'get',
    path: '/v1/dev/clock',
    operationId: 'getDevClock',
    summary: 'Read the virtual clock (dev mode only; any valid token)',
    tags: ['dev'],
    ok: { status: '200', description: 'The current virtual time.', schema: Clock },
    errors: { '401': E.unauthenticated, '404': E.devOnly },
  }),
  advanceDevClock: route({
    method: 'post',
    path: '/v1/dev/clock',
    operationId: 'advanceDevClock',
    summary: 'Advance the virtual clock of every service (dev mode only; any valid token)',
    tags: ['dev'],
    body: { schema: AdvanceClockRequest, required: true },
    ok: { status: '200', description: 'The virtual time after the advance.', schema: Clock },
    errors: {
      '400': E.badRequest,
      '401': E.unauthenticated,
      '404': error('NOT_FOUND', 'Dev mode is off, or this process has no virtual clock.'),
      '413': E.tooLarge,
      '422': E.invalid,
    },
  }),
  createMe: route({
    method: 'post',
    path: '/v1/me',
    operationId: 'createMe',
    summary: 'Create the calling user (idempotent)',
    description:
      'Creates the user of the token `sub` in state CREATED; calling it again changes nothing. ' +
      'No body is needed; one sent as application/json must still be valid JSON.',
    tags: ['users'],
    ok: { status: '200', description: "The user's profile.", schema: Profile },
    errors: { '400': E.badRequest, '401': E.unauthenticated, '413': E.tooLarge, '503': E.catchingUp },
  }),
  getMe: route({
    method: 'get',
    path: '/v1/me',
    operationId: 'getMe',
    summary: "The calling user's profile",
    tags: ['users'],
    ok: { status: '200', description: "The user's profile.", schema: Profile },
    errors: { '401': E.unauthenticated, '404': E.userNotFound },
  }),
  eraseMe: route({
    method: 'delete',
    path: '/v1/me',
    operationId: 'eraseMe',
    summary: 'Erase the calling user and everything held about them',
    description:
      "Crypto-shredding (ARCHITECTURE.md): the user's data key is destroyed, so no event about them can be read again, " +
      'and every service deletes their rows. Within 10 s GET /v1/me is 404 and the history, memories and export are gone; ' +
      'the admin timeline keeps only event types and times. The same request again returns the same erasure; ' +
      'POST /v1/me afterwards starts a new, empty user.',
    tags: ['users'],
    ok: { status: '202', description: 'Accepted (status accepted), or done in every service (status completed).', schema: Erasure },
    errors: {
      '401': E.unauthenticated,
      '404': error('USER_NOT_FOUND', 'No such user, and no erasure of one.'),
      '503': error('ERASURE_UNAVAILABLE', 'Event encryption is off in this deployment: nothing could be made unreadable.'),
    },
  }),
  answerOnboarding: route({
    method: 'put',
    path: '/v1/me/onboarding',
    operationId: 'answerOnboarding',
    summary: 'Answer onboarding (CREATED or ONBOARDING users)',
    description:
      `Moves the user to ONBOARDING and assigns an AI friend. Answers identical to the stored ones change nothing. ` +
      `Waits up to ${INGRESS.personaWaitMs / 1000} s for the persona; it may still be null.`,
    tags: ['users'],
    body: { schema: OnboardingAnswersRequest, required: true },
    ok: { status: '200', description: 'The profile with user_state ONBOARDING, ai_friend_id and (usually) persona.', schema: Profile },
    errors: {
      '400': E.badRequest,
      '401': E.unauthenticated,
      '404': E.userNotFound,
      '409': error('ONBOARDING_COMPLETED', 'The user is ACTIVE: onboarding is complete.'),
      '413': E.tooLarge,
      '422': E.invalid,
      '503': E.catchingUp,
    },
  }),
  getMyRelationship: route({
    method: 'get',
    path: '/v1/me/relationship',
    operationId: 'getMyRelationship',
    summary: "The calling user's relationship with their companion",
    description:
      'Stage, rapport and sessions as they read now (inactivity decay applied). Before the first chat message ' +
      'the answer is the initial relationship: STRANGER, 0, 0, null, null.',
    tags: ['users'],
    ok: { status: '200', description: 'The relationship.', schema: Relationship },
    errors: { '401': E.unauthenticated, '404': E.userNotFound, '503': error('UNAVAILABLE', 'The orchestrator did not answer; retry shortly.') },
  }),
  listMyMemories: route({
    method: 'get',
    path: '/v1/me/memories',
    operationId: 'listMyMemories',
    summary: 'What the companion knows about the calling user',
    description:
      'ACTIVE memories; with ?status=all also SUPERSEDED and INVALID ones, with superseded_by. A memory appears ' +
      'moments after the reply to the message it came from (memory writes back after the turn).',
    tags: ['memories'],
    query: MemoriesQuery,
    ok: { status: '200', description: 'The memories.', schema: MemoryList },
    errors: {
      '401': E.unauthenticated,
      '404': E.userNotFound,
      '422': E.invalid,
      '503': error('UNAVAILABLE', 'The memory service did not answer; retry shortly.'),
    },
  }),
  forgetMyMemory: route({
    method: 'delete',
    path: '/v1/me/memories/{memory_id}',
    operationId: 'forgetMyMemory',
    summary: 'Forget one memory',
    description:
      'As "forget that" (turn-pipeline §12.4): the memory becomes INVALID, its key is suppressed, and it is never ' +
      "used again. Idempotent. Only the owner can: another user's memory is 404, like one that does not exist.",
    tags: ['memories'],
    params: MemoryIdParams,
    ok: { status: '200', description: 'The memory, now INVALID.', schema: Memory },
    errors: {
      '401': E.unauthenticated,
      '404': error('MEMORY_NOT_FOUND', 'No such memory of the caller (or no such user).'),
      '422': E.invalid,
      '503': error('UNAVAILABLE', 'The memory service did not answer; retry shortly.'),
    },
  }),
  exportMe: route({
    method: 'get',
    path: '/v1/me/export',
    operationId: 'exportMe',
    summary: 'Everything held about the calling user, as one JSON document',
    description:
      'An attachment (Content-Disposition) streamed as it is read: profile with answers, controls, relationship, every ' +
      'conversation with its messages, memories of every status, beliefs, uncertainties, trust, retention and the ' +
      "admin reads of the user's data. Only the caller's own data. If the export fails after it started, the " +
      'connection is closed: the truncated body is not valid JSON.',
    tags: ['users'],
    ok: {
      status: '200',
      description: 'The export.',
      schema: Export,
      headers: { 'Content-Disposition': { description: 'attachment; filename="hearth-export-<user_id>.json"', schema: { type: 'string' } } },
    },
    errors: {
      '401': E.unauthenticated,
      '404': error('USER_NOT_FOUND', 'No such user (never created, or erased).'),
      '503': error('UNAVAILABLE', 'A service the export reads (memory, orchestrator, belief graph, uncertainty, trust, retention) did not answer; retry shortly.'),
    },
  }),
  getMyControls: route({
    method: 'get',
    path: '/v1/me/controls',
    operationId: 'getMyControls',
    summary: "The calling user's controls",
    tags: ['users'],
    ok: { status: '200', description: 'The controls.', schema: Controls },
    errors: { '401': E.unauthenticated, '404': E.userNotFound },
  }),
  patchMyControls: route({
    method: 'patch',
    path: '/v1/me/controls',
    operationId: 'patchMyControls',
    summary: "Change the calling user's controls",
    description: 'Applies from the next turn. A change that changes nothing appends nothing.',
    tags: ['users'],
    body: { schema: ControlsPatchRequest, required: true },
    ok: { status: '200', description: 'The controls after the change.', schema: Controls },
    errors: {
      '400': E.badRequest,
      '401': E.unauthenticated,
      '404': E.userNotFound,
      '409': error('ONBOARDING_REQUIRED', 'Controls exist once onboarding is answered.'),
      '413': E.tooLarge,
      '422': E.invalid,
      '503': E.catchingUp,
    },
  }),
  recordAppOpen: route({
    method: 'post',
    path: '/v1/me/app-opens',
    operationId: 'recordAppOpen',
    summary: 'Record that the app was opened',
    description:
      'For retention attribution (turn-pipeline §14.2): an open within 24 h of a proactive message acknowledges it, ' +
      'by the notification that opened the app or, without one, when exactly one was delivered in that time.',
    tags: ['retention'],
    body: { schema: AppOpenRequest, required: false },
    ok: { status: '202', description: 'Recorded.', schema: AppOpen },
    errors: {
      '400': E.badRequest,
      '401': E.unauthenticated,
      '404': error('NOTIFICATION_NOT_FOUND', "Not one of the caller's proactive messages (or, as USER_NOT_FOUND, no such user)."),
      '413': E.tooLarge,
      '422': E.invalid,
      '503': E.catchingUp,
    },
  }),
  postMessage: route({
    method: 'post',
    path: '/v1/conversations/{conversation_id}/messages',
    operationId: 'postMessage',
    summary: 'Send a chat message and get the reply',
    description:
      'The same message_id again returns the identical body and does nothing else; the same message_id with ' +
      'different text (or conversation) is 409. A CREATED user gets pipeline REFUSAL and an instruction to ' +
      'finish onboarding, and that message is not added to the history.',
    tags: ['chat'],
    params: ConversationIdParams,
    body: { schema: PostMessageRequest, required: true },
    ok: { status: '200', description: 'The completed turn.', schema: TurnReply },
    errors: {
      '400': E.badRequest,
      '401': E.unauthenticated,
      '403': error('FORBIDDEN', 'This conversation belongs to another user.'),
      '404': E.userNotFound,
      '409': error('MESSAGE_ID_CONFLICT', 'This message_id was already used for a different message.'),
      '413': E.tooLarge,
      '422': {
        description:
          'INVALID_FIELDS: a field is invalid (NUL and unpaired surrogates included). TURN_FAILED: an event of this turn was ' +
          'quarantined after its retries (details: event_id, service); the turn will not complete, the next message works.',
        content: { 'application/json': { schema: ErrorBody } },
      },
      '503': E.catchingUp,
      '504': error('TURN_TIMEOUT', 'The reply took too long (TURN_TIMEOUT_MS); send the same message_id again to get it.'),
    },
  }),
  listMessages: route({
    method: 'get',
    path: '/v1/conversations/{conversation_id}/messages',
    operationId: 'listMessages',
    summary: 'The visible history of a conversation, oldest first',
    description: 'The newest `limit` messages before `before`, proactive (retention) messages included.',
    tags: ['chat'],
    params: ConversationIdParams,
    query: HistoryQuery,
    ok: { status: '200', description: 'The messages.', schema: History },
    errors: { '401': E.unauthenticated, '403': error('FORBIDDEN', 'This conversation belongs to another user.'), '422': E.invalid },
  }),
  getUserTimeline: route({
    method: 'get',
    path: '/v1/admin/users/{user_id}/timeline',
    operationId: 'getUserTimeline',
    summary: 'Every event about a user, in order (role admin)',
    description: `Erased events show as {type, event_id, occurred_at, service, payload: null, erased: true}. ${ACCESS_TRAIL}`,
    tags: ['admin'],
    params: UserIdParams,
    ok: { status: '200', description: 'The events of every service about the user.', schema: Timeline },
    errors: { '401': E.unauthenticated, '403': E.notAdmin, '422': E.invalid, '503': E.notRecorded },
  }),
  getUserRetention: route({
    method: 'get',
    path: '/v1/admin/users/{user_id}/retention',
    operationId: 'getUserRetention',
    summary: "A user's proactive messages, backoff and last evaluation (role admin)",
    description: ACCESS_TRAIL,
    tags: ['admin', 'retention'],
    params: UserIdParams,
    ok: { status: '200', description: 'The retention state of the user.', schema: Retention },
    errors: {
      '401': E.unauthenticated,
      '403': E.notAdmin,
      '404': error('USER_NOT_FOUND', 'No such user.'),
      '422': E.invalid,
      '503': error('UNAVAILABLE', 'The retention service did not answer, or the read could not be recorded; retry shortly.'),
    },
  }),
  getUserBeliefs: route({
    method: 'get',
    path: '/v1/admin/users/{user_id}/beliefs',
    operationId: 'getUserBeliefs',
    summary: "A user's belief graph: nodes, links, conflicts and challenges (role admin)",
    description: `The user's self-perceptions (holder user) and their companion's self-beliefs (holder companion). ${ACCESS_TRAIL}`,
    tags: ['admin', 'beliefs'],
    params: UserIdParams,
    query: BeliefsQuery,
    ok: { status: '200', description: 'The belief graph of the user (empty lists for a user with no beliefs yet).', schema: BeliefGraph },
    errors: {
      '401': E.unauthenticated,
      '403': E.notAdmin,
      '404': error('USER_NOT_FOUND', 'No such user.'),
      '422': error('INVALID_FIELDS', 'user_id is not a uuid, or holder is not user or companion or is given more than once; `details.fields` names it.'),
      '503': error('UNAVAILABLE', 'The belief graph did not answer, or the read could not be recorded; retry shortly.'),
    },
  }),
  getUserUncertainties: route({
    method: 'get',
    path: '/v1/admin/users/{user_id}/uncertainties',
    operationId: 'getUserUncertainties',
    summary: "A user's uncertainties and the companion's tolerance (role admin)",
    description: `Contradictions and solo uncertainties about the user's memories and beliefs, in every state (uncertainty-engine.md). ${ACCESS_TRAIL}`,
    tags: ['admin', 'uncertainty'],
    params: UserIdParams,
    ok: { status: '200', description: 'The uncertainties of the user (an empty list for a user with none yet).', schema: Uncertainties },
    errors: {
      '401': E.unauthenticated,
      '403': E.notAdmin,
      '404': error('USER_NOT_FOUND', 'No such user.'),
      '422': E.invalid,
      '503': error('UNAVAILABLE', 'The uncertainty service did not answer, or the read could not be recorded; retry shortly.'),
    },
  }),
  getUserTrust: route({
    method: 'get',
    path: '/v1/admin/users/{user_id}/trust',
    operationId: 'getUserTrust',
    summary: "The companion's learned trust, outcomes and tags for a user (role admin)",
    description: `Trust per provenance actor, the evaluated outcomes of the belief gardener's decisions, and every tag (outcome-driven-trust.md). ${ACCESS_TRAIL}`,
    tags: ['admin', 'trust'],
    params: UserIdParams,
    ok: { status: '200', description: 'The trust state of the user (both actors at their initial trust, and empty lists, before any tag).', schema: Trust },
    errors: {
      '401': E.unauthenticated,
      '403': E.notAdmin,
      '404': error('USER_NOT_FOUND', 'No such user.'),
      '422': E.invalid,
      '503': error('UNAVAILABLE', 'The trust service did not answer, or the read could not be recorded; retry shortly.'),
    },
  }),
  getTurnTrail: route({
    method: 'get',
    path: '/v1/admin/turns/{message_id}',
    operationId: 'getTurnTrail',
    summary: 'The decision trail of one turn (role admin)',
    description:
      'Packet, routing, retrieved and surfaced memories, plan, gate verdicts, the LLM record, the relationship ' +
      `update and the writebacks of the turn, with every event correlated with it. ${ACCESS_TRAIL}`,
    tags: ['admin'],
    params: TurnIdParams,
    ok: { status: '200', description: 'The trail of the turn.', schema: TurnTrail },
    errors: {
      '401': E.unauthenticated,
      '403': E.notAdmin,
      '404': error('TURN_NOT_FOUND', 'No turn with this message_id.'),
      '422': E.invalid,
      '503': E.notRecorded,
    },
  }),
  listDeadLetters: route({
    method: 'get',
    path: '/v1/admin/dead-letters',
    operationId: 'listDeadLetters',
    summary: 'Quarantined events not redriven since (role admin)',
    description:
      'Events a service gave up on after its retries: on the dead-letter stream with the error, recorded by the consumer, ' +
      'which moved past them (ARCHITECTURE.md "Poison events never wedge a user"). One entry per event and consumer. ' +
      ACCESS_TRAIL.replace("the user's", "each listed user's"),
    tags: ['admin'],
    ok: { status: '200', description: 'Quarantined events, oldest first.', schema: DeadLetters },
    errors: { '401': E.unauthenticated, '403': E.notAdmin, '503': E.notRecorded },
  }),
  redriveDeadLetter: route({
    method: 'post',
    path: '/v1/admin/dead-letters/{event_id}/redrive',
    operationId: 'redriveDeadLetter',
    summary: 'Apply a quarantined event after all (role admin)',
    description: 'Asks every consumer that quarantined the event to apply it now; each answers whether it could.',
    tags: ['admin'],
    params: EventIdParams,
    ok: { status: '200', description: 'What each consumer did.', schema: Redrive },
    errors: {
      '401': E.unauthenticated,
      '403': E.notAdmin,
      '404': error('DEAD_LETTER_NOT_FOUND', 'No dead letter awaiting redrive for this event.'),
      '422': E.invalid,
    },
  }),
  healthz: route({
    method: 'get',
    path: '/healthz',
    operationId: 'healthz',
    summary: 'Liveness: the process is up',
    tags: ['operations'],
    public: true,
    ok: { status: '200', description: 'Alive.', schema: Health },
    errors: {},
  }),
  readyz: route({
    method: 'get',
    path: '/readyz',
    operationId: 'readyz',
    summary: 'Readiness: NATS and the database answer, every consumer is bound',
    tags: ['operations'],
    public: true,
    ok: { status: '200', description: 'Ready to serve.', schema: Readiness },
    errors: { '503': error('NOT_READY', 'Not ready (or shutting down); `details` holds the checks.') },
  }),
  metrics: route({
    method: 'get',
    path: '/metrics',
    operationId: 'metrics',
    summary: 'Prometheus metrics',
    tags: ['operations'],
    public: true,
    ok: { status: '200', description: 'Prometheus text exposition format 0.0.4.', schema: TextBody, contentType: 'text/plain' },
    errors: {},
  }),
  docs: route({
    method: 'get',
    path: '/docs',
    operationId: 'docs',
    summary: 'This API, as a readable HTML page',
    tags: ['docs'],
    public: true,
    ok: { status: '200', description: 'An HTML page.', schema: TextBody, contentType: 'text/html' },
    errors: {},
  }),
  openapi: route({
    method: 'get',
    path: '/docs/openapi.json',
    operationId: 'openapi',
    summary: 'This OpenAPI 3.1 document',
    tags: ['docs'],
    public: true,
    ok: { status: '200', description: 'The OpenAPI document.', schema: OpenApiJson },
    errors: {},
  }),
} satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof ROUTES;
