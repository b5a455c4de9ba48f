import type { StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import { eventCodecs, isEventTypeName } from '@hearth/proto';

/** One event about a user as the admin API shows it: the payload is its protobuf JSON. */
export interface TimelineEvent {
  type: string;
  event_id: string;
  occurred_at: string;
  service: string;
  /** null when erased. */
  payload: unknown;
  /** The user's data key was destroyed (erasure): only the type and the times are left. */
  erased: boolean;
}

/** A timeline event with the ids that tie it to its cause and to its turn. */
export interface AuditEvent extends TimelineEvent {
  /** The event that caused it ("" for a request from outside). */
  causation_id: string;
  /** The turn (or request) it belongs to: a chat turn's message_id. */
  correlation_id: string;
}

/** An event the turn caused outside its own pipeline record. */
export interface Writeback {
  type: string;
  event_id: string;
  service: string;
}

/** The decision trail of one turn (../shared/API.md, GET /v1/admin/turns/{message_id}). */
export interface TurnTrail {
  message_id: string;
  user_id: string;
  conversation_id: string;
  /** The TurnReceived payload: the TurnPacket (turn-pipeline §2.1). */
  packet: unknown;
  /** The TurnRouted payload: the RoutingDecision and topic matches (§5, §6). */
  routing: unknown;
  /** What the turn asked the memory service and got (§7.1 steps 2–3). */
  retrieval: unknown;
  surfaced_memory_ids: string[];
  /** The ResponsePlan (§8). */
  plan: unknown;
  /** Every §10 gate verdict on every candidate, in order. */
  gates: unknown[];
  /** The recorded LLM output: the exchange that became the reply, and every exchange in order. */
  llm: { final: unknown; exchanges: unknown[] };
  /** draft | rewrite | fallback | refusal | crisis_safe; null while the turn is open. */
  outcome: string | null;
  /** The RelationshipUpdated payload (§11), or null. */
  relationship: unknown;
  writebacks: Writeback[];
  /** Every event of the turn, in order. */
  events: AuditEvent[];
}

/**
 * A stored event as the admin API shows it, `service` being the stream it was
 * read from when the envelope does not say. An erased event (its user's data
 * key was destroyed) keeps its type, ids and times; its payload is never decoded.
 */
export function auditEventOf(e: StoredEvent, service: string): AuditEvent {
  return {
    type: e.type,
    event_id: e.id,
    occurred_at: e.occurredAt.toISOString(),
    service: e.service || service,
    causation_id: e.causationId,
    correlation_id: e.correlationId,
    payload: e.erased ? null : payloadJson(e),
    erased: e.erased,
  };
}

/** The payload as protobuf JSON; an unknown type's bytes as base64. */
function payloadJson(e: StoredEvent): unknown {
  if (!isEventTypeName(e.type)) return { undecoded: Buffer.from(e.payload).toString('base64') };
  const codec = eventCodecs[e.type] as { decode(b: Uint8Array): unknown; toJSON(m: unknown): unknown };
  return codec.toJSON(codec.decode(e.payload));
}

/** The outcome a ChatRefused (a user-state gate, §6.1.1, §4.1.2) reads as. */
export const REFUSED_OUTCOME = 'refusal';

/** The events the trail reads its parts from; every other event of the turn is a writeback. */
const PIPELINE_TYPES: ReadonlySet<string> = new Set([
  Events.TurnReceived.name,
  Events.TurnRouted.name,
  Events.TurnCompleted.name,
  Events.ChatRefused.name,
  Events.RelationshipUpdated.name,
]);

/**
 * Whether an event belongs to the turn of `messageId`: every service carries the
 * turn's correlation id (its message_id) on what the turn caused. An event without
 * one belongs when its payload names the message.
 */
export function belongsToTurn(event: AuditEvent, messageId: string): boolean {
  if (event.correlation_id) return event.correlation_id === messageId;
  return fieldOf(event.payload, 'messageId') === messageId;
}

/**
 * Builds the trail of one turn from its events (already in order, payloads as
 * protobuf JSON, which leaves out empty fields: each part falls back to its empty
 * value here).
 */
export function buildTurnTrail(turn: { messageId: string; userId: string; conversationId: string }, events: readonly AuditEvent[]): TurnTrail {
  const first = (type: string) => events.find((e) => e.type === type)?.payload ?? null;
  const completed = first(Events.TurnCompleted.name);
  const refused = completed === null ? first(Events.ChatRefused.name) : null;
  const outcome = completed !== null ? (stringOf(fieldOf(completed, 'outcome')) ?? null) : refused !== null ? REFUSED_OUTCOME : null;
  return {
    message_id: turn.messageId,
    user_id: turn.userId,
    conversation_id: turn.conversationId,
    packet: first(Events.TurnReceived.name),
    routing: first(Events.TurnRouted.name),
    retrieval: fieldOf(completed, 'retrieval') ?? null,
    surfaced_memory_ids: arrayOf(fieldOf(completed, 'surfacedMemoryIds')) as string[],
    plan: fieldOf(completed, 'plan') ?? null,
    gates: arrayOf(fieldOf(completed, 'gates')),
    llm: { final: fieldOf(completed, 'llm') ?? null, exchanges: arrayOf(fieldOf(completed, 'exchanges')) },
    outcome,
    relationship: first(Events.RelationshipUpdated.name),
    writebacks: events.filter((e) => !PIPELINE_TYPES.has(e.type)).map((e) => ({ type: e.type, event_id: e.event_id, service: e.service })),
    events: [...events],
  };
}

function fieldOf(payload: unknown, key: string): unknown {
  if (payload === null || typeof payload !== 'object') return undefined;
  return (payload as Record<string, unknown>)[key];
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * What the admin API shows of memories the user deleted or had invalidated: key
 * and status stay, the value does not (issue 14). The log keeps the recorded
 * value (sealed with the user's key); every admin read hides it wherever a
 * payload names the memory with its value: MemoryRecorded (and its embedding,
 * embedded text and stated time), write-back candidates, the memories a turn retrieved.
 * The user's own message that stated it stays, as in the history; a recorded
 * LLM prompt that quoted it does too.
 */
export function withoutForgottenValues(events: readonly AuditEvent[]): AuditEvent[] {
  const forgotten = new Set<string>();
  for (const e of events) {
    if (e.type === Events.MemoriesInvalidated.name && e.payload) {
      for (const id of (e.payload as { memoryIds?: string[] }).memoryIds ?? []) forgotten.add(id);
    }
  }
  if (forgotten.size === 0) return [...events];
  return events.map((e) => (e.payload ? { ...e, payload: forget(e.payload, forgotten) } : e));
}

/** A copy of a payload (protobuf JSON) with the value of each forgotten memory it names removed. */
function forget(value: unknown, forgotten: ReadonlySet<string>): unknown {
  if (Array.isArray(value)) return value.map((v) => forget(v, forgotten));
  if (value === null || typeof value !== 'object') return value;
  const o = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k] = forget(v, forgotten);
  if (typeof o.memoryId === 'string' && forgotten.has(o.memoryId) && 'memoryValue' in o) {
    out.memoryValue = null;
    out.valueForgotten = true;
    delete out.embedding;
    delete out.embeddingText;
    // The time it told of goes with it, as in the memory projection.
    delete out.occurredOn;
    delete out.occurredPrecision;
    delete out.occurredText;
  }
  return out;
}
