import { dockerAvailable, startNatsContainer, startPostgresContainer } from './containers.js';
import { env } from './env.js';
import { ServerUnavailableError } from './errors.js';
import { canConnect } from './ports.js';
import { memoPerProcess } from './process-guard.js';

const LOCAL_NATS_URL = 'nats://127.0.0.1:4222';
const LOCAL_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';

/**
 * The NATS server integration tests use: `NATS_URL` when set; else a
 * `nats:2.10-alpine` container (JetStream on) started once per Jest worker when a
 * Docker engine answers; else the local `nats://127.0.0.1:4222` if it accepts
 * connections. Throws {@link ServerUnavailableError} naming `NATS_URL` otherwise.
 */
export async function natsUrl(): Promise<string> {
  const fromEnv = env.natsUrl();
  if (fromEnv) return fromEnv;
  return memoPerProcess('natsUrl', () =>
    resolveServer({
      variable: 'NATS_URL',
      what: 'NATS (with JetStream)',
      startContainer: startNatsContainer,
      localUrl: LOCAL_NATS_URL,
      localPort: 4222,
    }),
  );
}

/**
 * The Postgres server integration tests use (a URL of its `postgres` database):
 * `DATABASE_URL` when set; else a `postgres:16-alpine` container (trust auth)
 * started once per Jest worker when a Docker engine answers; else the local
 * `postgres://postgres@127.0.0.1:5432/postgres` if it accepts connections.
 * Throws {@link ServerUnavailableError} naming `DATABASE_URL` otherwise.
 */
export async function databaseUrl(): Promise<string> {
  const fromEnv = env.databaseUrl();
  if (fromEnv) return fromEnv;
  return memoPerProcess('databaseUrl', () =>
    resolveServer({
      variable: 'DATABASE_URL',
      what: 'Postgres',
      startContainer: startPostgresContainer,
      localUrl: LOCAL_DATABASE_URL,
      localPort: 5432,
    }),
  );
}

async function resolveServer(o: {
  variable: string;
  what: string;
  startContainer: () => Promise<string>;
  localUrl: string;
  localPort: number;
}): Promise<string> {
  if (await dockerAvailable()) {
    try {
      return await o.startContainer();
    } catch (err) {
      throw new ServerUnavailableError(
        `could not start a ${o.what} container although Docker answers; set ${o.variable} to use a running server`,
        { cause: err },
      );
    }
  }
  if (await canConnect('127.0.0.1', o.localPort)) return o.localUrl;
  throw new ServerUnavailableError(
    `no ${o.what} server for the tests: set ${o.variable}, or make a Docker engine available, ` +
      `or run one on ${o.localUrl}`,
  );
}
