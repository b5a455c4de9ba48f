import type { Kysely } from 'kysely';
import {
  appendDecided,
  draft,
  eventType,
  GLOBAL_KEYS,
  payloadOf,
  SERVICE_NAMES,
  type Bus,
  type RunningConsumer,
  type ServiceName,
  type StoredEvent,
} from '@hearth/bus';
import { commonEvents, typeName } from '@hearth/proto';
import { counter, histogram } from '@hearth/telemetry';
import type { Projection } from './projection.js';
import { startReactor, type Reactor } from './reactor.js';
import { runtimeDb, type AnyDb } from './runtime.js';

/** The erasure events every service understands (proto/hearth/common/v1/events.proto). */
export const ErasureEvents = {
  UserErased: eventType(typeName(commonEvents.UserErased), commonEvents.UserErased),
  ErasureApplied: eventType(typeName(commonEvents.ErasureApplied), commonEvents.ErasureApplied),
} as const;

export interface ErasureOptions {
  bus: Bus;
  db: AnyDb;
  service: ServiceName;
  /** Every projection of the service: each deletes the user's rows. */
  projections: readonly Projection[];
  /** What the service keeps outside its tables (a vector index); idempotent. */
  onUserErased?: (userId: string) => Promise<void>;
  /** The service's clock, for ErasureApplied. */
  now: () => Date;
  logger?: { info(obj: object, msg?: string): void };
}

export const ERASURE_REACTOR = 'erase-user';

const erasuresApplied = counter('hearth_erasures_applied_total', 'Erasures (UserErased) a service applied: rows deleted, ErasureApplied appended');
const erasureLag = histogram('hearth_erasure_apply_seconds', 'From the erasure request to a service having applied it', 's', { buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60] });

/** Event id of one service's ErasureApplied: a redelivered erasure appends nothing new. */
export function erasureAppliedId(erasureId: string, service: ServiceName): string {
  return `erasure-applied:${erasureId}:${service}`;
}

/**
 * Deletes what one service holds about a user, on UserErased: every
 * projection's rows, its quarantine records of the user's events, and what
 * `onUserErased` keeps elsewhere, then records the user as erased (so the
 * runner passes over their older events from now on) and appends
 * ErasureApplied on the service's own `_erasures` subject. Running it again
 * deletes nothing more and appends nothing new.
 */
export async function applyErasure(opts: ErasureOptions, event: StoredEvent): Promise<void> {
  const erased = payloadOf(event, ErasureEvents.UserErased);
  const userId = event.userId;
  const subjects = SERVICE_NAMES.map((s) => opts.bus.topology.subject(s, userId));
  await (opts.db as Kysely<unknown>).transaction().execute(async (trx) => {
    for (const p of opts.projections) await p.erase(trx, userId);
    const t = runtimeDb(trx as AnyDb);
    await t.deleteFrom('quarantined_events').where('subject', 'in', subjects).execute();
    await t
      .insertInto('erased_users')
      .values({ user_id: userId, key_generation: erased.keyGeneration, erasure_id: erased.erasureId, erased_at: event.occurredAt })
      .onConflict((oc) =>
        oc.column('user_id').doUpdateSet({ key_generation: erased.keyGeneration, erasure_id: erased.erasureId, erased_at: event.occurredAt }),
      )
      .execute();
  });
  await opts.onUserErased?.(userId);
  const appliedAt = opts.now();
  const results = await appendDecided(opts.bus, opts.service, GLOBAL_KEYS.erasures, () => [
    draft(
      ErasureEvents.ErasureApplied,
      { erasureId: erased.erasureId, userId, service: opts.service, keyGeneration: erased.keyGeneration, appliedAt },
      {
        id: erasureAppliedId(erased.erasureId, opts.service),
        userId,
        occurredAt: appliedAt,
        causationId: event.id,
        correlationId: event.correlationId || erased.erasureId,
        clear: true,
      },
    ),
  ]);
  if (results.some((r) => !r.duplicate)) {
    erasuresApplied.add(1, { service: opts.service });
    erasureLag.record(Math.max(0, (appliedAt.getTime() - event.occurredAt.getTime()) / 1000), { service: opts.service });
    opts.logger?.info({ user_id: userId, erasure_id: erased.erasureId, key_generation: erased.keyGeneration }, 'user erased');
  }
}

/** Runs {@link applyErasure} for one service on every UserErased (ingress's `_erasures` subject). */
export async function startErasures(opts: ErasureOptions): Promise<RunningConsumer[]> {
  const reactor: Reactor = {
    // Reserved: names the runner's positions and durables, so no projection or reactor of a service may take it.
    name: ERASURE_REACTOR,
    sources: ['ingress'],
    key: GLOBAL_KEYS.erasures,
    types: [ErasureEvents.UserErased.name],
    react: async (e) => {
      if (e.type === ErasureEvents.UserErased.name) await applyErasure(opts, e);
    },
  };
  return startReactor(opts.bus, opts.db, opts.service, reactor, { batchSize: 10 });
}
