import type { Bus } from '@hearth/bus';
import { memory } from '@hearth/proto';
import { INVALIDATE_MEMORY, LIST_MEMORIES } from './memories.js';

/** What ingress asks of memory for GET and DELETE /v1/me/memories. */
export interface MemoryQueries {
  list(userId: string, all: boolean): Promise<memory.MemoryRecord[]>;
  /** null when the memory is not the user's (or does not exist). */
  invalidate(userId: string, memoryId: string): Promise<memory.MemoryRecord | null>;
}

export function createMemoryQueries(bus: Bus, timeoutMs = 5_000): MemoryQueries {
  return {
    async list(userId, all) {
      const reply = await bus.query('memory', LIST_MEMORIES, memory.ListMemoriesRequest.encode({ userId, all }).finish(), timeoutMs);
      return memory.ListMemoriesResponse.decode(reply).memories;
    },
    async invalidate(userId, memoryId) {
      const reply = await bus.query('memory', INVALIDATE_MEMORY, memory.InvalidateMemoryRequest.encode({ userId, memoryId }).finish(), timeoutMs);
      const res = memory.InvalidateMemoryResponse.decode(reply);
      return res.found && res.memory ? res.memory : null;
    },
  };
}
