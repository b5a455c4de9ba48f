import type { Bus } from '@hearth/bus';
import { belief, memory, orchestrator, retention, trust, uncertainty } from '@hearth/proto';

// The request/reply queries between services: their names, served by the owning
// service, and the typed clients another service asks with. Shared here (like
// the event catalogue) so that no service imports another service's package.

/** Memory's queries. */
export const FIND_MEMORIES = 'FindMemories';
export const SEARCH_MEMORIES = 'SearchMemories';
export const LIST_MEMORIES = 'ListMemories';
export const INVALIDATE_MEMORY = 'InvalidateMemory';
/** The orchestrator's queries. */
export const GET_PERSONA = 'GetPersona';
export const GET_RELATIONSHIP = 'GetRelationship';
/** Retention's query. */
export const GET_RETENTION = 'GetRetention';
/** The belief graph's queries and admin commands. */
export const GET_BELIEFS = 'GetBeliefs';
export const GET_BELIEF_CONTEXT = 'GetBeliefContext';
export const MERGE_BELIEFS = 'MergeBeliefs';
export const ROLLBACK_EXTRACTOR_VERSION = 'RollbackExtractorVersion';
export const LIST_BELIEF_USERS = 'ListBeliefUsers';
export const GET_COMPANION_BELIEFS = 'GetCompanionBeliefs';
/** Uncertainty's command (Context 1 + 3 for a turn) and queries. */
export const CHECK_MESSAGE = 'CheckMessage';
export const CHECK_RELIABILITY = 'CheckReliability';
export const GET_UNCERTAINTIES = 'GetUncertainties';
/** Trust's query. */
export const GET_TRUST = 'GetTrust';

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

/**
 * Asks the orchestrator for a user's companion persona. `found` is false while
 * none is assigned; a bad user id or an absent orchestrator gives a `QueryError`.
 */
export async function getPersona(bus: Bus, userId: string, timeoutMs?: number): Promise<orchestrator.GetPersonaResponse> {
  const request = orchestrator.GetPersonaRequest.encode({ userId }).finish();
  const reply = await bus.query('orchestrator', GET_PERSONA, request, timeoutMs);
  return orchestrator.GetPersonaResponse.decode(reply);
}

/**
 * Asks the orchestrator for a user's relationship with their companion, as it
 * reads now (inactivity decay applied). `found` is false before the first turn;
 * a bad user id or an absent orchestrator gives a `QueryError`.
 */
export async function getRelationship(bus: Bus, userId: string, timeoutMs?: number): Promise<orchestrator.GetRelationshipResponse> {
  const request = orchestrator.GetRelationshipRequest.encode({ userId }).finish();
  const reply = await bus.query('orchestrator', GET_RELATIONSHIP, request, timeoutMs);
  return orchestrator.GetRelationshipResponse.decode(reply);
}

/** What ingress asks of retention for GET /v1/admin/users/{user_id}/retention. */
export interface RetentionQueries {
  get(userId: string): Promise<retention.GetRetentionResponse>;
}

export function createRetentionQueries(bus: Bus, timeoutMs = 5_000): RetentionQueries {
  return {
    async get(userId) {
      const reply = await bus.query('retention', GET_RETENTION, retention.GetRetentionRequest.encode({ userId }).finish(), timeoutMs);
      return retention.GetRetentionResponse.decode(reply);
    },
  };
}

/** What ingress and the admin scripts ask of the belief graph. */
export interface BeliefQueries {
  /** holder: user | companion | '' (both). */
  get(userId: string, holder: string): Promise<belief.GetBeliefsResponse>;
  merge(userId: string, linkId: string, reason: string): Promise<belief.MergeBeliefsResponse>;
  rollback(userId: string, extractorVersion: string, reason: string): Promise<belief.RollbackExtractorVersionResponse>;
  usersOf(extractorVersion: string): Promise<string[]>;
}

export function createBeliefQueries(bus: Bus, timeoutMs = 5_000): BeliefQueries {
  return {
    async get(userId, holder) {
      const reply = await bus.query('belief-graph', GET_BELIEFS, belief.GetBeliefsRequest.encode({ userId, holder }).finish(), timeoutMs);
      return belief.GetBeliefsResponse.decode(reply);
    },
    async merge(userId, linkId, reason) {
      const reply = await bus.query('belief-graph', MERGE_BELIEFS, belief.MergeBeliefsRequest.encode({ userId, linkId, reason }).finish(), timeoutMs);
      return belief.MergeBeliefsResponse.decode(reply);
    },
    async rollback(userId, extractorVersion, reason) {
      const request = belief.RollbackExtractorVersionRequest.encode({ userId, extractorVersion, reason }).finish();
      const reply = await bus.query('belief-graph', ROLLBACK_EXTRACTOR_VERSION, request, timeoutMs);
      return belief.RollbackExtractorVersionResponse.decode(reply);
    },
    async usersOf(extractorVersion) {
      const reply = await bus.query('belief-graph', LIST_BELIEF_USERS, belief.ListBeliefUsersRequest.encode({ extractorVersion }).finish(), timeoutMs);
      return belief.ListBeliefUsersResponse.decode(reply).userIds;
    },
  };
}

/**
 * What the orchestrator asks the belief graph before planning a turn: the
 * companion's core beliefs and, when the lock and the evaluator allow, one
 * challenge. A bad request or an absent service gives a `QueryError`.
 */
export async function getBeliefContext(bus: Bus, request: belief.GetBeliefContextRequest, timeoutMs?: number): Promise<belief.GetBeliefContextResponse> {
  const reply = await bus.query('belief-graph', GET_BELIEF_CONTEXT, belief.GetBeliefContextRequest.encode(request).finish(), timeoutMs);
  return belief.GetBeliefContextResponse.decode(reply);
}

/**
 * Asks uncertainty to check a chat message before the reply (uncertainty-engine.md
 * Context 1, time-boxed by `timeoutMs`) and the memories the reply may surface
 * (Context 3). The check is appended as MessageChecked when it matched anything.
 */
export async function checkMessage(bus: Bus, request: uncertainty.CheckMessageRequest, timeoutMs?: number): Promise<uncertainty.CheckMessageResponse> {
  const reply = await bus.query('uncertainty', CHECK_MESSAGE, uncertainty.CheckMessageRequest.encode(request).finish(), timeoutMs);
  return uncertainty.CheckMessageResponse.decode(reply);
}

/** Context 3 for a caller about to name memories (a retention nudge): each one's reliability. */
export async function checkReliability(bus: Bus, request: uncertainty.CheckReliabilityRequest, timeoutMs?: number): Promise<uncertainty.CheckReliabilityResponse> {
  const reply = await bus.query('uncertainty', CHECK_RELIABILITY, uncertainty.CheckReliabilityRequest.encode(request).finish(), timeoutMs);
  return uncertainty.CheckReliabilityResponse.decode(reply);
}

/** What ingress asks of uncertainty for GET /v1/admin/users/{user_id}/uncertainties and the export. */
export async function getUncertainties(bus: Bus, userId: string, timeoutMs = 5_000): Promise<uncertainty.GetUncertaintiesResponse> {
  const reply = await bus.query('uncertainty', GET_UNCERTAINTIES, uncertainty.GetUncertaintiesRequest.encode({ userId }).finish(), timeoutMs);
  return uncertainty.GetUncertaintiesResponse.decode(reply);
}

/** What trust asks of the belief graph: the companion's beliefs with their embeddings, activation, level and open conflicts. */
export async function getCompanionBeliefs(bus: Bus, request: belief.GetCompanionBeliefsRequest, timeoutMs = 5_000): Promise<belief.GetCompanionBeliefsResponse> {
  const reply = await bus.query('belief-graph', GET_COMPANION_BELIEFS, belief.GetCompanionBeliefsRequest.encode(request).finish(), timeoutMs);
  return belief.GetCompanionBeliefsResponse.decode(reply);
}

/** What ingress asks of trust for GET /v1/admin/users/{user_id}/trust and the export. */
export async function getTrust(bus: Bus, userId: string, timeoutMs = 5_000): Promise<trust.GetTrustResponse> {
  const reply = await bus.query('trust', GET_TRUST, trust.GetTrustRequest.encode({ userId }).finish(), timeoutMs);
  return trust.GetTrustResponse.decode(reply);
}
