import type { FastifyRateLimitStore } from '@fastify/rate-limit';
import { StorageType } from '@nats-io/jetstream';
import { Kvm } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import { INGRESS } from '../config.js';
import { KeyedQueue } from '../users/keyed-queue.js';
import { countRequest, windowTtlMs, type WindowCount } from './rate-limit.js';

/** The part of a NATS KV bucket the counters use (compare-and-set by revision). */
export interface CounterKv {
  get(key: string): Promise<{ revision: number; value: Uint8Array; operation?: string } | null>;
  /** Fails when the key holds a value. */
  create(key: string, value: Uint8Array): Promise<number>;
  /** Fails unless the key's last revision is `revision`. */
  update(key: string, value: Uint8Array, revision: number): Promise<number>;
}

/** The KV bucket of a namespace's rate-limit counters. */
export function rateLimitBucketName(namespace: string): string {
  return `${namespace}_ratelimit`;
}

/**
 * Opens (creating if need be) the counters' bucket. NATS 2.9 has no per-key
 * TTL: the bucket's max age (twice the longest window) drops idle counters, and
 * a counter outlives its window by design. Memory storage: losing the counters
 * in a NATS restart only forgives a minute of requests.
 */
export async function openRateLimitBucket(nc: NatsConnection, namespace: string): Promise<CounterKv> {
  const kvm = new Kvm(nc);
  const name = rateLimitBucketName(namespace);
  try {
    return await kvm.create(name, {
      history: 1,
      ttl: 2 * INGRESS.rateLimits.windowMs,
      storage: StorageType.Memory,
      description: 'Hearth ingress rate-limit counters (API.md)',
    });
  } catch {
    // Created earlier with other settings: use it as it is.
    return kvm.open(name);
  }
}

export interface KvRateLimitStoreOptions {
  kv: CounterKv;
  /** Told when the store fails and requests are let through (throttled). */
  logger: { warn(obj: object, msg: string): void };
  /**
   * Wall time in ms; the windows are wall time because the bucket's max age is.
   * @default Date.now
   */
  now?: () => number;
  /**
   * A count taking longer than this fails (and the request is let through).
   * @default INGRESS.rateLimits.storeTimeoutMs
   */
  timeoutMs?: number;
  /**
   * Compare-and-set attempts per count; each lost attempt means another replica counted.
   * @default 8
   */
  attempts?: number;
  /**
   * After a failure the store is not asked for this long (requests pass at once
   * instead of each waiting out a timeout while NATS is away).
   * @default INGRESS.rateLimits.storePauseMs
   */
  pauseMs?: number;
}

class StoreError extends Error {
  readonly code = 'RATE_LIMIT_STORE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RateLimitStoreError';
  }
}

const MAX_CACHED = 10_000;
const WARN_EVERY_MS = 30_000;

/** A counter key as NATS KV allows it (`[-/_=.A-Za-z0-9]`): other characters as `=hex`. */
export function kvKey(key: string): string {
  return key.replace(/[^-_.A-Za-z0-9]/g, (c) => `=${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

function decode(value: Uint8Array): WindowCount | null {
  const m = /^(\d+):(\d+)$/.exec(Buffer.from(value).toString('utf8'));
  return m ? { startMs: Number(m[1]), count: Number(m[2]) } : null;
}

function encode(w: WindowCount): Uint8Array {
  return Buffer.from(`${w.startMs}:${w.count}`);
}

/**
 * A @fastify/rate-limit store whose counters live in a NATS KV bucket, so every
 * ingress replica counts against one limit. Each count is a compare-and-set on
 * the key's revision; this process's counts of one key are queued and it keeps
 * the revision it wrote last, so in one process a count is one round trip and
 * only another replica's write costs a retry.
 */
export class KvRateLimitStore implements FastifyRateLimitStore {
  readonly #kv: CounterKv;
  readonly #logger: KvRateLimitStoreOptions['logger'];
  readonly #now: () => number;
  readonly #timeoutMs: number;
  readonly #attempts: number;
  readonly #pauseMs: number;
  #pausedUntilMs = -Infinity;
  readonly #queue = new KeyedQueue();
  readonly #known = new Map<string, { revision: number; window: WindowCount | null }>();
  #lastWarnMs = -Infinity;
  #failuresSinceWarn = 0;

  constructor(opts: KvRateLimitStoreOptions) {
    this.#kv = opts.kv;
    this.#logger = opts.logger;
    this.#now = opts.now ?? Date.now;
    this.#timeoutMs = opts.timeoutMs ?? INGRESS.rateLimits.storeTimeoutMs;
    this.#attempts = opts.attempts ?? 8;
    this.#pauseMs = opts.pauseMs ?? INGRESS.rateLimits.storePauseMs;
  }

  /** The plugin's interface: count one request of `key` in a window of `timeWindow` ms. */
  incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow = INGRESS.rateLimits.windowMs): void {
    this.count(key, timeWindow).then(
      (r) => callback(null, r),
      (err: unknown) => {
        this.#warn(err, key);
        callback(err instanceof Error ? err : new StoreError(String(err)));
      },
    );
  }

  child(): FastifyRateLimitStore {
    return this;
  }

  /** Counts one request; `current` is the requests of the window so far, `ttl` the ms until it ends. */
  async count(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    if (this.#now() < this.#pausedUntilMs) throw new StoreError('rate-limit store paused after a failure');
    try {
      return await this.#countWithin(key, windowMs);
    } catch (err) {
      this.#pausedUntilMs = this.#now() + this.#pauseMs;
      throw err;
    }
  }

  async #countWithin(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new StoreError(`rate-limit store did not answer within ${this.#timeoutMs} ms`)), this.#timeoutMs);
    });
    try {
      return await Promise.race([this.#queue.run(key, () => this.#countNow(kvKey(key), windowMs)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async #countNow(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    let lastErr: unknown;
    for (let i = 0; i < this.#attempts; i++) {
      const known = this.#known.get(key) ?? (await this.#read(key));
      const now = this.#now();
      const next = countRequest(known?.window ?? null, now, windowMs);
      try {
        const revision = known ? await this.#kv.update(key, encode(next), known.revision) : await this.#kv.create(key, encode(next));
        this.#remember(key, { revision, window: next });
        return { current: next.count, ttl: windowTtlMs(next, now, windowMs) };
      } catch (err) {
        // Another replica wrote first (or the counter expired): read it and count again.
        lastErr = err;
        this.#known.delete(key);
      }
    }
    throw new StoreError(`could not count ${key} after ${this.#attempts} tries`, { cause: lastErr });
  }

  /** The key's counter; its window is null when the value is a delete marker or not a counter. */
  async #read(key: string): Promise<{ revision: number; window: WindowCount | null } | null> {
    const e = await this.#kv.get(key);
    if (!e) return null;
    return { revision: e.revision, window: e.operation === undefined || e.operation === 'PUT' ? decode(e.value) : null };
  }

  #remember(key: string, v: { revision: number; window: WindowCount }): void {
    this.#known.delete(key);
    this.#known.set(key, v);
    if (this.#known.size > MAX_CACHED) this.#known.delete(this.#known.keys().next().value!);
  }

  #warn(err: unknown, key: string): void {
    this.#failuresSinceWarn++;
    const now = this.#now();
    if (now - this.#lastWarnMs < WARN_EVERY_MS) return;
    this.#logger.warn({ err, key, failures: this.#failuresSinceWarn }, 'rate-limit store failed: letting requests through');
    this.#lastWarnMs = now;
    this.#failuresSinceWarn = 0;
  }
}
