import { appendDecided, draft, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events } from '@hearth/events';
import type { Reactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import { OFFLINE_PROVIDER } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import type { StableStyle } from '../personas/assign.js';
import { seedFromId } from '../personas/assign.js';
import { FINISH_ONBOARDING_TEXT, renderOfflineReply } from '../responder/offline.js';

/**
 * TurnRouted → TurnCompleted (or ChatRefused for a CREATED user, §6.1.1; a
 * safety refusal is an ordinary reply that stays in the history). The reply and the
 * exchange that produced it are recorded in the event, so replay never asks
 * the responder again.
 */
export function createRespondReactor(deps: { bus: Bus; db: Kysely<OrchestratorDb>; clock: Clock }): Reactor {
  const { bus, db, clock } = deps;
  return {
    name: 'respond',
    sources: ['router'],
    async react(event: StoredEvent) {
      if (event.type !== Events.TurnRouted.name) return;
      const routed = payloadOf(event, Events.TurnRouted);
      const routing = routed.decision;
      const pipeline = routing?.pipeline ?? 'FRIEND_CHAT';
      const meta = {
        userId: event.userId,
        causationId: event.id,
        correlationId: event.correlationId || routed.messageId,
      };
      const assistantMessageId = deriveId('orchestrator', 'assistant', routed.messageId);
      if (routed.userState === 'CREATED') {
        // §6.1.1: the only refusal kept out of the visible history.
        await appendDecided(bus, 'orchestrator', event.userId, () => [
          draft(
            Events.ChatRefused,
            {
              messageId: routed.messageId,
              conversationId: routed.conversationId,
              routing,
              assistantMessageId,
              text: FINISH_ONBOARDING_TEXT,
              reason: routing?.notes ?? '',
            },
            { ...meta, id: deriveId('orchestrator', 'reply', event.id), occurredAt: clock.now() },
          ),
        ]);
        return;
      }
      const profile = await db.selectFrom('profiles').select(['preferred_name']).where('user_id', '=', event.userId).executeTakeFirst();
      const persona = await db.selectFrom('personas').select(['stable_style_params']).where('user_id', '=', event.userId).executeTakeFirst();
      const seed = seedFromId(routed.messageId);
      const text = renderOfflineReply({
        pipeline,
        userText: routed.text,
        preferredName: profile?.preferred_name ?? '',
        style: (persona?.stable_style_params as StableStyle | undefined) ?? null,
        seed,
        safetyPolicy: routing?.safetyPolicy,
        crisisSafe: routing?.crisisSafe,
      });
      await appendDecided(bus, 'orchestrator', event.userId, () => [
        draft(
          Events.TurnCompleted,
          {
            messageId: routed.messageId,
            conversationId: routed.conversationId,
            routing,
            assistantMessageId,
            assistantText: text,
            surfacedMemoryIds: [],
            llm: { ...OFFLINE_PROVIDER, seed, prompt: `${pipeline}: ${routed.text}`, output: text },
            source: routed.source || 'chat',
          },
          { ...meta, id: deriveId('orchestrator', 'reply', event.id), occurredAt: clock.now() },
        ),
      ]);
    },
  };
}
