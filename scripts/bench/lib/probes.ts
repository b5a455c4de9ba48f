import type { JetStreamManager } from '@nats-io/jetstream';
import type pg from 'pg';

/** Statements the app sent to its database while counting, by kind. */
export interface QueryCounts {
  statements: number;
  selects: number;
  /** Explicit transactions (BEGIN … COMMIT). */
  commits: number;
  rollbacks: number;
  /** INSERT/UPDATE/DELETE outside a transaction: each one a commit of its own. */
  autocommitWrites: number;
  /** Sum of each statement's round trip, in ms (overlapping ones add up). */
  busyMs: number;
}

const zeroCounts = (): QueryCounts => ({ statements: 0, selects: 0, commits: 0, rollbacks: 0, autocommitWrites: 0, busyMs: 0 });

type QueryFn = (...args: unknown[]) => unknown;

/**
 * Counts the statements the app sends through its pool (Postgres or PGlite
 * alike), by wrapping `query` of each client as the pool hands it out. Only the
 * benchmark's view: nothing in the app changes, and counting stops on `stop()`.
 */
export class QueryCounter {
  private counts = zeroCounts();
  private texts = new Map<string, number>();
  private enabled = false;
  /** Each wrapped client with its own `query`, put back by {@link detach}. */
  private readonly originals = new Map<pg.PoolClient, QueryFn>();
  private readonly inTransaction = new WeakSet<object>();
  private readonly onAcquire = (client: pg.PoolClient): void => this.wrap(client);

  /** @param namespace its `"<namespace>_` prefix is left out of the texts of {@link statementTexts} */
  constructor(
    private readonly pool: pg.Pool,
    private readonly namespace?: string,
  ) {
    pool.on('acquire', this.onAcquire);
  }

  /** Zeroes the counts and starts counting. */
  start(): void {
    this.counts = zeroCounts();
    this.texts = new Map();
    this.enabled = true;
  }

  /** Stops counting and returns what was counted since {@link start}. */
  stop(): QueryCounts {
    this.enabled = false;
    return { ...this.counts };
  }

  /**
   * The statements counted since {@link start} by text, most sent first: each
   * list of parameters shown as `$…` (so an IN list of any length is one text),
   * the namespace left out of schema names.
   */
  statementTexts(): { text: string; count: number }[] {
    return [...this.texts].map(([text, count]) => ({ text, count })).sort((a, b) => b.count - a.count || a.text.localeCompare(b.text));
  }

  /** Stops counting and gives every client its own `query` back. */
  detach(): void {
    this.enabled = false;
    this.pool.off('acquire', this.onAcquire);
    for (const [client, query] of this.originals) (client as unknown as { query: QueryFn }).query = query;
    this.originals.clear();
  }

  private wrap(client: pg.PoolClient): void {
    if (this.originals.has(client)) return;
    const own = client.query as QueryFn;
    this.originals.set(client, own);
    const original = own.bind(client);
    const replacement: QueryFn = (...args: unknown[]): unknown => {
      const first = args[0];
      const text = typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? '');
      this.classify(client, text);
      const t0 = performance.now();
      const result = original(...args);
      if (this.enabled && result instanceof Promise) {
        const done = (): void => {
          this.counts.busyMs += performance.now() - t0;
        };
        result.then(done, done);
      }
      return result;
    };
    (client as unknown as { query: QueryFn }).query = replacement;
  }

  /** Each text as shown, by the text sent: the same few hundred texts come again and again. */
  private readonly shown = new Map<string, string>();

  private textOf(text: string): string {
    const known = this.shown.get(text);
    if (known !== undefined) return known;
    const shown = this.foldText(text);
    if (this.shown.size < 10_000) this.shown.set(text, shown);
    return shown;
  }

  private foldText(text: string): string {
    const lists = text.replace(/\$\d+(?:, \$\d+)*/g, '$…').replace(/\(\$…\)(?:, \(\$…\))+/g, '($…), …');
    return this.namespace ? lists.split(`"${this.namespace}_`).join('"') : lists;
  }

  private classify(client: object, text: string): void {
    const verb = /^\s*(\w+)/.exec(text)?.[1]?.toLowerCase() ?? '';
    const inTx = this.inTransaction.has(client);
    if (verb === 'begin' || verb === 'start') this.inTransaction.add(client);
    if (verb === 'commit' || verb === 'rollback' || verb === 'end') this.inTransaction.delete(client);
    if (!this.enabled) return;
    const c = this.counts;
    c.statements++;
    const shown = this.textOf(text);
    this.texts.set(shown, (this.texts.get(shown) ?? 0) + 1);
    if (verb === 'select' || verb === 'with') c.selects++;
    else if (verb === 'commit' || verb === 'end') c.commits++;
    else if (verb === 'rollback') c.rollbacks++;
    else if (!inTx && (verb === 'insert' || verb === 'update' || verb === 'delete')) c.autocommitWrites++;
  }
}

/** Messages and consumer deliveries of a namespace's streams at one moment. */
export interface StreamSnapshot {
  /** Last sequence of each stream. */
  lastSeq: Map<string, number>;
  /** Delivery counter (consumer sequence) and stream of each durable consumer. */
  consumers: Map<string, { stream: string; delivered: number; pending: number }>;
}

/** Reads the state of every stream `<NS>_*` and of its consumers. */
export async function snapshotStreams(jsm: JetStreamManager, namespace: string): Promise<StreamSnapshot> {
  const prefix = `${namespace}_`.toUpperCase();
  const snap: StreamSnapshot = { lastSeq: new Map(), consumers: new Map() };
  for await (const info of jsm.streams.list()) {
    const name = info.config.name;
    if (!name.startsWith(prefix) || name.endsWith('_BENCHRAW')) continue;
    snap.lastSeq.set(name, info.state.last_seq);
    for await (const c of jsm.consumers.list(name)) {
      snap.consumers.set(`${name}/${c.name}`, {
        stream: name,
        delivered: c.delivered.consumer_seq,
        pending: c.num_pending + c.num_ack_pending,
      });
    }
  }
  return snap;
}

/** Waits (bounded) until no consumer of the namespace has anything pending; returns the last snapshot. */
export async function waitForQuiet(jsm: JetStreamManager, namespace: string, timeoutMs = 15_000): Promise<StreamSnapshot> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const snap = await snapshotStreams(jsm, namespace);
    const busy = [...snap.consumers.values()].some((c) => c.pending > 0);
    if (!busy || performance.now() > deadline) return snap;
    await new Promise((r) => setTimeout(r, 50));
  }
}

export interface StreamDelta {
  /** Events appended to the namespace's streams. */
  appends: number;
  /** Deliveries to consumers, redeliveries included. */
  deliveries: number;
  /** Deliveries beyond one per consumer per new event (naks, ack timeouts). */
  redeliveries: number;
  consumers: number;
}

export function streamDelta(before: StreamSnapshot, after: StreamSnapshot): StreamDelta {
  let appends = 0;
  for (const [stream, seq] of after.lastSeq) appends += seq - (before.lastSeq.get(stream) ?? 0);
  let deliveries = 0;
  let firstDeliveries = 0;
  for (const [key, c] of after.consumers) {
    deliveries += c.delivered - (before.consumers.get(key)?.delivered ?? 0);
    firstDeliveries += (after.lastSeq.get(c.stream) ?? 0) - (before.lastSeq.get(c.stream) ?? 0);
  }
  return { appends, deliveries, redeliveries: Math.max(0, deliveries - firstDeliveries), consumers: after.consumers.size };
}
