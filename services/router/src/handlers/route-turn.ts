import { appendDecided, draft, payloadOf, TerminalError, type Bus, type StoredEvent } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import type { Reactor } from '@hearth/store';
import { isUserState, routeTurn } from '../routing/route.js';

/** TurnReceived → TurnRouted, on the router's chain of the same user. */
export function createRouteTurnReactor(bus: Bus): Reactor {
  return {
    name: 'route-turn',
    sources: ['ingress'],
    async react(event: StoredEvent) {
      if (event.type !== Events.TurnReceived.name) return;
      const turn = payloadOf(event, Events.TurnReceived);
      if (!isUserState(turn.userState)) throw new TerminalError(`turn ${turn.messageId} has user_state '${turn.userState}'`);
      const { decision, flags, preprocessed: pre } = routeTurn({
        userState: turn.userState,
        text: turn.text,
        source: turn.source === 'retention' ? 'retention' : 'chat',
        ageBand: turn.ageBand,
        activatesUser: turn.activatesUser,
        missingOnboarding: turn.missingOnboarding,
      });
      await appendDecided(bus, 'router', event.userId, () => [
        draft(
          Events.TurnRouted,
          {
            messageId: turn.messageId,
            conversationId: turn.conversationId,
            decision: {
              pipeline: decision.pipeline,
              safetyPolicy: decision.safety_policy,
              memoryReadPolicy: decision.memory_read_policy,
              vectorSearchPolicy: decision.vector_search_policy,
              memoryWritePolicy: decision.memory_write_policy,
              relationshipUpdatePolicy: decision.relationship_update_policy,
              retentionPolicy: '',
              retrievalQueryText: decision.retrieval_query_text,
              notes: decision.notes,
              safetyReason: decision.safety_reason,
              crisisSafe: decision.crisis_safe,
            },
            flags,
            topicMatches: pre.topicMatches.map((t) => ({ topicId: t.topicId, confidence: t.confidence, keywords: t.keywords })),
            userState: turn.userState,
            text: turn.text,
            aiFriendId: turn.aiFriendId,
            source: turn.source,
            userTextNorm: pre.userTextNorm,
            normNoPunct: pre.normNoPunct,
            tokenEstimate: pre.tokenEstimate,
            heuristicFlags: Object.entries(pre.heuristicFlags)
              .filter(([, on]) => on)
              .map(([name]) => name),
            ageBand: turn.ageBand,
            activatesUser: turn.activatesUser,
            missingOnboarding: turn.missingOnboarding,
          },
          {
            id: deriveId('router', event.id, 0),
            userId: event.userId,
            occurredAt: event.occurredAt,
            causationId: event.id,
            correlationId: event.correlationId || turn.messageId,
          },
        ),
      ]);
    },
  };
}
