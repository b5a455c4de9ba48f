// One scenario's world: a throwaway nats-server and postgres of its own (so they
// can be killed), and Hearth as a child process (scripts/start) that can be
// SIGKILLed and started again under the same namespace. A watchdog notices when
// Hearth exits without being told to, records it, and starts it again as a
// supervisor would, so the scenario can still count what was lost.
import { canConnect, startNatsServer, startPostgresServer, testNamespace, waitFor, type NatsServer, type PostgresServer } from '@hearth/testing';
import { startHearthChild, type HearthChild } from '../../eval/lib/hearth-process.js';

/** How often the watchdog looks at Hearth. */
const WATCH_INTERVAL_MS = 250;
/** Refused connections in a row before Hearth counts as exited (one may be a restart of the listener). */
const REFUSALS_FOR_EXIT = 2;
/** How long a killed Hearth may take to stop answering. */
const KILL_TIMEOUT_MS = 15_000;
/** How long the dependencies may take to come back before a supervisor restart gives up. */
const DEPENDENCY_TIMEOUT_MS = 120_000;

/** Hearth exiting on its own (not killed by the scenario). */
export interface UnexpectedExit {
  /** performance.now() when it was noticed. */
  at: number;
  /** The last lines of its output: why it exited. */
  output: string;
}

export interface StackOptions {
  /** Extra environment of Hearth. */
  env?: Record<string, string>;
  /** Progress lines. */
  log: (line: string) => void;
}

export interface Stack {
  readonly namespace: string;
  readonly nats: NatsServer;
  readonly postgres: PostgresServer;
  readonly databaseUrl: string;
  /** Hearth's base URL now (a restart picks a new port). */
  url(): string;
  /** The running Hearth's recent output. */
  output(): string;
  /** Exits the watchdog noticed (and recovered from by starting Hearth again). */
  readonly unexpectedExits: UnexpectedExit[];
  /** SIGKILLs Hearth and waits until its port refuses connections. */
  killHearth(): Promise<void>;
  /** Starts Hearth again (same namespace, servers and environment) and waits for /readyz. */
  startHearth(): Promise<void>;
  /** Stops Hearth (SIGTERM) and both servers, removing their data. */
  close(): Promise<void>;
}

/** Whether nothing listens on Hearth's port any more (as opposed to slow or erroring). */
async function refused(url: string): Promise<boolean> {
  try {
    await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2_000) });
    return false;
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED';
  }
}

export async function startStack(opts: StackOptions): Promise<Stack> {
  const namespace = testNamespace('faults');
  const [nats, postgres] = await Promise.all([startNatsServer(), startPostgresServer()]);
  const databaseUrl = postgres.url;
  const env = { ...opts.env, HEARTH_NAMESPACE: namespace };

  let hearth: HearthChild | undefined;
  let kill: (() => void) | undefined;
  let expectingDown = false;
  let restarting: Promise<void> | undefined;
  let closed = false;
  const unexpectedExits: UnexpectedExit[] = [];

  // Hearth runs in its own process group: if this process goes away first, take it along.
  const killOnExit = (): void => kill?.();
  process.on('exit', killOnExit);

  const launch = async (): Promise<void> => {
    hearth = await startHearthChild({
      natsUrl: nats.url,
      databaseUrl,
      env,
      onSpawn: (k) => (kill = k),
    });
  };

  const stack: Stack = {
    namespace,
    nats,
    postgres,
    databaseUrl,
    url: () => hearth?.url ?? 'http://127.0.0.1:9',
    output: () => hearth?.output() ?? '',
    unexpectedExits,
    async killHearth() {
      expectingDown = true;
      await restarting;
      const url = stack.url();
      kill?.();
      await waitFor(() => refused(url), { what: 'the killed Hearth to stop answering', timeoutMs: KILL_TIMEOUT_MS, intervalMs: 50 });
    },
    async startHearth() {
      await launch();
      expectingDown = false;
    },
    async close() {
      closed = true;
      await watching;
      await restarting?.catch(() => undefined);
      await hearth?.stop();
      process.off('exit', killOnExit);
      await Promise.all([nats.stop().catch(() => undefined), postgres.stop().catch(() => undefined)]);
    },
  };

  // The supervisor: an exit nobody asked for is recorded, then Hearth is started
  // again once NATS and Postgres accept connections (it cannot migrate without them).
  const supervise = async (): Promise<void> => {
    const tail = stack.output().trimEnd().split('\n').slice(-15).join('\n');
    unexpectedExits.push({ at: performance.now(), output: tail });
    opts.log(`Hearth exited on its own; starting it again. Its last output:\n${tail}`);
    await waitFor(async () => (await canConnect('127.0.0.1', nats.port, 500)) && (await canConnect('127.0.0.1', postgres.port, 500)), {
      what: 'NATS and Postgres to accept connections',
      timeoutMs: DEPENDENCY_TIMEOUT_MS,
      intervalMs: 100,
    });
    await launch();
  };
  const watch = async (): Promise<void> => {
    let refusals = 0;
    while (!closed) {
      await new Promise((r) => setTimeout(r, WATCH_INTERVAL_MS));
      if (closed || expectingDown || restarting) continue;
      refusals = (await refused(stack.url())) ? refusals + 1 : 0;
      if (refusals >= REFUSALS_FOR_EXIT && !expectingDown && !closed) {
        refusals = 0;
        restarting = supervise()
          .catch((err: unknown) => opts.log(`could not start Hearth again: ${(err as Error).message}`))
          .finally(() => (restarting = undefined));
      }
    }
  };

  try {
    await launch();
  } catch (err) {
    process.off('exit', killOnExit);
    await Promise.all([nats.stop().catch(() => undefined), postgres.stop().catch(() => undefined)]);
    throw err;
  }
  const watching = watch();
  return stack;
}
