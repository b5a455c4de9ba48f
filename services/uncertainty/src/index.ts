import { serveQueries } from '@hearth/bus';
import { uncertainty } from '@hearth/proto';
import type { ServiceDefinition } from '@hearth/host';
import { createChatClient, loadLlmConfig } from '@hearth/llm';
import { startProjection, startReactor } from '@hearth/store';
import { createClassifierLlm } from './adapters/llm.js';
import { SERVICE } from './config.js';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_28_0001_uncertainty.js';
import type { UncertaintyDb } from './db.js';
import { createUncertaintyReactor } from './handlers/reactor.js';
import { uncertaintiesProjection } from './projections/uncertainties.js';
import { createCheckMessageCommand } from './queries/check-message.js';
import { createCheckReliabilityQuery } from './queries/check-reliability.js';
import { createGetUncertaintiesQuery } from './queries/get-uncertainties.js';

/**
 * The uncertainty service (uncertainty-engine.md): the reliability of what
 * Hearth knows about a user, contradictions noticed as a message arrives
 * (Context 1, asked by the orchestrator before the reply), in drift (Context 2),
 * before an action names a memory (Context 3) and when the belief graph finds
 * one (Context 4); their resolution, surfacing and the user's tolerance.
 */
export const service: ServiceDefinition = {
  name: 'uncertainty',
  migrations: { '2026_11_28_0001_uncertainty': m0001 },
  projections: [uncertaintiesProjection],
  async create(ctx) {
    const db = ctx.db as Kysely<UncertaintyDb>;
    const cfg = loadLlmConfig(ctx.environment);
    // The check is time-boxed (Context 1): the classifier gets the box as its timeout and no retries.
    const llm = cfg.chat ? createClassifierLlm(createChatClient({ ...cfg.chat, timeoutMs: Math.min(cfg.chat.timeoutMs, SERVICE.classifierTimeoutMs), maxRetries: 0 }, { logger: ctx.logger })) : null;
    const deps = { bus: ctx.bus, db, logger: ctx.logger, llm };
    ctx.logger.info(
      { classifier: llm ? { provider: llm.provider, model: llm.model } : 'rules' },
      llm ? 'contradictions are classified by the configured LLM, the offline rules deciding when it is late' : 'no LLM endpoint configured (LLM_BASE_URL): contradictions are classified by the offline rules (temporal and correction cues, singleton facts, stance flips)',
    );
    return {
      async start() {
        await serveQueries(ctx.bus, uncertainty.UncertaintyQueriesDefinition, {
          CheckMessage: createCheckMessageCommand(deps),
          CheckReliability: createCheckReliabilityQuery(db),
          GetUncertainties: createGetUncertaintiesQuery(db),
        });
        return [...(await startProjection(ctx.bus, db, 'uncertainty', uncertaintiesProjection)), ...(await startReactor(ctx.bus, db, 'uncertainty', createUncertaintyReactor(deps)))];
      },
    };
  },
};

export { uncertaintiesProjection } from './projections/uncertainties.js';
export { createUncertaintyReactor } from './handlers/reactor.js';
export { runCheck, decisionDrafts, checkedId } from './handlers/check.js';
