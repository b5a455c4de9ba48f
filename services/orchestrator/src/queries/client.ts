import type { Bus } from '@hearth/bus';
import { orchestrator } from '@hearth/proto';
import { GET_PERSONA } from './get-persona.js';
import { GET_RELATIONSHIP } from './get-relationship.js';

/**
 * Asks the orchestrator for a user's companion persona. `found` is false while
 * none is assigned; a bad user id or an absent orchestrator gives a `QueryError`.
 */
export async function getPersona(bus: Bus, userId: string, timeoutMs?: number): Promise<orchestrator.GetPersonaResponse> {
  const request = orchestrator.GetPersonaRequest.encode({ userId }).finish();
  const reply = await bus.query('orchestrator', GET_PERSONA, request, timeoutMs);
  return orchestrator.GetPersonaResponse.decode(reply);
}

/**
 * Asks the orchestrator for a user's relationship with their companion, as it
 * reads now (inactivity decay applied). `found` is false before the first turn;
 * a bad user id or an absent orchestrator gives a `QueryError`.
 */
export async function getRelationship(bus: Bus, userId: string, timeoutMs?: number): Promise<orchestrator.GetRelationshipResponse> {
  const request = orchestrator.GetRelationshipRequest.encode({ userId }).finish();
  const reply = await bus.query('orchestrator', GET_RELATIONSHIP, request, timeoutMs);
  return orchestrator.GetRelationshipResponse.decode(reply);
}
