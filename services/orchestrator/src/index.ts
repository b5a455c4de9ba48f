import type { ServiceDefinition } from '@hearth/host';
import { startProjection, startReactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_22_0001_profiles_personas.js';
import { migration as m0002 } from '../migrations/2026_11_22_0002_persona_sampling.js';
import { OFFLINE_PROVIDER } from './config.js';
import type { OrchestratorDb } from './db.js';
import { createAssignPersonaReactor } from './handlers/assign-persona.js';
import { createRespondReactor } from './handlers/respond.js';
import { personasProjection } from './projections/personas.js';
import { profilesProjection } from './projections/profiles.js';
import { createGetPersonaQuery, GET_PERSONA } from './queries/get-persona.js';

/** The orchestrator: personas and turn execution (turn-pipeline §3, §7–§11). */
export const service: ServiceDefinition = {
  name: 'orchestrator',
  migrations: { '2026_11_22_0001_profiles_personas': m0001, '2026_11_22_0002_persona_sampling': m0002 },
  projections: [profilesProjection, personasProjection],
  async create(ctx) {
    const db = ctx.db as Kysely<OrchestratorDb>;
    const deps = { bus: ctx.bus, db, clock: ctx.clock, logger: ctx.logger };
    ctx.logger.info({ llm: OFFLINE_PROVIDER }, 'no LLM endpoint configured: replies come from the offline template responder');
    return {
      async start() {
        // The bus drains this subscription when it closes.
        ctx.bus.serveQuery('orchestrator', GET_PERSONA, createGetPersonaQuery(db));
        return [
          ...(await startProjection(ctx.bus, db, 'orchestrator', profilesProjection)),
          ...(await startProjection(ctx.bus, db, 'orchestrator', personasProjection)),
          ...(await startReactor(ctx.bus, db, 'orchestrator', createAssignPersonaReactor(deps))),
          ...(await startReactor(ctx.bus, db, 'orchestrator', createRespondReactor(deps))),
        ];
      },
    };
  },
};

/** The orchestrator's query client, for other services. */
export { getPersona } from './queries/client.js';
