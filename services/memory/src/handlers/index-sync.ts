import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { Reactor } from '@hearth/store';
import type { VectorIndex } from '../vector/port.js';

/**
 * Keeps an external vector index (Qdrant) in step with the memory events, per
 * user in order and at least once: a recorded memory's point (ACTIVE), the one
 * it supersedes (SUPERSEDED), invalidated ones (INVALID: deleted, their values
 * are gone). Every write is idempotent, so a redelivery changes nothing. An
 * erased user's events never get here (the reactor runner passes over them),
 * and the service's onUserErased deleted the user's points. Vectors come from the
 * events (never recomputed). The embedded index needs none of this, nor does
 * the lexical index (lexical/index.ts): both read the projection itself.
 */
export function createIndexSyncReactor(index: VectorIndex): Reactor {
  return {
    name: 'vector-index-sync',
    sources: ['memory'],
    types: [Events.MemoryRecorded.name, Events.MemoriesInvalidated.name],
    async react(e: StoredEvent) {
      if (e.type === Events.MemoryRecorded.name) {
        const p = payloadOf(e, Events.MemoryRecorded);
        if (p.embedding.length > 0) {
          await index.upsert([{ memoryId: p.memoryId, userId: e.userId, aiFriendId: p.aiFriendId, memoryKey: p.memoryKey, model: p.embeddingModel, vector: p.embedding }]);
        }
        if (p.supersedes) await index.setStatus([p.supersedes], 'SUPERSEDED');
      } else if (e.type === Events.MemoriesInvalidated.name) {
        await index.setStatus(payloadOf(e, Events.MemoriesInvalidated).memoryIds, 'INVALID');
      }
    },
  };
}
