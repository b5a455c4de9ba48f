import { appendDecided, draft, payloadOf, TerminalError, type Bus, type StoredEvent } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import type { Reactor } from '@hearth/store';
import { turnRoutedOf } from '../routing/audit.js';
import { isUserState, routeTurn } from '../routing/route.js';

/** TurnReceived → TurnRouted, on the router's chain of the same user. */
export function createRouteTurnReactor(bus: Bus): Reactor {
  return {
    name: 'route-turn',
    sources: ['ingress'],
    types: [Events.TurnReceived.name],
    async react(event: StoredEvent) {
      if (event.type !== Events.TurnReceived.name) return;
      const turn = payloadOf(event, Events.TurnReceived);
      if (!isUserState(turn.userState)) throw new TerminalError(`turn ${turn.messageId} has user_state '${turn.userState}'`);
      const routed = routeTurn({
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
          turnRoutedOf(turn, routed),
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
