import { queryRpc, type Bus } from '@hearth/bus';
import { belief } from '@hearth/proto';
import { SERVICE } from '../config.js';

/** The belief graph's queries as trust asks them (the generated client, trust's budget). */
export function beliefGraph(bus: Bus): belief.BeliefQueries {
  return new belief.BeliefQueriesClientImpl(queryRpc(bus, { timeoutMs: SERVICE.beliefsTimeoutMs }));
}
