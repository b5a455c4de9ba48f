import { QueryError, queryRpc, type Bus } from '@hearth/bus';
import { GET_BELIEF_CONTEXT } from '@hearth/events';
import { belief } from '@hearth/proto';
import type { Logger } from '@hearth/telemetry';

export interface BeliefLookup {
  status: 'ok' | 'unavailable';
  /** The graph's answer; empty (no core beliefs, no challenge) when it did not answer. */
  context: belief.GetBeliefContextResponse;
  error: string;
}

/** The belief graph's query as a turn uses it before planning (issue 16; belief-challenge.md Integration). */
export interface BeliefPort {
  context(req: belief.GetBeliefContextRequest): Promise<BeliefLookup>;
}

export { GET_BELIEF_CONTEXT };

/** No core beliefs, no challenge: every field at its default. */
export function emptyBeliefContext(): belief.GetBeliefContextResponse {
  return belief.GetBeliefContextResponse.decode(new Uint8Array());
}

/**
 * Asks the belief-graph service over the bus, within `timeoutMs`. When it does
 * not answer (not deployed, down, or slower than the budget) the turn goes on
 * without core beliefs and without a challenge, and the event says so: a reply
 * without them beats a late reply, and a challenge is optional by design.
 */
export function createBeliefClient(bus: Bus, opts: { timeoutMs: number; logger?: Logger }): BeliefPort {
  const graph = new belief.BeliefQueriesClientImpl(queryRpc(bus, { timeoutMs: opts.timeoutMs }));
  let warned = false;
  return {
    async context(req) {
      try {
        return { status: 'ok', context: await graph.GetBeliefContext(req), error: '' };
      } catch (err) {
        if (!(err instanceof QueryError)) throw err;
        if (!warned) {
          warned = true;
          opts.logger?.warn({ query: GET_BELIEF_CONTEXT, err: err.message }, 'belief graph did not answer: turns go on without core beliefs or challenges');
        }
        return { status: 'unavailable', context: emptyBeliefContext(), error: err.message };
      }
    },
  };
}
