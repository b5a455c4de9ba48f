// The ingress API's bodies, parameters and answers as zod schemas, each stated once:
// the controllers validate requests with them, routes.ts ties them to the routes, and
// openapi.ts renders the document from them (../shared/API.md is the contract).
// `.meta()` carries what the document says beyond the types: component ids
// (`id`), descriptions and examples.
import { SERVICE_NAMES } from '@hearth/bus';
import { TOPIC_IDS } from '@hearth/text';
import { ACTORS, HORIZONS, TAGS, TRUST_CONFIG, type FeedbackReason } from '@hearth/trust';
import {
  RELIABILITY_STATES,
  SEVERITIES,
  UNCERTAINTY_CONFIG,
  type DetectionContext,
  type Strategy,
  type UncertaintyState,
  type UncertaintyType,
} from '@hearth/uncertainty';
import { z } from 'zod';
import { INGRESS } from '../config.js';
import { BELIEF_HOLDERS } from '../app/beliefs-view.js';
import { INITIAL_RELATIONSHIP } from '../app/relationship-view.js';
import { INITIAL_BACKOFF_MULTIPLIER } from '../app/retention-view.js';
import { AGE_BANDS, OCCUPATIONS, onboardingAnswersSchema, optionalTimezone } from '../users/answers.js';
import { appOpenSchema } from '../users/app-open.js';
import { controlsPatchSchema } from '../users/controls.js';
import type { UserState as UserStateName } from '../users/user.js';

/** The values of a string union, compile-time complete: adding a member without listing it here fails tsc. */
function valuesOf<T extends string>(set: Record<T, true>): [T, ...T[]] {
  return Object.keys(set) as [T, ...T[]];
}

const USER_STATES = valuesOf<UserStateName>({ CREATED: true, ONBOARDING: true, ACTIVE: true });
// The values of uncertainty-engine.md's `uncertainties` table.
const UNCERTAINTY_TYPES = valuesOf<UncertaintyType>({ contradiction: true, unverified: true, stale: true, ambiguous: true });
const UNCERTAINTY_STATES = valuesOf<UncertaintyState>({ open: true, surfaced: true, resolved: true, decayed: true });
const DETECTION_CONTEXTS = valuesOf<DetectionContext>({ ingestion: true, drift: true, pre_action: true, consolidation: true });
const STRATEGIES = valuesOf<Strategy>({ temporal_supersede: true, user_clarified: true, evidence_resolved: true, confidence_dominance: true, decayed: true });
// Why a tag counts or not (outcome-driven-trust.md §3).
const FEEDBACK_REASONS = valuesOf<FeedbackReason>({ counted: true, duplicate: true, off_target: true, no_belief: true });
// The stages of turn-pipeline §2.5, in promotion order.
const RELATIONSHIP_STAGES = ['STRANGER', 'ACQUAINTANCE', 'FRIEND', 'CLOSE_FRIEND'] as const;

const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;
const MAX_LOCALE_CHARS = 35;

// ---- shared pieces ----

const uuid = z.uuid({ message: 'must be a uuid' });
/** A time the API writes: ISO 8601 in UTC, as `Date.toISOString()` gives it. */
const timestamp = z.iso.datetime();
const nullableTimestamp = timestamp.nullable();

/**
 * A protobuf JSON payload: an object, or null when its stage has not happened. The
 * app passes payloads through untyped, so zod lets any value by; the document (which
 * the shape test validates real answers against) says what they are.
 */
const jsonObject = (description?: string) => z.unknown().meta({ ...(description ? { description } : {}), override: { type: 'object' } });
const payloadOrNull = (description: string) => z.unknown().meta({ description, override: { anyOf: [{ type: 'object' }, { type: 'null' }] } });

export const TopicId = z.enum(TOPIC_IDS).meta({ id: 'TopicId', description: 'A canonical TopicID (turn-pipeline §2.8).' });
export const UserState = z.enum(USER_STATES).meta({ id: 'UserState' });

/** API.md: every error is `{"error": {"code", "message", "details"}}`. */
export const ErrorBody = z
  .object({
    error: z.object({
      code: z.string().meta({ examples: ['INVALID_FIELDS', 'MESSAGE_ID_CONFLICT'] }),
      message: z.string(),
      details: z.unknown().optional().meta({ description: 'For INVALID_FIELDS: `{"fields": [{"field", "message"}]}`.' }),
    }),
  })
  .meta({ id: 'Error', description: 'Every error of the API. `code` is stable; `message` is for humans; `details` depends on the code.' });

// ---- path parameters and query strings ----

function pathUuid<N extends string>(name: N, description = 'Must be a uuid (otherwise 422).') {
  return z.strictObject({ [name]: uuid.meta({ description }) } as Record<N, z.ZodUUID>);
}

export const UserIdParams = pathUuid('user_id');
export const MemoryIdParams = pathUuid('memory_id');
export const ConversationIdParams = pathUuid('conversation_id', 'Chosen by the client. Must be a uuid (otherwise 422).');
export const TurnIdParams = pathUuid(
  'message_id',
  "The user message's id; for a proactive message its retention_id or notification id. Must be a uuid (otherwise 422).",
);
export const EventIdParams = z.strictObject({
  // Event ids are uuids or derived ids (letters, digits, - _ : .); nothing else can name one.
  event_id: z.string().regex(/^[A-Za-z0-9_.:-]{1,200}$/, { message: 'is not an event id' }),
});

export const MemoriesQuery = z.object({
  status: z.enum(['active', 'all'], { message: 'must be all or active' }).optional(),
});

export const HistoryQuery = z.object({
  limit: z.coerce
    .number({ message: `must be an integer from 1 to ${INGRESS.historyMaxLimit}` })
    .int({ message: `must be an integer from 1 to ${INGRESS.historyMaxLimit}` })
    .min(1, { message: `must be an integer from 1 to ${INGRESS.historyMaxLimit}` })
    .max(INGRESS.historyMaxLimit, { message: `must be an integer from 1 to ${INGRESS.historyMaxLimit}` })
    .default(INGRESS.historyDefaultLimit)
    .meta({ description: 'How many turns to return: a user message with its reply, or one proactive message.' }),
  before: z
    .string({ message: 'must be given once' })
    .optional()
    .meta({ description: 'A message_id of this conversation or an ISO 8601 timestamp: only older messages.' }),
});

const HOLDER_MESSAGE = `must be ${BELIEF_HOLDERS.join(' or ')}, given at most once (absent: both)`;
export const BeliefsQuery = z.object({
  holder: z
    .enum(BELIEF_HOLDERS, { message: HOLDER_MESSAGE })
    .optional()
    .meta({ description: 'Whose beliefs: user or companion; both when absent. Any other value, or the parameter given twice, is 422.' }),
});

// ---- request bodies ----

export const DevTokenRequest = z
  .strictObject({
    user_id: uuid.optional().meta({ description: 'Defaults to a fresh random uuid.' }),
    roles: z.array(z.enum(['admin'])).optional(),
  })
  .meta({ id: 'DevTokenRequest' });

export const AdvanceClockRequest = z
  .strictObject({ advance_seconds: z.number().finite().nonnegative().max(MAX_ADVANCE_SECONDS) })
  .meta({ id: 'AdvanceClockRequest' });

export const OnboardingAnswersRequest = onboardingAnswersSchema.meta({
  id: 'OnboardingAnswersInput',
  description: 'The seven required onboarding answers (turn-pipeline §4.1.1). Unknown fields are 422.',
});

export const PostMessageRequest = z
  .strictObject({
    message_id: uuid.meta({ description: 'Idempotency key chosen by the client.' }),
    text: z
      .string()
      .max(INGRESS.maxMessageChars, { message: `at most ${INGRESS.maxMessageChars} characters` })
      .refine((t) => t.trim().length > 0, { message: 'must not be empty' })
      .meta({ description: 'Not blank.', override: { minLength: 1, pattern: '\\S' } }),
    client_timezone: optionalTimezone.meta({ description: 'An IANA timezone; defaults to the onboarding answer.' }),
    client_locale: z.string().max(MAX_LOCALE_CHARS).optional().meta({ examples: ['ko-KR'] }),
  })
  .meta({ id: 'PostMessageRequest' });

export const ControlsPatchRequest = controlsPatchSchema.meta({
  id: 'ControlsPatch',
  description: 'Any of the three; fields not named stay as they are. suppressed_topics replaces the list and takes TopicIDs only (others are 422).',
  override: { minProperties: 1 },
});

export const AppOpenRequest = appOpenSchema.meta({
  id: 'AppOpenRequest',
  description: 'The body may be left out: an app open that no notification caused. Unknown fields are 422.',
});

// ---- answers ----

export const DevToken = z
  .object({
    token: z.string().meta({ description: `An HS256 JWT valid for ${INGRESS.devTokenTtlSeconds} s (dev mode only).` }),
    user_id: uuid,
  })
  .meta({ id: 'DevToken' });

export const Clock = z.object({ now: timestamp.meta({ description: 'The (virtual) time of every service.' }) }).meta({ id: 'Clock' });

export const OnboardingAnswers = z
  .object({
    preferred_name: z.string(),
    age_band: z.enum(AGE_BANDS),
    country_or_region: z.string().regex(/^[A-Z]{2}$/),
    occupation_category: z.enum(OCCUPATIONS),
    client_timezone: z.string(),
    proactive_messages_enabled: z.boolean(),
    suppressed_topics: z.array(TopicId).meta({ override: { uniqueItems: true } }),
  })
  .meta({ id: 'OnboardingAnswers', description: 'The answers as stored (normalised).' });

export const Persona = z
  .object({
    template_id: z.string(),
    core_archetype: z.string(),
    friend_energy: z.string(),
    stable_style_params: jsonObject(),
  })
  .meta({ id: 'Persona' });

export const Profile = z
  .object({
    user_id: uuid,
    user_state: UserState,
    answers: OnboardingAnswers.nullable(),
    ai_friend_id: uuid.nullable(),
    persona: Persona.nullable().meta({ description: 'Null until the orchestrator has assigned one.' }),
  })
  .meta({ id: 'Profile' });

export const Routing = z
  .object({
    pipeline: z.string().meta({ examples: ['REFUSAL'] }),
    safety_policy: z.string(),
    memory_read_policy: z.string(),
    vector_search_policy: z.string(),
    memory_write_policy: z.string(),
  })
  .meta({ id: 'Routing' });

export const TurnReply = z
  .object({
    message_id: uuid,
    conversation_id: uuid,
    user_state: UserState,
    routing: Routing,
    assistant: z.object({ message_id: uuid, text: z.string(), surfaced_memory_ids: z.array(uuid) }),
  })
  .meta({ id: 'TurnReply' });

const messageFields = {
  message_id: uuid,
  role: z.enum(['user', 'assistant']),
  source: z.enum(['chat', 'retention']),
  text: z.string(),
  created_at: timestamp,
  surfaced_memory_ids: z.array(uuid).optional().meta({ description: 'Assistant messages only.' }),
};

export const HistoryMessage = z.object(messageFields).meta({
  id: 'HistoryMessage',
  description:
    "A chat turn is two messages, the user's and the reply. A proactive (retention) message is one assistant " +
    'message whose message_id is its notification id (the opened_notification_id of POST /v1/me/app-opens).',
});

export const History = z.object({ messages: z.array(HistoryMessage).meta({ description: 'Oldest first.' }) }).meta({ id: 'History' });

export const Relationship = z
  .object({
    relationship_stage: z.enum(RELATIONSHIP_STAGES),
    rapport_score: z.number().int().min(0).max(100),
    sessions_count: z.number().int().min(0).meta({ description: 'A session starts after more than 4 h without a user message (§11.1).' }),
    last_interaction_at: nullableTimestamp.meta({ description: 'The last user message; null before the first.' }),
    last_stage_promotion_at: nullableTimestamp.meta({ description: 'Null until the first promotion (§11.5).' }),
  })
  .meta({
    id: 'Relationship',
    description:
      "The caller's relationship with their companion (turn-pipeline §2.5), as it reads now: inactivity decay due so " +
      'far is applied (§11.4). A user who has not chatted yet has the initial relationship: STRANGER, rapport 0, ' +
      '0 sessions, both timestamps null.',
    examples: [{ ...INITIAL_RELATIONSHIP }],
  });

export const Memory = z
  .object({
    memory_id: uuid,
    type: z.enum(['FACT', 'PREFERENCE', 'RELATIONSHIP_EVENT', 'EMOTIONAL_PATTERN']),
    memory_key: z.string().meta({
      description: 'fact:<field> | pref:<category>:<item_slug> | event:<domain>:<yyyy_mm>:<event_slug> | emotion:<pattern> (§12.3.1).',
      examples: ['fact:current_city', 'pref:food:sushi'],
    }),
    memory_value: z
      .string()
      .nullable()
      .meta({
        description: 'PREFERENCE values are like|<item> or dislike|<item> (§12.3.2). Null once the user deleted the memory (INVALID): its value is not kept.',
        examples: ['busan', 'like|sushi'],
      }),
    confidence: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: '0.60 heuristic, 0.75 LLM; +0.15 per confirmation, capped at 1.0; an opposite stance starts at ≤ 0.55.' }),
    status: z.enum(['ACTIVE', 'SUPERSEDED', 'INVALID']),
    reliability: z.enum(RELIABILITY_STATES).meta({
      description:
        'uncertainty-engine.md "Memory Reliability Model": reliable (the default), uncertain (inferred, unconfirmed), contradicted ' +
        '(conflicts with another memory) or superseded (true in the past tense only).',
    }),
    source_message_ids: z.array(uuid).meta({ description: 'The user messages it came from, first first.' }),
    created_at: timestamp,
    last_confirmed_at: timestamp,
    occurred_on: z.iso
      .date()
      .nullable()
      .meta({
        description:
          'When what it tells happened, as the user stated it relative to their message ("yesterday", "last May"): the day, or the first day of the ' +
          'stated week, month or year. An event is filed under this month (memory_key). Null when no time was stated, and once INVALID.',
        examples: ['2026-05-01'],
      }),
    occurred_precision: z.enum(['day', 'week', 'month', 'year']).nullable().meta({ description: 'How precisely the time was stated; null with occurred_on.' }),
    superseded_by: uuid.nullable().optional().meta({ description: 'With ?status=all only: the record that replaced this one.' }),
  })
  .meta({
    id: 'Memory',
    description:
      'One thing the companion knows about the user (turn-pipeline §12). ACTIVE memories are used in replies; ' +
      'SUPERSEDED ones were replaced by a newer value (superseded_by); INVALID ones the user asked to forget — ' +
      'never used again, and their key is suppressed. Nothing is deleted: the history stays.',
  });

export const MemoryList = z.object({ memories: z.array(Memory).meta({ description: 'Newest first.' }) }).meta({ id: 'MemoryList' });

export const Controls = z
  .object({
    proactive_messages_enabled: z.boolean(),
    mute_until: nullableTimestamp,
    suppressed_topics: z.array(TopicId),
  })
  .meta({
    id: 'Controls',
    description:
      "The user's controls (turn-pipeline §2.7), applied from the next turn. Before onboarding: proactive off, not muted, no topics. " +
      '"Don\'t bring this topic up again" in chat adds the topic of the last exchange to suppressed_topics.',
  });

export const AppOpen = z
  .object({
    app_open_id: uuid.meta({ description: "The client's app_open_id, or the id the API gave this open." }),
    opened_notification_id: uuid.nullable(),
    opened_at: timestamp,
  })
  .meta({ id: 'AppOpen' });

export const RetentionMessage = z
  .object({
    retention_id: uuid.meta({ description: 'Also the message_id of its turn: GET /v1/admin/turns/{message_id} shows its trail.' }),
    notification_id: uuid.meta({ description: 'The message_id the history shows for it.' }),
    conversation_id: uuid,
    planned_at: timestamp,
    status: z.enum(['planned', 'delivered', 'declined']),
    delivered_at: nullableTimestamp,
    outcome: z.enum(['', 'pending', 'acknowledged', 'ignored']).meta({ description: '"" while not delivered, or declined (§14.2).' }),
    acknowledged_via: z.enum(['reply', 'app_open_notification', 'app_open_single']).nullable(),
    resolved_at: nullableTimestamp.meta({ description: 'When it was acknowledged or counted as ignored.' }),
    declined_reason: z.string().nullable().meta({ description: 'Why the orchestrator declined it.' }),
  })
  .meta({ id: 'RetentionMessage', description: 'One proactive message (turn-pipeline §14) and what became of it.' });

export const Retention = z
  .object({
    user_id: uuid,
    evaluated_through: nullableTimestamp.meta({ description: 'The last hour evaluated (UTC, on the hour).' }),
    backoff_multiplier: z.number().int().min(1).meta({ description: '×2 per ignored message (§14.2).' }),
    messages: z.array(RetentionMessage).meta({ description: 'Newest first, at most 50.' }),
  })
  .meta({
    id: 'Retention',
    description: `The retention state of a user. Before retention has evaluated the user: evaluated_through null, backoff ${INITIAL_BACKOFF_MULTIPLIER}, no messages.`,
  });

export const BeliefNode = z
  .object({
    belief_id: uuid,
    holder: z.enum(BELIEF_HOLDERS),
    canonical_text: z.string().meta({ description: 'The belief in affirmative first-person form; polarity carries the negation.', examples: ['i am patient'] }),
    belief_type: z.string().meta({ examples: ['TRAIT', 'VALUE', 'PREFERENCE', 'CAPABILITY_LIMIT'] }),
    polarity: z.enum(['affirm', 'deny']),
    stream: z.enum(['identity', 'state', 'meta', 'relational']),
    status: z.enum(['surface', 'developing', 'core']),
    confidence: z.number().min(0).max(1),
    activation: z.number().min(0).meta({ description: 'Decays with its half-life since the last occurrence.' }),
    core_score: z.number().min(0).max(1),
    occurrence_count: z.number().int().min(0),
    source_message_ids: z.array(uuid).meta({ description: 'The messages it was stated in (the most recent ones).' }),
    created_at: timestamp,
  })
  .meta({
    id: 'BeliefNode',
    description:
      'One node of the belief graph (self-belief-decomposer.md): a self-definitional belief of the user (their ' +
      'self-perceptions) or of the companion (its own self-statements), with its evidence.',
  });

export const BeliefLink = z
  .object({
    link_id: uuid,
    from_belief_id: uuid,
    to_belief_id: uuid,
    confidence: z.number().min(0).max(1),
    state: z.enum(['pending', 'accepted', 'rejected', 'merged']),
  })
  .meta({ id: 'BeliefLink', description: 'A tentative link between two similar nodes; never merged automatically (an admin merges).' });

export const BeliefConflict = z
  .object({
    conflict_id: uuid,
    belief_ids: z.array(uuid).min(2).max(2),
    conflict_type: z.enum(['contradiction', 'tension']),
    source_message_ids: z.array(uuid),
    created_at: timestamp,
  })
  .meta({ id: 'BeliefConflict', description: 'Contradiction: the same belief affirmed and denied. Tension: a near-paraphrase of opposite polarity.' });

export const BeliefChallenge = z
  .object({
    challenge_id: uuid,
    belief_id: uuid,
    style: z.enum(['gentle', 'curious', 'reflective']),
    message_id: uuid.meta({ description: 'The turn it was asked in.' }),
    created_at: timestamp,
  })
  .meta({ id: 'BeliefChallenge', description: "A gentle question the companion asked about one of the user's self-beliefs (belief-challenge.md)." });

export const BeliefGraph = z
  .object({
    nodes: z.array(BeliefNode),
    links: z.array(BeliefLink),
    conflicts: z.array(BeliefConflict),
    challenges: z.array(BeliefChallenge).meta({ description: 'Empty when only the companion holder is asked.' }),
  })
  .meta({ id: 'BeliefGraph', description: "A user's belief graph: the nodes of one holder or both, the links and conflicts among them, and the challenges." });

export const UncertaintySubject = z
  .object({
    kind: z.enum(['memory', 'belief']),
    id: uuid.meta({ description: 'The memory_id or belief_id. A side whose memory is not written yet is left out until it is.' }),
  })
  .meta({ id: 'UncertaintySubject', description: 'What an uncertainty is about: a memory (GET /v1/me/memories) or a belief node (the belief graph).' });

export const Uncertainty = z
  .object({
    uncertainty_id: uuid,
    uncertainty_type: z.enum(UNCERTAINTY_TYPES),
    subjects: z.array(UncertaintySubject).max(2).meta({ description: 'Memory a, then memory b (none for a solo uncertainty).' }),
    severity: z.enum(SEVERITIES),
    state: z.enum(UNCERTAINTY_STATES),
    detection_context: z.enum(DETECTION_CONTEXTS),
    temporal_signal: z.boolean().meta({ description: 'A temporal change was detected: the newer side may replace the older (temporal_supersede).' }),
    resolution_strategy: z.enum(STRATEGIES).nullable().meta({ description: 'Null until resolved (or decayed).' }),
    surfaced_count: z.number().int().min(0).meta({ description: 'How many replies asked about it.' }),
    source_message_ids: z.array(uuid).meta({ description: 'The user messages that stated its sides.' }),
    created_at: timestamp,
    resolved_at: nullableTimestamp.meta({ description: 'Null until resolved (or decayed).' }),
  })
  .meta({
    id: 'Uncertainty',
    description:
      "One row of uncertainty-engine.md's uncertainties table: a contradiction between two memories, or a solo " +
      'uncertainty (unverified, stale, ambiguous) about one.',
  });

export const Uncertainties = z
  .object({
    uncertainties: z.array(Uncertainty),
    tolerance: z
      .number()
      .min(UNCERTAINTY_CONFIG.tolerance.min)
      .max(UNCERTAINTY_CONFIG.tolerance.max)
      .meta({
        description:
          `uncertainty-engine.md "Uncertainty Tolerance": starts at ${UNCERTAINTY_CONFIG.tolerance.baseline}, lower when the user corrects ` +
          'the companion (it asks sooner), higher when they reinforce what it holds (it resolves more silently).',
      }),
  })
  .meta({ id: 'Uncertainties', description: "A user's uncertainties, every state, and the companion's uncertainty tolerance for the user." });

export const ActorTrust = z
  .object({
    actor: z.enum(ACTORS),
    trust: z
      .number()
      .min(0)
      .max(1)
      .meta({ description: `Starts at ${TRUST_CONFIG.initialTrust}; each outcome moves it by an EWMA step (α = α₀/(1 + n/k)) towards 0.5·(r + 1).` }),
    updates: z.number().int().min(0).meta({ description: 'How many outcomes updated it (rewards with |r| below r_min do not).' }),
    updated_at: nullableTimestamp.meta({ description: 'Null before the first update.' }),
  })
  .meta({ id: 'ActorTrust', description: 'outcome-driven-trust.md §1 ProvenanceTrust: the learned trust T of one provenance actor, for this user.' });

const component = (description: string) => z.number().min(-1).max(1).meta({ description });

export const OutcomeComponents = z
  .object({
    coherence: component('Δcoh: the change in self-alignment, less the baseline drift.'),
    confidence: component('Δconf: fewer open contradictions touching the belief is positive.'),
    stability: component('+1 stable, −1 ping-pong (reversals in 7 days), 0 inconclusive.'),
    validation: component("The user's agreement: 0.7·explicit tags + 0.3·implicit (doubt rate change)."),
  })
  .meta({ id: 'OutcomeComponents', description: 'outcome-driven-trust.md §2: r = 0.4·coherence + 0.2·confidence + 0.2·stability + 0.2·validation, each in [−1, 1].' });

export const TrustOutcome = z
  .object({
    outcome_id: uuid,
    horizon: z.enum(HORIZONS),
    reward: z.number().min(-1).max(1),
    components: OutcomeComponents,
    evaluated_at: timestamp,
  })
  .meta({ id: 'TrustOutcome', description: "One of the gardener's decisions about a companion belief, judged at one horizon (outcome-driven-trust.md §2 OutcomeEvaluator)." });

export const TrustFeedback = z
  .object({
    tag: z.enum(TAGS),
    actor: z.enum(ACTORS),
    belief_id: uuid.nullable().meta({ description: 'The companion belief the tag aligned with best; null when none was close (reason no_belief).' }),
    weight: z.number().meta({ description: 'Signed: base weight · precision · g_conviction · g_trust · g_align (positive supports the belief).' }),
    applied: z.boolean().meta({ description: "False when it did not count towards the belief's score." }),
    reason: z
      .enum(FEEDBACK_REASONS)
      .meta({ description: 'counted, or why not: duplicate (tag storm), off_target (a negative tag aligned below 0.2), no_belief.' }),
    created_at: timestamp,
  })
  .meta({
    id: 'TrustFeedback',
    description: 'One +keep / +doubt / +artifact tag about a companion belief, in a user message (actor user) or a reply (actor agent), as §3 weighed it.',
  });

export const Trust = z
  .object({
    actors: z.array(ActorTrust).meta({ description: 'user and agent.' }),
    outcomes: z.array(TrustOutcome).meta({ description: 'Evaluated outcomes, oldest first.' }),
    feedback: z.array(TrustFeedback).meta({ description: 'Oldest first.' }),
  })
  .meta({
    id: 'Trust',
    description: "The companion's outcome-driven trust for a user (outcome-driven-trust.md): each actor's learned trust, the evaluated outcomes and the tags.",
  });

/** An event's id: a random uuid, or one derived from what the event is about (deriveId, uuid v5). */
const eventId = uuid;
const service = z.enum(SERVICE_NAMES);

export const AuditEvent = z
  .object({
    type: z.string().meta({ examples: ['hearth.orchestrator.v1.TurnCompleted'] }),
    event_id: eventId,
    occurred_at: timestamp,
    service,
    causation_id: z.string().meta({ description: 'The event that caused this one; "" for a request from outside.' }),
    correlation_id: z.string().meta({ description: "The turn it belongs to: the chat message's message_id, or a proactive message's retention_id." }),
    payload: z.unknown().meta({ description: "The event's protobuf payload as JSON (camelCase; empty fields left out); null when erased." }),
    erased: z.boolean().meta({ description: "True once the user's data was erased: the payload is gone, type and times stay." }),
  })
  .meta({ id: 'AuditEvent' });

export const Writeback = z.object({ type: z.string(), event_id: eventId, service }).meta({ id: 'Writeback' });


export const TurnTrail = z
  .object({
    message_id: uuid,
    user_id: uuid,
    conversation_id: uuid,
    packet: payloadOrNull('The TurnReceived payload: the TurnPacket (turn-pipeline §2.1); null for a proactive message, which answers no user message.'),
    routing: payloadOrNull('The TurnRouted payload: the RoutingDecision and topic matches (§5, §6).'),
    retrieval: payloadOrNull('The memories retrieved for the turn and how (§7.1 steps 2–3).'),
    surfaced_memory_ids: z.array(uuid).meta({ description: 'The memories the reply surfaced.' }),
    plan: payloadOrNull('The ResponsePlan (§8).'),
    gates: z.array(jsonObject()).meta({ description: 'Every §10 gate verdict on every candidate reply, in order.' }),
    llm: z
      .object({
        final: payloadOrNull('The exchange whose output became the reply (or the offline render).'),
        exchanges: z.array(jsonObject()).meta({ description: 'Every exchange of the turn in order (draft, repair, rewrite).' }),
      })
      .meta({ description: 'The recorded LLM output, so replay never calls the LLM (ARCHITECTURE invariant 4).' }),
    outcome: z
      .enum(['draft', 'rewrite', 'fallback', 'refusal', 'crisis_safe'])
      .nullable()
      .meta({ description: 'Null while the turn has no reply; `refusal` for a user-state refusal (ChatRefused, §6.1.1).' }),
    relationship: payloadOrNull('The RelationshipUpdated payload (§11), or null.'),
    writebacks: z.array(Writeback).meta({ description: 'The other events the turn caused (memory, beliefs, trust, …).' }),
    events: z.array(AuditEvent).meta({ description: 'Every event of the turn, in order of occurrence.' }),
  })
  .meta({
    id: 'TurnTrail',
    description:
      'The decision trail of one turn, read from the events correlated with it. Payload parts are protobuf JSON ' +
      '(camelCase, empty fields left out). Parts of a stage that has not happened (yet) are null or empty.',
  });

export const TimelineEvent = z
  .object({
    type: z.string().meta({ examples: ['hearth.ingress.v1.TurnReceived', 'hearth.ingress.v1.AdminAccessed', 'Quarantined'] }),
    event_id: eventId,
    occurred_at: timestamp,
    service,
    payload: z.unknown().meta({ description: "The event's protobuf payload as JSON; null when erased." }),
    erased: z.boolean().meta({ description: "True when the payload can no longer be read (the user's data key was destroyed)." }),
  })
  .meta({
    id: 'TimelineEvent',
    description:
      'One event about the user. An erased event (the user was erased: their data key is destroyed) keeps its type, ' +
      "id, time and service; its payload is null. Every admin read of the user's data is itself an event here, " +
      'hearth.ingress.v1.AdminAccessed {adminId, route, resource, accessedAt}; the read that returns this timeline shows from the next one on.',
    examples: [
      {
        type: 'hearth.ingress.v1.TurnReceived',
        event_id: '0b9e6f1c-6a4e-4f7e-9a51-3c1d2b7e8f90',
        occurred_at: '2026-11-22T10:00:00.000Z',
        service: 'ingress',
        payload: null,
        erased: true,
      },
    ],
  });

export const Timeline = z.object({ events: z.array(TimelineEvent).meta({ description: 'In order of occurrence.' }) }).meta({ id: 'Timeline' });

export const Erasure = z
  .object({
    erasure_id: z.string().meta({ description: 'The same for a repeated request.' }),
    status: z.enum(['accepted', 'completed']),
  })
  .meta({ id: 'Erasure' });

export const ExportMessage = z
  .object({ ...messageFields, refused: z.literal(true).optional().meta({ description: 'Only on a refused turn (not in the history).' }) })
  .meta({
    id: 'ExportMessage',
    description:
      "A message as the history shows it. The export also holds what the history leaves out: a CREATED user's " +
      'refused message and its refusal, marked refused.',
  });

export const AdminAccess = z
  .object({
    event_id: uuid,
    admin_id: z.string().meta({ description: "The admin token's subject." }),
    route: z.string().meta({ examples: ['GET /v1/admin/users/{user_id}/timeline'] }),
    resource: z.string().meta({
      description: 'timeline | retention | beliefs | uncertainties | trust | dead-letters | turn:<message_id>',
      examples: ['timeline', 'turn:5d1c3a2e-0b6f-4a59-9c1e-7f2a8d4b6c10'],
    }),
    accessed_at: timestamp,
  })
  .meta({ id: 'AdminAccess', description: "One read of the user's data by an admin through /v1/admin/* (an AdminAccessed event on the user's ingress subject)." });

export const Export = z
  .object({
    exported_at: timestamp,
    user: Profile,
    controls: Controls,
    relationship: Relationship,
    conversations: z
      .array(z.object({ conversation_id: uuid, messages: z.array(ExportMessage) }))
      .meta({ description: 'By conversation_id; messages oldest first.' }),
    memories: z.array(Memory).meta({ description: 'Every status (ACTIVE, SUPERSEDED, INVALID), with superseded_by.' }),
    beliefs: z.object({ nodes: z.array(BeliefNode), conflicts: z.array(BeliefConflict), challenges: z.array(BeliefChallenge) }).meta({
      description: "The user's own beliefs (holder user), as GET /v1/admin/users/{user_id}/beliefs shows them, without the links.",
    }),
    uncertainties: Uncertainties.meta({ description: 'As GET /v1/admin/users/{user_id}/uncertainties shows them: every uncertainty, and the tolerance.' }),
    trust: Trust.meta({ description: 'As GET /v1/admin/users/{user_id}/trust shows it: learned trust per actor, outcomes and tags.' }),
    retention: Retention,
    admin_access: z.array(AdminAccess).meta({ description: "Every admin read of the user's data, oldest first." }),
  })
  .meta({
    id: 'Export',
    description:
      'Everything Hearth holds about the caller, in this key order. Written as it is read, so memory stays flat ' +
      'whatever the history; a connection closed before the final `}` means the export failed (a cut body is never valid JSON).',
  });

export const DeadLetters = z
  .object({
    dead_letters: z.array(
      z.object({
        event_id: z.string(),
        type: z.string().meta({ description: 'Fully-qualified event type, e.g. hearth.ingress.v1.TurnReceived.' }),
        user_id: z.string().meta({ description: 'Empty for global aggregates.' }),
        service: z.string().meta({ description: 'The service whose consumer quarantined it.' }),
        consumer: z.string(),
        error: z.string(),
        deliveries: z.number().int(),
        quarantined_at: timestamp,
      }),
    ),
  })
  .meta({ id: 'DeadLetters' });

export const Redrive = z
  .object({
    event_id: z.string(),
    results: z.array(z.object({ service: z.string(), consumer: z.string(), redriven: z.boolean(), error: z.string().optional() })),
  })
  .meta({ id: 'Redrive' });

// ---- served by libs/host on every service ----

export const Health = z.object({ status: z.literal('ok') });

const Check = z.object({ ok: z.boolean(), reason: z.string().optional() }).meta({ id: 'Check' });

const byService = <T extends z.ZodType>(value: T) => z.partialRecord(service, value);

export const Readiness = z
  .object({
    status: z.literal('ready'),
    checks: z
      .object({
        nats: Check,
        database: Check,
        consumers: Check.extend({
          bound: z.number().int(),
          total: z.number().int(),
          unbound: byService(z.array(z.string())).meta({ description: 'Names of consumers not bound, by service.' }),
          stalled: byService(z.array(z.string())).meta({ description: 'Names of consumers with a handler past its deadline, by service.' }),
        }),
      })
      .optional(),
    dependencies: byService(z.record(z.string(), z.object({ ok: z.boolean(), reason: z.string().optional(), since: timestamp.optional() })))
      .optional()
      .meta({ description: 'Degradable dependencies by service (an LLM provider): shown, never failing readiness.' }),
  })
  .meta({
    id: 'Readiness',
    description: 'Ready. The checks and the degradable dependencies are shown to loopback callers and operators (an admin token) only.',
  });

export const TextBody = z.string();

/** The OpenAPI document itself, as /docs/openapi.json serves it. */
export const OpenApiJson = z.looseObject({ openapi: z.literal('3.1.0') });
