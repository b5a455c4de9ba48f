import { queryRpc, type Bus } from '@hearth/bus';
import { belief, memory, orchestrator, retention, trust, uncertainty } from '@hearth/proto';

// The request/reply queries between services are declared once, as proto services
// (proto/hearth/<owner>/v1/queries.proto). Callers ask through the clients ts-proto
// generates from them; owners serve them with serveQueries (libs/bus). The names
// below are the rpc names, read from the generated definitions, for the few places
// that serve or ask one rpc by hand (a test's stand-in for another service).

/** Memory's queries. */
export const FIND_MEMORIES = memory.MemoryQueriesDefinition.methods.findMemories.name;
export const SEARCH_MEMORIES = memory.MemoryQueriesDefinition.methods.searchMemories.name;
export const LIST_MEMORIES = memory.MemoryQueriesDefinition.methods.listMemories.name;
export const INVALIDATE_MEMORY = memory.MemoryQueriesDefinition.methods.invalidateMemory.name;
/** The orchestrator's queries. */
export const GET_PERSONA = orchestrator.OrchestratorQueriesDefinition.methods.getPersona.name;
export const GET_RELATIONSHIP = orchestrator.OrchestratorQueriesDefinition.methods.getRelationship.name;
/** Retention's query. */
export const GET_RETENTION = retention.RetentionQueriesDefinition.methods.getRetention.name;
/** The belief graph's queries. */
export const GET_BELIEFS = belief.BeliefQueriesDefinition.methods.getBeliefs.name;
export const GET_BELIEF_CONTEXT = belief.BeliefQueriesDefinition.methods.getBeliefContext.name;
export const GET_COMPANION_BELIEFS = belief.BeliefQueriesDefinition.methods.getCompanionBeliefs.name;
/** Uncertainty's command (Context 1 + 3 for a turn) and queries. */
export const CHECK_MESSAGE = uncertainty.UncertaintyQueriesDefinition.methods.checkMessage.name;
export const CHECK_RELIABILITY = uncertainty.UncertaintyQueriesDefinition.methods.checkReliability.name;
export const GET_UNCERTAINTIES = uncertainty.UncertaintyQueriesDefinition.methods.getUncertainties.name;
/** Trust's query. */
export const GET_TRUST = trust.TrustQueriesDefinition.methods.getTrust.name;

/** A generated client of every service's queries. */
export interface QueryClients {
  memory: memory.MemoryQueries;
  orchestrator: orchestrator.OrchestratorQueries;
  retention: retention.RetentionQueries;
  belief: belief.BeliefQueries;
  uncertainty: uncertainty.UncertaintyQueries;
  trust: trust.TrustQueries;
}

/**
 * The generated clients over the bus, each answer within `timeoutMs` or a
 * `QueryError` (QUERY_UNANSWERED when no owner answered, QUERY_FAILED with the
 * owner's error). A caller with a tighter budget for one query builds its own
 * client: `new belief.BeliefQueriesClientImpl(queryRpc(bus, { timeoutMs: 300 }))`.
 */
export function queryClients(bus: Bus, timeoutMs = 5_000): QueryClients {
  const rpc = queryRpc(bus, { timeoutMs });
  return {
    memory: new memory.MemoryQueriesClientImpl(rpc),
    orchestrator: new orchestrator.OrchestratorQueriesClientImpl(rpc),
    retention: new retention.RetentionQueriesClientImpl(rpc),
    belief: new belief.BeliefQueriesClientImpl(rpc),
    uncertainty: new uncertainty.UncertaintyQueriesClientImpl(rpc),
    trust: new trust.TrustQueriesClientImpl(rpc),
  };
}
