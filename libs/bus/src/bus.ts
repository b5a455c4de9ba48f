import { connect, headers as natsHeaders, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import {
  DeliverPolicy,
  JetStreamApiError,
  jetstream,
  jetstreamManager,
  RetentionPolicy,
  StorageType,
  type JetStreamClient,
  type JetStreamManager,
  type StreamConfig,
} from '@nats-io/jetstream';
import { context, propagation, trace } from '@opentelemetry/api';
import { AppendConflictError, BusError, QueryError } from './errors.js';
import { decodeEnvelope, encodeEnvelope, type EventDraft, type StoredEvent } from './events.js';
import { Topology, type ServiceName } from './topology.js';
import type { KeyEncryptionKey } from './keys/kek.js';
import { currentCause } from './keys/cause.js';
import { Keyring, type Sealed } from './keys/keyring.js';

/** Minimal logger the bus writes to (pino fits). */
export interface BusLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface BusOptions {
  /** NATS server URL(s), comma separated. */
  url: string;
  /** Connection name shown by the server. */
  name: string;
  /** NATS user and password, when the server requires them. */
  user?: string;
  pass?: string;
  /** Subject and stream root; tests use a unique one. */
  namespace: string;
  /** This process's build (HEARTH_BUILD), recorded in every envelope it appends. */
  build?: string;
  logger: BusLogger;
  /**
   * JetStream dedup window for Msg-Id.
   * @default 120_000
   */
  duplicateWindowMs?: number;
  /**
   * Replicas of each stream (3 on a clustered server).
   * @default 1
   */
  streamReplicas?: number;
  /**
   * Default deadline of a consumer's handler (see ConsumerSpec.handlerDeadlineMs).
   * @default 120_000
   */
  handlerDeadlineMs?: number;
  /**
   * Seals every payload about a user with the user's data key (crypto-shredding).
   * Absent: payloads are written clear, and a sealed one cannot be read (only
   * the turn benchmark runs so, to measure what sealing costs).
   */
  encryption?: {
    kek: KeyEncryptionKey;
    /** Earlier KEKs, unwrap only, while a rotation re-wraps the keys. */
    previousKeks?: readonly KeyEncryptionKey[];
    /** @default 60_000 */
    keyCacheTtlMs?: number;
  };
}

export interface AppendResult {
  id: string;
  seq: number;
  /** True when an earlier try already appended this event (Msg-Id dedup). */
  duplicate: boolean;
}

const WRONG_LAST_SEQUENCE = 10071;
const HEADER_TYPE = 'Hearth-Type';
const HEADER_ERROR = 'Hearth-Error';

const headerSetter = { set: (h: MsgHdrs, k: string, v: string) => h.set(k, v) };
export const headerGetter = {
  get: (h: MsgHdrs | undefined, k: string) => h?.get(k) || undefined,
  keys: (h: MsgHdrs | undefined) => (h ? h.keys() : []),
};

/** What {@link Bus.read} reads. */
export interface ReadOptions {
  /** Only this key's subject (a user, or a global aggregate). @default every subject */
  key?: string;
  /** @default 1 */
  fromSeq?: number;
  /** @default the last sequence (of the subject, with `key`) when the read starts */
  toSeq?: number;
  /**
   * Which event types to open. Others come back with an empty payload, unopened:
   * for a reader that only needs their place in the chain (a replay moving its
   * positions past the types its projection does not act on).
   * @default every type
   */
  opens?: (type: string) => boolean;
}

/** Messages an ordered read pulls at a time. */
const READ_BATCH = 500;

/**
 * JetStream for one process: streams, typed appends with Msg-Id and optimistic
 * concurrency, reads, request/reply queries, and drain on close.
 */
export class Bus {
  readonly topology: Topology;
  private readonly closers: (() => Promise<void>)[] = [];
  private closed = false;

  private constructor(
    readonly nc: NatsConnection,
    readonly js: JetStreamClient,
    readonly jsm: JetStreamManager,
    private readonly opts: BusOptions,
    /** Data keys; undefined when encryption is off. */
    readonly keyring?: Keyring,
  ) {
    this.topology = new Topology(opts.namespace);
  }

  static async connect(opts: BusOptions): Promise<Bus> {
    const nc = await connect({
      servers: opts.url.split(','),
      name: opts.name,
      ...(opts.user ? { user: opts.user, pass: opts.pass ?? '' } : {}),
      maxReconnectAttempts: -1,
      reconnectTimeWait: 250,
      waitOnFirstConnect: false,
      // An Error (with its stack) made up front for every request and ack would
      // be a tenth of a turn's CPU; the errors still say what timed out.
      noAsyncTraces: true,
    });
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === 'disconnect' || s.type === 'reconnect') {
          opts.logger.warn({ nats: s.type, server: 'server' in s ? s.server : undefined }, `nats ${s.type}`);
        }
      }
    })();
    const jsm = await jetstreamManager(nc);
    const keyring = opts.encryption
      ? await Keyring.open(nc, opts.namespace, opts.encryption.kek, {
          cacheTtlMs: opts.encryption.keyCacheTtlMs,
          previousKeks: opts.encryption.previousKeks,
          replicas: opts.streamReplicas,
          logger: opts.logger,
        })
      : undefined;
    return new Bus(nc, jetstream(nc), jsm, opts, keyring);
  }

  get logger(): BusLogger {
    return this.opts.logger;
  }

  /** How long a consumer's handler may run before it is abandoned. */
  get handlerDeadlineMs(): number {
    return this.opts.handlerDeadlineMs ?? 120_000;
  }

  /** Creates or updates the stream of each service, and the dead-letter stream. */
  async ensureStreams(services: readonly ServiceName[]): Promise<void> {
    for (const s of services) {
      await this.ensureStream({
        name: this.topology.stream(s),
        subjects: [this.topology.streamSubjects(s)],
      });
    }
    await this.ensureStream({ name: this.topology.dlqStream, subjects: [`${this.opts.namespace}.dlq.>`] });
  }

  private async ensureStream(cfg: { name: string; subjects: string[] }): Promise<void> {
    const config: Partial<StreamConfig> & { name: string } = {
      name: cfg.name,
      subjects: cfg.subjects,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: (this.opts.duplicateWindowMs ?? 120_000) * 1_000_000,
      max_msg_size: 1024 * 1024,
      num_replicas: this.opts.streamReplicas ?? 1,
    };
    try {
      const info = await this.jsm.streams.info(cfg.name);
      const same =
        info.config.subjects.join(',') === cfg.subjects.join(',') &&
        info.config.duplicate_window === config.duplicate_window &&
        info.config.num_replicas === config.num_replicas;
      if (!same) await this.jsm.streams.update(cfg.name, config);
    } catch (err) {
      if (!isNotFound(err)) throw err;
      try {
        await this.jsm.streams.add(config);
      } catch (addErr) {
        // Another process created it in between: fine. nats-server 2.9 reports
        // that race as 10058 (name in use) or as 10065 (subjects overlap), so
        // look for the stream itself rather than trust the code.
        if (!(addErr instanceof JetStreamApiError)) throw addErr;
        try {
          await this.jsm.streams.info(cfg.name);
        } catch (infoErr) {
          if (isNotFound(infoErr)) throw addErr;
          throw infoErr;
        }
      }
    }
  }

  /**
   * Appends events to one subject in order, each with Msg-Id = event id and
   * `expect.lastSubjectSequence`, so a retry is a no-op and a stale writer
   * gets {@link AppendConflictError}.
   */
  async append(
    service: ServiceName,
    key: string,
    drafts: readonly EventDraft[],
    expectedLastSeq: number,
  ): Promise<AppendResult[]> {
    const subject = this.topology.subject(service, key);
    const results: AppendResult[] = [];
    let expected = expectedLastSeq;
    for (const d of drafts) {
      const h = natsHeaders();
      h.set(HEADER_TYPE, d.type);
      propagation.inject(context.active(), h, headerSetter);
      try {
        const ack = await this.js.publish(subject, encodeEnvelope(d, service, expected, await this.seal(d), this.opts.build), {
          msgID: d.id,
          expect: { lastSubjectSequence: expected },
          headers: h,
          timeout: 5_000,
        });
        results.push({ id: d.id, seq: ack.seq, duplicate: ack.duplicate });
        expected = ack.seq;
      } catch (err) {
        if (err instanceof JetStreamApiError && err.code === WRONG_LAST_SEQUENCE) {
          throw new AppendConflictError(subject, expected, { cause: err });
        }
        throw new BusError('APPEND_FAILED', `append to ${subject} failed: ${String(err)}`, { cause: err });
      }
    }
    return results;
  }

  /** The payload as it goes into the envelope: sealed with the user's data key unless it is clear. */
  private async seal(d: EventDraft): Promise<Sealed | undefined> {
    if (!this.keyring || d.clear || d.userId === '' || d.userId.startsWith('_')) return undefined;
    const cause = currentCause();
    return this.keyring.seal(d.userId, d.id, d.payload, {
      opens: d.opensDataKey,
      causeGeneration: cause && cause.userId === d.userId ? cause.keyGeneration : undefined,
    });
  }

  /**
   * Makes a stored event's payload readable: opens it with the user's data key,
   * or marks the event erased (empty payload) when the key was destroyed.
   */
  async open(e: StoredEvent): Promise<StoredEvent> {
    if (e.erased) return { ...e, payload: new Uint8Array(0) };
    if (e.keyGeneration === 0) return e;
    if (!this.keyring) {
      throw new BusError('ENCRYPTION_OFF', `event ${e.id} is sealed, and this process runs with encryption off`);
    }
    const payload = await this.keyring.open(e.userId, e.keyGeneration, e.id, e.payload);
    return payload ? { ...e, payload } : { ...e, payload: new Uint8Array(0), erased: true };
  }

  /** Decodes and opens one stored message. */
  async decode(raw: Uint8Array, where: { stream: string; subject: string; seq: number }): Promise<StoredEvent> {
    return this.open(decodeEnvelope(raw, where));
  }

  /** The last event on a subject, or null when the subject is empty. */
  async lastOnSubject(service: ServiceName, key: string): Promise<StoredEvent | null> {
    const stream = this.topology.stream(service);
    const subject = this.topology.subject(service, key);
    try {
      const m = await this.jsm.streams.getMessage(stream, { last_by_subj: subject });
      if (!m) return null;
      return await this.decode(m.data, { stream, subject, seq: m.seq });
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** Last stream sequence of a service's stream (0 when empty). */
  async lastSeq(service: ServiceName): Promise<number> {
    const info = await this.jsm.streams.info(this.topology.stream(service));
    return info.state.last_seq;
  }

  /**
   * Reads a stream in order with an ordered consumer, from `fromSeq` up to and
   * including `toSeq` (default: the last sequence at the time of the call).
   * One sequence (`fromSeq` = `toSeq`) is a direct get, with no consumer.
   */
  async *read(service: ServiceName, opts: ReadOptions = {}): AsyncGenerator<StoredEvent> {
    const stream = this.topology.stream(service);
    const subject = opts.key ? this.topology.subject(service, opts.key) : undefined;
    const from = Math.max(1, opts.fromSeq ?? 1);
    const opens = opts.opens ?? (() => true);
    if (opts.toSeq === from) {
      const one = await this.messageAt(stream, from);
      if (one && (!subject || one.subject === subject)) yield await this.openRead(decodeEnvelope(one.data, { stream, subject: one.subject, seq: one.seq }), opens);
      return;
    }
    // The subject's own last event (or the stream's) bounds the read: the stream goes on past it.
    const end = subject ? ((await this.messageAt(stream, { last_by_subj: subject }))?.seq ?? 0) : await this.lastSeqOf(stream);
    const last = Math.min(opts.toSeq ?? end, end);
    if (last < from) return;
    const consumer = await this.js.consumers.get(stream, {
      filter_subjects: subject ?? this.topology.streamSubjects(service),
      deliver_policy: DeliverPolicy.StartSequence,
      opt_start_seq: from,
    });
    // Pulls of READ_BATCH keep the next ones arriving while the caller works on these.
    const iter = await consumer.consume({ max_messages: Math.min(READ_BATCH, last - from + 1) });
    try {
      for await (const m of iter) {
        if (m.seq > last) break;
        yield await this.openRead(decodeEnvelope(m.data, { stream, subject: m.subject, seq: m.seq }), opens);
        // pending 0: nothing more matches now (the last message may have been deleted).
        if (m.seq >= last || m.info.pending === 0) break;
      }
    } finally {
      iter.stop();
      await consumer.delete().catch(() => undefined);
    }
  }

  /** A decoded event as read returns it: opened when sealed and wanted, else with its payload left out. */
  private openRead(e: StoredEvent, opens: (type: string) => boolean): StoredEvent | Promise<StoredEvent> {
    if (e.keyGeneration === 0 && !e.erased) return e;
    return opens(e.type) ? this.open(e) : { ...e, payload: new Uint8Array(0) };
  }

  /** One stored message by sequence or last-by-subject, undefined when there is none (deleted, or no such subject). */
  private async messageAt(stream: string, query: number | { last_by_subj: string }): Promise<{ subject: string; seq: number; data: Uint8Array } | undefined> {
    try {
      const m = await this.jsm.streams.getMessage(stream, typeof query === 'number' ? { seq: query } : query);
      return m ? { subject: m.subject, seq: m.seq, data: m.data } : undefined;
    } catch (err) {
      if (isNotFound(err)) return undefined;
      throw err;
    }
  }

  /** The last sequence of a stream, 0 when it holds no message. */
  private async lastSeqOf(stream: string): Promise<number> {
    const info = await this.jsm.streams.info(stream);
    return info.state.messages === 0 ? 0 : info.state.last_seq;
  }

  /**
   * Serves a request/reply query; the handler gets and returns protobuf bytes.
   * Resolves once the server has the subscription, so a request sent after it
   * (from any connection) finds a responder.
   */
  async serveQuery(
    service: ServiceName,
    name: string,
    handler: (request: Uint8Array) => Promise<Uint8Array>,
  ): Promise<void> {
    const subject = this.topology.query(service, name);
    const sub = this.nc.subscribe(subject, { queue: `${service}-q` });
    const done = (async () => {
      for await (const m of sub) {
        const parent = propagation.extract(context.active(), m.headers, headerGetter);
        void context.with(parent, async () => {
          try {
            m.respond(await handler(m.data));
          } catch (err) {
            const h = natsHeaders();
            h.set(HEADER_ERROR, headerSafe(err instanceof Error ? err.message : String(err)));
            m.respond(new Uint8Array(), { headers: h });
          }
        });
      }
    })();
    this.closers.push(async () => {
      await sub.drain().catch(() => undefined);
      await done;
    });
    await this.nc.flush();
  }

  /** Asks a query of another service. */
  async query(service: ServiceName, name: string, request: Uint8Array, timeoutMs = 5_000): Promise<Uint8Array> {
    const h = natsHeaders();
    propagation.inject(context.active(), h, headerSetter);
    try {
      const m = await this.nc.request(this.topology.query(service, name), request, { timeout: timeoutMs, headers: h });
      if (m.headers?.has(HEADER_ERROR)) {
        throw new QueryError('QUERY_FAILED', `${service}.${name}: ${m.headers.get(HEADER_ERROR) || 'failed'}`);
      }
      return m.data;
    } catch (err) {
      if (err instanceof QueryError) throw err;
      throw new QueryError('QUERY_UNANSWERED', `${service}.${name} did not answer: ${String(err)}`, { cause: err });
    }
  }

  /** Registers work to stop before the connection drains (consumers, subscriptions). */
  onClose(fn: () => Promise<void>): void {
    this.closers.push(fn);
  }

  /** True while connected to the server. */
  isConnected(): boolean {
    return !this.nc.isClosed() && !this.closed;
  }

  /** Stops consumers and subscriptions, then drains the connection. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.keyring?.close();
    for (const c of this.closers.reverse()) await c().catch((err: unknown) => this.logger.warn({ err }, 'close step failed'));
    if (!this.nc.isClosed()) await this.nc.drain().catch(() => this.nc.close());
  }
}

/** Header values are one line: NATS rejects CR and LF. */
export function headerSafe(v: string): string {
  return v.replace(/[\r\n]+/g, ' ').slice(0, 1024);
}

export function isNotFound(err: unknown): boolean {
  if (err instanceof JetStreamApiError) return err.code === 10059 || err.code === 10037 || err.status === 404;
  return err instanceof Error && /not found/i.test(err.message);
}

export function activeTraceId(): string | undefined {
  return trace.getSpanContext(context.active())?.traceId;
}
