import { QueryError, queryRpc, type Bus } from '@hearth/bus';
import { FIND_MEMORIES, SEARCH_MEMORIES } from '@hearth/events';
import { memory } from '@hearth/proto';
import type { Logger } from '@hearth/telemetry';

export interface MemoryLookup {
  status: 'ok' | 'unavailable';
  memories: memory.MemorySnippet[];
  error: string;
}

/** The memory service's queries as the recipe uses them (§7.1 steps 2–3). */
export interface MemoryPort {
  find(req: memory.FindMemoriesRequest): Promise<MemoryLookup>;
  search(req: memory.SearchMemoriesRequest): Promise<MemoryLookup>;
}

export { FIND_MEMORIES, SEARCH_MEMORIES };

/**
 * Asks the memory service over the bus. When it does not answer (not deployed
 * yet, or down) the turn goes on without memories and the event says so: a
 * reply without callbacks beats no reply.
 */
export function createMemoryClient(bus: Bus, opts: { timeoutMs: number; logger?: Logger }): MemoryPort {
  const memories = new memory.MemoryQueriesClientImpl(queryRpc(bus, { timeoutMs: opts.timeoutMs }));
  let warned = false;
  async function ask(name: string, answer: Promise<memory.MemoriesResponse>): Promise<MemoryLookup> {
    try {
      return { status: 'ok', memories: (await answer).memories, error: '' };
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      if (!warned) {
        warned = true;
        opts.logger?.warn({ query: name, err: err.message }, 'memory service did not answer: turns go on without memories');
      }
      return { status: 'unavailable', memories: [], error: err.message };
    }
  }
  return {
    find: (req) => ask(FIND_MEMORIES, memories.FindMemories(req)),
    search: (req) => ask(SEARCH_MEMORIES, memories.SearchMemories(req)),
  };
}
