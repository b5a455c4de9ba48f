import type { Bus } from '@hearth/bus';
import { orchestrator } from '@hearth/proto';
import { GET_PERSONA } from './get-persona.js';

/**
 * Asks the orchestrator for a user's companion persona. `found` is false while
 * none is assigned; a bad user id or an absent orchestrator gives a `QueryError`.
 */
export async function getPersona(bus: Bus, userId: string, timeoutMs?: number): Promise<orchestrator.GetPersonaResponse> {
  const request = orchestrator.GetPersonaRequest.encode({ userId }).finish();
  const reply = await bus.query('orchestrator', GET_PERSONA, request, timeoutMs);
  return orchestrator.GetPersonaResponse.decode(reply);
}
