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

/**
 * What other services hold about a known user, through their generated query
 * clients: 404 for an unknown user, 503 when the service does not answer.
 * Shared by the caller's own views, the admin views and the export.
 */
export function createServiceReads(deps: ServiceReadsDeps) {
  const { users, queries } = deps;

  async function ask<T>(userId: string, query: string, what: string, call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (err) {
      if (!(err instanceof QueryError)) throw err;
      deps.logger.warn({ err, userId }, `${query} failed`);
      throw new IngressError(503, 'UNAVAILABLE', `${what} not available right now; retry shortly`);
    }
  }

  return {
    /**
     * GET /v1/me/relationship: the caller's relationship as the orchestrator
     * reads it now; the initial STRANGER state before the first turn.
     */
    async relationship(userId: string): Promise<RelationshipView> {
      await users.existingUser(userId);
      return relationshipView(await ask(userId, 'GetRelationship', 'the relationship is', () => queries.orchestrator.GetRelationship({ userId })));
    },

    async retentionOf(userId: string): Promise<RetentionView> {
      await users.assertKnownUser(userId);
      return retentionView(userId, await ask(userId, 'GetRetention', 'retention is', () => queries.retention.GetRetention({ userId })));
    },

    /** One holder's belief nodes, or (undefined) both. */
    async beliefsOf(userId: string, holder: BeliefHolder | undefined): Promise<belief.GetBeliefsResponse> {
      await users.assertKnownUser(userId);
      // The query's "" asks for both holders.
      return ask(userId, 'GetBeliefs', 'the belief graph is', () => queries.belief.GetBeliefs({ userId, holder: holder ?? '' }));
    },

    async uncertaintiesOf(userId: string): Promise<uncertainty.GetUncertaintiesResponse> {
      await users.assertKnownUser(userId);
      return ask(userId, 'GetUncertainties', 'uncertainties are', () => queries.uncertainty.GetUncertainties({ userId }));
    },

    async trustOf(userId: string): Promise<trust.GetTrustResponse> {
      await users.assertKnownUser(userId);
      return ask(userId, 'GetTrust', 'trust is', () => queries.trust.GetTrust({ userId }));
    },
  };
}
