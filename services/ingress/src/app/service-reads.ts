import { QueryError } from '@hearth/bus';
import type { QueryClients } from '@hearth/events';
import type { belief, trust, uncertainty } from '@hearth/proto';
import type { Logger } from '@hearth/telemetry';
import type { BeliefHolder } from './beliefs-view.js';
import { IngressError } from './errors.js';
import { relationshipView, type RelationshipView } from './relationship-view.js';
import { retentionView, type RetentionView } from './retention-view.js';
import type { UserReads } from './user-reads.js';

export interface ServiceReadsDeps {
  users: UserReads;
  queries: Pick<QueryClients, 'orchestrator' | 'retention' | 'belief' | 'uncertainty' | 'trust'>;
  logger: Logger;
}

export type ServiceReads = ReturnType<typeof createServiceReads>;

/** The reads of {@link ServiceReads} without the users-row check, for a caller that has just found the user. */
export type KnownUserServiceReads = ServiceReads['ofKnownUser'];

/**
 * Another service's query, answered or refused: a QueryError (the service is
 * down, slow or refuses) is logged and is a 503 saying "<what> not available
 * right now; retry shortly". Any other error passes through.
 */
export async function askQuery<T>(logger: Logger, userId: string, query: string, what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (!(err instanceof QueryError)) throw err;
    logger.warn({ err, userId }, `${query} failed`);
    throw new IngressError(503, 'UNAVAILABLE', `${what} not available right now; retry shortly`);
  }
}

/**
 * What other services hold about a known user, through their generated query
 * clients: 404 for an unknown user, 503 when the service does not answer.
 * Shared by the caller's own views, the admin views and the export.
 */
export function createServiceReads(deps: ServiceReadsDeps) {
  const { users, queries, logger } = deps;

  const ofKnownUser = {
    async relationship(userId: string): Promise<RelationshipView> {
      return relationshipView(await askQuery(logger, userId, 'GetRelationship', 'the relationship is', () => queries.orchestrator.GetRelationship({ userId })));
    },

    async retention(userId: string): Promise<RetentionView> {
      return retentionView(userId, await askQuery(logger, userId, 'GetRetention', 'retention is', () => queries.retention.GetRetention({ userId })));
    },

    /** One holder's belief nodes, or (undefined) both. */
    beliefs(userId: string, holder: BeliefHolder | undefined): Promise<belief.GetBeliefsResponse> {
      // The query's "" asks for both holders.
      return askQuery(logger, userId, 'GetBeliefs', 'the belief graph is', () => queries.belief.GetBeliefs({ userId, holder: holder ?? '' }));
    },

    uncertainties(userId: string): Promise<uncertainty.GetUncertaintiesResponse> {
      return askQuery(logger, userId, 'GetUncertainties', 'uncertainties are', () => queries.uncertainty.GetUncertainties({ userId }));
    },

    trust(userId: string): Promise<trust.GetTrustResponse> {
      return askQuery(logger, userId, 'GetTrust', 'trust is', () => queries.trust.GetTrust({ userId }));
    },
  };

  return {
    /**
     * GET /v1/me/relationship: the caller's relationship as the orchestrator
     * reads it now; the initial STRANGER state before the first turn.
     */
    async relationship(userId: string): Promise<RelationshipView> {
      await users.existingUser(userId);
      return ofKnownUser.relationship(userId);
    },

    async retentionOf(userId: string): Promise<RetentionView> {
      await users.assertKnownUser(userId);
      return ofKnownUser.retention(userId);
    },

    /** One holder's belief nodes, or (undefined) both. */
    async beliefsOf(userId: string, holder: BeliefHolder | undefined): Promise<belief.GetBeliefsResponse> {
      await users.assertKnownUser(userId);
      return ofKnownUser.beliefs(userId, holder);
    },

    async uncertaintiesOf(userId: string): Promise<uncertainty.GetUncertaintiesResponse> {
      await users.assertKnownUser(userId);
      return ofKnownUser.uncertainties(userId);
    },

    async trustOf(userId: string): Promise<trust.GetTrustResponse> {
      await users.assertKnownUser(userId);
      return ofKnownUser.trust(userId);
    },

    /** The same reads without the check that the user exists (no 404): for a caller that has just found the user. */
    ofKnownUser,
  };
}
