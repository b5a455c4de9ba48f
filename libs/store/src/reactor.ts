import { ACK, startConsumer, withCause, type Bus, type Outcome, type RunningConsumer, type ServiceName, type StoredEvent } from '@hearth/bus';
import { consumerPurpose, GAP_RETRY_MS, positionOf, startEach } from './projection.js';
import { markQuarantineRedriven, recordQuarantine } from './quarantine.js';
import { runtimeDb, type AnyDb } from './runtime.js';

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

/** Handles one event in per-subject order; exported for tests. */
export async function reactOnce(anyDb: AnyDb, reactor: Reactor, e: StoredEvent): Promise<Outcome> {
  const db = runtimeDb(anyDb);
  const pos = await positionOf(anyDb, reactor.name, e.subject);
  if (e.seq <= pos) return ACK;
  if (e.prevSeq > pos) return { kind: 'nak', delayMs: GAP_RETRY_MS, reason: `waiting for seq ${e.prevSeq}` };
  await reactTo(reactor, e);
  // Compare-and-set: a replica that raced us on the same event wrote the same outputs.
  if (pos === 0) {
    await db
      .insertInto('projection_positions')
      .values({ projection: reactor.name, subject: e.subject, last_seq: e.seq })
      .onConflict((oc) =>
        oc
          .columns(['projection', 'subject'])
          .doUpdateSet({ last_seq: e.seq })
          .where('projection_positions.last_seq', '<', e.seq),
      )
      .execute();
  } else {
    await db
      .updateTable('projection_positions')
      .set({ last_seq: e.seq })
      .where('projection', '=', reactor.name)
      .where('subject', '=', e.subject)
      .where('last_seq', '<', e.seq)
      .execute();
  }
  return ACK;
}

export async function startReactor(
  bus: Bus,
  db: AnyDb,
  service: ServiceName,
  reactor: Reactor,
  opts: { maxDeliver?: number; batchSize?: number } = {},
): Promise<RunningConsumer[]> {
  return startEach(reactor.sources, async (source) =>
    stoppedFirst(await startConsumer(bus, {
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
        await Promise.all(
          [...chains.values()].map(async (indexes) => {
            for (const i of indexes) outcomes[i] = await reactOnce(db, reactor, events[i]!);
          }),
        );
        return outcomes;
      },
      quarantine: (q) => recordQuarantine(db, reactor.name, q, { checkpoint: false }),
      redrive: async (e) => {
        // Its outputs have ids derived from the event: a redrive appends nothing twice.
        await reactTo(reactor, e);
        await markQuarantineRedriven(db, reactor.name, e);
      },
    })),
  );
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
