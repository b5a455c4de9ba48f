import { JetStreamApiCodes, JetStreamApiError, StorageType } from '@nats-io/jetstream';
import { Kvm, type KV, type KvEntry } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { Clock } from './clock.js';
import { ClockError } from './errors.js';

/** The key holding the shared offset, in milliseconds, as a decimal string. */
export const CLOCK_OFFSET_KEY = 'offset_ms';

/** How many compare-and-set attempts one advance makes before giving up. Each lost
 * attempt means another advance succeeded, so this bounds the concurrent advancers. */
const MAX_ADVANCE_ATTEMPTS = 32;
const REWATCH_DELAY_MS = 250;

/** The subset of a pino logger the clock uses. */
export interface ClockLogger {
  info(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
}

export interface VirtualClockOptions {
  /**
   * Root of the deployment's names (`HEARTH_NAMESPACE`); the offset lives in the KV
   * bucket `<namespace>_clock`, so every service of one namespace shares one clock.
   */
  namespace: string;
  /**
   * Receives a line when the clock starts, advances or is moved by another process.
   * @default undefined (silent)
   */
  logger?: ClockLogger;
}

/**
 * The dev/test clock shared by every process of a namespace: wall time plus an offset
 * that only grows, kept in NATS KV.
 */
export interface VirtualClock extends Clock {
  /**
   * Moves the whole system forward by `seconds` (may be fractional; rounded to ms).
   * Concurrent advances from several processes all apply.
   * @returns now() once this process sees the new offset.
   */
  advance(seconds: number): Promise<Date>;
  /** The offset this process currently applies to wall time, in milliseconds. */
  offsetMs(): number;
  /** Stops watching the offset. Does not close the NATS connection. */
  close(): Promise<void>;
}

/** The KV bucket of a namespace's virtual clock. */
export function clockBucketName(namespace: string): string {
  return `${namespace}_clock`;
}

/**
 * Opens (creating if need be) the namespace's clock bucket, reads the current offset
 * and watches it, so an advance by any process shows here within milliseconds.
 */
export async function startVirtualClock(nc: NatsConnection, opts: VirtualClockOptions): Promise<VirtualClock> {
  const kv = await new Kvm(nc).create(clockBucketName(opts.namespace), {
    history: 1,
    storage: StorageType.File,
    description: 'Hearth dev/test virtual clock offset',
  });
  const clock = new NatsVirtualClock(nc, kv, opts);
  await clock.start();
  return clock;
}

class NatsVirtualClock implements VirtualClock {
  readonly #nc: NatsConnection;
  readonly #kv: KV;
  readonly #namespace: string;
  readonly #logger: ClockLogger | undefined;
  #offsetMs = 0;
  #revision = 0;
  #closed = false;
  #watcher: { stop(): void } | undefined;
  #watchLoop: Promise<void> = Promise.resolve();

  constructor(nc: NatsConnection, kv: KV, opts: VirtualClockOptions) {
    this.#nc = nc;
    this.#kv = kv;
    this.#namespace = opts.namespace;
    this.#logger = opts.logger;
  }

  async start(): Promise<void> {
    const entry = await this.#kv.get(CLOCK_OFFSET_KEY);
    if (entry) this.#apply(entry.revision, parseOffset(entry));
    this.#watchLoop = this.#watch();
    this.#logger?.info(
      { namespace: this.#namespace, offset_ms: this.#offsetMs, now: this.now().toISOString() },
      'virtual clock started',
    );
  }

  now(): Date {
    return new Date(Date.now() + this.#offsetMs);
  }

  offsetMs(): number {
    return this.#offsetMs;
  }

  async advance(seconds: number): Promise<Date> {
    if (!Number.isFinite(seconds) || seconds < 0) {
      throw new ClockError(
        'CLOCK_INVALID_ADVANCE',
        `cannot advance the virtual clock by ${seconds} s: expected a finite number >= 0`,
      );
    }
    if (this.#closed) throw new ClockError('CLOCK_CLOSED', 'the virtual clock is closed');
    const deltaMs = Math.round(seconds * 1000);

    let lastConflict: unknown;
    for (let attempt = 1; attempt <= MAX_ADVANCE_ATTEMPTS; attempt++) {
      const entry = await this.#kv.get(CLOCK_OFFSET_KEY);
      const next = (entry ? parseOffset(entry) : 0) + deltaMs;
      try {
        const value = String(next);
        const revision = entry
          ? await this.#kv.update(CLOCK_OFFSET_KEY, value, entry.revision)
          : await this.#kv.create(CLOCK_OFFSET_KEY, value);
        this.#apply(revision, next);
        this.#logger?.info(
          { namespace: this.#namespace, advanced_s: seconds, offset_ms: next, attempt },
          'virtual clock advanced',
        );
        return this.now();
      } catch (err) {
        if (!isRevisionConflict(err)) throw err;
        lastConflict = err;
        await sleep(Math.random() * 5 * attempt);
      }
    }
    throw new ClockError(
      'CLOCK_ADVANCE_CONFLICT',
      `virtual clock advance lost ${MAX_ADVANCE_ATTEMPTS} compare-and-set races in a row`,
      { cause: lastConflict },
    );
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#watcher?.stop();
    await this.#watchLoop;
  }

  /** Keeps the offset current; re-watches if the watcher ends while the clock is open. */
  async #watch(): Promise<void> {
    while (!this.#closed && !this.#nc.isClosed()) {
      try {
        const watcher = await this.#kv.watch({ key: CLOCK_OFFSET_KEY });
        this.#watcher = watcher;
        if (this.#closed) watcher.stop();
        for await (const entry of watcher) {
          const before = this.#offsetMs;
          if (this.#apply(entry.revision, parseOffsetOrKeep(entry, before)) && before !== this.#offsetMs) {
            this.#logger?.info(
              { namespace: this.#namespace, offset_ms: this.#offsetMs, revision: entry.revision },
              'virtual clock moved',
            );
          }
        }
      } catch (err) {
        if (this.#closed || this.#nc.isClosed()) return;
        this.#logger?.warn?.({ namespace: this.#namespace, err }, 'virtual clock watch failed; watching again');
      }
      if (!this.#closed) await sleep(REWATCH_DELAY_MS);
    }
  }

  /** Revisions only grow, so a late watch event never undoes a newer local write. */
  #apply(revision: number, offsetMs: number): boolean {
    if (revision <= this.#revision) return false;
    this.#revision = revision;
    this.#offsetMs = offsetMs;
    return true;
  }
}

function parseOffset(entry: KvEntry): number {
  if (entry.operation !== 'PUT') return 0;
  const raw = entry.string();
  const value = Number(raw);
  if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(value)) {
    throw new ClockError(
      'CLOCK_CORRUPT_OFFSET',
      `virtual clock key ${entry.bucket}/${entry.key} holds ${JSON.stringify(raw)}, not an integer of ms`,
    );
  }
  return value;
}

function parseOffsetOrKeep(entry: KvEntry, current: number): number {
  try {
    return parseOffset(entry);
  } catch {
    return current;
  }
}

function isRevisionConflict(err: unknown): boolean {
  return (
    err instanceof JetStreamApiError &&
    (err.code === JetStreamApiCodes.StreamWrongLastSequence ||
      err.code === JetStreamApiCodes.StreamWrongLastSequenceUnknown)
  );
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Resolves with the clock's offset once it reaches `minOffsetMs`, for tests that
 * advance in one process and observe in another.
 * @throws {ClockError} `CLOCK_WAIT_TIMEOUT` after `timeoutMs`.
 */
export async function waitForClockOffset(
  clock: Pick<VirtualClock, 'offsetMs'>,
  minOffsetMs: number,
  timeoutMs: number,
): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const offset = clock.offsetMs();
    if (offset >= minOffsetMs) return offset;
    if (Date.now() >= deadline) {
      throw new ClockError(
        'CLOCK_WAIT_TIMEOUT',
        `virtual clock offset stayed at ${offset} ms, below ${minOffsetMs} ms, for ${timeoutMs} ms`,
      );
    }
    await sleep(2);
  }
}
