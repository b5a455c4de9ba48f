import { DeliverPolicy, JetStreamApiError, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders, type Msg } from '@nats-io/transport-node';
import { common } from '@hearth/proto';
import { isNotFound, type Bus } from './bus.js';
import { BusError } from './errors.js';
import { decodeEnvelope } from './events.js';
import { SERVICE_NAMES, type ServiceName } from './topology.js';

/** One event a consumer quarantined: what the dead-letter stream holds about it. */
export interface DeadLetterEntry {
  eventId: string;
  type: string;
  /** '' for global aggregates. */
  userId: string;
  correlationId: string;
  /** The service whose consumer gave up. */
  service: ServiceName;
  /** Its durable consumer. */
  consumer: string;
  /** Where the event lives. */
  stream: string;
  subject: string;
  streamSeq: number;
  error: string;
  deliveries: number;
  quarantinedAt: Date;
  /** A redrive applied it since. */
  redriven: boolean;
}

/** The answer to one consumer's redrive of a dead letter. */
export interface RedriveResult {
  service: ServiceName;
  consumer: string;
  redriven: boolean;
  error?: string;
}

const HEADER_CONSUMER = 'Hearth-Consumer';
const HEADER_STREAM = 'Hearth-Stream';
const HEADER_SEQ = 'Hearth-Stream-Seq';
const REDRIVE_TIMEOUT_MS = 30_000;
/** JetStream's code for a message that is not (or no longer) in the stream. */
const NO_MESSAGE_FOUND = 10037;

/** One dead letter's identity: the consumer that gave up and the event's stream position. */
export const deadLetterKey = (consumer: string, stream: string, seq: number): string => `${consumer}/${stream}/${seq}`;
const keyOf = deadLetterKey;

/** Decodes one message of the dead-letter stream: a dead letter, or a redriven marker (undefined). */
function entryOf(bus: Bus, subject: string, data: Uint8Array): DeadLetterEntry | undefined {
  const service = subject.slice(`${bus.topology.namespace}.dlq.`.length) as ServiceName;
  if (!SERVICE_NAMES.includes(service)) return undefined;
  const dl = common.DeadLetter.decode(data);
  let eventId = '';
  let type = '';
  let userId = '';
  let correlationId = '';
  try {
    const e = decodeEnvelope(dl.envelope, { stream: dl.stream, subject: dl.subject, seq: Number(dl.streamSeq) });
    ({ id: eventId, type, userId, correlationId } = e);
  } catch {
    // An undecodable envelope is still listed, by position.
    eventId = `${dl.stream}:${dl.streamSeq}`;
  }
  return {
    eventId,
    type,
    userId,
    correlationId,
    service,
    consumer: dl.consumer,
    stream: dl.stream,
    subject: dl.subject,
    streamSeq: Number(dl.streamSeq),
    error: dl.error,
    deliveries: dl.deliveryCount,
    quarantinedAt: dl.failedAt ?? new Date(0),
    redriven: false,
  };
}

function markerKey(h: { get(k: string): string } | undefined): string | undefined {
  const consumer = h?.get(HEADER_CONSUMER);
  const stream = h?.get(HEADER_STREAM);
  const seq = Number(h?.get(HEADER_SEQ));
  return consumer && stream && seq > 0 ? keyOf(consumer, stream, seq) : undefined;
}

/**
 * Every dead letter on the stream, oldest first, each marked redriven when a
 * later marker says a redrive applied it. One entry per event and consumer.
 */
export async function listDeadLetters(bus: Bus): Promise<DeadLetterEntry[]> {
  const stream = bus.topology.dlqStream;
  let last: number;
  try {
    const info = await bus.jsm.streams.info(stream);
    if (info.state.messages === 0) return [];
    last = info.state.last_seq;
  } catch (err) {
    if (isNotFound(err)) return [];
    throw err;
  }
  const consumer = await bus.js.consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  const entries = new Map<string, DeadLetterEntry>();
  const iter = await consumer.consume({ max_messages: 500 });
  try {
    for await (const m of iter as AsyncIterable<JsMsg>) {
      if (m.subject.endsWith('.redriven')) {
        const key = markerKey(m.headers);
        const entry = key ? entries.get(key) : undefined;
        if (entry) entry.redriven = true;
      } else {
        const entry = entryOf(bus, m.subject, m.data);
        // A later dead letter of the same event and consumer (after a failed redrive) replaces the earlier.
        if (entry) entries.set(keyOf(entry.consumer, entry.stream, entry.streamSeq), entry);
      }
      if (m.seq >= last || m.info.pending === 0) break;
    }
  } finally {
    iter.stop();
  }
  return [...entries.values()];
}

/**
 * Asks every consumer that quarantined this event (and has not applied it
 * since) to apply it now. Throws a BusError DEAD_LETTER_NOT_FOUND when there is none.
 */
export async function redriveDeadLetter(bus: Bus, eventId: string): Promise<RedriveResult[]> {
  const pending = (await listDeadLetters(bus)).filter((e) => e.eventId === eventId && !e.redriven);
  if (pending.length === 0) throw new BusError('DEAD_LETTER_NOT_FOUND', `no dead letter awaiting redrive for event ${eventId}`);
  const results: RedriveResult[] = [];
  for (const entry of pending) {
    try {
      const reply = await bus.nc.request(bus.topology.redrive(entry.consumer), JSON.stringify({ stream: entry.stream, seq: entry.streamSeq }), {
        timeout: REDRIVE_TIMEOUT_MS,
      });
      const body = reply.json<{ ok: boolean; error?: string }>();
      results.push({ service: entry.service, consumer: entry.consumer, redriven: body.ok, ...(body.error ? { error: body.error } : {}) });
    } catch (err) {
      const error = (err as Error).name === 'NoRespondersError' || /no responders/i.test(String(err)) ? 'the consumer is not running' : String(err);
      results.push({ service: entry.service, consumer: entry.consumer, redriven: false, error });
    }
  }
  return results;
}

/** Publishes the marker that a consumer applied a dead letter after all (listed as redriven from then on). */
export async function markRedriven(bus: Bus, service: ServiceName, consumer: string, stream: string, seq: number): Promise<void> {
  const h = natsHeaders();
  h.set(HEADER_CONSUMER, consumer);
  h.set(HEADER_STREAM, stream);
  h.set(HEADER_SEQ, String(seq));
  await bus.js.publish(bus.topology.redrivenSubject(service), new Uint8Array(), { headers: h });
}

/**
 * Follows the dead-letter stream live (core NATS: what is published from now
 * on): `onDeadLetter` for each new dead letter, `onRedriven` with the consumer,
 * stream and sequence of each redrive. Returns the unsubscribe.
 */
export function watchDeadLetters(
  bus: Bus,
  handlers: { onDeadLetter(entry: DeadLetterEntry): void; onRedriven(consumer: string, stream: string, seq: number): void },
): () => void {
  const ns = bus.topology.namespace;
  const subs = [
    bus.nc.subscribe(`${ns}.dlq.*`, {
      callback: (err: Error | null, m: Msg) => {
        if (err) return;
        try {
          const entry = entryOf(bus, m.subject, m.data);
          if (entry) handlers.onDeadLetter(entry);
        } catch (e) {
          bus.logger.warn({ subject: m.subject, err: String(e) }, 'undecodable dead letter ignored by watcher');
        }
      },
    }),
    bus.nc.subscribe(`${ns}.dlq.*.redriven`, {
      callback: (err: Error | null, m: Msg) => {
        if (err) return;
        const consumer = m.headers?.get(HEADER_CONSUMER);
        const stream = m.headers?.get(HEADER_STREAM);
        const seq = Number(m.headers?.get(HEADER_SEQ));
        if (consumer && stream && seq > 0) handlers.onRedriven(consumer, stream, seq);
      },
    }),
  ];
  return () => {
    for (const s of subs) s.unsubscribe();
  };
}

/**
 * Deletes every dead letter of a user from the dead-letter stream with the
 * server's secure erase (the message is overwritten, not only unlinked): their
 * envelopes are sealed already, but the recorded error may quote what the user
 * wrote. Returns how many were deleted.
 */
export async function purgeDeadLetters(bus: Bus, userId: string): Promise<number> {
  const stream = bus.topology.dlqStream;
  let last: number;
  try {
    const info = await bus.jsm.streams.info(stream);
    if (info.state.messages === 0) return 0;
    last = info.state.last_seq;
  } catch (err) {
    if (isNotFound(err)) return 0;
    throw err;
  }
  const doomed: number[] = [];
  const consumer = await bus.js.consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  const iter = await consumer.consume({ max_messages: 500 });
  try {
    for await (const m of iter as AsyncIterable<JsMsg>) {
      if (!m.subject.endsWith('.redriven')) {
        try {
          if (entryOf(bus, m.subject, m.data)?.userId === userId) doomed.push(m.seq);
        } catch {
          // Not a dead letter this code can read: not the user's, as far as anyone can tell.
        }
      }
      if (m.seq >= last || m.info.pending === 0) break;
    }
  } finally {
    iter.stop();
  }
  let deleted = 0;
  for (const seq of doomed) {
    try {
      await bus.jsm.streams.deleteMessage(stream, seq, true);
      deleted++;
    } catch (err) {
      // A concurrent purge of the same user got there first.
      if (!(err instanceof JetStreamApiError && err.code === NO_MESSAGE_FOUND)) throw err;
    }
  }
  return deleted;
}
