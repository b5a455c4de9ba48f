import { execFile } from 'node:child_process';
import { memoPerProcess } from './process-guard.js';

const DOCKER_INFO_TIMEOUT_MS = 3_000;

/** True when `docker info` answers within a few seconds (memoized per process). */
export function dockerAvailable(): Promise<boolean> {
  return memoPerProcess('docker', () => {
    return new Promise<boolean>((resolve) => {
      execFile('docker', ['info'], { timeout: DOCKER_INFO_TIMEOUT_MS }, (err) => resolve(!err));
    });
  });
}

// testcontainers is loaded only when a Docker engine answers: it is heavy, and
// the reaper it starts keeps the containers exactly as long as this process.

/** A `nats:2.10-alpine` container with JetStream; its client URL. */
export async function startNatsContainer(): Promise<string> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('nats:2.10-alpine')
    .withCommand(['-js'])
    .withExposedPorts(4222)
    .withWaitStrategy(Wait.forLogMessage(/Server is ready/))
    .start();
  return `nats://${container.getHost()}:${container.getMappedPort(4222)}`;
}

/** A `postgres:16-alpine` container with trust auth; its `postgres` database URL. */
export async function startPostgresContainer(): Promise<string> {
  const { GenericContainer, Wait } = await import('testcontainers');
  const container = await new GenericContainer('postgres:16-alpine')
    .withEnvironment({ POSTGRES_HOST_AUTH_METHOD: 'trust' })
    .withExposedPorts(5432)
    .withWaitStrategy(Wait.forLogMessage(/database system is ready to accept connections/, 2))
    .start();
  return `postgres://postgres@${container.getHost()}:${container.getMappedPort(5432)}/postgres`;
}
