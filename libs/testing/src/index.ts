/**
 * The harness of Hearth's integration and e2e tests: unique namespaces, the
 * shared NATS and Postgres servers (environment, container or local), cleanup by
 * namespace, throwaway servers for fault tests, polling, and the projections'
 * erasure check.
 */
export { TestingError, WaitTimeoutError, ServerUnavailableError, ServerProcessError } from './errors.js';
export { testNamespace } from './namespace.js';
export { canConnect, freePort } from './ports.js';
export { waitFor, type WaitForOptions } from './wait.js';
export { natsUrl, databaseUrl } from './urls.js';
export {
  createTestDatabase,
  dropSchemas,
  type CreateTestDatabaseOptions,
  type TestDatabase,
} from './postgres.js';
export { cleanupNamespace } from './nats.js';
export {
  startNatsServer,
  type NatsServer,
  type StartNatsServerOptions,
  type StopNatsServerOptions,
} from './nats-server.js';
export {
  startPostgresServer,
  type PostgresServer,
  type StartPostgresServerOptions,
  type StopPostgresServerOptions,
} from './postgres-server.js';
export { storedEvent } from './events.js';
export { seededRandom } from './random.js';
export { openErasureHarness, type ErasureHarness, type StreamWriter, type TestSchema } from './erasure.js';
