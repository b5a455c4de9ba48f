import {
  appendDecided,
  BusError,
  draft,
  GLOBAL_KEYS,
  listDeadLetters,
  QueryError,
  redriveDeadLetter,
  type Bus,
  type DeadLetterEntry,
  type EventDraft,
  type RedriveResult,
  type ServiceName,
  type StoredEvent,
  SERVICE_NAMES,
} from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { createBeliefQueries, createMemoryQueries, createRetentionQueries, deriveId, Events, getRelationship, getTrust, getUncertainties } from '@hearth/events';
import { waitForPosition } from '@hearth/store';
import type { belief, memory, trust, uncertainty } from '@hearth/proto';
import type { Logger } from '@hearth/telemetry';
import { randomUUID } from 'node:crypto';
import type { Kysely, Selectable } from 'kysely';
import { INGRESS } from '../config.js';
import type { IngressDb, TurnsTable } from '../db.js';
import { RETENTION_SOURCE } from '../projections/turns.js';
import { appOpensProjection } from '../projections/app-opens.js';
import { usersProjection } from '../projections/users.js';
import { appOpenEventId, appOpenView, type AppOpenCommand, type AppOpenView } from '../users/app-open.js';
import type { OnboardingAnswersValue } from '../users/answers.js';
import { applyControlsPatch, controlsToEvent, DEFAULT_CONTROLS, sameControls, type ControlsPatch, type ControlsValue } from '../users/controls.js';
import { KeyedQueue } from '../users/keyed-queue.js';
import { decideCreateUser, decideOnboarding, decideTurn, stateAfterTurn, type TurnCommand, type UserSnapshot, type UserState } from '../users/user.js';
import { adminAccessedDraft, ADMIN_RESOURCES, type AdminReader } from './admin-access.js';
import { beliefGraphView, exportBeliefsView, type BeliefGraphView, type BeliefHolder } from './beliefs-view.js';
import { auditEventOf, belongsToTurn, buildTurnTrail, withoutForgottenValues, type AuditEvent, type TimelineEvent, type TurnTrail } from './audit.js';
import { adminAccessPages, conversationPages, exportDocument } from './export.js';
import { jsonChunks } from './json-stream.js';
import { createErasures } from './erasure.js';
import { IngressError } from './errors.js';
import { historyMessages, type HistoryMessage } from './history.js';
import { memoryView, type MemoryView } from './memory-view.js';
import { relationshipView, type RelationshipView } from './relationship-view.js';
import { retentionView, type RetentionView } from './retention-view.js';
import { trustView, type TrustView } from './trust-view.js';
import { uncertaintiesView, type UncertaintiesView } from './uncertainties-view.js';
import type { FailedTurns, TurnFailure } from './failed-turns.js';
import type { TurnWaiters } from './waiters.js';

export interface Profile {
  user_id: string;
  user_state: UserState;
  answers: OnboardingAnswersValue | null;
  ai_friend_id: string | null;
  persona: { template_id: string; core_archetype: string; friend_energy: string; stable_style_params: unknown } | null;
}

export interface TurnReply {
  message_id: string;
  conversation_id: string;
  user_state: string;
  routing: Record<string, string>;
  assistant: { message_id: string; text: string; surfaced_memory_ids: string[] };
}

export interface IngressDeps {
  bus: Bus;
  db: Kysely<IngressDb>;
  clock: Clock;
  logger: Logger;
  waiters: TurnWaiters;
  /** Turns a quarantine stopped (see failed-turns.ts). */
  failedTurns: FailedTurns;
  turnTimeoutMs: number;
}

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

export type { MemoryView } from './memory-view.js';

/** The reply body of a completed turn: a pure function of its row, so a repeat is identical. */
export function replyOf(row: Selectable<TurnsTable>): TurnReply {
  return {
    message_id: row.message_id,
    conversation_id: row.conversation_id,
    user_state: stateAfterTurn((row.user_state ?? 'CREATED') as UserState, row.activates_user ?? false),
    routing: (row.routing ?? {}) as Record<string, string>,
    assistant: {
      message_id: row.assistant_message_id ?? '',
      text: row.assistant_text ?? '',
      surfaced_memory_ids: (row.surfaced_memory_ids ?? []) as string[],
    },
  };
}

/** The ingress use cases behind the HTTP API. */
export function createIngressApp(deps: IngressDeps) {
  const { bus, db, clock } = deps;
  const memories = createMemoryQueries(bus, INGRESS.queryTimeoutMs);
  const retentionQueries = createRetentionQueries(bus, INGRESS.queryTimeoutMs);
  const beliefQueries = createBeliefQueries(bus, INGRESS.queryTimeoutMs);
  // A user's appends from this process, one at a time: concurrent sends (a phone
  // flushing its offline queue) must not exhaust the append's conflict retries.
  const userAppends = new KeyedQueue();

  async function existingUser(userId: string) {
    const row = await db.selectFrom('users').select(['user_id', 'controls']).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user: create it with POST /v1/me');
    return row;
  }

  /** A memory query that failed: the service is down or slow, so say retry. */
  function memoryUnavailable(err: unknown, userId: string, what: string): never {
    if (!(err instanceof QueryError)) throw err;
    deps.logger.warn({ err, userId }, `${what} failed`);
    throw new IngressError(503, 'UNAVAILABLE', 'memories are not available right now; retry shortly');
  }

  async function snapshot(userId: string): Promise<UserSnapshot | null> {
    const row = await db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) return null;
    const persona = await db.selectFrom('personas').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    return {
      userId,
      state: row.user_state as UserState,
      answers: (row.answers ?? null) as OnboardingAnswersValue | null,
      aiFriendId: row.ai_friend_id,
      hasPersona: persona !== undefined,
    };
  }

  /** Reads the user as of the last event on its chain (read-your-writes). */
  async function snapshotAt(userId: string, last: StoredEvent | null): Promise<UserSnapshot | null> {
    if (last && !(await waitForPosition(db, usersProjection.name, last.subject, last.seq))) {
      throw new IngressError(503, 'UNAVAILABLE', 'user state is catching up; retry shortly');
    }
    return snapshot(userId);
  }

  async function afterAppend(userId: string, seq: number): Promise<void> {
    const subject = bus.topology.subject('ingress', userId);
    if (seq > 0) await waitForPosition(db, usersProjection.name, subject, seq);
  }

  async function profile(userId: string): Promise<Profile> {
    const row = await db.selectFrom('users').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user: create it with POST /v1/me');
    const persona = await db.selectFrom('personas').selectAll().where('user_id', '=', userId).executeTakeFirst();
    return {
      user_id: row.user_id,
      user_state: row.user_state as UserState,
      answers: (row.answers ?? null) as OnboardingAnswersValue | null,
      ai_friend_id: row.ai_friend_id,
      persona: persona
        ? {
            template_id: persona.template_id,
            core_archetype: persona.core_archetype,
            friend_energy: persona.friend_energy,
            stable_style_params: persona.stable_style_params,
          }
        : null,
    };
  }

  /**
   * Which life of the user this is: 1 until an erasure, then the data key
   * generation a new start (POST /v1/me) opens or opened. The same answer on
   * a retry before and after that key is created.
   */
  async function lifeOf(userId: string): Promise<number> {
    const s = await bus.keyring?.state(userId);
    if (!s) return 1;
    return s.erased ? s.generation + 1 : Math.max(1, s.generation);
  }

  function meta(userId: string, id: string, correlationId = id): Omit<EventDraft, 'type' | 'payload'> {
    return { id, userId, occurredAt: clock.now(), correlationId };
  }

  const erasures = createErasures({ bus, db, clock, logger: deps.logger });

  return {
    profile,
    // One at a time per user with the user's other commands (a repeated DELETE, a message in flight).
    eraseMe: (userId: string) => userAppends.run(userId, () => erasures.eraseMe(userId)),

    async createMe(userId: string): Promise<Profile> {
      const results = await appendDecided(bus, 'ingress', userId, async (last) => {
        const d = decideCreateUser(await snapshotAt(userId, last));
        if (d.kind !== 'append') return [];
        // After an erasure: a new, empty user, under the next data key generation.
        const id = perLife(await lifeOf(userId), 'ingress', 'user-created', userId);
        return [draft(Events.UserCreated, { userId }, { ...meta(userId, id), opensDataKey: true })];
      });
      await afterAppend(userId, results.at(-1)?.seq ?? 0);
      return profile(userId);
    },

    async answerOnboarding(userId: string, answers: OnboardingAnswersValue): Promise<Profile> {
      const results = await appendDecided(bus, 'ingress', userId, async (last) => {
        // A user started anew after an erasure gets a new friend, not the erased one's id.
        const d = decideOnboarding(await snapshotAt(userId, last), answers, perLife(await lifeOf(userId), 'ingress', 'ai-friend', userId));
        if (d.kind === 'reject') throw new IngressError(d.status, d.code, d.message);
        if (d.kind === 'noop') return [];
        const e = d.events[0]!;
        if (e.type !== 'OnboardingAnswered') return [];
        const value = {
          answers: {
            preferredName: answers.preferred_name,
            ageBand: answers.age_band,
            countryOrRegion: answers.country_or_region,
            occupationCategory: answers.occupation_category,
            clientTimezone: answers.client_timezone,
            proactiveMessagesEnabled: answers.proactive_messages_enabled,
            suppressedTopics: answers.suppressed_topics,
          },
          aiFriendId: e.aiFriendId,
        };
        return [draft(Events.OnboardingAnswered, value, meta(userId, deriveId('ingress', 'onboarding', userId, last?.seq ?? 0)))];
      });
      await afterAppend(userId, results.at(-1)?.seq ?? 0);
      // The persona is the orchestrator's answer to these events; show it when it is there.
      const deadline = performance.now() + INGRESS.personaWaitMs;
      let p = await profile(userId);
      while (!p.persona && performance.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        p = await profile(userId);
      }
      return p;
    },

    async postMessage(userId: string, cmd: TurnCommand): Promise<TurnReply> {
      const existing = await db.selectFrom('turns').selectAll().where('message_id', '=', cmd.messageId).executeTakeFirst();
      if (existing) return replyForExisting(userId, cmd, existing);
      await assertConversationOwner(userId, cmd.conversationId);
      // The turn's event id is its message_id, so a concurrent repeat is a Msg-Id no-op; a user
      // started anew after an erasure gets ids of their own, or a message_id the erased user
      // sent moments before would be dropped as a duplicate and never answered.
      const generation = (await bus.keyring?.generation(userId)) ?? 0;
      const eventId = generation > 1 ? deriveId('ingress', 'turn', userId, generation, cmd.messageId) : cmd.messageId;
      await userAppends.run(userId, () =>
        appendDecided(bus, 'ingress', userId, async (last) => {
          const user = await snapshotAt(userId, last);
          const d = decideTurn(user, cmd);
          if (d.kind === 'reject') throw new IngressError(d.status, d.code, d.message);
          if (d.kind === 'noop') return [];
          const t = d.events[0]!;
          const answers = user?.answers ?? null;
          return [
            draft(
              Events.TurnReceived,
              {
                messageId: cmd.messageId,
                conversationId: cmd.conversationId,
                text: cmd.text,
                source: 'chat',
                userState: t.userState,
                activatesUser: t.activatesUser,
                missingOnboarding: t.missingOnboarding,
                aiFriendId: user?.aiFriendId ?? '',
                clientTimezone: t.clientTimezone,
                clientLocale: cmd.clientLocale ?? '',
                ageBand: answers?.age_band ?? '',
              },
              meta(userId, eventId, cmd.messageId),
            ),
          ];
        }),
      );
      return awaitReply(userId, cmd, generation);
    },

    async history(userId: string, conversationId: string, limit: number, before?: string): Promise<HistoryMessage[]> {
      await assertConversationOwner(userId, conversationId);
      let q = db
        .selectFrom('turns')
        .selectAll()
        .where('conversation_id', '=', conversationId)
        .where('user_id', '=', userId)
        .where('refused', '=', false)
        .where('received_at', 'is not', null);
      if (before) {
        const cursor = await beforeCursor(userId, before);
        q = q.where('received_at', '<', cursor);
      }
      // Newest `limit` turns, shown oldest first.
      return historyMessages((await q.orderBy('received_at', 'desc').orderBy('message_id', 'desc').limit(limit).execute()).reverse());
    },

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
      for (const e of await erasures.erasureEvents(userId)) events.push({ ...e, erased: false });
      // Nothing about an id that was never a user: no trail to start for it.
      if (events.length > 0) await recordAdminAccess(userId, reader, ADMIN_RESOURCES.timeline);
      return events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at));
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

    /**
     * The caller's relationship as the orchestrator reads it now; the initial
     * STRANGER state before the first turn.
     */
    async relationship(userId: string): Promise<RelationshipView> {
      const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
      if (!user) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user: create it with POST /v1/me');
      try {
        return relationshipView(await getRelationship(bus, userId, INGRESS.queryTimeoutMs));
      } catch (err) {
        if (!(err instanceof QueryError)) throw err;
        deps.logger.warn({ err, userId }, 'GetRelationship failed');
        throw new IngressError(503, 'UNAVAILABLE', 'the relationship is not available right now; retry shortly');
      }
    },

    /** GET /v1/me/memories: ACTIVE, or with `all` every record and its superseded_by. */
    async memories(userId: string, all: boolean): Promise<{ memories: MemoryView[] }> {
      await existingUser(userId);
      try {
        return { memories: (await memories.list(userId, all)).map((m) => memoryView(m, all)) };
      } catch (err) {
        return memoryUnavailable(err, userId, 'ListMemories');
      }
    },

    /** DELETE /v1/me/memories/{id}: "forget that" for one of the caller's own memories (§12.4). */
    async forgetMemory(userId: string, memoryId: string): Promise<MemoryView> {
      await existingUser(userId);
      let m: memory.MemoryRecord | null;
      try {
        m = await memories.invalidate(userId, memoryId);
      } catch (err) {
        return memoryUnavailable(err, userId, 'InvalidateMemory');
      }
      // Another user's memory is indistinguishable from none: nothing leaks.
      if (!m) throw new IngressError(404, 'MEMORY_NOT_FOUND', 'no such memory');
      return memoryView(m, true);
    },

    /** GET /v1/me/controls (§2.7); the defaults before onboarding. */
    async controls(userId: string): Promise<ControlsValue> {
      const row = await existingUser(userId);
      return (row.controls as ControlsValue | null) ?? DEFAULT_CONTROLS;
    },

    /** PATCH /v1/me/controls: applies from the next turn; a no-op change appends nothing. */
    async patchControls(userId: string, patch: ControlsPatch): Promise<ControlsValue> {
      const results = await appendDecided(bus, 'ingress', userId, async (last) => {
        if (last && !(await waitForPosition(db, usersProjection.name, last.subject, last.seq))) {
          throw new IngressError(503, 'UNAVAILABLE', 'user state is catching up; retry shortly');
        }
        const row = await existingUser(userId);
        const current = row.controls as ControlsValue | null;
        if (!current) throw new IngressError(409, 'ONBOARDING_REQUIRED', 'controls exist once onboarding is answered (PUT /v1/me/onboarding)');
        const next = applyControlsPatch(current, patch);
        if (sameControls(current, next)) return [];
        const id = deriveId('ingress', 'controls', userId, last?.seq ?? 0);
        return [draft(Events.ControlsUpdated, controlsToEvent(next, 'api', ''), meta(userId, id))];
      });
      await afterAppend(userId, results.at(-1)?.seq ?? 0);
      return this.controls(userId);
    },

    /**
     * POST /v1/me/app-opens: an app open for retention attribution (turn-pipeline
     * §14.2). A notification id must be one of the caller's own proactive
     * messages, so retention never attributes an open to another user's message.
     */
    async openApp(userId: string, cmd: AppOpenCommand): Promise<AppOpenView> {
      const openedAt = clock.now();
      const eventId = appOpenEventId(userId, cmd.appOpenId);
      let earlier: AppOpenView | undefined;
      const results = await userAppends.run(userId, () =>
        appendDecided(bus, 'ingress', userId, async (last) => {
          if (
            last &&
            !((await waitForPosition(db, usersProjection.name, last.subject, last.seq)) &&
              (await waitForPosition(db, appOpensProjection.name, last.subject, last.seq)))
          ) {
            throw new IngressError(503, 'UNAVAILABLE', 'user state is catching up; retry shortly');
          }
          await existingUser(userId);
          // A retry of an open already recorded, however late: nothing more, the same answer.
          const row = await db.selectFrom('app_opens').selectAll().where('user_id', '=', userId).where('app_open_id', '=', cmd.appOpenId).executeTakeFirst();
          if (row) {
            earlier = appOpenView({ appOpenId: row.app_open_id, openedNotificationId: row.opened_notification_id }, row.opened_at);
            return [];
          }
          if (cmd.openedNotificationId) await assertOwnNotification(userId, cmd.openedNotificationId);
          // Msg-Id dedup on the event id records a repeat of this app open once (within the
          // stream's dedup window, or later while it is still the user's last ingress event).
          return [
            draft(
              Events.AppOpened,
              { appOpenId: cmd.appOpenId, openedNotificationId: cmd.openedNotificationId ?? '' },
              { id: eventId, userId, occurredAt: openedAt, correlationId: cmd.appOpenId },
            ),
          ];
        }),
      );
      if (earlier) return earlier;
      const appended = results[0];
      if (appended?.duplicate && appended.seq > 0) {
        // A repeat answers as the open it repeats did.
        for await (const e of bus.read('ingress', { key: userId, fromSeq: appended.seq, toSeq: appended.seq })) {
          if (e.id !== eventId || e.type !== Events.AppOpened.name) continue;
          const original = Events.AppOpened.decode(e.payload);
          return appOpenView({ appOpenId: original.appOpenId, openedNotificationId: original.openedNotificationId || null }, e.occurredAt);
        }
      }
      return appOpenView(cmd, openedAt);
    },

    /** GET /v1/admin/users/{id}/retention: the retention service's state of the user. */
    async retention(userId: string, reader: AdminReader): Promise<RetentionView> {
      const view = await retentionOf(userId);
      await recordAdminAccess(userId, reader, ADMIN_RESOURCES.retention);
      return view;
    },

    /**
     * GET /v1/admin/users/{id}/beliefs: the user's belief graph, one holder's
     * nodes or (holder undefined) both, as the belief-graph service answers it.
     */
    async beliefs(userId: string, holder: BeliefHolder | undefined, reader: AdminReader): Promise<BeliefGraphView> {
      const view = beliefGraphView(await beliefsOf(userId, holder));
      await recordAdminAccess(userId, reader, ADMIN_RESOURCES.beliefs);
      return view;
    },

    /** GET /v1/admin/users/{id}/uncertainties: the user's uncertainties and tolerance, as the uncertainty service answers them. */
    async uncertainties(userId: string, reader: AdminReader): Promise<UncertaintiesView> {
      const view = uncertaintiesView(await uncertaintiesOf(userId));
      await recordAdminAccess(userId, reader, ADMIN_RESOURCES.uncertainties);
      return view;
    },

    /** GET /v1/admin/users/{id}/trust: the companion's learned trust, outcomes and tags for the user, as the trust service answers them. */
    async trust(userId: string, reader: AdminReader): Promise<TrustView> {
      const view = trustView(await trustOf(userId));
      await recordAdminAccess(userId, reader, ADMIN_RESOURCES.trust);
      return view;
    },

    /**
     * GET /v1/me/export: everything held about the user, as JSON text written as it
     * is read. The small parts are read first, so a missing user (404) or a service
     * that is down (503) is an error answer; what fails after the first byte ends
     * the iteration with the error, and the edge closes the connection.
     */
    async exportData(userId: string): Promise<AsyncIterable<string>> {
      const exportedAt = clock.now();
      const user = await profile(userId);
      const [controls, relationship, memoryList, ownBeliefs, uncertainties, trustState, retention] = await Promise.all([
        this.controls(userId),
        this.relationship(userId),
        this.memories(userId, true),
        // The user's own beliefs only: the companion's are not the user's data (API.md).
        beliefsOf(userId, 'user'),
        uncertaintiesOf(userId),
        trustOf(userId),
        retentionOf(userId),
      ]);
      const doc = exportDocument(
        {
          exported_at: exportedAt.toISOString(),
          user,
          controls,
          relationship,
          memories: memoryList.memories,
          beliefs: exportBeliefsView(ownBeliefs),
          uncertainties: uncertaintiesView(uncertainties),
          trust: trustView(trustState),
          retention,
        },
        conversationPages(db, userId),
        adminAccessPages(bus, userId),
      );
      const logger = deps.logger;
      return (async function* () {
        try {
          yield* jsonChunks(doc);
        } catch (err) {
          logger.error({ err, userId }, 'export failed while streaming; the connection is closed');
          throw err;
        }
      })();
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
  };

  async function retentionOf(userId: string): Promise<RetentionView> {
    const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (!user) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user');
    try {
      return retentionView(userId, await retentionQueries.get(userId));
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      deps.logger.warn({ err, userId }, 'GetRetention failed');
      throw new IngressError(503, 'UNAVAILABLE', 'retention is not available right now; retry shortly');
    }
  }

  /** A known user's belief graph; 404 for an unknown user, 503 when the belief graph does not answer. */
  async function beliefsOf(userId: string, holder: BeliefHolder | undefined): Promise<belief.GetBeliefsResponse> {
    const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (!user) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user');
    try {
      // The query's "" asks for both holders.
      return await beliefQueries.get(userId, holder ?? '');
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      deps.logger.warn({ err, userId }, 'GetBeliefs failed');
      throw new IngressError(503, 'UNAVAILABLE', 'the belief graph is not available right now; retry shortly');
    }
  }

  /** A known user's uncertainties; 404 for an unknown user, 503 when the uncertainty service does not answer. */
  async function uncertaintiesOf(userId: string): Promise<uncertainty.GetUncertaintiesResponse> {
    const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (!user) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user');
    try {
      return await getUncertainties(bus, userId, INGRESS.queryTimeoutMs);
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      deps.logger.warn({ err, userId }, 'GetUncertainties failed');
      throw new IngressError(503, 'UNAVAILABLE', 'uncertainties are not available right now; retry shortly');
    }
  }

  /** A known user's trust state; 404 for an unknown user, 503 when the trust service does not answer. */
  async function trustOf(userId: string): Promise<trust.GetTrustResponse> {
    const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
    if (!user) throw new IngressError(404, 'USER_NOT_FOUND', 'no such user');
    try {
      return await getTrust(bus, userId, INGRESS.queryTimeoutMs);
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      deps.logger.warn({ err, userId }, 'GetTrust failed');
      throw new IngressError(503, 'UNAVAILABLE', 'trust is not available right now; retry shortly');
    }
  }

  /**
   * Appends AdminAccessed to the user's ingress subject (the access trail). The
   * data is handed out only once the read is recorded: no trail, no answer.
   */
  async function recordAdminAccess(userId: string, reader: AdminReader, resource: string): Promise<void> {
    // One id for the retries of this read, so a retried publish is deduplicated.
    const id = randomUUID();
    const at = clock.now();
    try {
      await userAppends.run(userId, () => appendDecided(bus, 'ingress', userId, () => [adminAccessedDraft(userId, reader, resource, id, at)]));
    } catch (err) {
      if (!(err instanceof BusError)) throw err;
      deps.logger.warn({ err, userId, route: reader.route }, 'AdminAccessed could not be appended');
      throw new IngressError(503, 'UNAVAILABLE', 'the access could not be recorded; retry shortly');
    }
  }

  /** Every event about a user across all streams, in order of occurrence, payloads as JSON (null once erased). */
  async function userEvents(userId: string): Promise<AuditEvent[]> {
    const events: (AuditEvent & { seq: number; order: number })[] = [];
    const push = (e: StoredEvent, service: ServiceName, order: number) =>
      events.push({ ...auditEventOf(e, service), seq: e.seq, order });
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

  async function assertConversationOwner(userId: string, conversationId: string): Promise<void> {
    // Only its owner ever writes to a conversation, so any one of its turns names the owner.
    const any = await db.selectFrom('turns').select('user_id').where('conversation_id', '=', conversationId).limit(1).executeTakeFirst();
    if (any && any.user_id !== userId) throw new IngressError(403, 'FORBIDDEN', 'this conversation belongs to another user');
  }

  /** A notification id the caller may name: the assistant message of one of their own proactive messages. */
  async function assertOwnNotification(userId: string, notificationId: string): Promise<void> {
    const turn = await db
      .selectFrom('turns')
      .select('message_id')
      .where('user_id', '=', userId)
      .where('source', '=', RETENTION_SOURCE)
      .where('assistant_message_id', '=', notificationId)
      .executeTakeFirst();
    // Another user's notification is indistinguishable from none: nothing leaks.
    if (!turn) throw new IngressError(404, 'NOTIFICATION_NOT_FOUND', 'no such notification');
  }

  async function beforeCursor(userId: string, before: string): Promise<Date> {
    if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(before)) {
      // The oldest message a client sees of a proactive message is the assistant's: its id pages too.
      const row = await db
        .selectFrom('turns')
        .select('received_at')
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('message_id', '=', before), eb.and([eb('assistant_message_id', '=', before), eb('source', '=', RETENTION_SOURCE)])]))
        .executeTakeFirst();
      if (!row?.received_at) throw new IngressError(422, 'INVALID_FIELDS', 'before: no such message in this conversation', { field: 'before' });
      return row.received_at;
    }
    const t = new Date(before);
    if (Number.isNaN(t.getTime())) throw new IngressError(422, 'INVALID_FIELDS', 'before must be a message_id or an ISO timestamp', { field: 'before' });
    return t;
  }

  function replyForExisting(userId: string, cmd: TurnCommand, row: Selectable<TurnsTable>): Promise<TurnReply> | TurnReply {
    // A proactive message's id (its retention_id) was never a user message.
    if (row.user_id !== userId || row.conversation_id !== cmd.conversationId || row.source === RETENTION_SOURCE || (row.text !== null && row.text !== cmd.text)) {
      throw new IngressError(409, 'MESSAGE_ID_CONFLICT', 'this message_id was already used for a different message');
    }
    if (row.completed_at && row.received_at) return replyOf(row);
    return awaitReply(userId, cmd);
  }

  /** `generation`: of the user's data key when the turn was appended, if this request appended it. */
  async function awaitReply(userId: string, cmd: TurnCommand, generation?: number): Promise<TurnReply> {
    const found = await deps.waiters.wait<{ row: Selectable<TurnsTable> } | { failure: TurnFailure } | { erased: true }>(cmd.messageId, deps.turnTimeoutMs, async () => {
      const r = await db.selectFrom('turns').selectAll().where('message_id', '=', cmd.messageId).executeTakeFirst();
      if (r?.completed_at && r.received_at) return { row: r };
      // A quarantined event of this turn: it will not complete by itself, so say so now.
      const failure = deps.failedTurns.failureOf(cmd.messageId);
      if (failure) return { failure };
      // Erased while the turn was in flight (and maybe started anew since): it will never be answered.
      const user = await db.selectFrom('users').select('user_id').where('user_id', '=', userId).executeTakeFirst();
      const startedAnew = generation !== undefined && bus.keyring !== undefined && (await bus.keyring.generation(userId)) !== generation;
      return user && !startedAnew ? undefined : { erased: true as const };
    });
    if (!found) {
      throw new IngressError(504, 'TURN_TIMEOUT', 'the reply is taking longer than usual; send the same message_id again to get it');
    }
    if ('erased' in found) throw new IngressError(404, 'USER_NOT_FOUND', 'this user was erased while the message was in flight; it will not be answered');
    if ('failure' in found) {
      throw new IngressError(422, 'TURN_FAILED', 'this message could not be processed; it was set aside for an operator. Your next message will work.', {
        event_id: found.failure.eventId,
        service: found.failure.service,
      });
    }
    const row = found.row;
    if (row.user_id !== userId || row.text !== cmd.text || row.conversation_id !== cmd.conversationId) {
      throw new IngressError(409, 'MESSAGE_ID_CONFLICT', 'this message_id was already used for a different message');
    }
    return replyOf(row);
  }
}

export type IngressApp = ReturnType<typeof createIngressApp>;

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

/** An id of something that exists once per life of a user: the first life keeps the ids it always had. */
function perLife(life: number, ...parts: string[]): string {
  return life > 1 ? deriveId(...parts, life) : deriveId(...parts);
}
