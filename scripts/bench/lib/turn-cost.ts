/**
 * What one chat turn costs, read from the code (services/ingress, router,
 * orchestrator; libs/bus appendDecided; libs/store applyEvents and reactOnce),
 * for a user that is already ACTIVE and one event per consumer batch
 * (concurrency 1). Batches under load share BEGIN/COMMIT and checkpoint rows.
 */
export const TURN_COST_FROM_CODE = {
  /** TurnReceived (ingress), TurnRouted (router), TurnCompleted (orchestrator). */
  appends: 3,
  /** appendDecided reads the subject's last event before each append. */
  lastBySubject: 3,
  /**
   * Consumers that get each event (and ackAck it):
   * TurnReceived → ingress users + turns, orchestrator profiles, router route-turn,
   * orchestrator assign-persona (5); TurnRouted → orchestrator respond (1);
   * TurnCompleted → ingress personas + turns, orchestrator personas (3).
   */
  deliveries: 9,
  /**
   * applyEvents transactions (BEGIN, position FOR UPDATE, apply, position and
   * checkpoint upserts, COMMIT), written even when apply does nothing:
   * 3 for TurnReceived, 3 for TurnCompleted.
   */
  projectionTransactions: 6,
  /** reactOnce position UPDATEs, autocommit: route-turn, assign-persona, respond. */
  reactorPositionWrites: 3,
  /** projectionTransactions + reactorPositionWrites. */
  writeCommits: 9,
  /**
   * Every statement: the request 8 (two turn lookups, users position, snapshot 2,
   * users, reply check twice), projections 5+6+5 and 5+6+5, reactors 2+2+4.
   */
  statements: 48,
} as const;

/**
 * The raw pieces on a turn's critical path, request to reply: 3 × (get-last +
 * append); 16 plain round trips (6 reads before the append, router 1, respond 3,
 * the turns projection's 5 before its COMMIT, the reply read 1) and 1 commit.
 * Consumer hand-offs, HTTP and Nest are not in it.
 */
export const CRITICAL_PATH = { lastBySubject: 3, appends: 3, roundTrips: 16, commits: 1 } as const;
