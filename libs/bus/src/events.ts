import { common } from '@hearth/proto';

/** A protobuf message type as ts-proto generates it. */
export interface MessageCodec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
  fromPartial(object: never): T;
}

/** A named event type: the fully-qualified protobuf name and its codec. */
export interface EventType<T> {
  readonly name: string;
  encode(value: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

export function eventType<T>(name: string, codec: MessageCodec<T>): EventType<T> {
  return {
    name,
    encode: (value) => codec.encode(value).finish(),
    decode: (bytes) => codec.decode(bytes),
  };
}

/** An event decided by a service, not yet appended. */
export interface EventDraft {
  /** Event id and JetStream Msg-Id; derive it deterministically from its cause. */
  id: string;
  type: string;
  payload: Uint8Array;
  userId: string;
  occurredAt: Date;
  causationId?: string;
  correlationId?: string;
  /** @default 1 */
  schemaVersion?: number;
  /**
   * The payload holds no personal data and stays clear, though the event names
   * a user (UserErased, ErasureApplied).
   */
  clear?: boolean;
  /** Starts the user anew after an erasure: seals with the next data key generation (POST /v1/me). */
  opensDataKey?: boolean;
}

export function draft<T>(
  type: EventType<T>,
  value: T,
  meta: Omit<EventDraft, 'type' | 'payload'>,
): EventDraft {
  return { ...meta, type: type.name, payload: type.encode(value) };
}

/** An event as read back from a stream. */
export interface StoredEvent {
  id: string;
  type: string;
  userId: string;
  occurredAt: Date;
  causationId: string;
  correlationId: string;
  schemaVersion: number;
  payload: Uint8Array;
  /** Service that appended it. */
  service: string;
  /** The build that appended it ('' for none, or a build before the field). */
  producerBuild: string;
  stream: string;
  subject: string;
  /** Stream sequence of this event. */
  seq: number;
  /** Stream sequence of its predecessor on the same subject (0 for the first). */
  prevSeq: number;
  /** Raw envelope bytes, as stored. */
  raw: Uint8Array;
  /**
   * Generation of the user's data key the payload was sealed with (0: not
   * sealed — no user, or a clear event such as UserErased).
   */
  keyGeneration: number;
  /**
   * True when the payload can no longer be read: the user's data key was
   * destroyed (erasure). `payload` is then empty; handlers pass over it.
   */
  erased: boolean;
}

/** How the payload goes into the envelope: as the draft has it, or sealed by the keyring. */
export interface SealedPayload {
  payload: Uint8Array;
  keyGeneration: number;
  erased: boolean;
}

export function encodeEnvelope(d: EventDraft, service: string, prevSeq: number, sealed?: SealedPayload, producerBuild = ''): Uint8Array {
  return common.Envelope.encode({
    eventId: d.id,
    type: d.type,
    userId: d.userId,
    occurredAt: d.occurredAt,
    causationId: d.causationId ?? '',
    correlationId: d.correlationId ?? '',
    schemaVersion: d.schemaVersion ?? 1,
    payload: sealed?.payload ?? d.payload,
    prevSubjectSeq: BigInt(prevSeq),
    service,
    keyGeneration: sealed?.keyGeneration ?? 0,
    erased: sealed?.erased ?? false,
    producerBuild,
  }).finish();
}

export function decodeEnvelope(
  raw: Uint8Array,
  where: { stream: string; subject: string; seq: number },
): StoredEvent {
  const e = common.Envelope.decode(raw);
  return {
    id: e.eventId,
    type: e.type,
    userId: e.userId,
    occurredAt: e.occurredAt ?? new Date(0),
    causationId: e.causationId,
    correlationId: e.correlationId,
    schemaVersion: e.schemaVersion,
    payload: e.payload,
    service: e.service,
    producerBuild: e.producerBuild,
    stream: where.stream,
    subject: where.subject,
    seq: where.seq,
    prevSeq: Number(e.prevSubjectSeq),
    raw,
    keyGeneration: e.keyGeneration,
    erased: e.erased,
  };
}

/** Decode the payload of a stored event, checking its type. */
export function payloadOf<T>(event: StoredEvent, type: EventType<T>): T {
  if (event.type !== type.name) {
    throw new Error(`event ${event.id} is ${event.type}, not ${type.name}`);
  }
  if (event.erased) throw new Error(`event ${event.id} belongs to an erased user: its payload is gone`);
  return type.decode(event.payload);
}
