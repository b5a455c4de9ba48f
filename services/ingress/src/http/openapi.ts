import { SERVICE_NAMES } from '@hearth/bus';
import { INGRESS } from '../config.js';
import { BELIEF_HOLDERS } from '../app/beliefs-view.js';
import { INITIAL_BACKOFF_MULTIPLIER } from '../app/retention-view.js';
import { AGE_BANDS, OCCUPATIONS, REQUIRED_ANSWERS } from '../users/answers.js';
import { TOPIC_IDS } from '@hearth/text';
import {
  RELIABILITY_STATES,
  SEVERITIES,
  UNCERTAINTY_CONFIG,
  type DetectionContext,
  type Strategy,
  type UncertaintyState,
  type UncertaintyType,
} from '@hearth/uncertainty';
import { ACTORS, HORIZONS, TAGS, TRUST_CONFIG, type FeedbackReason } from '@hearth/trust';
import type { UserState } from '../users/user.js';
import { isExempt } from './rate-limit.js';

/** A JSON Schema (OpenAPI 3.1 dialect), kept as a plain object. */
export type JsonSchema = { [keyword: string]: unknown };

/** The HTTP methods an OpenAPI path item may hold. */
export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

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

// Compile-time complete: adding a UserState without listing it here fails tsc.
const USER_STATE_SET = { CREATED: true, ONBOARDING: true, ACTIVE: true } satisfies Record<UserState, true>;
const USER_STATES = Object.keys(USER_STATE_SET) as UserState[];

// The values of uncertainty-engine.md's `uncertainties` table; compile-time complete as USER_STATE_SET.
const UNCERTAINTY_TYPES = Object.keys({ contradiction: true, unverified: true, stale: true, ambiguous: true } satisfies Record<UncertaintyType, true>);
const UNCERTAINTY_STATES = Object.keys({ open: true, surfaced: true, resolved: true, decayed: true } satisfies Record<UncertaintyState, true>);
const DETECTION_CONTEXTS = Object.keys({ ingestion: true, drift: true, pre_action: true, consolidation: true } satisfies Record<DetectionContext, true>);
const STRATEGIES = Object.keys(
  { temporal_supersede: true, user_clarified: true, evidence_resolved: true, confidence_dominance: true, decayed: true } satisfies Record<Strategy, true>,
);

// Why a tag counts or not (outcome-driven-trust.md §3); compile-time complete as USER_STATE_SET.
const FEEDBACK_REASONS = Object.keys({ counted: true, duplicate: true, off_target: true, no_belief: true } satisfies Record<FeedbackReason, true>);

// The stages of turn-pipeline §2.5, in promotion order.
const RELATIONSHIP_STAGES = ['STRANGER', 'ACQUAINTANCE', 'FRIEND', 'CLOSE_FRIEND'] as const;

const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;
const MAX_LOCALE_CHARS = 35;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const uuid: JsonSchema = { type: 'string', format: 'uuid' };
const PUBLIC: Record<string, string[]>[] = [];

function json(schema: JsonSchema, description: string): OpenApiResponse {
  return { description, content: { 'application/json': { schema } } };
}

function body(schema: JsonSchema, required = true): OpenApiOperation['requestBody'] {
  return { required, content: { 'application/json': { schema } } };
}

/** An error response in the API's shape, with the `code` it carries. */
function error(code: string, description: string): OpenApiResponse {
  return {
    description,
    content: { 'application/json': { schema: ref('Error'), example: { error: { code, message: description } } } },
  };
}

/** What every admin read of a user's data says about the access trail. */
const ACCESS_TRAIL =
  "Before the answer is sent, the read is recorded in the user's access trail (an AdminAccessed event: admin, route, " +
  'resource, time), which their timeline and GET /v1/me/export show; when it cannot be recorded, nothing is returned (503).';

const E = {
  badRequest: error('BAD_REQUEST', 'Malformed request: the body is not a JSON object, or not valid JSON.'),
  unauthenticated: error('UNAUTHENTICATED', 'Missing, malformed, expired or otherwise invalid bearer token.'),
  tooLarge: error('PAYLOAD_TOO_LARGE', 'The request body exceeds the configured limit (HTTP_BODY_LIMIT_BYTES, 64 KiB by default).'),
  invalid: error('INVALID_FIELDS', 'One or more fields are invalid; `details.fields` lists `{field, message}` for each.'),
  catchingUp: error('UNAVAILABLE', 'The user state is catching up with the event log; retry shortly.'),
  userNotFound: error('USER_NOT_FOUND', 'No such user: create it first with POST /v1/me.'),
  notRecorded: error('UNAVAILABLE', "The read could not be recorded in the user's access trail; nothing was returned. Retry shortly."),
  devOnly: error('NOT_FOUND', 'Dev mode is off (HEARTH_ENV=production): the route does not exist.'),
  rateLimited: {
    description:
      'Rate limited (API.md): per user 30 chat messages a minute (burst 10) and 300 other requests a minute; per client ' +
      'address 30 requests without a valid token a minute (RATE_LIMIT_* settings). `Retry-After` gives the seconds to wait.',
    headers: { 'Retry-After': { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 1 } } },
    content: {
      'application/json': {
        schema: ref('Error'),
        example: { error: { code: 'RATE_LIMITED', message: 'too many requests; retry in 12 s', details: { retry_after_seconds: 12 } } },
      },
    },
  } satisfies OpenApiResponse,
};

const conversationId: JsonSchema = {
  name: 'conversation_id',
  in: 'path',
  required: true,
  description: 'Chosen by the client. Must be a uuid (otherwise 422).',
  schema: uuid,
};

const schemas: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    description: 'Every error of the API. `code` is stable; `message` is for humans; `details` depends on the code.',
    required: ['error'],
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'string', examples: ['INVALID_FIELDS', 'MESSAGE_ID_CONFLICT'] },
          message: { type: 'string' },
          details: { description: 'For INVALID_FIELDS: `{"fields": [{"field", "message"}]}`.' },
        },
      },
    },
  },
  DevTokenRequest: {
    type: 'object',
    additionalProperties: false,
    properties: {
      user_id: { ...uuid, description: 'Defaults to a fresh random uuid.' },
      roles: { type: 'array', items: { type: 'string', enum: ['admin'] } },
    },
  },
  DevToken: {
    type: 'object',
    required: ['token', 'user_id'],
    properties: {
      token: { type: 'string', description: `An HS256 JWT valid for ${INGRESS.devTokenTtlSeconds} s (dev mode only).` },
      user_id: uuid,
    },
  },
  Clock: {
    type: 'object',
    required: ['now'],
    properties: { now: { type: 'string', format: 'date-time', description: 'The (virtual) time of every service.' } },
  },
  AdvanceClockRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['advance_seconds'],
    properties: { advance_seconds: { type: 'number', minimum: 0, maximum: MAX_ADVANCE_SECONDS } },
  },
  OnboardingAnswersInput: {
    type: 'object',
    description: 'The seven required onboarding answers (turn-pipeline §4.1.1). Unknown fields are 422.',
    additionalProperties: false,
    required: [...REQUIRED_ANSWERS],
    properties: {
      preferred_name: {
        type: 'string',
        minLength: 1,
        maxLength: INGRESS.maxPreferredNameChars,
        pattern: '\\S',
        description: 'Trimmed; the length limits apply after trimming.',
      },
      age_band: { type: 'string', enum: [...AGE_BANDS], description: 'The en dash of the spec (`13–17`) is accepted too.' },
      country_or_region: {
        type: 'string',
        pattern: '^[A-Za-z]{2}$',
        description: 'An assigned ISO 3166-1 alpha-2 code such as KR; stored upper-cased.',
      },
      occupation_category: { type: 'string', enum: [...OCCUPATIONS] },
      client_timezone: { type: 'string', description: 'An IANA timezone such as Asia/Seoul.', examples: ['Asia/Seoul'] },
      proactive_messages_enabled: { type: 'boolean' },
      suppressed_topics: {
        type: 'array',
        maxItems: TOPIC_IDS.length,
        items: ref('TopicId'),
        description: 'TopicIDs (turn-pipeline §2.8); duplicates are removed.',
      },
    },
  },
  OnboardingAnswers: {
    type: 'object',
    description: 'The answers as stored (normalised).',
    required: [...REQUIRED_ANSWERS],
    properties: {
      preferred_name: { type: 'string' },
      age_band: { type: 'string', enum: [...AGE_BANDS] },
      country_or_region: { type: 'string', pattern: '^[A-Z]{2}$' },
      occupation_category: { type: 'string', enum: [...OCCUPATIONS] },
      client_timezone: { type: 'string' },
      proactive_messages_enabled: { type: 'boolean' },
      suppressed_topics: { type: 'array', items: ref('TopicId'), uniqueItems: true },
    },
  },
  TopicId: { type: 'string', enum: [...TOPIC_IDS], description: 'A canonical TopicID (turn-pipeline §2.8).' },
  UserState: { type: 'string', enum: USER_STATES },
  Persona: {
    type: 'object',
    required: ['template_id', 'core_archetype', 'friend_energy', 'stable_style_params'],
    properties: {
      template_id: { type: 'string' },
      core_archetype: { type: 'string' },
      friend_energy: { type: 'string' },
      stable_style_params: { type: 'object' },
    },
  },
  Profile: {
    type: 'object',
    required: ['user_id', 'user_state', 'answers', 'ai_friend_id', 'persona'],
    properties: {
      user_id: uuid,
      user_state: ref('UserState'),
      answers: nullable(ref('OnboardingAnswers')),
      ai_friend_id: nullable(uuid),
      persona: { ...nullable(ref('Persona')), description: 'Null until the orchestrator has assigned one.' },
    },
  },
  PostMessageRequest: {
    type: 'object',
    additionalProperties: false,
    required: ['message_id', 'text'],
    properties: {
      message_id: { ...uuid, description: 'Idempotency key chosen by the client.' },
      text: { type: 'string', minLength: 1, maxLength: INGRESS.maxMessageChars, pattern: '\\S', description: 'Not blank.' },
      client_timezone: { type: 'string', description: 'An IANA timezone; defaults to the onboarding answer.' },
      client_locale: { type: 'string', maxLength: MAX_LOCALE_CHARS, examples: ['ko-KR'] },
    },
  },
  Routing: {
    type: 'object',
    required: ['pipeline', 'safety_policy', 'memory_read_policy', 'vector_search_policy', 'memory_write_policy'],
    properties: {
      pipeline: { type: 'string', examples: ['REFUSAL'] },
      safety_policy: { type: 'string' },
      memory_read_policy: { type: 'string' },
      vector_search_policy: { type: 'string' },
      memory_write_policy: { type: 'string' },
    },
  },
  TurnReply: {
    type: 'object',
    required: ['message_id', 'conversation_id', 'user_state', 'routing', 'assistant'],
    properties: {
      message_id: uuid,
      conversation_id: uuid,
      user_state: ref('UserState'),
      routing: ref('Routing'),
      assistant: {
        type: 'object',
        required: ['message_id', 'text', 'surfaced_memory_ids'],
        properties: {
          message_id: uuid,
          text: { type: 'string' },
          surfaced_memory_ids: { type: 'array', items: uuid },
        },
      },
    },
  },
  HistoryMessage: {
    type: 'object',
    description:
      'A chat turn is two messages, the user\'s and the reply. A proactive (retention) message is one assistant ' +
      'message whose message_id is its notification id (the opened_notification_id of POST /v1/me/app-opens).',
    required: ['message_id', 'role', 'source', 'text', 'created_at'],
    properties: {
      message_id: uuid,
      role: { type: 'string', enum: ['user', 'assistant'] },
      source: { type: 'string', enum: ['chat', 'retention'] },
      text: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      surfaced_memory_ids: { type: 'array', items: uuid, description: 'Assistant messages only.' },
    },
  },
  History: {
    type: 'object',
    required: ['messages'],
    properties: { messages: { type: 'array', items: ref('HistoryMessage'), description: 'Oldest first.' } },
  },
  Relationship: {
    type: 'object',
    description:
      "The caller's relationship with their companion (turn-pipeline §2.5), as it reads now: inactivity decay due so " +
      'far is applied (§11.4). A user who has not chatted yet has the initial relationship: STRANGER, rapport 0, ' +
      '0 sessions, both timestamps null.',
    required: ['relationship_stage', 'rapport_score', 'sessions_count', 'last_interaction_at', 'last_stage_promotion_at'],
    properties: {
      relationship_stage: { type: 'string', enum: [...RELATIONSHIP_STAGES] },
      rapport_score: { type: 'integer', minimum: 0, maximum: 100 },
      sessions_count: { type: 'integer', minimum: 0, description: 'A session starts after more than 4 h without a user message (§11.1).' },
      last_interaction_at: { ...nullable({ type: 'string', format: 'date-time' }), description: 'The last user message; null before the first.' },
      last_stage_promotion_at: { ...nullable({ type: 'string', format: 'date-time' }), description: 'Null until the first promotion (§11.5).' },
    },
    examples: [{ relationship_stage: 'STRANGER', rapport_score: 0, sessions_count: 0, last_interaction_at: null, last_stage_promotion_at: null }],
  },
  Memory: {
    type: 'object',
    description:
      'One thing the companion knows about the user (turn-pipeline §12). ACTIVE memories are used in replies; ' +
      'SUPERSEDED ones were replaced by a newer value (superseded_by); INVALID ones the user asked to forget — ' +
      'never used again, and their key is suppressed. Nothing is deleted: the history stays.',
    required: ['memory_id', 'type', 'memory_key', 'memory_value', 'confidence', 'status', 'reliability', 'source_message_ids', 'created_at', 'last_confirmed_at', 'occurred_on', 'occurred_precision'],
    properties: {
      memory_id: uuid,
      type: { type: 'string', enum: ['FACT', 'PREFERENCE', 'RELATIONSHIP_EVENT', 'EMOTIONAL_PATTERN'] },
      memory_key: {
        type: 'string',
        description: 'fact:<field> | pref:<category>:<item_slug> | event:<domain>:<yyyy_mm>:<event_slug> | emotion:<pattern> (§12.3.1).',
        examples: ['fact:current_city', 'pref:food:sushi'],
      },
      memory_value: {
        ...nullable({ type: 'string' }),
        description: 'PREFERENCE values are like|<item> or dislike|<item> (§12.3.2). Null once the user deleted the memory (INVALID): its value is not kept.',
        examples: ['busan', 'like|sushi'],
      },
      confidence: { type: 'number', minimum: 0, maximum: 1, description: '0.60 heuristic, 0.75 LLM; +0.15 per confirmation, capped at 1.0; an opposite stance starts at ≤ 0.55.' },
      status: { type: 'string', enum: ['ACTIVE', 'SUPERSEDED', 'INVALID'] },
      reliability: {
        type: 'string',
        enum: [...RELIABILITY_STATES],
        description:
          'uncertainty-engine.md "Memory Reliability Model": reliable (the default), uncertain (inferred, unconfirmed), contradicted ' +
          '(conflicts with another memory) or superseded (true in the past tense only).',
      },
      source_message_ids: { type: 'array', items: uuid, description: 'The user messages it came from, first first.' },
      created_at: { type: 'string', format: 'date-time' },
      last_confirmed_at: { type: 'string', format: 'date-time' },
      occurred_on: {
        ...nullable({ type: 'string', format: 'date' }),
        description:
          'When what it tells happened, as the user stated it relative to their message ("yesterday", "last May"): the day, or the first day of the ' +
          'stated week, month or year. An event is filed under this month (memory_key). Null when no time was stated, and once INVALID.',
        examples: ['2026-05-01'],
      },
      occurred_precision: { ...nullable({ type: 'string', enum: ['day', 'week', 'month', 'year'] }), description: 'How precisely the time was stated; null with occurred_on.' },
      superseded_by: { ...nullable(uuid), description: 'With ?status=all only: the record that replaced this one.' },
    },
  },
  MemoryList: {
    type: 'object',
    required: ['memories'],
    properties: { memories: { type: 'array', items: ref('Memory'), description: 'Newest first.' } },
  },
  Controls: {
    type: 'object',
    description:
      "The user's controls (turn-pipeline §2.7), applied from the next turn. Before onboarding: proactive off, not muted, no topics. " +
      '"Don\'t bring this topic up again" in chat adds the topic of the last exchange to suppressed_topics.',
    required: ['proactive_messages_enabled', 'mute_until', 'suppressed_topics'],
    properties: {
      proactive_messages_enabled: { type: 'boolean' },
      mute_until: nullable({ type: 'string', format: 'date-time' }),
      suppressed_topics: { type: 'array', items: ref('TopicId') },
    },
  },
  ControlsPatch: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    description: 'Any of the three; fields not named stay as they are. suppressed_topics replaces the list and takes TopicIDs only (others are 422).',
    properties: {
      proactive_messages_enabled: { type: 'boolean' },
      mute_until: { ...nullable({ type: 'string', format: 'date-time' }), description: 'null unmutes.' },
      suppressed_topics: { type: 'array', items: ref('TopicId'), maxItems: TOPIC_IDS.length },
    },
  },
  AppOpenRequest: {
    type: 'object',
    additionalProperties: false,
    description: 'The body may be left out: an app open that no notification caused. Unknown fields are 422.',
    properties: {
      app_open_id: {
        ...uuid,
        description:
          'Chosen by the client for this open: sending it again (a retry) records nothing more and answers as the first time. ' +
          'Without it, an open naming a notification is recorded once per notification, and one naming none is a new open each time.',
      },
      opened_notification_id: {
        ...uuid,
        description: "The notification that opened the app: the message_id of one of the caller's own proactive messages in the history.",
      },
    },
  },
  AppOpen: {
    type: 'object',
    required: ['app_open_id', 'opened_notification_id', 'opened_at'],
    properties: {
      app_open_id: { ...uuid, description: "The client's app_open_id, or the id the API gave this open." },
      opened_notification_id: nullable(uuid),
      opened_at: { type: 'string', format: 'date-time' },
    },
  },
  RetentionMessage: {
    type: 'object',
    description: 'One proactive message (turn-pipeline §14) and what became of it.',
    required: [
      'retention_id',
      'notification_id',
      'conversation_id',
      'planned_at',
      'status',
      'delivered_at',
      'outcome',
      'acknowledged_via',
      'resolved_at',
      'declined_reason',
    ],
    properties: {
      retention_id: { ...uuid, description: 'Also the message_id of its turn: GET /v1/admin/turns/{message_id} shows its trail.' },
      notification_id: { ...uuid, description: 'The message_id the history shows for it.' },
      conversation_id: uuid,
      planned_at: { type: 'string', format: 'date-time' },
      status: { type: 'string', enum: ['planned', 'delivered', 'declined'] },
      delivered_at: nullable({ type: 'string', format: 'date-time' }),
      outcome: { type: 'string', enum: ['', 'pending', 'acknowledged', 'ignored'], description: '"" while not delivered, or declined (§14.2).' },
      acknowledged_via: nullable({ type: 'string', enum: ['reply', 'app_open_notification', 'app_open_single'] }),
      resolved_at: { ...nullable({ type: 'string', format: 'date-time' }), description: 'When it was acknowledged or counted as ignored.' },
      declined_reason: { ...nullable({ type: 'string' }), description: 'Why the orchestrator declined it.' },
    },
  },
  Retention: {
    type: 'object',
    description: `The retention state of a user. Before retention has evaluated the user: evaluated_through null, backoff ${INITIAL_BACKOFF_MULTIPLIER}, no messages.`,
    required: ['user_id', 'evaluated_through', 'backoff_multiplier', 'messages'],
    properties: {
      user_id: uuid,
      evaluated_through: { ...nullable({ type: 'string', format: 'date-time' }), description: 'The last hour evaluated (UTC, on the hour).' },
      backoff_multiplier: { type: 'integer', minimum: 1, description: '×2 per ignored message (§14.2).' },
      messages: { type: 'array', items: ref('RetentionMessage'), description: 'Newest first, at most 50.' },
    },
  },
  BeliefNode: {
    type: 'object',
    description:
      'One node of the belief graph (self-belief-decomposer.md): a self-definitional belief of the user (their ' +
      'self-perceptions) or of the companion (its own self-statements), with its evidence.',
    required: [
      'belief_id',
      'holder',
      'canonical_text',
      'belief_type',
      'polarity',
      'stream',
      'status',
      'confidence',
      'activation',
      'core_score',
      'occurrence_count',
      'source_message_ids',
      'created_at',
    ],
    properties: {
      belief_id: uuid,
      holder: { type: 'string', enum: [...BELIEF_HOLDERS] },
      canonical_text: { type: 'string', description: 'The belief in affirmative first-person form; polarity carries the negation.', examples: ['i am patient'] },
      belief_type: { type: 'string', examples: ['TRAIT', 'VALUE', 'PREFERENCE', 'CAPABILITY_LIMIT'] },
      polarity: { type: 'string', enum: ['affirm', 'deny'] },
      stream: { type: 'string', enum: ['identity', 'state', 'meta', 'relational'] },
      status: { type: 'string', enum: ['surface', 'developing', 'core'] },
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      activation: { type: 'number', minimum: 0, description: 'Decays with its half-life since the last occurrence.' },
      core_score: { type: 'number', minimum: 0, maximum: 1 },
      occurrence_count: { type: 'integer', minimum: 0 },
      source_message_ids: { type: 'array', items: uuid, description: 'The messages it was stated in (the most recent ones).' },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  BeliefLink: {
    type: 'object',
    description: 'A tentative link between two similar nodes; never merged automatically (an admin merges).',
    required: ['link_id', 'from_belief_id', 'to_belief_id', 'confidence', 'state'],
    properties: {
      link_id: uuid,
      from_belief_id: uuid,
      to_belief_id: uuid,
      confidence: { type: 'number', minimum: 0, maximum: 1 },
      state: { type: 'string', enum: ['pending', 'accepted', 'rejected', 'merged'] },
    },
  },
  BeliefConflict: {
    type: 'object',
    description: 'Contradiction: the same belief affirmed and denied. Tension: a near-paraphrase of opposite polarity.',
    required: ['conflict_id', 'belief_ids', 'conflict_type', 'source_message_ids', 'created_at'],
    properties: {
      conflict_id: uuid,
      belief_ids: { type: 'array', items: uuid, minItems: 2, maxItems: 2 },
      conflict_type: { type: 'string', enum: ['contradiction', 'tension'] },
      source_message_ids: { type: 'array', items: uuid },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  BeliefChallenge: {
    type: 'object',
    description: "A gentle question the companion asked about one of the user's self-beliefs (belief-challenge.md).",
    required: ['challenge_id', 'belief_id', 'style', 'message_id', 'created_at'],
    properties: {
      challenge_id: uuid,
      belief_id: uuid,
      style: { type: 'string', enum: ['gentle', 'curious', 'reflective'] },
      message_id: { ...uuid, description: 'The turn it was asked in.' },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  BeliefGraph: {
    type: 'object',
    description: "A user's belief graph: the nodes of one holder or both, the links and conflicts among them, and the challenges.",
    required: ['nodes', 'links', 'conflicts', 'challenges'],
    properties: {
      nodes: { type: 'array', items: ref('BeliefNode') },
      links: { type: 'array', items: ref('BeliefLink') },
      conflicts: { type: 'array', items: ref('BeliefConflict') },
      challenges: { type: 'array', items: ref('BeliefChallenge'), description: 'Empty when only the companion holder is asked.' },
    },
  },
  UncertaintySubject: {
    type: 'object',
    description: 'What an uncertainty is about: a memory (GET /v1/me/memories) or a belief node (the belief graph).',
    required: ['kind', 'id'],
    properties: {
      kind: { type: 'string', enum: ['memory', 'belief'] },
      id: { ...uuid, description: 'The memory_id or belief_id. A side whose memory is not written yet is left out until it is.' },
    },
  },
  Uncertainty: {
    type: 'object',
    description:
      "One row of uncertainty-engine.md's uncertainties table: a contradiction between two memories, or a solo " +
      'uncertainty (unverified, stale, ambiguous) about one.',
    required: [
      'uncertainty_id',
      'uncertainty_type',
      'subjects',
      'severity',
      'state',
      'detection_context',
      'temporal_signal',
      'resolution_strategy',
      'surfaced_count',
      'source_message_ids',
      'created_at',
      'resolved_at',
    ],
    properties: {
      uncertainty_id: uuid,
      uncertainty_type: { type: 'string', enum: UNCERTAINTY_TYPES },
      subjects: { type: 'array', items: ref('UncertaintySubject'), maxItems: 2, description: 'Memory a, then memory b (none for a solo uncertainty).' },
      severity: { type: 'string', enum: [...SEVERITIES] },
      state: { type: 'string', enum: UNCERTAINTY_STATES },
      detection_context: { type: 'string', enum: DETECTION_CONTEXTS },
      temporal_signal: { type: 'boolean', description: 'A temporal change was detected: the newer side may replace the older (temporal_supersede).' },
      resolution_strategy: { ...nullable({ type: 'string', enum: STRATEGIES }), description: 'Null until resolved (or decayed).' },
      surfaced_count: { type: 'integer', minimum: 0, description: 'How many replies asked about it.' },
      source_message_ids: { type: 'array', items: uuid, description: 'The user messages that stated its sides.' },
      created_at: { type: 'string', format: 'date-time' },
      resolved_at: { ...nullable({ type: 'string', format: 'date-time' }), description: 'Null until resolved (or decayed).' },
    },
  },
  Uncertainties: {
    type: 'object',
    description: "A user's uncertainties, every state, and the companion's uncertainty tolerance for the user.",
    required: ['uncertainties', 'tolerance'],
    properties: {
      uncertainties: { type: 'array', items: ref('Uncertainty') },
      tolerance: {
        type: 'number',
        minimum: UNCERTAINTY_CONFIG.tolerance.min,
        maximum: UNCERTAINTY_CONFIG.tolerance.max,
        description:
          `uncertainty-engine.md "Uncertainty Tolerance": starts at ${UNCERTAINTY_CONFIG.tolerance.baseline}, lower when the user corrects ` +
          'the companion (it asks sooner), higher when they reinforce what it holds (it resolves more silently).',
      },
    },
  },
  ActorTrust: {
    type: 'object',
    description: 'outcome-driven-trust.md §1 ProvenanceTrust: the learned trust T of one provenance actor, for this user.',
    required: ['actor', 'trust', 'updates', 'updated_at'],
    properties: {
      actor: { type: 'string', enum: [...ACTORS] },
      trust: {
        type: 'number',
        minimum: 0,
        maximum: 1,
        description: `Starts at ${TRUST_CONFIG.initialTrust}; each outcome moves it by an EWMA step (α = α₀/(1 + n/k)) towards 0.5·(r + 1).`,
      },
      updates: { type: 'integer', minimum: 0, description: 'How many outcomes updated it (rewards with |r| below r_min do not).' },
      updated_at: { ...nullable({ type: 'string', format: 'date-time' }), description: 'Null before the first update.' },
    },
  },
  OutcomeComponents: {
    type: 'object',
    description: 'outcome-driven-trust.md §2: r = 0.4·coherence + 0.2·confidence + 0.2·stability + 0.2·validation, each in [−1, 1].',
    required: ['coherence', 'confidence', 'stability', 'validation'],
    properties: {
      coherence: { type: 'number', minimum: -1, maximum: 1, description: 'Δcoh: the change in self-alignment, less the baseline drift.' },
      confidence: { type: 'number', minimum: -1, maximum: 1, description: 'Δconf: fewer open contradictions touching the belief is positive.' },
      stability: { type: 'number', minimum: -1, maximum: 1, description: '+1 stable, −1 ping-pong (reversals in 7 days), 0 inconclusive.' },
      validation: { type: 'number', minimum: -1, maximum: 1, description: "The user's agreement: 0.7·explicit tags + 0.3·implicit (doubt rate change)." },
    },
  },
  TrustOutcome: {
    type: 'object',
    description: "One of the gardener's decisions about a companion belief, judged at one horizon (outcome-driven-trust.md §2 OutcomeEvaluator).",
    required: ['outcome_id', 'horizon', 'reward', 'components', 'evaluated_at'],
    properties: {
      outcome_id: uuid,
      horizon: { type: 'string', enum: [...HORIZONS] },
      reward: { type: 'number', minimum: -1, maximum: 1 },
      components: ref('OutcomeComponents'),
      evaluated_at: { type: 'string', format: 'date-time' },
    },
  },
  TrustFeedback: {
    type: 'object',
    description: 'One +keep / +doubt / +artifact tag about a companion belief, in a user message (actor user) or a reply (actor agent), as §3 weighed it.',
    required: ['tag', 'actor', 'belief_id', 'weight', 'applied', 'reason', 'created_at'],
    properties: {
      tag: { type: 'string', enum: [...TAGS] },
      actor: { type: 'string', enum: [...ACTORS] },
      belief_id: { ...nullable(uuid), description: 'The companion belief the tag aligned with best; null when none was close (reason no_belief).' },
      weight: { type: 'number', description: 'Signed: base weight · precision · g_conviction · g_trust · g_align (positive supports the belief).' },
      applied: { type: 'boolean', description: "False when it did not count towards the belief's score." },
      reason: { type: 'string', enum: FEEDBACK_REASONS, description: 'counted, or why not: duplicate (tag storm), off_target (a negative tag aligned below 0.2), no_belief.' },
      created_at: { type: 'string', format: 'date-time' },
    },
  },
  Trust: {
    type: 'object',
    description: "The companion's outcome-driven trust for a user (outcome-driven-trust.md): each actor's learned trust, the evaluated outcomes and the tags.",
    required: ['actors', 'outcomes', 'feedback'],
    properties: {
      actors: { type: 'array', items: ref('ActorTrust'), description: 'user and agent.' },
      outcomes: { type: 'array', items: ref('TrustOutcome'), description: 'Evaluated outcomes, oldest first.' },
      feedback: { type: 'array', items: ref('TrustFeedback'), description: 'Oldest first.' },
    },
  },
  AuditEvent: {
    type: 'object',
    required: ['type', 'event_id', 'occurred_at', 'service', 'causation_id', 'correlation_id', 'payload', 'erased'],
    properties: {
      type: { type: 'string', examples: ['hearth.orchestrator.v1.TurnCompleted'] },
      event_id: uuid,
      occurred_at: { type: 'string', format: 'date-time' },
      service: { type: 'string', enum: [...SERVICE_NAMES] },
      causation_id: { type: 'string', description: 'The event that caused this one; "" for a request from outside.' },
      correlation_id: { type: 'string', description: "The turn it belongs to: the chat message's message_id, or a proactive message's retention_id." },
      payload: { description: "The event's protobuf payload as JSON (camelCase; empty fields left out); null when erased." },
      erased: { type: 'boolean', description: "True once the user's data was erased: the payload is gone, type and times stay." },
    },
  },
  Writeback: {
    type: 'object',
    required: ['type', 'event_id', 'service'],
    properties: {
      type: { type: 'string' },
      event_id: uuid,
      service: { type: 'string', enum: [...SERVICE_NAMES] },
    },
  },
  TurnTrail: {
    type: 'object',
    description:
      'The decision trail of one turn, read from the events correlated with it. Payload parts are protobuf JSON ' +
      '(camelCase, empty fields left out). Parts of a stage that has not happened (yet) are null or empty.',
    required: [
      'message_id',
      'user_id',
      'conversation_id',
      'packet',
      'routing',
      'retrieval',
      'surfaced_memory_ids',
      'plan',
      'gates',
      'llm',
      'outcome',
      'relationship',
      'writebacks',
      'events',
    ],
    properties: {
      message_id: uuid,
      user_id: uuid,
      conversation_id: uuid,
      packet: {
        ...nullable({ type: 'object' }),
        description: 'The TurnReceived payload: the TurnPacket (turn-pipeline §2.1); null for a proactive message, which answers no user message.',
      },
      routing: { ...nullable({ type: 'object' }), description: 'The TurnRouted payload: the RoutingDecision and topic matches (§5, §6).' },
      retrieval: { ...nullable({ type: 'object' }), description: 'The memories retrieved for the turn and how (§7.1 steps 2–3).' },
      surfaced_memory_ids: { type: 'array', items: uuid, description: 'The memories the reply surfaced.' },
      plan: { ...nullable({ type: 'object' }), description: 'The ResponsePlan (§8).' },
      gates: { type: 'array', items: { type: 'object' }, description: 'Every §10 gate verdict on every candidate reply, in order.' },
      llm: {
        type: 'object',
        required: ['final', 'exchanges'],
        description: 'The recorded LLM output, so replay never calls the LLM (ARCHITECTURE invariant 4).',
        properties: {
          final: { ...nullable({ type: 'object' }), description: 'The exchange whose output became the reply (or the offline render).' },
          exchanges: { type: 'array', items: { type: 'object' }, description: 'Every exchange of the turn in order (draft, repair, rewrite).' },
        },
      },
      outcome: {
        ...nullable({ type: 'string', enum: ['draft', 'rewrite', 'fallback', 'refusal', 'crisis_safe'] }),
        description: 'Null while the turn has no reply; `refusal` for a user-state refusal (ChatRefused, §6.1.1).',
      },
      relationship: { ...nullable({ type: 'object' }), description: 'The RelationshipUpdated payload (§11), or null.' },
      writebacks: { type: 'array', items: ref('Writeback'), description: 'The other events the turn caused (memory, beliefs, trust, …).' },
      events: { type: 'array', items: ref('AuditEvent'), description: 'Every event of the turn, in order of occurrence.' },
    },
  },
  TimelineEvent: {
    type: 'object',
    description:
      'One event about the user. An erased event (the user was erased: their data key is destroyed) keeps its type, ' +
      'id, time and service; its payload is null. Every admin read of the user\'s data is itself an event here, ' +
      'hearth.ingress.v1.AdminAccessed {adminId, route, resource, accessedAt}; the read that returns this timeline shows from the next one on.',
    required: ['type', 'event_id', 'occurred_at', 'service', 'payload', 'erased'],
    properties: {
      type: { type: 'string', examples: ['hearth.ingress.v1.TurnReceived', 'hearth.ingress.v1.AdminAccessed', 'Quarantined'] },
      event_id: uuid,
      occurred_at: { type: 'string', format: 'date-time' },
      service: { type: 'string', enum: [...SERVICE_NAMES] },
      payload: { description: "The event's protobuf payload as JSON; null when erased." },
      erased: { type: 'boolean', description: "True when the payload can no longer be read (the user's data key was destroyed)." },
    },
    examples: [
      { type: 'hearth.ingress.v1.TurnReceived', event_id: '0b9e6f1c-6a4e-4f7e-9a51-3c1d2b7e8f90', occurred_at: '2026-11-22T10:00:00.000Z', service: 'ingress', payload: null, erased: true },
    ],
  },
  Timeline: {
    type: 'object',
    required: ['events'],
    properties: { events: { type: 'array', items: ref('TimelineEvent'), description: 'In order of occurrence.' } },
  },
  Erasure: {
    type: 'object',
    required: ['erasure_id', 'status'],
    properties: {
      erasure_id: { type: 'string', description: 'The same for a repeated request.' },
      status: { type: 'string', enum: ['accepted', 'completed'] },
    },
  },
  ExportMessage: {
    type: 'object',
    description:
      'A message as the history shows it. The export also holds what the history leaves out: a CREATED user\'s ' +
      'refused message and its refusal, marked refused.',
    required: ['message_id', 'role', 'source', 'text', 'created_at'],
    properties: {
      message_id: uuid,
      role: { type: 'string', enum: ['user', 'assistant'] },
      source: { type: 'string', enum: ['chat', 'retention'] },
      text: { type: 'string' },
      created_at: { type: 'string', format: 'date-time' },
      surfaced_memory_ids: { type: 'array', items: uuid, description: 'Assistant messages only.' },
      refused: { const: true, description: 'Only on a refused turn (not in the history).' },
    },
  },
  AdminAccess: {
    type: 'object',
    description: "One read of the user's data by an admin through /v1/admin/* (an AdminAccessed event on the user's ingress subject).",
    required: ['event_id', 'admin_id', 'route', 'resource', 'accessed_at'],
    properties: {
      event_id: uuid,
      admin_id: { type: 'string', description: "The admin token's subject." },
      route: { type: 'string', examples: ['GET /v1/admin/users/{user_id}/timeline'] },
      resource: { type: 'string', description: 'timeline | retention | beliefs | uncertainties | trust | dead-letters | turn:<message_id>', examples: ['timeline', 'turn:5d1c3a2e-0b6f-4a59-9c1e-7f2a8d4b6c10'] },
      accessed_at: { type: 'string', format: 'date-time' },
    },
  },
  Export: {
    type: 'object',
    description:
      'Everything Hearth holds about the caller, in this key order. Written as it is read, so memory stays flat ' +
      'whatever the history; a connection closed before the final `}` means the export failed (a cut body is never valid JSON).',
    required: ['exported_at', 'user', 'controls', 'relationship', 'conversations', 'memories', 'beliefs', 'uncertainties', 'trust', 'retention', 'admin_access'],
    properties: {
      exported_at: { type: 'string', format: 'date-time' },
      user: ref('Profile'),
      controls: ref('Controls'),
      relationship: ref('Relationship'),
      conversations: {
        type: 'array',
        description: 'By conversation_id; messages oldest first.',
        items: {
          type: 'object',
          required: ['conversation_id', 'messages'],
          properties: { conversation_id: uuid, messages: { type: 'array', items: ref('ExportMessage') } },
        },
      },
      memories: { type: 'array', items: ref('Memory'), description: 'Every status (ACTIVE, SUPERSEDED, INVALID), with superseded_by.' },
      beliefs: {
        type: 'object',
        description: "The user's own beliefs (holder user), as GET /v1/admin/users/{user_id}/beliefs shows them, without the links.",
        required: ['nodes', 'conflicts', 'challenges'],
        properties: {
          nodes: { type: 'array', items: ref('BeliefNode') },
          conflicts: { type: 'array', items: ref('BeliefConflict') },
          challenges: { type: 'array', items: ref('BeliefChallenge') },
        },
      },
      uncertainties: { ...ref('Uncertainties'), description: 'As GET /v1/admin/users/{user_id}/uncertainties shows them: every uncertainty, and the tolerance.' },
      trust: { ...ref('Trust'), description: 'As GET /v1/admin/users/{user_id}/trust shows it: learned trust per actor, outcomes and tags.' },
      retention: ref('Retention'),
      admin_access: { type: 'array', items: ref('AdminAccess'), description: "Every admin read of the user's data, oldest first." },
    },
  },
  Check: {
    type: 'object',
    required: ['ok'],
    properties: { ok: { type: 'boolean' }, reason: { type: 'string' } },
  },
  Readiness: {
    type: 'object',
    required: ['status', 'checks'],
    properties: {
      status: { const: 'ready' },
      checks: {
        type: 'object',
        required: ['nats', 'database', 'consumers'],
        properties: {
          nats: ref('Check'),
          database: ref('Check'),
          consumers: {
            allOf: [ref('Check')],
            type: 'object',
            required: ['bound', 'total', 'unbound'],
            properties: {
              bound: { type: 'integer' },
              total: { type: 'integer' },
              unbound: { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
            },
          },
        },
      },
    },
  },
};

const paths: Record<string, OpenApiPathItem> = {
  '/v1/dev/token': {
    post: {
      operationId: 'createDevToken',
      summary: 'Mint a dev token (dev mode only)',
      tags: ['dev'],
      security: PUBLIC,
      requestBody: body(ref('DevTokenRequest'), false),
      responses: {
        '200': json(ref('DevToken'), 'A signed token for the user.'),
        '400': E.badRequest,
        '404': E.devOnly,
        '413': E.tooLarge,
        '422': E.invalid,
      },
    },
  },
  '/v1/dev/clock': {
    get: {
      operationId: 'getDevClock',
      summary: 'Read the virtual clock (dev mode only; any valid token)',
      tags: ['dev'],
      responses: { '200': json(ref('Clock'), 'The current virtual time.'), '401': E.unauthenticated, '404': E.devOnly },
    },
    post: {
      operationId: 'advanceDevClock',
      summary: 'Advance the virtual clock of every service (dev mode only; any valid token)',
      tags: ['dev'],
      requestBody: body(ref('AdvanceClockRequest')),
      responses: {
        '200': json(ref('Clock'), 'The virtual time after the advance.'),
        '400': E.badRequest,
        '401': E.unauthenticated,
        '404': error('NOT_FOUND', 'Dev mode is off, or this process has no virtual clock.'),
        '413': E.tooLarge,
        '422': E.invalid,
      },
    },
  },
  '/v1/me': {
    post: {
      operationId: 'createMe',
      summary: 'Create the calling user (idempotent)',
      description:
        'Creates the user of the token `sub` in state CREATED; calling it again changes nothing. ' +
        'No body is needed; one sent as application/json must still be valid JSON.',
      tags: ['users'],
      responses: {
        '200': json(ref('Profile'), "The user's profile."),
        '400': E.badRequest,
        '401': E.unauthenticated,
        '413': E.tooLarge,
        '503': E.catchingUp,
      },
    },
    get: {
      operationId: 'getMe',
      summary: "The calling user's profile",
      tags: ['users'],
      responses: {
        '200': json(ref('Profile'), "The user's profile."),
        '401': E.unauthenticated,
        '404': E.userNotFound,
      },
    },
    delete: {
      operationId: 'eraseMe',
      summary: 'Erase the calling user and everything held about them',
      description:
        "Crypto-shredding (ARCHITECTURE.md): the user's data key is destroyed, so no event about them can be read again, " +
        'and every service deletes their rows. Within 10 s GET /v1/me is 404 and the history, memories and export are gone; ' +
        'the admin timeline keeps only event types and times. The same request again returns the same erasure; ' +
        'POST /v1/me afterwards starts a new, empty user.',
      tags: ['users'],
      responses: {
        '202': json(ref('Erasure'), 'Accepted (status accepted), or done in every service (status completed).'),
        '401': E.unauthenticated,
        '404': error('USER_NOT_FOUND', 'No such user, and no erasure of one.'),
        '503': error('ERASURE_UNAVAILABLE', 'Event encryption is off in this deployment: nothing could be made unreadable.'),
      },
    },
  },
  '/v1/me/onboarding': {
    put: {
      operationId: 'answerOnboarding',
      summary: 'Answer onboarding (CREATED or ONBOARDING users)',
      description:
        `Moves the user to ONBOARDING and assigns an AI friend. Answers identical to the stored ones change nothing. ` +
        `Waits up to ${INGRESS.personaWaitMs / 1000} s for the persona; it may still be null.`,
      tags: ['users'],
      requestBody: body(ref('OnboardingAnswersInput')),
      responses: {
        '200': json(ref('Profile'), 'The profile with user_state ONBOARDING, ai_friend_id and (usually) persona.'),
        '400': E.badRequest,
        '401': E.unauthenticated,
        '404': E.userNotFound,
        '409': error('ONBOARDING_COMPLETED', 'The user is ACTIVE: onboarding is complete.'),
        '413': E.tooLarge,
        '422': E.invalid,
        '503': E.catchingUp,
      },
    },
  },
  '/v1/me/relationship': {
    get: {
      operationId: 'getMyRelationship',
      summary: "The calling user's relationship with their companion",
      description:
        'Stage, rapport and sessions as they read now (inactivity decay applied). Before the first chat message ' +
        'the answer is the initial relationship: STRANGER, 0, 0, null, null.',
      tags: ['users'],
      responses: {
        '200': json(ref('Relationship'), 'The relationship.'),
        '401': E.unauthenticated,
        '404': E.userNotFound,
        '503': error('UNAVAILABLE', 'The orchestrator did not answer; retry shortly.'),
      },
    },
  },
  '/v1/me/memories': {
    get: {
      operationId: 'listMyMemories',
      summary: 'What the companion knows about the calling user',
      description:
        'ACTIVE memories; with ?status=all also SUPERSEDED and INVALID ones, with superseded_by. A memory appears ' +
        'moments after the reply to the message it came from (memory writes back after the turn).',
      tags: ['memories'],
      parameters: [{ name: 'status', in: 'query', required: false, schema: { type: 'string', enum: ['active', 'all'] } }],
      responses: {
        '200': json(ref('MemoryList'), 'The memories.'),
        '401': E.unauthenticated,
        '404': E.userNotFound,
        '422': E.invalid,
        '503': error('UNAVAILABLE', 'The memory service did not answer; retry shortly.'),
      },
    },
  },
  '/v1/me/memories/{memory_id}': {
    delete: {
      operationId: 'forgetMyMemory',
      summary: 'Forget one memory',
      description:
        'As "forget that" (turn-pipeline §12.4): the memory becomes INVALID, its key is suppressed, and it is never ' +
        'used again. Idempotent. Only the owner can: another user\'s memory is 404, like one that does not exist.',
      tags: ['memories'],
      parameters: [{ name: 'memory_id', in: 'path', required: true, schema: uuid }],
      responses: {
        '200': json(ref('Memory'), 'The memory, now INVALID.'),
        '401': E.unauthenticated,
        '404': error('MEMORY_NOT_FOUND', 'No such memory of the caller (or no such user).'),
        '422': E.invalid,
        '503': error('UNAVAILABLE', 'The memory service did not answer; retry shortly.'),
      },
    },
  },
  '/v1/me/export': {
    get: {
      operationId: 'exportMe',
      summary: 'Everything held about the calling user, as one JSON document',
      description:
        'An attachment (Content-Disposition) streamed as it is read: profile with answers, controls, relationship, every ' +
        'conversation with its messages, memories of every status, beliefs, uncertainties, trust, retention and the ' +
        "admin reads of the user's data. Only the caller's own data. If the export fails after it started, the " +
        'connection is closed: the truncated body is not valid JSON.',
      tags: ['users'],
      responses: {
        '200': {
          description: 'The export.',
          headers: {
            'Content-Disposition': { description: 'attachment; filename="hearth-export-<user_id>.json"', schema: { type: 'string' } },
          },
          content: { 'application/json': { schema: ref('Export') } },
        },
        '401': E.unauthenticated,
        '404': error('USER_NOT_FOUND', 'No such user (never created, or erased).'),
        '503': error('UNAVAILABLE', 'A service the export reads (memory, orchestrator, belief graph, uncertainty, trust, retention) did not answer; retry shortly.'),
      },
    },
  },
  '/v1/me/controls': {
    get: {
      operationId: 'getMyControls',
      summary: "The calling user's controls",
      tags: ['users'],
      responses: { '200': json(ref('Controls'), 'The controls.'), '401': E.unauthenticated, '404': E.userNotFound },
    },
    patch: {
      operationId: 'patchMyControls',
      summary: "Change the calling user's controls",
      description: 'Applies from the next turn. A change that changes nothing appends nothing.',
      tags: ['users'],
      requestBody: body(ref('ControlsPatch')),
      responses: {
        '200': json(ref('Controls'), 'The controls after the change.'),
        '400': E.badRequest,
        '401': E.unauthenticated,
        '404': E.userNotFound,
        '409': error('ONBOARDING_REQUIRED', 'Controls exist once onboarding is answered.'),
        '413': E.tooLarge,
        '422': E.invalid,
        '503': E.catchingUp,
      },
    },
  },
  '/v1/me/app-opens': {
    post: {
      operationId: 'recordAppOpen',
      summary: 'Record that the app was opened',
      description:
        'For retention attribution (turn-pipeline §14.2): an open within 24 h of a proactive message acknowledges it, ' +
        'by the notification that opened the app or, without one, when exactly one was delivered in that time.',
      tags: ['retention'],
      requestBody: body(ref('AppOpenRequest'), false),
      responses: {
        '202': json(ref('AppOpen'), 'Recorded.'),
        '400': E.badRequest,
        '401': E.unauthenticated,
        '404': error('NOTIFICATION_NOT_FOUND', "Not one of the caller's proactive messages (or, as USER_NOT_FOUND, no such user)."),
        '413': E.tooLarge,
        '422': E.invalid,
        '503': E.catchingUp,
      },
    },
  },
  '/v1/conversations/{conversation_id}/messages': {
    post: {
      operationId: 'postMessage',
      summary: 'Send a chat message and get the reply',
      description:
        'The same message_id again returns the identical body and does nothing else; the same message_id with ' +
        'different text (or conversation) is 409. A CREATED user gets pipeline REFUSAL and an instruction to ' +
        'finish onboarding, and that message is not added to the history.',
      tags: ['chat'],
      parameters: [conversationId],
      requestBody: body(ref('PostMessageRequest')),
      responses: {
        '200': json(ref('TurnReply'), 'The completed turn.'),
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
          content: { 'application/json': { schema: ref('Error') } },
        },
        '503': E.catchingUp,
        '504': error('TURN_TIMEOUT', 'The reply took too long (TURN_TIMEOUT_MS); send the same message_id again to get it.'),
      },
    },
    get: {
      operationId: 'listMessages',
      summary: 'The visible history of a conversation, oldest first',
      description: 'The newest `limit` messages before `before`, proactive (retention) messages included.',
      tags: ['chat'],
      parameters: [
        conversationId,
        {
          name: 'limit',
          in: 'query',
          required: false,
          description: 'How many turns to return: a user message with its reply, or one proactive message.',
          schema: { type: 'integer', minimum: 1, maximum: INGRESS.historyMaxLimit, default: INGRESS.historyDefaultLimit },
        },
        {
          name: 'before',
          in: 'query',
          required: false,
          description: 'A message_id of this conversation or an ISO 8601 timestamp: only older messages.',
          schema: { type: 'string' },
        },
      ],
      responses: {
        '200': json(ref('History'), 'The messages.'),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'This conversation belongs to another user.'),
        '422': E.invalid,
      },
    },
  },
  '/v1/admin/users/{user_id}/timeline': {
    get: {
      operationId: 'getUserTimeline',
      summary: 'Every event about a user, in order (role admin)',
      description: `Erased events show as {type, event_id, occurred_at, service, payload: null, erased: true}. ${ACCESS_TRAIL}`,
      tags: ['admin'],
      parameters: [{ name: 'user_id', in: 'path', required: true, description: 'Must be a uuid (otherwise 422).', schema: uuid }],
      responses: {
        '200': json(ref('Timeline'), 'The events of every service about the user.'),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'The token lacks the admin role.'),
        '422': E.invalid,
        '503': E.notRecorded,
      },
    },
  },
  '/v1/admin/users/{user_id}/retention': {
    get: {
      operationId: 'getUserRetention',
      summary: "A user's proactive messages, backoff and last evaluation (role admin)",
      description: ACCESS_TRAIL,
      tags: ['admin', 'retention'],
      parameters: [{ name: 'user_id', in: 'path', required: true, description: 'Must be a uuid (otherwise 422).', schema: uuid }],
      responses: {
        '200': json(ref('Retention'), 'The retention state of the user.'),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'The token lacks the admin role.'),
        '404': error('USER_NOT_FOUND', 'No such user.'),
        '422': E.invalid,
        '503': error('UNAVAILABLE', 'The retention service did not answer, or the read could not be recorded; retry shortly.'),
      },
    },
  },
  '/v1/admin/users/{user_id}/beliefs': {
    get: {
      operationId: 'getUserBeliefs',
      summary: "A user's belief graph: nodes, links, conflicts and challenges (role admin)",
      description: `The user's self-perceptions (holder user) and their companion's self-beliefs (holder companion). ${ACCESS_TRAIL}`,
      tags: ['admin', 'beliefs'],
      parameters: [
        { name: 'user_id', in: 'path', required: true, description: 'Must be a uuid (otherwise 422).', schema: uuid },
        {
          name: 'holder',
          in: 'query',
          required: false,
          description: 'Whose beliefs: user or companion; both when absent. Any other value, or the parameter given twice, is 422.',
          schema: { type: 'string', enum: [...BELIEF_HOLDERS] },
        },
      ],
      responses: {
        '200': json(ref('BeliefGraph'), 'The belief graph of the user (empty lists for a user with no beliefs yet).'),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'The token lacks the admin role.'),
        '404': error('USER_NOT_FOUND', 'No such user.'),
        '422': error('INVALID_FIELDS', 'user_id is not a uuid, or holder is not user or companion or is given more than once; `details.fields` names it.'),
        '503': error('UNAVAILABLE', 'The belief graph did not answer, or the read could not be recorded; retry shortly.'),
      },
    },
  },
  '/v1/admin/users/{user_id}/uncertainties': {
    get: {
      operationId: 'getUserUncertainties',
      summary: "A user's uncertainties and the companion's tolerance (role admin)",
      description: `Contradictions and solo uncertainties about the user's memories and beliefs, in every state (uncertainty-engine.md). ${ACCESS_TRAIL}`,
      tags: ['admin', 'uncertainty'],
      parameters: [{ name: 'user_id', in: 'path', required: true, description: 'Must be a uuid (otherwise 422).', schema: uuid }],
      responses: {
        '200': json(ref('Uncertainties'), 'The uncertainties of the user (an empty list for a user with none yet).'),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'The token lacks the admin role.'),
        '404': error('USER_NOT_FOUND', 'No such user.'),
        '422': E.invalid,
        '503': error('UNAVAILABLE', 'The uncertainty service did not answer, or the read could not be recorded; retry shortly.'),
      },
    },
  },
  '/v1/admin/users/{user_id}/trust': {
    get: {
      operationId: 'getUserTrust',
      summary: "The companion's learned trust, outcomes and tags for a user (role admin)",
      description: `Trust per provenance actor, the evaluated outcomes of the belief gardener's decisions, and every tag (outcome-driven-trust.md). ${ACCESS_TRAIL}`,
      tags: ['admin', 'trust'],
      parameters: [{ name: 'user_id', in: 'path', required: true, description: 'Must be a uuid (otherwise 422).', schema: uuid }],
      responses: {
        '200': json(ref('Trust'), 'The trust state of the user (both actors at their initial trust, and empty lists, before any tag).'),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'The token lacks the admin role.'),
        '404': error('USER_NOT_FOUND', 'No such user.'),
        '422': E.invalid,
        '503': error('UNAVAILABLE', 'The trust service did not answer, or the read could not be recorded; retry shortly.'),
      },
    },
  },
  '/v1/admin/turns/{message_id}': {
    get: {
      operationId: 'getTurnTrail',
      summary: 'The decision trail of one turn (role admin)',
      description:
        'Packet, routing, retrieved and surfaced memories, plan, gate verdicts, the LLM record, the relationship ' +
        `update and the writebacks of the turn, with every event correlated with it. ${ACCESS_TRAIL}`,
      tags: ['admin'],
      parameters: [
        {
          name: 'message_id',
          in: 'path',
          required: true,
          description: "The user message's id; for a proactive message its retention_id or notification id. Must be a uuid (otherwise 422).",
          schema: uuid,
        },
      ],
      responses: {
        '200': json(ref('TurnTrail'), 'The trail of the turn.'),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'The token lacks the admin role.'),
        '404': error('TURN_NOT_FOUND', 'No turn with this message_id.'),
        '422': E.invalid,
        '503': E.notRecorded,
      },
    },
  },
  '/v1/admin/dead-letters': {
    get: {
      operationId: 'listDeadLetters',
      summary: 'Quarantined events not redriven since (role admin)',
      description:
        'Events a service gave up on after its retries: on the dead-letter stream with the error, recorded by the consumer, ' +
        'which moved past them (ARCHITECTURE.md "Poison events never wedge a user"). One entry per event and consumer. ' +
        ACCESS_TRAIL.replace("the user's", "each listed user's"),
      tags: ['admin'],
      responses: {
        '200': json(
          {
            type: 'object',
            required: ['dead_letters'],
            properties: {
              dead_letters: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['event_id', 'type', 'user_id', 'service', 'consumer', 'error', 'deliveries', 'quarantined_at'],
                  properties: {
                    event_id: { type: 'string' },
                    type: { type: 'string', description: 'Fully-qualified event type, e.g. hearth.ingress.v1.TurnReceived.' },
                    user_id: { type: 'string', description: 'Empty for global aggregates.' },
                    service: { type: 'string', description: 'The service whose consumer quarantined it.' },
                    consumer: { type: 'string' },
                    error: { type: 'string' },
                    deliveries: { type: 'integer' },
                    quarantined_at: { type: 'string', format: 'date-time' },
                  },
                },
              },
            },
          },
          'Quarantined events, oldest first.',
        ),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'The token lacks the admin role.'),
        '503': E.notRecorded,
      },
    },
  },
  '/v1/admin/dead-letters/{event_id}/redrive': {
    post: {
      operationId: 'redriveDeadLetter',
      summary: 'Apply a quarantined event after all (role admin)',
      description: 'Asks every consumer that quarantined the event to apply it now; each answers whether it could.',
      tags: ['admin'],
      parameters: [{ name: 'event_id', in: 'path', required: true, schema: { type: 'string' } }],
      responses: {
        '200': json(
          {
            type: 'object',
            required: ['event_id', 'results'],
            properties: {
              event_id: { type: 'string' },
              results: {
                type: 'array',
                items: {
                  type: 'object',
                  required: ['service', 'consumer', 'redriven'],
                  properties: { service: { type: 'string' }, consumer: { type: 'string' }, redriven: { type: 'boolean' }, error: { type: 'string' } },
                },
              },
            },
          },
          'What each consumer did.',
        ),
        '401': E.unauthenticated,
        '403': error('FORBIDDEN', 'The token lacks the admin role.'),
        '404': error('DEAD_LETTER_NOT_FOUND', 'No dead letter awaiting redrive for this event.'),
        '422': E.invalid,
      },
    },
  },
  '/healthz': {
    get: {
      operationId: 'healthz',
      summary: 'Liveness: the process is up',
      tags: ['operations'],
      security: PUBLIC,
      responses: {
        '200': json({ type: 'object', required: ['status'], properties: { status: { const: 'ok' } } }, 'Alive.'),
      },
    },
  },
  '/readyz': {
    get: {
      operationId: 'readyz',
      summary: 'Readiness: NATS and the database answer, every consumer is bound',
      tags: ['operations'],
      security: PUBLIC,
      responses: {
        '200': json(ref('Readiness'), 'Ready to serve.'),
        '503': error('NOT_READY', 'Not ready (or shutting down); `details` holds the checks.'),
      },
    },
  },
  '/metrics': {
    get: {
      operationId: 'metrics',
      summary: 'Prometheus metrics',
      tags: ['operations'],
      security: PUBLIC,
      responses: {
        '200': {
          description: 'Prometheus text exposition format 0.0.4.',
          content: { 'text/plain': { schema: { type: 'string' } } },
        },
      },
    },
  },
  '/docs': {
    get: {
      operationId: 'docs',
      summary: 'This API, as a readable HTML page',
      tags: ['docs'],
      security: PUBLIC,
      responses: {
        '200': { description: 'An HTML page.', content: { 'text/html': { schema: { type: 'string' } } } },
      },
    },
  },
  '/docs/openapi.json': {
    get: {
      operationId: 'openapi',
      summary: 'This OpenAPI 3.1 document',
      tags: ['docs'],
      security: PUBLIC,
      responses: { '200': json({ type: 'object' }, 'The OpenAPI document.') },
    },
  },
};

/**
 * Every operation the rate limits apply to answers 429 as well: all but the dev
 * routes, operations and docs (the same test as the limits themselves).
 */
function withRateLimits(all: Record<string, OpenApiPathItem>): Record<string, OpenApiPathItem> {
  return Object.fromEntries(
    Object.entries(all).map(([path, item]) => [
      path,
      isExempt(path)
        ? item
        : Object.fromEntries(Object.entries(item).map(([method, op]) => [method, { ...op, responses: { ...op.responses, '429': E.rateLimited } }])),
    ]),
  );
}

/** The ingress HTTP API (../shared/API.md) as an OpenAPI 3.1 document, served at /docs/openapi.json. */
export const OPENAPI: OpenApiDocument = {
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
    { name: 'trust', description: "Outcome-driven trust: learned trust per provenance actor, the outcomes it is learned from, and the tags (outcome-driven-trust.md)." },
    { name: 'admin', description: 'Admin and audit (role admin).' },
    { name: 'operations', description: 'Served by every service.' },
    { name: 'docs', description: 'This documentation.' },
  ],
  security: [{ bearerAuth: [] }],
  paths: withRateLimits(paths),
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
    schemas,
  },
};

/** Every documented operation, in document order. */
export function operationsOf(doc: OpenApiDocument): { method: HttpMethod; path: string; operation: OpenApiOperation }[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    HTTP_METHODS.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
}
