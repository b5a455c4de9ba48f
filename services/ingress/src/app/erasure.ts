import { appendDecided, draft, GLOBAL_KEYS, purgeDeadLetters, SERVICE_NAMES, type Bus, type ServiceName } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId } from '@hearth/events';
import { ErasureEvents, erasureAppliedId } from '@hearth/store';
import type { Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import type { IngressDb } from '../db.js';
import { IngressError } from './errors.js';

/** DELETE /v1/me's answer (API.md). */
export interface ErasureView {
  erasure_id: string;
  status: 'accepted' | 'completed';
}

/** An erasure event as the admin timeline shows it (ids and times only). */
export interface ErasureTimelineEvent {
  type: string;
  event_id: string;
  occurred_at: string;
  service: string;
  payload: { erasure_id: string; service?: string };
}

export interface ErasureDeps {
  bus: Bus;
  db: Kysely<IngressDb>;
  clock: Clock;
  logger: Logger;
}

/** The id of a user's erasure of one key generation: a repeated request finds the same one. */
export function erasureIdOf(userId: string, keyGeneration: number): string {
  return deriveId('ingress', 'erasure', userId, keyGeneration);
}

/**
 * Erasure by crypto-shredding (ARCHITECTURE.md "Personal data, export and
 * erasure"): destroy the user's data key, so every event about them in every
 * stream and dead letter becomes unreadable at once; append UserErased, on
 * which every service deletes the user's rows; and securely delete the user's
 * dead letters, whose recorded errors may quote them. Each step is idempotent,
 * so a retry after a crash finishes what was started.
 */
export function createErasures(deps: ErasureDeps) {
  const { bus, db, clock } = deps;

  async function view(erasureId: string): Promise<ErasureView> {
    const applied = await db.selectFrom('erasures_applied').select('service').where('erasure_id', '=', erasureId).execute();
    const done = new Set(applied.map((a) => a.service));
    return { erasure_id: erasureId, status: SERVICE_NAMES.every((s) => done.has(s)) ? 'completed' : 'accepted' };
  }

  return {
    /**
     * DELETE /v1/me. A user that exists is erased; one erased already gets its
     * latest erasure back; one never seen is 404.
     */
    async eraseMe(userId: string): Promise<ErasureView> {
      const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
      const state = bus.keyring ? await bus.keyring.state(userId) : null;
      if (!user && !state?.erased) {
        const prior = await db
          .selectFrom('erasures')
          .select('erasure_id')
          .where('user_id', '=', userId)
          .orderBy('requested_at', 'desc')
          .executeTakeFirst();
        if (prior) return view(prior.erasure_id);
        throw new IngressError(404, 'USER_NOT_FOUND', 'no such user: nothing to erase');
      }
      if (!bus.keyring) {
        // Without data keys the log cannot be made unreadable: promise nothing.
        throw new IngressError(503, 'ERASURE_UNAVAILABLE', 'erasure needs event encryption (EVENT_ENCRYPTION=on)');
      }
      const { generation, already } = await bus.keyring.destroy(userId);
      const erasureId = erasureIdOf(userId, generation);
      const at = clock.now();
      await appendDecided(bus, 'ingress', GLOBAL_KEYS.erasures, async () =>
        (await db.selectFrom('erasures').select('erasure_id').where('erasure_id', '=', erasureId).executeTakeFirst())
          ? []
          : [
              draft(ErasureEvents.UserErased, { erasureId, keyGeneration: generation, requestedAt: at }, {
                id: erasureId,
                userId,
                occurredAt: at,
                correlationId: erasureId,
                clear: true,
              }),
            ],
      );
      const purged = await purgeDeadLetters(bus, userId);
      if (!already) deps.logger.info({ user_id: userId, erasure_id: erasureId, key_generation: generation, dead_letters_deleted: purged }, 'erasure accepted: data key destroyed');
      return view(erasureId);
    },

    /** The erasure events of a user, for the admin timeline (ids and times only). */
    async erasureEvents(userId: string): Promise<ErasureTimelineEvent[]> {
      const rows = await db
        .selectFrom('erasures')
        .leftJoin('erasures_applied', 'erasures_applied.erasure_id', 'erasures.erasure_id')
        .select(['erasures.erasure_id', 'erasures.requested_at', 'erasures_applied.service', 'erasures_applied.applied_at'])
        .where('erasures.user_id', '=', userId)
        .execute();
      const out: ErasureTimelineEvent[] = [];
      const seen = new Set<string>();
      for (const r of rows) {
        if (!seen.has(r.erasure_id)) {
          seen.add(r.erasure_id);
          out.push({
            type: ErasureEvents.UserErased.name,
            event_id: r.erasure_id,
            occurred_at: r.requested_at.toISOString(),
            service: 'ingress',
            payload: { erasure_id: r.erasure_id },
          });
        }
        if (r.service && r.applied_at) {
          out.push({
            type: ErasureEvents.ErasureApplied.name,
            event_id: erasureAppliedId(r.erasure_id, r.service as ServiceName),
            occurred_at: r.applied_at.toISOString(),
            service: r.service,
            payload: { erasure_id: r.erasure_id, service: r.service },
          });
        }
      }
      return out;
    },
  };
}
