export { openDatabase, schemaDb, assertSchemaName, type Database, type DatabaseOptions } from './db.js';
export { migrateSchema, dropSchema, MIGRATION_TABLE, MIGRATION_LOCK_TABLE, type Migrations } from './migrate.js';
export {
  applyEvents,
  erasedGenerations,
  isErased,
  startProjection,
  checkpointOf,
  positionOf,
  waitForPosition,
  requirePosition,
  ProjectionBehindError,
  waitForCheckpoint,
  lockUser,
  pollUntil,
  GAP_RETRY_MS,
  type Projection,
  type ProjectionRunnerOptions,
  type AppliedListener,
} from './projection.js';
export { startReactor, reactOnce, type Reactor } from './reactor.js';
export { KnownPositions } from './known-positions.js';
export { startPoller, type PollerOptions } from './poller.js';
export { replayProjection, diffTable, type ReplayReport, type ReplayOptions, type TableDiff } from './replay.js';
export { recordQuarantine, markQuarantineRedriven, quarantinedEvents, type QuarantinedEvent } from './quarantine.js';
export { ErasureEvents, ERASURE_REACTOR, applyErasure, startErasures, erasureAppliedId, type ErasureOptions } from './erasure.js';
