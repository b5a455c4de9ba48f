import { serveQueries } from '@hearth/bus';
import { orchestrator } from '@hearth/proto';
import type { DependencyStatus, ServiceDefinition } from '@hearth/host';
import { startProjection, startReactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_22_0001_profiles_personas.js';
import { migration as m0002 } from '../migrations/2026_11_22_0002_persona_sampling.js';
import { migration as m0003 } from '../migrations/2026_11_22_0003_relationships_dialogue.js';
import { migration as m0004 } from '../migrations/2026_11_22_0004_profile_retention_controls.js';
import { migration as m0005 } from '../migrations/2026_11_27_0005_dialogue_challenge.js';
import { migration as m0006 } from '../migrations/2026_11_29_0006_dialogue_uncertainty.js';
import { createChatClient, loadLlmConfig } from '@hearth/llm';
import { observableGauge } from '@hearth/telemetry';
import { createBeliefClient } from './adapters/beliefs.js';
import { createLlmHealth } from './adapters/llm-health.js';
import { createMemoryClient } from './adapters/memory.js';
import { createUncertaintyClient } from './adapters/uncertainty.js';
import { BELIEFS, LLM_FAILOVER, OFFLINE_PROVIDER, RECIPE, UNCERTAINTY } from './config.js';
import type { OrchestratorDb } from './db.js';
import { createAssignPersonaReactor } from './handlers/assign-persona.js';
import { createRenderRetentionReactor } from './handlers/render-retention.js';
import { createRespondReactor } from './handlers/respond.js';
import { personasProjection } from './projections/personas.js';
import { turnsProjection } from './projections/turns.js';
import { profilesProjection } from './projections/profiles.js';
import { createGetPersonaQuery } from './queries/get-persona.js';
import { createGetRelationshipQuery } from './queries/get-relationship.js';

/** The orchestrator: personas and turn execution (turn-pipeline §3, §7–§11), proactive messages included (§14.3–§14.5). */
export const service: ServiceDefinition = {
  name: 'orchestrator',
  migrations: {
    '2026_11_22_0001_profiles_personas': m0001,
    '2026_11_22_0002_persona_sampling': m0002,
    '2026_11_22_0003_relationships_dialogue': m0003,
    '2026_11_22_0004_profile_retention_controls': m0004,
    '2026_11_27_0005_dialogue_challenge': m0005,
    '2026_11_29_0006_dialogue_uncertainty': m0006,
  },
  projections: [profilesProjection, personasProjection, turnsProjection],
  async create(ctx) {
    const db = ctx.db as Kysely<OrchestratorDb>;
    const llm = loadLlmConfig(ctx.environment);
    const chat = llm.chat ? createChatClient(llm.chat, { logger: ctx.logger }) : null;
    if (llm.chat) {
      ctx.logger.info({ llm: { provider: 'openai-compatible', baseUrl: llm.chat.baseUrl, model: llm.chat.model } }, 'replies come from the configured LLM endpoint');
    } else {
      ctx.logger.info({ llm: OFFLINE_PROVIDER }, 'no LLM endpoint configured (LLM_BASE_URL): replies come from the offline template responder');
    }
    const memory = createMemoryClient(ctx.bus, { timeoutMs: RECIPE.memoryQueryTimeoutMs, logger: ctx.logger });
    const beliefs = createBeliefClient(ctx.bus, { timeoutMs: BELIEFS.queryTimeoutMs, logger: ctx.logger });
    const uncertainty = createUncertaintyClient(ctx.bus, { timeoutMs: UNCERTAINTY.timeoutMs, reliabilityTimeoutMs: UNCERTAINTY.reliabilityTimeoutMs, logger: ctx.logger });
    // Wall time: an outage and its cool-down run on real time, not the virtual clock.
    const llmHealth = createLlmHealth({ ...LLM_FAILOVER, now: () => Date.now(), logger: ctx.logger });
    const upGauge = chat
      ? observableGauge('hearth_llm_provider_up', 'Whether the LLM provider answered the last call (1) or is failing (0); replies then come from the offline responder', (result) =>
          result.observe(llmHealth.up ? 1 : 0, { provider: chat.provider, model: chat.model }),
        )
      : null;
    const deps = { bus: ctx.bus, db, clock: ctx.clock, logger: ctx.logger, memory, beliefs, uncertainty, chat, llmHealth };
    return {
      // An LLM outage degrades replies to the offline responder; it never makes the service unready.
      dependencies: (): Record<string, DependencyStatus> => (chat ? { llm: llmHealth.status() } : {}),
      stop() {
        upGauge?.remove();
        return Promise.resolve();
      },
      async start() {
        // The bus drains this subscription when it closes.
        await serveQueries(ctx.bus, orchestrator.OrchestratorQueriesDefinition, {
          GetPersona: createGetPersonaQuery(db),
          GetRelationship: createGetRelationshipQuery(db, ctx.clock, ctx.bus),
        });
        return [
          ...(await startProjection(ctx.bus, db, 'orchestrator', profilesProjection)),
          ...(await startProjection(ctx.bus, db, 'orchestrator', personasProjection)),
          ...(await startProjection(ctx.bus, db, 'orchestrator', turnsProjection)),
          ...(await startReactor(ctx.bus, db, 'orchestrator', createAssignPersonaReactor(deps))),
          ...(await startReactor(ctx.bus, db, 'orchestrator', createRespondReactor(deps))),
          ...(await startReactor(ctx.bus, db, 'orchestrator', createRenderRetentionReactor(deps))),
        ];
      },
    };
  },
};

export { reRelate, type RelationshipChange } from './handlers/audit.js';
export {
  createTurnReplay,
  recordedReplyOf,
  reRespond,
  type RecordedPersona,
  type RecordedReply,
  type ReplayedTurn,
  type TurnChange,
  type TurnChanges,
  type TurnReplay,
  type TurnReplayContext,
} from './handlers/audit-turn.js';
