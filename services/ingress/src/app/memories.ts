import { QueryError } from '@hearth/bus';
import type { QueryClients } from '@hearth/events';
import type { memory } from '@hearth/proto';
import type { Logger } from '@hearth/telemetry';
import { IngressError } from './errors.js';
import { memoryView, type MemoryView } from './memory-view.js';
import type { UserReads } from './user-reads.js';

export interface MemoriesDeps {
  users: UserReads;
  /** The memory service's queries. */
  memory: QueryClients['memory'];
  logger: Logger;
}

/** The caller's memories, as the memory service holds them (§12.4). */
export function createMemories(deps: MemoriesDeps) {
  const { users } = deps;

  /** A memory query that failed: the service is down or slow, so say retry. */
  function unavailable(err: unknown, userId: string, what: string): never {
    if (!(err instanceof QueryError)) throw err;
    deps.logger.warn({ err, userId }, `${what} failed`);
    throw new IngressError(503, 'UNAVAILABLE', 'memories are not available right now; retry shortly');
  }

  return {
    /** GET /v1/me/memories: ACTIVE, or with `all` every record and its superseded_by. */
    async memories(userId: string, all: boolean): Promise<{ memories: MemoryView[] }> {
      await users.existingUser(userId);
      try {
        return { memories: (await deps.memory.ListMemories({ userId, all })).memories.map((m) => memoryView(m, all)) };
      } catch (err) {
        return unavailable(err, userId, 'ListMemories');
      }
    },

    /** DELETE /v1/me/memories/{id}: "forget that" for one of the caller's own memories (§12.4). */
    async forgetMemory(userId: string, memoryId: string): Promise<MemoryView> {
      await users.existingUser(userId);
      let m: memory.MemoryRecord | null;
      try {
        const res = await deps.memory.InvalidateMemory({ userId, memoryId });
        m = res.found && res.memory ? res.memory : null;
      } catch (err) {
        return unavailable(err, userId, 'InvalidateMemory');
      }
      // Another user's memory is indistinguishable from none: nothing leaks.
      if (!m) throw new IngressError(404, 'MEMORY_NOT_FOUND', 'no such memory');
      return memoryView(m, true);
    },
  };
}
