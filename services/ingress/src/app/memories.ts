import type { QueryClients } from '@hearth/events';
import type { memory } from '@hearth/proto';
import type { Logger } from '@hearth/telemetry';
import { IngressError } from './errors.js';
import { memoryView, type MemoryView } from './memory-view.js';
import { askQuery } from './service-reads.js';
import type { UserReads } from './user-reads.js';

export interface MemoriesDeps {
  users: UserReads;
  /** The memory service's queries. */
  memory: QueryClients['memory'];
  logger: Logger;
}

/** The caller's memories, as the memory service holds them (§12.4). */
export function createMemories(deps: MemoriesDeps) {
  const { users, logger } = deps;

  /** ACTIVE memories, or with `all` every record and its superseded_by; no check that the user exists. */
  async function memoriesOfKnownUser(userId: string, all: boolean): Promise<{ memories: MemoryView[] }> {
    const res = await askQuery(logger, userId, 'ListMemories', 'memories are', () => deps.memory.ListMemories({ userId, all }));
    return { memories: res.memories.map((m) => memoryView(m, all)) };
  }

  return {
    /** GET /v1/me/memories: ACTIVE, or with `all` every record and its superseded_by. */
    async memories(userId: string, all: boolean): Promise<{ memories: MemoryView[] }> {
      await users.existingUser(userId);
      return memoriesOfKnownUser(userId, all);
    },

    /** DELETE /v1/me/memories/{id}: "forget that" for one of the caller's own memories (§12.4). */
    async forgetMemory(userId: string, memoryId: string): Promise<MemoryView> {
      await users.existingUser(userId);
      const res = await askQuery(logger, userId, 'InvalidateMemory', 'memories are', () => deps.memory.InvalidateMemory({ userId, memoryId }));
      const m: memory.MemoryRecord | null = res.found && res.memory ? res.memory : null;
      // Another user's memory is indistinguishable from none: nothing leaks.
      if (!m) throw new IngressError(404, 'MEMORY_NOT_FOUND', 'no such memory');
      return memoryView(m, true);
    },

    /** The memories read without the users-row check: for a caller that has just found the user (the export). */
    memoriesOfKnownUser,
  };
}
