import { randomUUID } from 'node:crypto';
import { loadConfig } from '@hearth/config';
import { serveQueries } from '@hearth/bus';
import { trust } from '@hearth/proto';
import type { ServiceDefinition } from '@hearth/host';
import { createChatClient, createEmbeddingClient, createLocalEmbedder, loadLlmConfig, type Embedder } from '@hearth/llm';
import { startProjection, startReactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_30_0001_trust.js';
import { beliefGraph } from './adapters/beliefs.js';
import { createTagLlm } from './adapters/llm.js';
import { LOCAL_EMBEDDING, SERVICE, trustEnvSchema } from './config.js';
import type { TrustDb } from './db.js';
import { createTrustReactor } from './handlers/reactor.js';
import { trustProjection } from './projections/trust.js';
import { createGetTrustQuery } from './queries/get-trust.js';
import { startOutcomeScheduler } from './schedule/scheduler.js';

/**
 * The trust service (outcome-driven-trust.md): +keep / +doubt / +artifact tags
 * read from live turns, weighed by alignment, the companion's conviction, the
 * anchors and the learned trust of who said them; the gardener's decisions on
 * companion beliefs (belief-graph applies them), and the companion's belief
 * challenges (belief-challenge.md) as decisions of its own; delayed outcomes at
 * 2 h and 24 h on the clock, and T_user / T_agent learned from them, per user.
 */
export const service: ServiceDefinition = {
  name: 'trust',
  migrations: { '2026_11_30_0001_trust': m0001 },
  projections: [trustProjection],
  async create(ctx) {
    const db = ctx.db as Kysely<TrustDb>;
    const env = loadConfig(trustEnvSchema, ctx.environment);
    const cfg = loadLlmConfig(ctx.environment);
    // belief-graph's choice, so a tag's vector and a belief's are of one model.
    const embedder: Embedder = cfg.embeddings ? createEmbeddingClient(cfg.embeddings, { logger: ctx.logger }) : createLocalEmbedder(LOCAL_EMBEDDING);
    // The labeller is time-boxed: the box as its timeout, no retries.
    const llm = cfg.chat ? createTagLlm(createChatClient({ ...cfg.chat, timeoutMs: Math.min(cfg.chat.timeoutMs, SERVICE.llmTimeoutMs), maxRetries: 0 }, { logger: ctx.logger })) : null;
    // One belief-graph client for the reactor and the scheduler.
    const graph = beliefGraph(ctx.bus);
    // Names this process's leases on users (several replicas share the schedule).
    const replica = `${process.pid}-${randomUUID().slice(0, 8)}`;
    ctx.logger.info(
      { labeller: llm ? { provider: llm.provider, model: llm.model } : 'rules', embeddings: embedder.model, pollMs: env.TRUST_POLL_MS, replica },
      llm ? 'tags are labelled by the configured LLM, the lexicon rules deciding when it is late' : 'no LLM endpoint configured (LLM_BASE_URL): tags are found by the lexicon rules',
    );
    return {
      async start() {
        await serveQueries(ctx.bus, trust.TrustQueriesDefinition, { GetTrust: createGetTrustQuery(db) });
        const consumers = [
          ...(await startProjection(ctx.bus, db, 'trust', trustProjection)),
          ...(await startReactor(ctx.bus, db, 'trust', createTrustReactor({ bus: ctx.bus, db, beliefGraph: graph, embedder, logger: ctx.logger, llm }))),
        ];
        return [...consumers, startOutcomeScheduler({ bus: ctx.bus, db, clock: ctx.clock, beliefGraph: graph, logger: ctx.logger, pollMs: env.TRUST_POLL_MS, replica })];
      },
    };
  },
};

export { trustProjection } from './projections/trust.js';
export { createTrustReactor, type TrustReactorDeps } from './handlers/reactor.js';
export { evaluateDueOutcomes, startOutcomeScheduler, type PassReport } from './schedule/scheduler.js';
export { createGetTrustQuery } from './queries/get-trust.js';
export { decideTurn } from './feedback/turn.js';
export { decideOutcome } from './outcomes/outcome.js';
