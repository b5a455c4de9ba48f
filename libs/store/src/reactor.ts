import { ACK, startConsumer, withCause, type Bus, type Outcome, type RunningConsumer, type ServiceName, type StoredEvent } from '@hearth/bus';
import { consumerPurpose, GAP_RETRY_MS, positionOf, startEach } from './projection.js';
import { markQuarantineRedriven, recordQuarantine } from './quarantine.js';
import { positionsUpsert, runtimeDb, type AnyDb } from './runtime.js';
import { KnownPositions } from './known-positions.js';

/**
 * A handler that turns events into new events of its own service (a saga or
 * process step). `react` decides from the event and the service's own state and
 * appends with ids derived from the event, so running it twice appends nothing
 * new; the runner records the position only after it returned.
 */
export interface Reactor {
  name: string;
  sources: readonly ServiceName[];
  /** Only the events of this key's subject in each source. @default every subject */
  key?: string;
  /**
   * The event types `react` acts on; the runner only moves its position past
   * the others (checked against the positions it knows, without a read).
   * @default every type
   */
  types?: readonly string[];
  react(event: StoredEvent): Promise<void>;
}

/**
 * Runs the reactor on one event, its appends sealed under the event's key
 * generation. An erased user's event has nothing to react to (its place in the
 * chain is still taken by the caller).
 */
async function reactTo(reactor: Reactor, e: StoredEvent): Promise<void> {
  if (!e.erased) await withCause(e, () => reactor.react(e));
}

/**
 * Handles one event in per-subject order; exported for tests. The ordering
 * check uses the position this runner knows when it has one: positions only
 * grow, so a known one is never ahead, and it is read again before an event
 * is left waiting. A known one can be behind only when a replica moved it,
 * and then reacting again appends nothing new (ids derived from the event).
 */
export async function reactOnce(
  anyDb: AnyDb,
  reactor: Reactor,
  e: StoredEvent,
  known?: KnownPositions,
  /** When given, the new position is put here for the caller to write with the batch's, instead of written now. */
  moved?: Map<string, number>,
): Promise<Outcome> {
  const db = runtimeDb(anyDb);
  let pos = known?.get(e.subject);
  if (pos === undefined || e.prevSeq > pos) pos = await positionOf(anyDb, reactor.name, e.subject);
  known?.set(e.subject, pos);
  if (e.seq <= pos) return ACK;
  if (e.prevSeq > pos) return { kind: 'nak', delayMs: GAP_RETRY_MS, reason: `waiting for seq ${e.prevSeq}` };
  if (!reactor.types || reactor.types.includes(e.type)) await reactTo(reactor, e);
  if (moved) {
    moved.set(e.subject, e.seq);
    known?.set(e.subject, e.seq);
    return ACK;
  }
  // Never back: a replica that raced us on the same event wrote the same outputs.
  await positionsUpsert(db, reactor.name, new Map([[e.subject, e.seq]])).execute();
  known?.set(e.subject, e.seq);
  return ACK;
}

export async function startReactor(
  bus: Bus,
  db: AnyDb,
  service: ServiceName,
  reactor: Reactor,
  opts: { maxDeliver?: number; batchSize?: number } = {},
): Promise<RunningConsumer[]> {
  return startEach(reactor.sources, async (source) => {
    const known = new KnownPositions();
    return stoppedFirst(await startConsumer(bus, {
      service,
      purpose: consumerPurpose(reactor.name, source, reactor.key),
      source,
      key: reactor.key,
      maxDeliver: opts.maxDeliver ?? 5,
      batchSize: opts.batchSize ?? 20,
      handle: async (events) => {
        // In order within a subject (a user's chain), concurrently across subjects.
        const outcomes: Outcome[] = new Array<Outcome>(events.length);
        const chains = new Map<string, number[]>();
        events.forEach((e, i) => chains.set(e.subject, [...(chains.get(e.subject) ?? []), i]));
        // The batch's positions are written together once every chain is done:
        // an event reacted to and not yet recorded is reacted to again after a
        // crash, which appends nothing new.
        const moved = new Map<string, number>();
        try {
          await Promise.all(
            [...chains.values()].map(async (indexes) => {
              for (const i of indexes) outcomes[i] = await reactOnce(db, reactor, events[i]!, known, moved);
            }),
          );
          if (moved.size > 0) await positionsUpsert(runtimeDb(db), reactor.name, moved).execute();
        } catch (err) {
          // Not recorded: what this batch moved is not known either.
          for (const subject of moved.keys()) known.forget(subject);
          throw err;
        }
        return outcomes;
      },
      quarantine: async (q) => {
        await recordQuarantine(db, reactor.name, q, { checkpoint: false });
        known.forget(q.subject);
      },
      redrive: async (e) => {
        // Its outputs have ids derived from the event: a redrive appends nothing twice.
        await reactTo(reactor, e);
        await markQuarantineRedriven(db, reactor.name, e);
      },
    }));
  });
}

/** The consumer marked to stop before the projections its decisions wait for. */
function stoppedFirst(c: RunningConsumer): RunningConsumer {
  return {
    name: c.name,
    isBound: () => c.isBound(),
    lag: () => c.lag(),
    ...(c.stalled ? { stalled: () => c.stalled!() } : {}),
    stopFirst: true,
    stop: () => c.stop(),
  };
}
