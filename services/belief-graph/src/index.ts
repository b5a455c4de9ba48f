import { extractorVersion } from '@hearth/beliefs';
import { serveQueries } from '@hearth/bus';
import { belief } from '@hearth/proto';
import type { ServiceDefinition } from '@hearth/host';
import { createChatClient, createEmbeddingClient, createLocalEmbedder, loadLlmConfig, type Embedder } from '@hearth/llm';
import { startProjection, startReactor } from '@hearth/store';
import type { Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_27_0001_beliefs.js';
import { migration as m0002 } from '../migrations/2026_11_28_0002_belief_reliability.js';
import { migration as m0003 } from '../migrations/2026_11_30_0003_belief_gardener.js';
import { migration as m0004 } from '../migrations/2026_12_01_0004_conflicts_by_second_node.js';
import { createChatBeliefLlm } from './adapters/llm-chat.js';
import type { BeliefLlm } from './adapters/llm.js';
import { LOCAL_EMBEDDING } from './config.js';
import type { BeliefDb } from './db.js';
import { createBeliefReactor } from './handlers/reactor.js';
import { beliefsProjection } from './projections/beliefs.js';
import { createListBeliefUsersQuery, createMergeBeliefsCommand, createRollbackCommand } from './queries/admin.js';
import { createGetCompanionBeliefsQuery } from './queries/companion-beliefs.js';
import { createGetBeliefContextQuery } from './queries/get-context.js';
import { createGetBeliefsQuery } from './queries/get-beliefs.js';

export interface BeliefRuntime {
  embedder: Embedder;
  llm: BeliefLlm | null;
  extractorVersion: string;
}

/** The LLM, embedder and extractor version this process decomposes with (also the backfill's). */
export function beliefRuntime(environment: Record<string, string | undefined>, logger?: Logger): BeliefRuntime {
  const cfg = loadLlmConfig(environment);
  const chat = cfg.chat ? createChatClient(cfg.chat, logger ? { logger } : {}) : null;
  const embedder: Embedder = cfg.embeddings ? createEmbeddingClient(cfg.embeddings, logger ? { logger } : {}) : createLocalEmbedder(LOCAL_EMBEDDING);
  const llm = chat ? createChatBeliefLlm(chat) : null;
  return { embedder, llm, extractorVersion: extractorVersion({ models: [llm ? `${llm.provider}/${llm.model}` : 'rules', embedder.model] }) };
}

/**
 * The belief-graph service (self-belief-decomposer.md, belief-challenge.md):
 * the companion's and the user's self-beliefs as one graph per user, decomposed
 * from live turns; the context the orchestrator asks before planning (core
 * companion beliefs, one gentle challenge when safe); the admin view, merge and
 * extractor-version rollback; and the graph's side of outcome-driven trust
 * (issue 18): the gardener's decisions applied, outcomes kept per belief, the
 * companion's beliefs as the trust service reads them.
 */
export const service: ServiceDefinition = {
  name: 'belief-graph',
  migrations: { '2026_11_27_0001_beliefs': m0001, '2026_11_28_0002_belief_reliability': m0002, '2026_11_30_0003_belief_gardener': m0003, '2026_12_01_0004_conflicts_by_second_node': m0004 },
  projections: [beliefsProjection],
  async create(ctx) {
    const db = ctx.db as Kysely<BeliefDb>;
    const runtime = beliefRuntime(ctx.environment, ctx.logger);
    ctx.logger.info(
      { extractorVersion: runtime.extractorVersion, atomizer: runtime.llm ? { provider: runtime.llm.provider, model: runtime.llm.model } : 'rules', embeddings: runtime.embedder.model },
      runtime.llm ? 'beliefs are atomized by the configured LLM' : 'no LLM endpoint configured (LLM_BASE_URL): beliefs are atomized by the first-person rules',
    );
    const admin = { bus: ctx.bus, db, clock: ctx.clock, logger: ctx.logger };
    return {
      async start() {
        await serveQueries(ctx.bus, belief.BeliefQueriesDefinition, {
          GetBeliefs: createGetBeliefsQuery(db),
          GetBeliefContext: createGetBeliefContextQuery(db),
          MergeBeliefs: createMergeBeliefsCommand(admin),
          RollbackExtractorVersion: createRollbackCommand(admin),
          ListBeliefUsers: createListBeliefUsersQuery(db),
          GetCompanionBeliefs: createGetCompanionBeliefsQuery(db),
        });
        return [
          ...(await startProjection(ctx.bus, db, 'belief-graph', beliefsProjection)),
          ...(await startReactor(ctx.bus, db, 'belief-graph', createBeliefReactor({ bus: ctx.bus, db, logger: ctx.logger, ...runtime }))),
        ];
      },
    };
  },
};

export { beliefsProjection } from './projections/beliefs.js';
export { decideExtraction, extractedId, processed, type BeliefSource } from './handlers/extract.js';
export { sourcesOf } from './handlers/reactor.js';
export { createBeliefReactor } from './handlers/reactor.js';
export { backfill, type BackfillProgress, type BackfillResult } from './backfill.js';
