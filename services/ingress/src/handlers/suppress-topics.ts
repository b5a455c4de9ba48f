import { appendDecided, draft, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import { requirePosition, type Reactor } from '@hearth/store';
import type { Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import type { IngressDb } from '../db.js';
import { usersProjection } from '../projections/users.js';
import { controlsToEvent, withSuppressedTopics, type ControlsValue } from '../users/controls.js';

/**
 * "Don't bring this topic up again" (turn-pipeline §12.4): memory reads the
 * command and names the topics; ingress owns the user's controls, so it is the
 * one that adds them to suppressed_topics, with a ControlsUpdated of its own
 * (one owner per fact). A topic already suppressed changes nothing.
 */
export function createSuppressTopicsReactor(deps: { bus: Bus; db: Kysely<IngressDb>; logger?: Logger }): Reactor {
  const { bus, db } = deps;
  return {
    name: 'suppress-topics',
    sources: ['memory'],
    types: [Events.TurnMemoryWritten.name],
    async react(e: StoredEvent) {
      if (e.type !== Events.TurnMemoryWritten.name) return;
      const written = payloadOf(e, Events.TurnMemoryWritten);
      if (written.suppressTopicIds.length === 0) return;
      const id = deriveId('ingress', 'controls-from', e.id);
      await appendDecided(bus, 'ingress', e.userId, async (last) => {
        if (last?.id === id) return [];
        await requirePosition(db, usersProjection.name, last);
        const row = await db.selectFrom('users').select('controls').where('user_id', '=', e.userId).executeTakeFirst();
        const current = (row?.controls ?? null) as ControlsValue | null;
        if (!current) return [];
        const next = withSuppressedTopics(current, written.suppressTopicIds);
        if (!next) return [];
        deps.logger?.info({ userId: e.userId, topics: written.suppressTopicIds, messageId: written.messageId }, 'topics suppressed at the user\'s request');
        return [draft(Events.ControlsUpdated, controlsToEvent(next, 'correction', written.messageId), { id, userId: e.userId, occurredAt: e.occurredAt, causationId: e.id, correlationId: e.correlationId })];
      });
    },
  };
}
