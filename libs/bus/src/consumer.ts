import { AckPolicy, DeliverPolicy, JetStreamApiError, type JsMsg } from '@nats-io/jetstream';
import { headers as natsHeaders } from '@nats-io/transport-node';
import { context, propagation, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { counter, histogram, observableGauge } from '@hearth/telemetry';
import { common } from '@hearth/proto';
import { headerGetter, headerSafe, isNotFound, type Bus } from './bus.js';
import { markRedriven } from './dead-letters.js';
import { TerminalError } from './errors.js';
import { decodeEnvelope, type StoredEvent } from './events.js';
import type { ServiceName } from './topology.js';
import { isTransientError } from './transient.js';

/** What to do with one delivered event. */
export type Outcome =
  | { kind: 'ack' }
  /** Not now (e.g. its predecessor is not applied yet): redeliver after the delay. */
  | { kind: 'nak'; delayMs: number; reason?: string };

export const ACK: Outcome = { kind: 'ack' };

/** Longest pause between retries of one event (a long outage retries this often). */
const MAX_RETRY_DELAY_MS = 5_000;

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
   * Failed handlings before an event is quarantined (dead-lettered and moved
   * past). Waiting for a predecessor (a nak outcome) and a dependency being away
   * (a transient error: Postgres or NATS down) never count.
   * @default 5
   */
  maxDeliver?: number;
  /**
   * Records that this consumer gives up on an event and moves its position past
   * it, so the events behind it on the same subject are served (ARCHITECTURE.md
   * "Poison events never wedge a user"). Called after the dead letter is on its
   * stream; when it throws, the event is redelivered and quarantined again.
   */
  quarantine?(q: Quarantine): Promise<void>;
  /**
   * Applies a quarantined event after all (an operator's redrive, once the cause
   * is fixed). Throwing leaves it quarantined.
   */
  redrive?(event: StoredEvent): Promise<void>;
  /**
   * A handler running longer is abandoned: its events are left for redelivery
   * (one by one next time) and the consumer reports itself stalled until it returns.
   * @default the bus's handlerDeadlineMs (120 s)
   */
  handlerDeadlineMs?: number;
  /**
   * How long the server waits for an ack before redelivering. Short, because it
   * is how long the events of a crashed process wait (a turn in flight when
   * Hearth was killed); a slow handler keeps its events by heartbeat meanwhile.
   * @default 10_000
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

/** An event a consumer gives up on. `event` is missing when the envelope could not be decoded. */
export interface Quarantine {
  consumer: string;
  stream: string;
  subject: string;
  seq: number;
  event?: StoredEvent;
  error: string;
  deliveries: number;
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
  /**
   * Stop this one before the others: a reactor, whose handlers wait for the
   * service's projections to apply what they appended, stops while those still run.
   */
  readonly stopFirst?: boolean;
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
 * nak with backoff on failure, quarantine after `maxDeliver` real failures.
 */
export async function startConsumer(bus: Bus, spec: ConsumerSpec): Promise<RunningConsumer> {
  const t = bus.topology;
  const stream = t.stream(spec.source);
  const durable = t.durable(spec.service, spec.purpose);
  const maxDeliver = spec.maxDeliver ?? 5;
  const batchSize = spec.batchSize ?? 100;
  const retryDelay = spec.retryDelayMs ?? 200;
  const ackWaitMs = spec.ackWaitMs ?? 10_000;
  const deadlineMs = spec.handlerDeadlineMs ?? bus.handlerDeadlineMs;
  const config = {
    durable_name: durable,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    filter_subject: spec.key === undefined ? t.streamSubjects(spec.source) : t.subject(spec.source, spec.key),
    // Unlimited on the server: ordering naks and outages must never use deliveries
    // up; our own count of real failures decides quarantine.
    max_deliver: -1,
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
  // Real failures per stream sequence (not ordering naks, not outages). In memory:
  // a restart or another replica starts again from zero, which only delays a quarantine.
  const failures = new Map<number, number>();
  // Events of an abandoned batch: handled alone next time, so a slow one is found.
  const suspects = new Set<number>();
  let transientStreak = 0;
  let stalled = 0;

  const lag = async (): Promise<number> => {
    const info = await bus.jsm.consumers.info(stream, durable);
    return info.num_pending + info.num_ack_pending;
  };
  lagSources.set(durable, lag);

  const deadLetter = async (m: JsMsg, error: string, event?: StoredEvent): Promise<void> => {
    const deliveries = failures.get(m.seq) ?? m.info.deliveryCount;
    const dl = common.DeadLetter.encode({
      envelope: m.data,
      subject: m.subject,
      stream,
      streamSeq: BigInt(m.seq),
      consumer: durable,
      error,
      deliveryCount: deliveries,
      failedAt: new Date(),
    }).finish();
    const h = natsHeaders();
    h.set('Hearth-Error', headerSafe(error));
    try {
      await bus.js.publish(t.dlqSubject(spec.service), dl, { msgID: `${durable}:${m.seq}`, headers: h });
      await spec.quarantine?.({ consumer: durable, stream, subject: m.subject, seq: m.seq, event, error, deliveries });
    } catch (err) {
      // Not recorded: keep the event and try the quarantine again on its next delivery.
      log.warn({ consumer: durable, subject: m.subject, seq: m.seq, err: String(err) }, 'quarantine failed; will retry');
      m.nak(backoff(transientStreak + 1));
      return;
    }
    // Plain TERM: nats-server 2.9 ignores '+TERM <reason>' (the reason is in the dead letter).
    m.term();
    failures.delete(m.seq);
    handledCounter.add(1, { consumer: durable, outcome: 'dead_letter' });
    log.error({ consumer: durable, subject: m.subject, seq: m.seq, deliveries, error }, 'event quarantined (dead-lettered and moved past)');
  };

  const backoff = (attempt: number): number => Math.min(retryDelay * 2 ** Math.max(0, attempt - 1), MAX_RETRY_DELAY_MS);

  const fail = async (m: JsMsg, e: StoredEvent, err: unknown): Promise<void> => {
    const message = err instanceof Error ? err.message : String(err);
    if (isTransientError(err) && !(err instanceof TerminalError)) {
      // A dependency is away: pause this event without using up its retries.
      transientStreak++;
      if (transientStreak === 1 || transientStreak % 20 === 0) {
        log.warn({ consumer: durable, subject: m.subject, seq: m.seq, err: message, streak: transientStreak }, 'dependency unavailable; pausing');
      }
      handledCounter.add(1, { consumer: durable, outcome: 'unavailable' });
      m.nak(backoff(transientStreak));
      return;
    }
    const n = (failures.get(m.seq) ?? 0) + 1;
    failures.set(m.seq, n);
    if (err instanceof TerminalError || n >= maxDeliver) {
      await deadLetter(m, message, e);
      return;
    }
    log.warn({ consumer: durable, subject: m.subject, seq: m.seq, failures: n, err: message }, 'event failed; will retry');
    handledCounter.add(1, { consumer: durable, outcome: 'retry' });
    m.nak(backoff(n));
  };

  const settle = async (m: JsMsg, outcome: Outcome): Promise<void> => {
    if (outcome.kind === 'ack') {
      failures.delete(m.seq);
      suspects.delete(m.seq);
      // A plain ack, not a request for the server's confirmation: an ack lost
      // on the way only redelivers an event the positions already skip.
      m.ack();
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
        continue;
      }
      const d = decoded[decoded.length - 1]!;
      try {
        d.e = await bus.open(d.e);
      } catch (err) {
        decoded.pop();
        // The key store unreachable: like any outage, try again later; a payload
        // that does not open under its key is corrupt and goes the failure path.
        await fail(m, d.e, err);
      }
    }
    if (decoded.length === 0) return;
    if (decoded.length > 1 && decoded.some((d) => suspects.has(d.m.seq))) {
      for (const d of decoded) await runBatch([d.m]);
      return;
    }
    const first = decoded[0]!.m;
    const parent = propagation.extract(context.active(), first.headers, headerGetter);
    const started = performance.now();
    // A slow handler (an LLM call) keeps its events: tell the server it is still
    // working well inside the ack wait, so nothing is redelivered meanwhile.
    const heartbeat = setInterval(() => {
      for (const d of decoded) d.m.working();
    }, Math.max(100, Math.floor(ackWaitMs / 3)));
    const result = await tracer.startActiveSpan(
      `${durable} handle`,
      { kind: SpanKind.CONSUMER, attributes: { 'messaging.batch.message_count': decoded.length } },
      parent,
      async (span): Promise<'done' | 'isolate'> => {
        let timer: NodeJS.Timeout | undefined;
        try {
          const handling = spec.handle(decoded.map((d) => d.e));
          const deadline = new Promise<'deadline'>((r) => {
            timer = setTimeout(() => r('deadline'), deadlineMs);
          });
          const outcomes = await Promise.race([handling, deadline]);
          if (outcomes === 'deadline') {
            // Abandoned, not cancelled: it may still finish (its effects are idempotent);
            // the events go back for redelivery and readiness shows the stall meanwhile.
            stalled++;
            void handling.catch(() => undefined).finally(() => stalled--);
            log.error({ consumer: durable, events: decoded.length, deadline_ms: deadlineMs }, 'handler past its deadline; abandoned, events left for redelivery');
            span.setStatus({ code: SpanStatusCode.ERROR, message: 'deadline' });
            if (decoded.length === 1) await fail(decoded[0]!.m, decoded[0]!.e, new Error(`handler did not finish within ${deadlineMs} ms`));
            else
              for (const d of decoded) {
                suspects.add(d.m.seq);
                d.m.nak(retryDelay);
              }
            return 'done';
          }
          transientStreak = 0;
          await Promise.all(decoded.map((d, i) => settle(d.m, outcomes[i] ?? ACK)));
          return 'done';
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR });
          if (decoded.length === 1) {
            await fail(decoded[0]!.m, decoded[0]!.e, err);
            return 'done';
          }
          if (isTransientError(err)) {
            // Every event would fail the same way: pause them all, no isolation needed.
            for (const d of decoded) await fail(d.m, d.e, err);
            return 'done';
          }
          return 'isolate';
        } finally {
          clearTimeout(timer);
          clearInterval(heartbeat);
          span.end();
        }
      },
    );
    handleLatency.record((performance.now() - started) / 1000, { consumer: durable });
    if (result === 'isolate') {
      // Isolate the failing event: one by one.
      for (const d of decoded) await runBatch([d.m]);
    }
  };

  // Redrive requests of an operator: apply one quarantined event after all.
  const redriveSub = spec.redrive
    ? bus.nc.subscribe(t.redrive(durable), {
        queue: durable,
        callback: (err, msg) => {
          if (err) return;
          void (async () => {
            try {
              const { stream: s, seq } = msg.json<{ stream: string; seq: number }>();
              if (s !== stream) throw new Error(`this consumer reads ${stream}, not ${s}`);
              const stored = await bus.jsm.streams.getMessage(stream, { seq });
              if (!stored) throw new Error(`no message ${seq} on ${stream}`);
              const event = await bus.decode(stored.data, { stream, subject: stored.subject, seq });
              await spec.redrive!(event);
              await markRedriven(bus, spec.service, durable, stream, seq);
              log.info({ consumer: durable, seq, event_id: event.id }, 'dead letter redriven');
              msg.respond(JSON.stringify({ ok: true }));
            } catch (e) {
              log.warn({ consumer: durable, err: String(e) }, 'redrive failed; the event stays quarantined');
              msg.respond(JSON.stringify({ ok: false, error: e instanceof Error ? e.message : String(e) }));
            }
          })();
        },
      })
    : undefined;

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
    stalled: () => stalled,
    async stop() {
      stopping = true;
      redriveSub?.unsubscribe();
      lagSources.delete(durable);
      messages?.stop();
      await loop;
      // The last batch's acks are plain ones: on the server before stop() returns.
      await bus.nc.flush().catch(() => undefined);
    },
  };
}
