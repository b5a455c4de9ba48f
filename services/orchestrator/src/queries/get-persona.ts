import { styleParamsFromJson } from '@hearth/events';
import { orchestrator } from '@hearth/proto';
import type { Kysely, Selectable } from 'kysely';
import type { OrchestratorDb, PersonasTable } from '../db.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { userIdOfRequest } from './request.js';

/** A GetPersona request that cannot be answered: no valid user id. */
export class InvalidPersonaRequestError extends Error {
  readonly code = 'GET_PERSONA_INVALID_REQUEST';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidPersonaRequestError';
  }
}

/**
 * GetPersona, answered from the `personas` projection (an
 * `OrchestratorQueries` rpc, served by serveQueries). An invalid request throws
 * {@link InvalidPersonaRequestError}, which the caller gets as a `QueryError`.
 */
export function createGetPersonaQuery(db: Kysely<OrchestratorDb>): (request: orchestrator.GetPersonaRequest) => Promise<orchestrator.GetPersonaResponse> {
  return async (request) => {
    const userId = userIdOf(request);
    const row = await db.selectFrom('personas').selectAll().where('user_id', '=', userId).executeTakeFirst();
    const response: orchestrator.GetPersonaResponse = row
      ? { found: true, persona: personaOf(row) }
      : { found: false, persona: undefined };
    return response;
  };
}

function userIdOf(request: orchestrator.GetPersonaRequest): string {
  return userIdOfRequest(request, (m) => new InvalidPersonaRequestError(m));
}

/** A personas row back as the PersonaAssigned it was projected from. */
function personaOf(row: Selectable<PersonasTable>): orchestrator.PersonaAssigned {
  return {
    aiFriendId: row.ai_friend_id,
    templateId: row.template_id,
    coreArchetype: row.core_archetype,
    friendEnergy: row.friend_energy,
    humorMode: row.humor_mode,
    stableStyleParams: styleParamsFromJson(row.stable_style_params),
    personaSeed: Number(row.persona_seed),
    mutatedCategories: row.mutated_categories,
    resamples: row.resamples,
    fallback: row.fallback,
    windowTotal: row.window_total,
    windowComboCount: row.window_combo_count,
    // The template's, as PersonaAssigned carried them: the library is the record of them.
    selfStatements: [...(PERSONA_LIBRARY.find((t) => t.template_id === row.template_id)?.self_statements ?? [])],
  };
}
