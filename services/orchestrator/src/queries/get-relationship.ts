import type { Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { orchestrator } from '@hearth/proto';
import { waitForPosition } from '@hearth/store';
import type { Kysely } from 'kysely';
import { STAGES, type Stage } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import { relationshipFromRow, relationshipToProto } from '../handlers/mapping.js';
import { turnsProjection } from '../projections/turns.js';
import { viewAt } from '../relationship/index.js';
import { userIdOfRequest } from './request.js';

/** How long a read waits for the user's latest events to reach the projection. */
const READ_YOUR_WRITES_MS = 2_000;

/** A GetRelationship request that cannot be answered: no valid user id. */
export class InvalidRelationshipRequestError extends Error {
  readonly code = 'GET_RELATIONSHIP_INVALID_REQUEST';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidRelationshipRequestError';
  }
}

/** A relationships row that no RelationshipState can come from (a broken invariant). */
export class CorruptRelationshipError extends Error {
  readonly code = 'RELATIONSHIP_CORRUPT';

  constructor(message: string) {
    super(message);
    this.name = 'CorruptRelationshipError';
  }
}

/**
 * GetRelationship, answered from the `relationships` projection as the state reads
 * now: the inactivity decay due at `clock.now()` is applied (turn-pipeline §11.4),
 * not stored. An
 * invalid request throws {@link InvalidRelationshipRequestError}, which the caller
 * gets as a `QueryError`. With `bus`, it first waits (briefly) until the
 * projection holds every event already on the user's subject.
 */
export function createGetRelationshipQuery(db: Kysely<OrchestratorDb>, clock: Clock, bus?: Bus): (request: orchestrator.GetRelationshipRequest) => Promise<orchestrator.GetRelationshipResponse> {
  return async (request) => {
    const userId = userIdOf(request);
    if (bus) {
      // Read your writes: a client that has its reply sees the relationship that
      // turn wrote (it is appended before the reply).
      const last = await bus.lastOnSubject('orchestrator', userId);
      if (last) await waitForPosition(db, turnsProjection.name, last.subject, last.seq, { timeoutMs: READ_YOUR_WRITES_MS });
    }
    const row = await db.selectFrom('relationships').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (row) stageOf(row.stage);
    const response: orchestrator.GetRelationshipResponse = row
      ? { found: true, state: relationshipToProto(viewAt(relationshipFromRow(row), clock.now())) }
      : { found: false, state: undefined };
    return response;
  };
}

function userIdOf(request: orchestrator.GetRelationshipRequest): string {
  return userIdOfRequest(request, (m) => new InvalidRelationshipRequestError(m));
}

function stageOf(stage: string): Stage {
  const known = STAGES.find((s) => s === stage);
  if (!known) throw new CorruptRelationshipError(`relationships row holds unknown stage ${JSON.stringify(stage.slice(0, 32))}`);
  return known;
}
