import { appendDecided, draft, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events } from '@hearth/events';
import type { Reactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import { OFFLINE_PROVIDER } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import type { StableStyle } from '../personas/assign.js';
import { seedFromId } from '../personas/assign.js';
import { FINISH_ONBOARDING_TEXT, onboardingIncompleteText, renderOfflineReply } from '../responder/offline.js';

/** The text of a user-state gate, or null when the turn gets a reply. */
function gateText(userState: string, activatesUser: boolean, missing: readonly string[]): string | null {
  if (userState === 'CREATED') return FINISH_ONBOARDING_TEXT;
  if (userState === 'ONBOARDING' && !activatesUser) return onboardingIncompleteText(missing);
  return null;
}

/**
 * TurnRouted → TurnCompleted, or ChatRefused for a user-state gate (a CREATED
 * user, §6.1.1; an ONBOARDING message that could not activate, §4.1.2). A
 * safety refusal is an ordinary reply that stays in the history. The reply and the
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
      const gate = gateText(routed.userState, routed.activatesUser, routed.missingOnboarding);
      if (gate !== null) {
        // §6.1.1 and §4.1.2 step 5: no friend reply, and the message stays out of
        // the visible history; the only refusals that do.
        await appendDecided(bus, 'orchestrator', event.userId, () => [
          draft(
            Events.ChatRefused,
            {
              messageId: routed.messageId,
              conversationId: routed.conversationId,
              routing,
              assistantMessageId,
              text: gate,
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
            llm: { ...OFFLINE_PROVIDER, seed, prompt: `${pipeline}: ${routed.text}`, output: text, purpose: 'reply', attempt: 1, messages: [], error: '', latencyMs: 0 },
            source: routed.source || 'chat',
            exchanges: [],
            plan: undefined,
            gates: [],
            outcome: 'draft',
            retrieval: undefined,
            emotion: undefined,
            openerNorm: '',
            relationshipStage: '',
          },
          { ...meta, id: deriveId('orchestrator', 'reply', event.id), occurredAt: clock.now() },
        ),
      ]);
    },
  };
}
