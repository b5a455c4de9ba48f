import {
  appendDecided,
  BusError,
  GLOBAL_KEYS,
  listDeadLetters,
  redriveDeadLetter,
  SERVICE_NAMES,
  type Bus,
  type DeadLetterEntry,
  type RedriveResult,
  type ServiceName,
  type StoredEvent,
} from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import type { Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { IngressDb } from '../db.js';
import { RETENTION_SOURCE } from '../projections/turns.js';
import type { KeyedQueue } from '../users/keyed-queue.js';
import { adminAccessedDraft, ADMIN_RESOURCES, type AdminReader } from './admin-access.js';
import { auditEventOf, belongsToTurn, buildTurnTrail, withoutForgottenValues, type AuditEvent, type TimelineEvent, type TurnTrail } from './audit.js';
import { beliefGraphView, type BeliefGraphView, type BeliefHolder } from './beliefs-view.js';
import type { ErasureTimelineEvent } from './erasure.js';
import { IngressError } from './errors.js';
import type { RetentionView } from './retention-view.js';
import type { ServiceReads } from './service-reads.js';
import { trustView, type TrustView } from './trust-view.js';
import { uncertaintiesView, type UncertaintiesView } from './uncertainties-view.js';

/** A dead letter as the admin API lists it (API.md). */
export interface DeadLetterView {
  event_id: string;
  type: string;
  user_id: string;
  service: string;
  consumer: string;
  error: string;
  deliveries: number;
  quarantined_at: string;
}

export interface AdminViewsDeps {
  bus: Bus;
  db: Kysely<IngressDb>;
  clock: Clock;
  logger: Logger;
  services: ServiceReads;
  /** The erasures of a user, for the timeline (erasure.ts). */
  erasureEvents: (userId: string) => Promise<ErasureTimelineEvent[]>;
  /** A user's appends from this process, one at a time (shared with their other commands). */
  userAppends: KeyedQueue;
}

/** How many users' access events a dead-letter listing appends at once. Not a spec number. */
const ACCESS_RECORD_CONCURRENCY = 16;

function deadLetterView(d: DeadLetterEntry): DeadLetterView {
  return {
    event_id: d.eventId,
    type: d.type,
    user_id: d.userId,
    service: d.service,
    consumer: d.consumer,
    error: d.error,
    deliveries: d.deliveries,
    quarantined_at: d.quarantinedAt.toISOString(),
  };
}

/**
 * What an admin reads about users (API.md admin): each read of a user's data
 * is first recorded in that user's access trail.
 */
export function createAdminViews(deps: AdminViewsDeps) {
  const { bus, db, clock, services } = deps;

  /**
   * Appends AdminAccessed to the user's ingress subject (the access trail). The
   * data is handed out only once the read is recorded: no trail, no answer.
   */
  async function recordAdminAccess(userId: string, reader: AdminReader, resource: string): Promise<void> {
    // One id for the retries of this read, so a retried publish is deduplicated.
    const id = randomUUID();
    const at = clock.now();
    try {
      await deps.userAppends.run(userId, () => appendDecided(bus, 'ingress', userId, () => [adminAccessedDraft(userId, reader, resource, id, at)]));
    } catch (err) {
      if (!(err instanceof BusError)) throw err;
      deps.logger.warn({ err, userId, route: reader.route }, 'AdminAccessed could not be appended');
      throw new IngressError(503, 'UNAVAILABLE', 'the access could not be recorded; retry shortly');
    }
  }

  /** Every event about a user across all streams, in order of occurrence, payloads as JSON (null once erased). */
  async function userEvents(userId: string): Promise<AuditEvent[]> {
    const events: (AuditEvent & { seq: number; order: number })[] = [];
    const push = (e: StoredEvent, service: ServiceName, order: number) => events.push({ ...auditEventOf(e, service), seq: e.seq, order });
    for (const [order, service] of SERVICE_NAMES.entries()) {
      for await (const e of bus.read(service, { key: userId })) push(e, service, order);
    }
    // The persona lives in the global assignment log (anti-cloning cap, §3.4.1).
    const persona = await db.selectFrom('personas').select('event_seq').where('user_id', '=', userId).executeTakeFirst();
    if (persona?.event_seq) {
      const seq = Number(persona.event_seq);
      for await (const e of bus.read('orchestrator', { key: GLOBAL_KEYS.personaAssignments, fromSeq: seq, toSeq: seq })) {
        if (e.userId === userId) push(e, 'orchestrator', SERVICE_NAMES.indexOf('orchestrator'));
      }
    }
    events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at) || a.order - b.order || a.seq - b.seq);
    return withoutForgottenValues(events.map(({ seq: _s, order: _o, ...e }) => e));
  }

  return {
    /**
     * Every event about a user across all streams, in order of occurrence, and
     * each quarantine of one of them (type `Quarantined`, at the time it happened).
     */
    async timeline(userId: string, reader: AdminReader): Promise<TimelineEvent[]> {
      const events: TimelineEvent[] = (await userEvents(userId)).map(({ causation_id: _c, correlation_id: _r, ...e }) => e);
      const quarantines = (await listDeadLetters(bus)).filter((d) => d.userId === userId);
      for (const d of quarantines) {
        events.push({
          type: 'Quarantined',
          event_id: d.eventId,
          occurred_at: d.quarantinedAt.toISOString(),
          service: d.service,
          payload: { event_type: d.type, consumer: d.consumer, error: d.error, deliveries: d.deliveries, redriven: d.redriven },
          erased: false,
        });
      }
      // Erasures, from the `_erasures` subjects: ids and times, which outlive the user's data.
      for (const e of await deps.erasureEvents(userId)) events.push({ ...e, erased: false });
      // Nothing about an id that was never a user: no trail to start for it.
      if (events.length > 0) await recordAdminAccess(userId, reader, ADMIN_RESOURCES.timeline);
      return events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
    },

    /**
     * The decision trail of one turn, from the events correlated with it. A
     * proactive message has no user message: its retention_id finds it, and so
     * does the id the history shows for it (its notification id).
     */
    async turnTrail(messageId: string, reader: AdminReader): Promise<TurnTrail> {
      const turn =
        (await db.selectFrom('turns').select(['message_id', 'user_id', 'conversation_id']).where('message_id', '=', messageId).executeTakeFirst()) ??
        (await db
          .selectFrom('turns')
          .select(['message_id', 'user_id', 'conversation_id'])
          .where('assistant_message_id', '=', messageId)
          .where('source', '=', RETENTION_SOURCE)
          .executeTakeFirst());
      if (!turn) throw new IngressError(404, 'TURN_NOT_FOUND', 'no turn with this message_id');
      const events = (await userEvents(turn.user_id)).filter((e) => belongsToTurn(e, turn.message_id));
      await recordAdminAccess(turn.user_id, reader, ADMIN_RESOURCES.turn(turn.message_id));
      return buildTurnTrail({ messageId: turn.message_id, userId: turn.user_id, conversationId: turn.conversation_id }, events);
    },

    /** Quarantined events not redriven since, oldest first (API.md admin); each user listed gets the read in their trail. */
    async deadLetters(reader: AdminReader): Promise<DeadLetterView[]> {
      const entries = (await listDeadLetters(bus)).filter((d) => !d.redriven);
      // Global aggregates (the persona log) have no user.
      const users = [...new Set(entries.map((d) => d.userId).filter((u) => u !== ''))];
      for (let i = 0; i < users.length; i += ACCESS_RECORD_CONCURRENCY) {
        await Promise.all(users.slice(i, i + ACCESS_RECORD_CONCURRENCY).map((u) => recordAdminAccess(u, reader, ADMIN_RESOURCES.deadLetters)));
      }
      return entries.map(deadLetterView);
    },

    /** Asks every consumer that quarantined the event to apply it now. */
    async redriveDeadLetter(eventId: string): Promise<{ event_id: string; results: RedriveResult[] }> {
      try {
        return { event_id: eventId, results: await redriveDeadLetter(bus, eventId) };
      } catch (err) {
        if (err instanceof BusError && err.code === 'DEAD_LETTER_NOT_FOUND') throw new IngressError(404, 'DEAD_LETTER_NOT_FOUND', err.message);
        throw err;
      }
    },

    /** GET /v1/admin/users/{id}/retention: the retention service's state of the user. */
    async retention(userId: string, reader: AdminReader): Promise<RetentionView> {
      const view = await services.retentionOf(userId);
      await recordAdminAccess(userId, reader, ADMIN_RESOURCES.retention);
      return view;
    },

    /**
     * GET /v1/admin/users/{id}/beliefs: the user's belief graph, one holder's
     * nodes or (holder undefined) both, as the belief-graph service answers it.
     */
    async beliefs(userId: string, holder: BeliefHolder | undefined, reader: AdminReader): Promise<BeliefGraphView> {
      const view = beliefGraphView(await services.beliefsOf(userId, holder));
      await recordAdminAccess(userId, reader, ADMIN_RESOURCES.beliefs);
      return view;
    },

    /** GET /v1/admin/users/{id}/uncertainties: the user's uncertainties and tolerance, as the uncertainty service answers them. */
    async uncertainties(userId: string, reader: AdminReader): Promise<UncertaintiesView> {
      const view = uncertaintiesView(await services.uncertaintiesOf(userId));
      await recordAdminAccess(userId, reader, ADMIN_RESOURCES.uncertainties);
      return view;
    },

    /** GET /v1/admin/users/{id}/trust: the companion's learned trust, outcomes and tags for the user, as the trust service answers them. */
    async trust(userId: string, reader: AdminReader): Promise<TrustView> {
      const view = trustView(await services.trustOf(userId));
      await recordAdminAccess(userId, reader, ADMIN_RESOURCES.trust);
      return view;
    },
  };
}
