import { loadConfig } from '@hearth/config';
import { serveQueries } from '@hearth/bus';
import { memory } from '@hearth/proto';
import type { ServiceDefinition } from '@hearth/host';
import { createChatClient, createEmbeddingClient, createLocalEmbedder, loadLlmConfig, type Embedder } from '@hearth/llm';
import { startProjection, startReactor } from '@hearth/store';
import type { Kysely } from 'kysely';
import { migration as m0001 } from '../migrations/2026_11_23_0001_memories.js';
import { migration as m0002 } from '../migrations/2026_11_26_0002_memory_occurred.js';
import { migration as m0003 } from '../migrations/2026_11_28_0003_memory_reliability.js';
import { createLlmExtractor, createOfflineExtractor } from './adapters/llm-extractor.js';
import { LOCAL_EMBEDDING, memoryEnvSchema, OFFLINE_EXTRACTOR } from './config.js';
import type { MemoryDb } from './db.js';
import { createClarifiedReactor } from './handlers/clarified.js';
import { createIndexSyncReactor } from './handlers/index-sync.js';
import { createWritebackReactor } from './handlers/writeback.js';
import { createLexicalIndex } from './lexical/index.js';
import { memoriesProjection } from './projections/memories.js';
import {
  createFindMemoriesQuery,
  createInvalidateMemoryQuery,
  createListMemoriesQuery,
  createSearchMemoriesQuery,
} from './queries/memories.js';
import { createEmbeddedIndex } from './vector/embedded.js';
import type { VectorIndex } from './vector/port.js';
import { createQdrantIndex } from './vector/qdrant.js';

/**
 * The memory service: extraction, dedup, corrections and retrieval (turn-pipeline
 * §12–§13); since issue 17 it projects the reliability states the uncertainty
 * service owns, ranks retrieval by them, and restores a clarified winner.
 */
export const service: ServiceDefinition = {
  name: 'memory',
  migrations: { '2026_11_23_0001_memories': m0001, '2026_11_26_0002_memory_occurred': m0002, '2026_11_28_0003_memory_reliability': m0003 },
  projections: [memoriesProjection],
  async create(ctx) {
    const db = ctx.db as Kysely<MemoryDb>;
    const env = loadConfig(memoryEnvSchema, ctx.environment);
    const llm = loadLlmConfig(ctx.environment);
    const chat = llm.chat ? createChatClient(llm.chat, { logger: ctx.logger }) : null;
    const extractor = chat ? createLlmExtractor(chat) : createOfflineExtractor();
    const embedder: Embedder = llm.embeddings
      ? createEmbeddingClient(llm.embeddings, { logger: ctx.logger })
      : createLocalEmbedder({ dimensions: LOCAL_EMBEDDING.dimensions, model: LOCAL_EMBEDDING.model });
    ctx.logger.info(
      {
        extractor: chat ? { provider: chat.provider, model: chat.model } : OFFLINE_EXTRACTOR,
        embeddings: { provider: embedder.provider, model: embedder.model },
      },
      chat ? 'gated memory extraction uses the configured LLM' : 'no LLM endpoint configured (LLM_BASE_URL): gated memory extraction uses the offline rules, embeddings the local hashing embedder',
    );
    let index: VectorIndex;
    if (env.QDRANT_URL) {
      // The collection's size is the embedder's: ask it once.
      const [probe] = await embedder.embed(['dimension probe']);
      index = createQdrantIndex({ url: env.QDRANT_URL, ...(env.QDRANT_API_KEY ? { apiKey: env.QDRANT_API_KEY } : {}), collection: env.QDRANT_COLLECTION, dimensions: probe!.length, logger: ctx.logger });
    } else {
      index = createEmbeddedIndex(db, { projection: memoriesProjection.name, subjectOf: (userId) => ctx.bus.topology.subject('memory', userId) });
    }
    ctx.logger.info({ vectorIndex: index.kind, ...(env.QDRANT_URL ? { url: env.QDRANT_URL, collection: env.QDRANT_COLLECTION } : {}) }, index.kind === 'qdrant' ? 'vectors live in Qdrant' : 'no QDRANT_URL: vectors live in the embedded index, rebuilt from the memory projection');
    // Words are searched in-process whatever holds the vectors: the projection is their source.
    const lexical = createLexicalIndex(db, { projection: memoriesProjection.name, subjectOf: (userId) => ctx.bus.topology.subject('memory', userId) });
    const queryDeps = { bus: ctx.bus, db, clock: ctx.clock, index, lexical, embedder, logger: ctx.logger };
    return {
      // The projection's erase deleted the rows; the vectors outside it go here.
      async onUserErased(userId) {
        await index.eraseUser(userId);
        await lexical.eraseUser(userId);
      },
      async start() {
        await index.start();
        await serveQueries(ctx.bus, memory.MemoryQueriesDefinition, {
          FindMemories: createFindMemoriesQuery(queryDeps),
          SearchMemories: createSearchMemoriesQuery(queryDeps),
          ListMemories: createListMemoriesQuery(queryDeps),
          InvalidateMemory: createInvalidateMemoryQuery(queryDeps),
        });
        return [
          ...(await startProjection(ctx.bus, db, 'memory', memoriesProjection)),
          ...(await startReactor(ctx.bus, db, 'memory', createWritebackReactor({ bus: ctx.bus, db, clock: ctx.clock, logger: ctx.logger, extractor, embedder }))),
          // Resolution feedback: a clarified winner memory had superseded is ACTIVE again.
          ...(await startReactor(ctx.bus, db, 'memory', createClarifiedReactor({ bus: ctx.bus, db, logger: ctx.logger, embedder }))),
          ...(index.kind === 'qdrant' ? await startReactor(ctx.bus, db, 'memory', createIndexSyncReactor(index)) : []),
        ];
      },
    };
  },
};

export {
  createWritebackReplay,
  decideWriteback,
  recordedExtraction,
  reWriteBack,
  writebackTurnOf,
  type RecordedWriteback,
  type ReplayedWriteback,
  type StoredMemory,
  type WritebackChange,
  type WritebackDecision,
  type WritebackReplay,
  type WritebackState,
  type WritebackTurn,
} from './handlers/audit.js';
