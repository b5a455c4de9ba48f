/**
 * What one chat turn costs, read from the code (services/ingress, router,
 * orchestrator; libs/bus appendDecided; libs/store applyEvents and reactOnce),
 * for a user that is already ACTIVE and one event per consumer batch
 * (concurrency 1). Batches under load share BEGIN/COMMIT and checkpoint rows.
 * Written before memory, belief-graph, uncertainty, trust and retention
 * consumed the turn: the measured column (every service) is the one to trust;
 * the report lists the statements a turn sends by text.
 */
export const TURN_COST_FROM_CODE = {
  /** TurnReceived (ingress), TurnRouted (router), RelationshipUpdated and TurnCompleted (orchestrator, one decision). */
  appends: 4,
  /** appendDecided reads the subject's last event before each decision (the orchestrator's two events are one). */
  lastBySubject: 3,
  /**
   * Consumers that get each event (and ackAck it):
   * TurnReceived → ingress users + turns, orchestrator profiles, router route-turn,
   * orchestrator assign-persona (5); TurnRouted → orchestrator respond (1);
   * RelationshipUpdated and TurnCompleted → ingress turns, orchestrator turns (2 + 2).
   * The personas projections read only the global assignment log.
   */
  deliveries: 10,
  /**
   * applyEvents transactions (BEGIN, position FOR UPDATE, apply, position and
   * checkpoint upserts, COMMIT), written even when apply does nothing:
   * 3 for TurnReceived, 2 for RelationshipUpdated, 2 for TurnCompleted.
   */
  projectionTransactions: 7,
  /** reactOnce position UPDATEs, autocommit: route-turn, assign-persona, respond. */
  reactorPositionWrites: 3,
  /** projectionTransactions + reactorPositionWrites. */
  writeCommits: 10,
  /**
   * Every statement: the request 8 (two turn lookups, users position, snapshot 2,
   * users, reply check twice), projections 5+6+5, 5+5 and 6+5, reactors 2+2+7
   * (respond: its position, the turns projection's position, profile, persona,
   * relationship, the last 20 replies, its position write).
   */
  statements: 56,
} as const;

/**
 * The raw pieces on a turn's critical path, request to reply: 3 get-last and 4
 * appends; 19 plain round trips (6 reads before the append, router 1, respond 6,
 * the turns projection's 5 before its COMMIT, the reply read 1) and 1 commit.
 * Consumer hand-offs, HTTP, Nest and the memory query are not in it.
 */
export const CRITICAL_PATH = { lastBySubject: 3, appends: 4, roundTrips: 19, commits: 1 } as const;
