import { JetStreamApiError, jetstreamManager, StorageType } from '@nats-io/jetstream';

/** JetStream's code for a message that is not (or no longer) in the stream. */
const NO_MESSAGE_FOUND = 10037;
import { Kvm, KvWatchInclude, type KV } from '@nats-io/kv';
import type { NatsConnection } from '@nats-io/transport-node';
import type { KeyEncryptionKey } from './kek.js';
import { newDataKey, openBytes, sealBytes } from './seal.js';

/** What the key store holds for one user: the current data key, wrapped, or the fact that it was destroyed. */
interface KeyRecord {
  /** Generation of the current key: 1 for a user's first, one more after each erasure and new start. */
  g: number;
  s: 'active' | 'erased';
  /** The data key wrapped by the KEK (base64), while active. */
  w?: string;
  /** Id of the KEK that wrapped it. */
  k?: string;
  /** When this state began (wall time: bookkeeping, not a domain fact). */
  at: string;
}

interface Cached {
  record: KeyRecord | null;
  revision: number;
  key?: Uint8Array;
  expiresAt: number;
}

/** How an event's payload was sealed for its envelope. */
export interface Sealed {
  payload: Uint8Array;
  /** 0: clear. */
  keyGeneration: number;
  /** The user was erased: the payload was withheld. */
  erased: boolean;
}

export interface KeyringOptions {
  /** How long a process keeps a user's key state in memory. @default 60_000 */
  cacheTtlMs?: number;
  /** Users kept in memory at most. @default 10_000 */
  cacheSize?: number;
  /** Stream replicas of the key bucket. @default 1 */
  replicas?: number;
  /**
   * Earlier KEKs, for unwrapping only: keys wrapped by one of them stay
   * readable while `rotate` re-wraps them with the current KEK.
   */
  previousKeks?: readonly KeyEncryptionKey[];
  logger: { warn(obj: object, msg?: string): void; info(obj: object, msg?: string): void };
}

export class KeyringError extends Error {
  override readonly name = 'KeyringError';
}

export function keyBucketName(namespace: string): string {
  return `${namespace}_datakeys`;
}

/** KV keys allow `[-/_=.A-Za-z0-9]`: a user id in base64url fits, whatever it holds. */
function slot(userId: string): string {
  return Buffer.from(userId, 'utf8').toString('base64url');
}

function context(userId: string, generation: number): string {
  return `hearth-data-key:${userId}:${generation}`;
}

/** The event id binds a sealed payload to its envelope. */
export function payloadAssociatedData(eventId: string): string {
  return `hearth-event:${eventId}`;
}

/**
 * Per-user data keys for crypto-shredding (ARCHITECTURE.md "Personal data,
 * export and erasure"). Keys live wrapped by the KEK in a NATS KV bucket every
 * service reaches, so any service can open any event it consumes; a process
 * caches them briefly and drops a user's entry as soon as the bucket changes
 * (a watch), so an erasure is seen everywhere within milliseconds.
 *
 * The bucket keeps two revisions per user: when an erasure replaces an active
 * record, the previous revision (the wrapped key) is then deleted with the
 * server's secure erase, which overwrites it on disk, instead of lingering in
 * the stream's blocks.
 */
/** Opened payloads kept for the other consumers of the same event (a few turns' worth). */
const OPENED_KEPT = 256;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a === b || (a.length === b.length && Buffer.compare(a, b) === 0);
}

export class Keyring {
  readonly #cache = new Map<string, Cached>();
  /**
   * The last payloads opened, by event id: one event reaches several consumers
   * of this process within milliseconds, and each used to decrypt it again.
   * Only returned while the key that opened it is still the user's live key, and
   * dropped with the user's key entry (an erasure here or seen by the watch).
   */
  readonly #opened = new Map<string, { userId: string; generation: number; sealed: Uint8Array; payload: Uint8Array }>();
  readonly #creating = new Map<string, Promise<Cached>>();
  #watch?: { stop(): void };
  #closed = false;

  private constructor(
    private readonly kv: KV,
    private readonly kek: KeyEncryptionKey,
    private readonly stream: string,
    private readonly nc: NatsConnection,
    private readonly opts: KeyringOptions,
  ) {}

  static async open(nc: NatsConnection, namespace: string, kek: KeyEncryptionKey, opts: KeyringOptions): Promise<Keyring> {
    const kvm = new Kvm(nc);
    const name = keyBucketName(namespace);
    let kv: KV;
    try {
      kv = await kvm.create(name, {
        history: 2,
        storage: StorageType.File,
        replicas: opts.replicas ?? 1,
        description: 'Hearth per-user data keys, wrapped by the KEK',
      });
    } catch {
      // Created by another process already (or with other settings): use it as it is.
      kv = await kvm.open(name);
    }
    const ring = new Keyring(kv, kek, `KV_${name}`, nc, opts);
    await ring.watchChanges();
    return ring;
  }

  /** Stops the watch. */
  close(): void {
    this.#closed = true;
    this.#watch?.stop();
    this.#cache.clear();
    this.#opened.clear();
  }

  /** Drops what this process holds of a user's key: its cache entry and the payloads it opened. */
  private forget(userId: string): void {
    this.#cache.delete(userId);
    for (const [id, o] of this.#opened) if (o.userId === userId) this.#opened.delete(id);
  }

  /** The KEK in use (its id only is ever shown). */
  get kekId(): string {
    return this.kek.id;
  }

  private async watchChanges(): Promise<void> {
    const w = await this.kv.watch({ include: KvWatchInclude.UpdatesOnly });
    this.#watch = w;
    void (async () => {
      try {
        for await (const e of w) this.forget(Buffer.from(e.key, 'base64url').toString('utf8'));
      } catch (err) {
        this.opts.logger.warn({ err: String(err) }, 'data key watch failed');
      }
      if (this.#closed) return;
      // Ended without close (a NATS outage): forget what may have changed meanwhile, and watch again.
      this.#cache.clear();
      this.#opened.clear();
      this.opts.logger.warn({}, 'data key watch ended; cache cleared, watching again');
      for (let delay = 250; !this.#closed; delay = Math.min(delay * 2, 5_000)) {
        await new Promise((r) => setTimeout(r, delay));
        if (this.#closed) return;
        try {
          await this.watchChanges();
          return;
        } catch (err) {
          this.opts.logger.warn({ err: String(err), retry_ms: delay }, 'data key watch could not restart; keys expire from the cache by age meanwhile');
        }
      }
    })();
  }

  /**
   * Seals a payload about a user for the log. The first event about a user
   * creates their key; `opens` (a new start after an erasure, POST /v1/me)
   * creates the next generation. Anything else appended about an erased user
   * is withheld: its payload is dropped, so nothing outlives the erasure. So is
   * a reaction to an event of an older generation (`causeGeneration`): it
   * belongs to the erased user, not to the one who started anew.
   */
  async seal(userId: string, eventId: string, payload: Uint8Array, opts: { opens?: boolean; causeGeneration?: number } = {}): Promise<Sealed> {
    let c = await this.entry(userId);
    if (!c.record || (opts.opens && c.record.s === 'erased')) c = await this.createNext(userId, c);
    // A cause sealed under a newer generation than the cached one: a new start this process has not seen yet.
    if (opts.causeGeneration && c.record && opts.causeGeneration > c.record.g) c = await this.entry(userId, true);
    const withheld = { payload: new Uint8Array(0), keyGeneration: c.record?.g ?? 0, erased: true };
    if (c.record?.s !== 'active' || !c.key) return withheld;
    // A reaction to an event of an erased generation: its output belongs to the erased user.
    if (opts.causeGeneration && opts.causeGeneration !== c.record.g) return { ...withheld, keyGeneration: opts.causeGeneration };
    return { payload: sealBytes(c.key, payload, payloadAssociatedData(eventId)), keyGeneration: c.record.g, erased: false };
  }

  /**
   * Opens a sealed payload, or null when its key was destroyed (the user was
   * erased, or erased and started anew). A payload that fails to open under a
   * live key is corrupt or tampered with: that throws.
   */
  async open(userId: string, generation: number, eventId: string, sealed: Uint8Array): Promise<Uint8Array | null> {
    let c = await this.entry(userId);
    // A generation newer than the cached one: a new start this process has not seen yet.
    if (c.record && generation > c.record.g) c = await this.entry(userId, true);
    if (!c.record || c.record.s !== 'active' || c.record.g !== generation || !c.key) return null;
    const memo = this.#opened.get(eventId);
    // The same sealed bytes: a forged copy under a known id still goes through the tag check.
    if (memo && memo.userId === userId && memo.generation === generation && sameBytes(memo.sealed, sealed)) return memo.payload;
    const payload = openBytes(c.key, sealed, payloadAssociatedData(eventId));
    // A copy: the sealed bytes may be a view into a whole inbound buffer, which the memo would keep alive.
    this.#opened.set(eventId, { userId, generation, sealed: sealed.slice(), payload });
    if (this.#opened.size > OPENED_KEPT) this.#opened.delete(this.#opened.keys().next().value!);
    return payload;
  }

  /**
   * Destroys the user's data key: every payload sealed with it becomes
   * unreadable, in every stream and dead letter. Returns the generation
   * destroyed. Idempotent.
   */
  async destroy(userId: string): Promise<{ generation: number; already: boolean }> {
    for (let attempt = 0; attempt < 5; attempt++) {
      const c = await this.entry(userId, true);
      if (c.record?.s === 'erased') {
        // A retry after a secure erase that failed: finish it.
        await this.eraseKeptKeys(userId);
        return { generation: c.record.g, already: true };
      }
      const record: KeyRecord = { g: c.record?.g ?? 0, s: 'erased', at: new Date().toISOString() };
      try {
        if (c.record) await this.kv.update(slot(userId), JSON.stringify(record), c.revision);
        else await this.kv.create(slot(userId), JSON.stringify(record));
      } catch (err) {
        if (isCasConflict(err)) continue; // someone else wrote the slot: read it again
        throw err;
      }
      this.forget(userId);
      // The replaced revision held the wrapped key: overwrite it on disk.
      if (c.record) await this.secureErase(c.revision);
      return { generation: record.g, already: false };
    }
    throw new KeyringError(`could not destroy the data key of ${userId}: the slot kept changing`);
  }

  /** The generation of the user's current key as this process knows it (cached; 0: none yet). */
  async generation(userId: string): Promise<number> {
    return (await this.entry(userId)).record?.g ?? 0;
  }

  /** The user's current key state: generation and whether it is destroyed (null: no key yet). */
  async state(userId: string): Promise<{ generation: number; erased: boolean } | null> {
    const c = await this.entry(userId, true);
    return c.record ? { generation: c.record.g, erased: c.record.s === 'erased' } : null;
  }

  private async secureErase(revision: number): Promise<void> {
    try {
      const jsm = await jetstreamManager(this.nc);
      await jsm.streams.deleteMessage(this.stream, revision, true);
    } catch (err) {
      // Already gone (the history limit dropped it): nothing left to overwrite.
      if (err instanceof JetStreamApiError && err.code === NO_MESSAGE_FOUND) return;
      throw new KeyringError(`the replaced data key record (revision ${revision}) could not be securely erased: ${String(err)}`, { cause: err });
    }
  }

  /** Securely erases any revision of the user's slot that still holds a wrapped key. */
  private async eraseKeptKeys(userId: string): Promise<void> {
    const kept: number[] = [];
    for await (const e of await this.kv.history({ key: slot(userId) })) {
      if (e.operation === 'PUT' && e.value.length > 0 && (JSON.parse(e.string()) as KeyRecord).w) kept.push(e.revision);
    }
    for (const revision of kept) await this.secureErase(revision);
  }

  private async entry(userId: string, fresh = false): Promise<Cached> {
    const now = Date.now();
    const hit = this.#cache.get(userId);
    if (!fresh && hit && hit.expiresAt > now) return hit;
    const e = await this.kv.get(slot(userId));
    let record: KeyRecord | null = null;
    if (e && e.operation === 'PUT' && e.value.length > 0) record = JSON.parse(e.string()) as KeyRecord;
    const c: Cached = { record, revision: e?.revision ?? 0, expiresAt: now + (this.opts.cacheTtlMs ?? 60_000) };
    if (record?.s === 'active' && record.w) {
      c.key = await this.kekFor(record).unwrap(Buffer.from(record.w, 'base64'), context(userId, record.g));
    }
    this.remember(userId, c);
    return c;
  }

  /** The KEK that wrapped a record: the current one, or an earlier one named in HEARTH_KEK_PREVIOUS. */
  private kekFor(record: KeyRecord): KeyEncryptionKey {
    if (!record.k || record.k === this.kek.id) return this.kek;
    const previous = this.opts.previousKeks?.find((k) => k.id === record.k);
    if (!previous) {
      throw new KeyringError(`a data key is wrapped by KEK ${record.k}, which this process does not hold (current ${this.kek.id}): give it in HEARTH_KEK_PREVIOUS until pnpm keys:rotate has re-wrapped every key`);
    }
    return previous;
  }

  /**
   * Re-wraps every active data key not wrapped by the current KEK (KEK
   * rotation), and securely erases the revision that held the old wrapping.
   * Idempotent and resumable: a key already under the current KEK is skipped.
   */
  async rotate(onProgress?: (done: number, total: number) => void): Promise<{ total: number; rewrapped: number; current: number; erased: number }> {
    const slots: string[] = [];
    for await (const k of await this.kv.keys()) slots.push(k);
    const out = { total: slots.length, rewrapped: 0, current: 0, erased: 0 };
    for (const [i, s] of slots.entries()) {
      const userId = Buffer.from(s, 'base64url').toString('utf8');
      for (let attempt = 0; ; attempt++) {
        const c = await this.entry(userId, true);
        if (!c.record || c.record.s !== 'active' || !c.key) {
          out.erased++;
          break;
        }
        if (c.record.k === this.kek.id) {
          out.current++;
          break;
        }
        const record: KeyRecord = {
          ...c.record,
          w: Buffer.from(await this.kek.wrap(c.key, context(userId, c.record.g))).toString('base64'),
          k: this.kek.id,
        };
        try {
          await this.kv.update(s, JSON.stringify(record), c.revision);
        } catch (err) {
          if (isCasConflict(err) && attempt < 5) continue; // created or erased meanwhile: look again
          throw err;
        }
        this.#cache.delete(userId);
        await this.secureErase(c.revision);
        out.rewrapped++;
        break;
      }
      onProgress?.(i + 1, slots.length);
    }
    return out;
  }

  private remember(userId: string, c: Cached): void {
    this.#cache.delete(userId);
    this.#cache.set(userId, c);
    const max = this.opts.cacheSize ?? 10_000;
    // Oldest first: a Map iterates in insertion order.
    while (this.#cache.size > max) this.#cache.delete(this.#cache.keys().next().value!);
  }

  /** Creates the user's first key, or the next one after an erasure; concurrent callers share one try. */
  private async createNext(userId: string, seen: Cached): Promise<Cached> {
    const pending = this.#creating.get(userId);
    if (pending) return pending;
    const p = (async () => {
      const generation = (seen.record?.g ?? 0) + 1;
      const key = newDataKey();
      const record: KeyRecord = {
        g: generation,
        s: 'active',
        w: Buffer.from(await this.kek.wrap(key, context(userId, generation))).toString('base64'),
        k: this.kek.id,
        at: new Date().toISOString(),
      };
      try {
        if (seen.record) await this.kv.update(slot(userId), JSON.stringify(record), seen.revision);
        else await this.kv.create(slot(userId), JSON.stringify(record));
        this.opts.logger.info({ user_id: userId, key_generation: generation, kek: this.kek.id }, 'data key created');
      } catch (err) {
        if (!isCasConflict(err)) throw err;
        // Another process created it first: use theirs.
      }
      return this.entry(userId, true);
    })();
    this.#creating.set(userId, p);
    try {
      return await p;
    } finally {
      this.#creating.delete(userId);
    }
  }
}

function isCasConflict(err: unknown): boolean {
  const msg = err instanceof Error ? err.message : String(err);
  return /wrong last sequence|key exists|10071/i.test(msg);
}
