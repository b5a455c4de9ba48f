import { sql, type Kysely, type QueryCreator, type Transaction } from 'kysely';
import { checkpointsUpsert, positionsUpsert, runtimeDb, type AnyDb, type RuntimeDb } from './runtime.js';
import { KnownPositions } from './known-positions.js';
import { ACK, BusError, startConsumer, type Bus, type Outcome, type RunningConsumer, type ServiceName, type StoredEvent } from '@hearth/bus';
import { markQuarantineRedriven, recordQuarantine } from './quarantine.js';
import { isRunningHere, registerRunning, runningAtLeast } from './running-positions.js';

/**
 * A read model: `apply` writes rows for one event inside the runner's
 * transaction. It must be deterministic (time and ids from the event only), and
 * give the same rows whatever the interleaving of its source streams, so that
 * replay equals live.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a projection of any schema
export interface Projection<DB = any> {
  /** Unique within the service; names its durable consumers and checkpoints. */
  name: string;
  /** Streams it reads, one durable consumer each. */
  sources: readonly ServiceName[];
  /** Tables it owns: what replay rebuilds and compares. */
  tables: readonly string[];
  /**
   * Only the events of this key's subject in each source (a global aggregate):
   * its consumers, and replay, skip every other subject.
   * @default every subject
   */
  key?: string;
  /**
   * The event types `apply` acts on. Events of other types only move the
   * position, without a transaction (most of a turn's events are of no
   * concern to most projections).
   * @default every type
   */
  types?: readonly string[];
  /**
   * Of the events of `types`, those `apply` would leave untouched, told from
   * the event alone (a turn that activates nobody): only moved past, too.
   */
  ignores?(event: StoredEvent): boolean;
  apply(trx: Transaction<DB>, event: StoredEvent): Promise<void>;
  /**
   * Applies a batch's events in order, writing the rows `apply` would write one
   * by one: for a projection that reads and writes a run of events together
   * (fewer statements). Used in place of `apply` when given.
   */
  applyBatch?(trx: Transaction<DB>, events: readonly StoredEvent[]): Promise<void>;
  /**
   * Deletes every row about the user (erasure: ARCHITECTURE.md "Personal data,
   * export and erasure"), inside the erasure's transaction. Afterwards nothing
   * the user wrote, or that was derived from it, may remain in `tables`.
   */
  erase(trx: Transaction<DB>, userId: string): Promise<void>;
}

/** Called after a batch committed, with the events it applied. */
export type AppliedListener = (events: StoredEvent[]) => void;

/** How long to wait before retrying an event whose predecessor is not applied yet. */
export const GAP_RETRY_MS = 50;

/**
 * Applies a batch of one stream's events: rows, per-subject positions and the
 * stream checkpoint commit together or not at all. An event already applied is
 * skipped (exactly-once effect); one whose predecessor on its subject is not
 * applied yet is left for redelivery (per-user order).
 *
 * A batch with nothing to apply (every event of a type the projection does not
 * act on, erased or skipped) opens no transaction: one statement moves the
 * positions and the checkpoint past it. Otherwise one statement reads the
 * positions (locked) and erasures, the projection writes its rows, and one
 * statement writes positions and checkpoint, in one transaction.
 */
export async function applyEvents<DB>(
  db: Kysely<DB>,
  projection: Projection<DB>,
  events: readonly StoredEvent[],
  opts: {
    /** Events passed over as if applied (replay: what live quarantined). */
    skip?: (e: StoredEvent) => boolean;
    /** Positions this runner already knows (read or committed before): fewer reads. */
    known?: KnownPositions;
  } = {},
): Promise<{ outcomes: Outcome[]; applied: StoredEvent[] }> {
  const acts = actsOn(projection);
  const toApply = (e: StoredEvent): boolean => !e.erased && acts(e) && !opts.skip?.(e);
  if (!events.some(toApply)) return movePast(db as AnyDb, projection.name, events, opts.known);
  const result = await db.transaction().execute(async (trx) => {
    const { positions, erased } = await lockPositions(trx as AnyDb, projection.name, events);
    const applied: StoredEvent[] = [];
    const walk = await walkChains(events, positions, async (e) => {
      if (!toApply(e) || isErased(e, erased)) return;
      // The walk's decisions never depend on what apply writes: a batch can apply after it.
      if (!projection.applyBatch) await projection.apply(trx, e);
      applied.push(e);
    });
    if (projection.applyBatch && applied.length > 0) await projection.applyBatch(trx, applied);
    await writePositions(trx as AnyDb, projection.name, walk);
    return { walk, applied, positions };
  });
  for (const [subject, seq] of result.positions) opts.known?.set(subject, seq);
  return { outcomes: result.walk.outcomes, applied: result.applied };
}

/** Whether a projection acts on an event's type (those it does not only move its position past). */
function actsOn(projection: Projection): (e: StoredEvent) => boolean {
  const types = projection.types ? new Set(projection.types) : undefined;
  return (e) => (!types || types.has(e.type)) && !projection.ignores?.(e);
}

/** What walking a batch along its subjects' chains decided. */
interface ChainWalk {
  outcomes: Outcome[];
  /** Subjects moved, with their new position. */
  moved: Map<string, number>;
  /** Streams moved, with their new checkpoint. */
  checkpoints: Map<string, number>;
}

/**
 * Walks events in order against the positions (updated in place): an event at
 * or below its subject's position is a duplicate, one whose predecessor is
 * above it waits, the rest are handed to `take` and moved past.
 */
async function walkChains(events: readonly StoredEvent[], positions: Map<string, number>, take: (e: StoredEvent) => Promise<void>): Promise<ChainWalk> {
  const walk: ChainWalk = { outcomes: [], moved: new Map(), checkpoints: new Map() };
  for (const e of events) {
    const pos = positions.get(e.subject) ?? 0;
    if (e.seq <= pos) {
      walk.outcomes.push(ACK);
      continue;
    }
    if (e.prevSeq > pos) {
      walk.outcomes.push({ kind: 'nak', delayMs: GAP_RETRY_MS, reason: `waiting for seq ${e.prevSeq} on ${e.subject}` });
      continue;
    }
    await take(e);
    positions.set(e.subject, e.seq);
    walk.moved.set(e.subject, e.seq);
    walk.checkpoints.set(e.stream, Math.max(walk.checkpoints.get(e.stream) ?? 0, e.seq));
    walk.outcomes.push(ACK);
  }
  return walk;
}

/**
 * A batch with nothing to apply: the ordering check on the known positions
 * (read for the subjects not known yet), then one statement that moves the
 * positions and the checkpoint, never back. No row is written, so a position a
 * replica moved meanwhile costs nothing: the larger one stays.
 */
async function movePast(db: AnyDb, projection: string, events: readonly StoredEvent[], known?: KnownPositions): Promise<{ outcomes: Outcome[]; applied: StoredEvent[] }> {
  const positions = new Map<string, number>();
  const unknown: string[] = [];
  for (const e of events) {
    if (positions.has(e.subject) || unknown.includes(e.subject)) continue;
    const seq = known?.get(e.subject);
    // Unknown, or behind what the chain needs (a replica moved it): read it.
    if (seq === undefined || e.prevSeq > seq) unknown.push(e.subject);
    else positions.set(e.subject, seq);
  }
  if (unknown.length > 0) {
    const rows = await runtimeDb(db)
      .selectFrom('projection_positions')
      .select(['subject', 'last_seq'])
      .where('projection', '=', projection)
      .where('subject', 'in', unknown)
      .execute();
    for (const subject of unknown) positions.set(subject, 0);
    for (const r of rows) positions.set(r.subject, Number(r.last_seq));
  }
  const walk = await walkChains(events, positions, async () => undefined);
  await writePositions(db, projection, walk);
  for (const [subject, seq] of positions) known?.set(subject, seq);
  return { outcomes: walk.outcomes, applied: [] };
}

/** The batch's positions (rows locked until the transaction ends) and its users' erasures, in one statement. */
async function lockPositions(trx: AnyDb, projection: string, events: readonly StoredEvent[]): Promise<{ positions: Map<string, number>; erased: Map<string, number> }> {
  const t = runtimeDb(trx);
  const subjects = [...new Set(events.map((e) => e.subject))];
  const users = [...new Set(events.filter(onUserSubject).map((e) => e.userId))];
  const locked = t.with('pos', (q) =>
    q.selectFrom('projection_positions').select(['subject', 'last_seq']).where('projection', '=', projection).where('subject', 'in', subjects).forUpdate(),
  );
  const positionsOnly = locked.selectFrom('pos').select([sql<string>`'p'`.as('kind'), 'subject as key', sql<string>`last_seq::bigint`.as('value')]);
  const rows = await (users.length === 0
    ? positionsOnly
    : positionsOnly.unionAll(
        t.selectFrom('erased_users').select([sql<string>`'e'`.as('kind'), 'user_id as key', sql<string>`key_generation::bigint`.as('value')]).where('user_id', 'in', users),
      )
  ).execute();
  const positions = new Map(subjects.map((s) => [s, 0]));
  const erased = new Map<string, number>();
  for (const r of rows) (r.kind === 'p' ? positions : erased).set(r.key, Number(r.value));
  return { positions, erased };
}

/** Positions and checkpoints moved by a walk, in one statement (never back). */
async function writePositions(db: AnyDb, projection: string, walk: ChainWalk): Promise<void> {
  if (walk.moved.size === 0) return;
  const t = runtimeDb(db);
  // The positions ride along as a data-modifying CTE (nothing reads `moved`, so its row type can be forgotten).
  const withPositions = t.with('moved', (q) => positionsUpsert(q, projection, walk.moved).returning('subject')) as unknown as QueryCreator<RuntimeDb>;
  await checkpointsUpsert(withPositions, projection, walk.checkpoints).execute();
}

/**
 * Of the users of these events, those erased, with the key generation
 * destroyed (events on global subjects, such as the erasures themselves, name
 * a user without belonging to them).
 */
export async function erasedGenerations(db: AnyDb, events: readonly StoredEvent[]): Promise<Map<string, number>> {
  const users = [...new Set(events.filter(onUserSubject).map((e) => e.userId))];
  if (users.length === 0) return new Map();
  const rows = await runtimeDb(db).selectFrom('erased_users').select(['user_id', 'key_generation']).where('user_id', 'in', users).execute();
  return new Map(rows.map((r) => [r.user_id, r.key_generation]));
}

function onUserSubject(e: StoredEvent): boolean {
  return e.userId !== '' && e.subject.endsWith(`.${e.userId}`);
}

/**
 * An event nobody may apply any more: its payload is gone (key destroyed), or
 * it was sealed with a generation the service already erased (a process that
 * still had the key cached opened it after the erasure was applied).
 */
export function isErased(e: StoredEvent, erased: ReadonlyMap<string, number>): boolean {
  if (e.erased) return true;
  const generation = onUserSubject(e) ? erased.get(e.userId) : undefined;
  return generation !== undefined && e.keyGeneration <= generation;
}

/**
 * The durable consumer's purpose for a projection or reactor on one source. A
 * keyed one gets a durable of its own (a filter cannot change on an existing one).
 */
export function consumerPurpose(name: string, source: ServiceName, key: string | undefined): string {
  return key === undefined ? `${name}-${source}` : `${name}-${source}-${key}`;
}

/** The checkpoint of a projection on one stream (0 when none). */
export async function checkpointOf(db: AnyDb, projection: string, stream: string): Promise<number> {
  const row = await runtimeDb(db)
    .selectFrom('projection_checkpoints')
    .select('last_seq')
    .where('projection', '=', projection)
    .where('stream', '=', stream)
    .executeTakeFirst();
  return row ? Number(row.last_seq) : 0;
}

/** The last applied sequence of one subject for a projection (0 when none). */
export async function positionOf(db: AnyDb, projection: string, subject: string): Promise<number> {
  const row = await runtimeDb(db)
    .selectFrom('projection_positions')
    .select('last_seq')
    .where('projection', '=', projection)
    .where('subject', '=', subject)
    .executeTakeFirst();
  return row ? Number(row.last_seq) : 0;
}

export interface ProjectionRunnerOptions {
  /** @default 100 */
  batchSize?: number;
  /** @default 5 */
  maxDeliver?: number;
  onApplied?: AppliedListener;
}

/** Runs a projection live: one durable consumer per source stream. */
export async function startProjection<DB>(
  bus: Bus,
  db: Kysely<DB>,
  service: ServiceName,
  projection: Projection<DB>,
  opts: ProjectionRunnerOptions = {},
): Promise<RunningConsumer[]> {
  return startEach(projection.sources, async (source) => {
    const known = new KnownPositions();
    const consumer = await startConsumer(bus, {
      service,
      purpose: consumerPurpose(projection.name, source, projection.key),
      source,
      key: projection.key,
      batchSize: opts.batchSize ?? 100,
      maxDeliver: opts.maxDeliver ?? 5,
      handle: async (events) => {
        const { outcomes, applied } = await applyEvents(db, projection, events, { known });
        if (applied.length > 0) opts.onApplied?.(applied);
        return outcomes;
      },
      quarantine: async (q) => {
        await recordQuarantine(db as AnyDb, projection.name, q, { checkpoint: true });
        known.forget(q.subject);
      },
      redrive: (e) =>
        db.transaction().execute(async (trx) => {
          if (!isErased(e, await erasedGenerations(trx as AnyDb, [e]))) await projection.apply(trx, e);
          await markQuarantineRedriven(trx as AnyDb, projection.name, e);
        }),
    });
    // Waits on this projection in this process ask these positions before the database.
    const unregister = registerRunning(db, projection.name, known);
    return {
      ...consumer,
      stop: async () => {
        unregister();
        await consumer.stop();
      },
    };
  });
}

/**
 * Starts one consumer per source, in order. If one cannot start (its stream is
 * missing, NATS went away), the ones already started are stopped before the
 * error is thrown: nothing is left consuming for a projection or reactor that
 * did not start, which would keep the process from ending.
 */
export async function startEach<S>(sources: readonly S[], start: (source: S) => Promise<RunningConsumer>): Promise<RunningConsumer[]> {
  const running: RunningConsumer[] = [];
  try {
    for (const source of sources) running.push(await start(source));
  } catch (err) {
    await Promise.allSettled(running.map((c) => c.stop()));
    throw err;
  }
  return running;
}

/**
 * Asks `done` until it holds (true) or `timeoutMs` passed (false), backing off
 * from 2 ms to `intervalMs`: the wait for a read model to catch up, in one place.
 */
export async function pollUntil(done: () => Promise<boolean>, opts: { timeoutMs?: number; intervalMs?: number } = {}): Promise<boolean> {
  const deadline = performance.now() + (opts.timeoutMs ?? 10_000);
  let interval = 2;
  for (;;) {
    if (await done()) return true;
    if (performance.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, interval));
    interval = Math.min(interval * 2, opts.intervalMs ?? 25);
  }
}

/**
 * When a wait on a projection running in this process still reads the
 * database (a replica may apply the event): first after this long, then at the
 * usual longest interval.
 */
const LOCAL_WAIT_FIRST_READ_MS = 10;
/** How often such a wait looks at the runner's positions. */
const LOCAL_LOOK_EVERY_MS = 4;

/**
 * Waits until a projection has applied a subject up to `seq` (read-your-writes
 * for a command that just appended, or a decision that must see its own
 * earlier events). Returns false on timeout.
 */
export async function waitForPosition(
  db: AnyDb,
  projection: string,
  subject: string,
  seq: number,
  opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<boolean> {
  if (runningAtLeast(db, projection, subject, seq)) return true;
  // With a runner here, its positions are looked at every few ms, and the
  // database (for what a replica applied) now and then; without one, the database alone.
  const here = isRunningHere(db, projection);
  const dbInterval = opts.intervalMs ?? 25;
  let nextRead = here ? performance.now() + Math.min(LOCAL_WAIT_FIRST_READ_MS, dbInterval) : -Infinity;
  return pollUntil(
    async () => {
      if (runningAtLeast(db, projection, subject, seq)) return true;
      if (performance.now() < nextRead) return false;
      if (here) nextRead = performance.now() + dbInterval;
      return (await positionOf(db, projection, subject)) >= seq;
    },
    here ? { ...opts, intervalMs: Math.min(opts.intervalMs ?? LOCAL_LOOK_EVERY_MS, LOCAL_LOOK_EVERY_MS) } : opts,
  );
}

/**
 * A read model has not applied a subject up to the sequence a decision needs
 * within the wait. Transient by nature (the projection's own consumer is
 * behind, not the input bad): a consumer naks and retries it without counting
 * the delivery toward quarantine, and an HTTP edge answers 503.
 */
export class ProjectionBehindError extends BusError {
  constructor(
    readonly projection: string,
    readonly subject: string,
    readonly seq: number,
    options?: { cause?: unknown },
  ) {
    super('PROJECTION_BEHIND', `projection ${projection} has not caught up with ${subject}#${seq}`, options);
  }
}

/**
 * Throws a ProjectionBehindError unless the projection has applied `last`'s
 * subject up to `last` within the wait: a decision on a chain is taken on a
 * read model that holds every earlier event of that chain. Nothing to wait for
 * when the chain is empty.
 */
export async function requirePosition(
  db: AnyDb,
  projection: string,
  last: { subject: string; seq: number } | null,
  opts: { timeoutMs?: number } = {},
): Promise<void> {
  if (last && !(await waitForPosition(db, projection, last.subject, last.seq, opts))) {
    throw new ProjectionBehindError(projection, last.subject, last.seq);
  }
}

/**
 * Waits until a projection has applied a stream up to `seq` (a read model that
 * must hold everything on its sources as of some moment, e.g. a scheduled
 * decision). Returns false on timeout.
 */
export async function waitForCheckpoint(
  db: AnyDb,
  projection: string,
  stream: string,
  seq: number,
  opts: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<boolean> {
  return pollUntil(async () => (await checkpointOf(db, projection, stream)) >= seq, opts);
}

/**
 * Serializes, until the transaction ends, the transactions of one projection
 * that touch one user from different source streams (each stream has its own
 * consumer, so two may run at once). A row one of them writes for the other to
 * read (a state that arrived before its record) is then seen whichever commits
 * first: replay, which applies the streams one after the other, folds the same.
 */
export async function lockUser(trx: AnyDb, projection: string, userId: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`${projection}:${userId}`}))`.execute(runtimeDb(trx));
}
