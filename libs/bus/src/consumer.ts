import { AckPolicy, DeliverPolicy, JetStreamApiError, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { counter, histogram, observableGauge } from '@hearth/telemetry';
import { common } from '@hearth/proto';
import { headerGetter, headerSafe, isNotFound, type Bus } from './bus.js';
import { TerminalError } from './errors.js';
import { decodeEnvelope, type StoredEvent } from './events.js';
import type { ServiceName } from './topology.js';

/** What to do with one delivered event. */
export type Outcome =
  | { kind: 'ack' }
  /** Not now (e.g. its predecessor is not applied yet): redeliver after the delay. */
  | { kind: 'nak'; delayMs: number; reason?: string };

export const ACK: Outcome = { kind: 'ack' };

export interface ConsumerSpec {
  /** The consuming service. */
  service: ServiceName;
  /** What the consumer is for; with the service it names the durable consumer. */
  purpose: string;
  /** The stream read. */
  source: ServiceName;
  /**
   * Only the events of this one key's subject (a global aggregate such as the
   * persona-assignment log), so the consumer is not handed every user's events.
   * @default every subject of the stream
   */
  key?: string;
  /**
   * Handles events in stream order, one outcome per event. Throwing fails the
   * whole batch; it is then retried event by event so one poison event is isolated.
   */
  handle(events: StoredEvent[]): Promise<Outcome[]>;
  /**
   * Deliveries before an event is dead-lettered.
   * @default 5
   */
  maxDeliver?: number;
  /**
   * How long the server waits for an ack before redelivering.
   * @default 30_000
   */
  ackWaitMs?: number;
  /**
   * Most events handled in one call.
   * @default 100
   */
  batchSize?: number;
  /**
   * First delay of the nak backoff after a failure; doubled per delivery.
   * @default 200
   */
  retryDelayMs?: number;
}

export interface RunningConsumer {
  readonly name: string;
  /** True once the durable consumer exists and is being read. */
  isBound(): boolean;
  /** Pending messages not yet acked (consumer lag). */
  lag(): Promise<number>;
  /**
   * Handlers running past their deadline right now (abandoned, their events
   * left for redelivery); readiness reports a consumer with any as stalled.
   */
  stalled?(): number;
  stop(): Promise<void>;
}

// Through libs/telemetry so that metrics made at import time reach the provider registered later.
const handledCounter = counter('hearth_events_handled_total', 'Events handled by consumers, by outcome');
const handleLatency = histogram('hearth_event_handle_seconds', 'Time to handle one batch of events', 's');
const lagSources = new Map<string, () => Promise<number>>();
// Read at scrape time (the SDK awaits async callbacks); a consumer whose info
// does not come within a second is left out of that scrape.
observableGauge('hearth_consumer_lag', 'Messages a durable consumer has not yet acked (pending + ack pending)', async (result) => {
  await Promise.all(
    [...lagSources].map(async ([name, read]) => {
      const v = await Promise.race([read(), new Promise<undefined>((r) => setTimeout(() => r(undefined), 1_000).unref())]).catch(() => undefined);
      if (v !== undefined) result.observe(v, { consumer: name });
    }),
  );
});

/**
 * Binds a durable pull consumer (created idempotently) and runs it until
 * stopped: micro-batches of what is already buffered, ack after the handler,
 * nak with backoff on failure, dead letter after `maxDeliver` deliveries.
 */
export async function startConsumer(bus: Bus, spec: ConsumerSpec): Promise<RunningConsumer> {
  const t = bus.topology;
  const stream = t.stream(spec.source);
  const durable = t.durable(spec.service, spec.purpose);
  const maxDeliver = spec.maxDeliver ?? 5;
  const batchSize = spec.batchSize ?? 100;
  const retryDelay = spec.retryDelayMs ?? 200;
  const ackWaitMs = spec.ackWaitMs ?? 30_000;
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: spec.key === undefined ? t.streamSubjects(spec.source) : t.subject(spec.source, spec.key),
    // One more than ours so that our own dead-lettering always sees the last delivery.
    max_deliver: maxDeliver + 1,
    ack_wait: ackWaitMs * 1_000_000,
    max_ack_pending: 1_000,
  };
  try {
    await bus.jsm.consumers.info(stream, durable);
    await bus.jsm.consumers.update(stream, durable, {
      max_deliver: config.max_deliver,
      ack_wait: config.ack_wait,
      max_ack_pending: config.max_ack_pending,
    });
  } catch (err) {
    if (!isNotFound(err)) throw err;
    try {
      await bus.jsm.consumers.add(stream, config);
    } catch (addErr) {
      // A replica created it at the same moment.
      if (!(addErr instanceof JetStreamApiError && addErr.code === 10148)) throw addErr;
    }
  }
  const consumer = await bus.js.consumers.get(stream, durable);
  const log = bus.logger;
  const tracer = trace.getTracer('hearth-bus');
  let stopping = false;
  let bound = false;
  let messages: Awaited<ReturnType<typeof consumer.consume>> | undefined;

  const lag = async (): Promise<number> => {
    const info = await bus.jsm.consumers.info(stream, durable);
    return info.num_pending + info.num_ack_pending;
  };
  lagSources.set(durable, lag);

  const deadLetter = async (m: JsMsg, error: string): Promise<void> => {
    const dl = common.DeadLetter.encode({
      envelope: m.data,
      subject: m.subject,
      stream,
      streamSeq: BigInt(m.seq),
      consumer: durable,
      error,
      deliveryCount: m.info.deliveryCount,
      failedAt: new Date(),
    }).finish();
    const h = natsHeaders();
    h.set('Hearth-Error', headerSafe(error));
    await bus.js.publish(t.dlqSubject(spec.service), dl, { msgID: `${durable}:${m.seq}`, headers: h });
    // Plain TERM: nats-server 2.9 ignores '+TERM <reason>' (the reason is in the dead letter).
    m.term();
    handledCounter.add(1, { consumer: durable, outcome: 'dead_letter' });
    log.error({ consumer: durable, subject: m.subject, seq: m.seq, deliveries: m.info.deliveryCount, error }, 'event dead-lettered');
  };

  const fail = async (m: JsMsg, err: unknown): Promise<void> => {
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof TerminalError || m.info.deliveryCount >= maxDeliver) {
      await deadLetter(m, message);
      return;
    }
    const delay = retryDelay * 2 ** (m.info.deliveryCount - 1);
    log.warn({ consumer: durable, subject: m.subject, seq: m.seq, deliveries: m.info.deliveryCount, err: message }, 'event failed; will retry');
    handledCounter.add(1, { consumer: durable, outcome: 'retry' });
    m.nak(delay);
  };

  const settle = async (m: JsMsg, outcome: Outcome): Promise<void> => {
    if (outcome.kind === 'ack') {
      await m.ackAck().catch(() => undefined);
      handledCounter.add(1, { consumer: durable, outcome: 'ack' });
    } else {
      m.nak(outcome.delayMs);
      handledCounter.add(1, { consumer: durable, outcome: 'nak' });
    }
  };

  const runBatch = async (batch: JsMsg[]): Promise<void> => {
    const decoded: { m: JsMsg; e: StoredEvent }[] = [];
    for (const m of batch) {
      try {
        decoded.push({ m, e: decodeEnvelope(m.data, { stream, subject: m.subject, seq: m.seq }) });
      } catch (err) {
        await deadLetter(m, `undecodable envelope: ${String(err)}`);
      }
    }
    if (decoded.length === 0) return;
    const first = decoded[0]!.m;
    const parent = propagation.extract(context.active(), first.headers, headerGetter);
    const started = performance.now();
    // A slow handler (an LLM call) keeps its events: tell the server it is still
    // working well inside the ack wait, so nothing is redelivered meanwhile.
    const heartbeat = setInterval(() => {
      for (const d of decoded) d.m.working();
    }, Math.max(100, Math.floor(ackWaitMs / 3)));
    const ok = await tracer.startActiveSpan(
      `${durable} handle`,
      { kind: SpanKind.CONSUMER, attributes: { 'messaging.batch.message_count': decoded.length } },
      parent,
      async (span) => {
        try {
          const outcomes = await spec.handle(decoded.map((d) => d.e));
          await Promise.all(decoded.map((d, i) => settle(d.m, outcomes[i] ?? ACK)));
          return true;
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          if (decoded.length === 1) await fail(decoded[0]!.m, err);
          return decoded.length === 1;
        } finally {
          clearInterval(heartbeat);
          span.end();
        }
      },
    );
    handleLatency.record((performance.now() - started) / 1000, { consumer: durable });
    if (!ok) {
      // Isolate the failing event: one by one.
      for (const d of decoded) await runBatch([d.m]);
    }
  };

  const loop = (async () => {
    while (!stopping) {
      try {
        messages = await consumer.consume({ max_messages: batchSize * 2 });
        bound = true;
        const it = messages[Symbol.asyncIterator]();
        // Micro-batches of what is already buffered: take messages while the next
        // one resolves before the event loop turns (getPending() over-counts here).
        let next = it.next();
        while (!stopping) {
          const first = await next;
          if (first.done) break;
          const batch = [first.value];
          next = it.next();
          while (batch.length < batchSize) {
            const more = await Promise.race([next, new Promise<null>((r) => setImmediate(() => r(null)))]);
            if (more === null || more.done) break;
            batch.push(more.value);
            next = it.next();
          }
          await runBatch(batch);
        }
      } catch (err) {
        if (stopping) break;
        log.warn({ consumer: durable, err: String(err) }, 'consumer loop restarting');
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  })();

  log.info({ consumer: durable, stream }, 'consumer bound');
  return {
    name: durable,
    isBound: () => bound && !stopping,
    lag,
    async stop() {
      stopping = true;
      lagSources.delete(durable);
      messages?.stop();
      await loop;
    },
  };
}
