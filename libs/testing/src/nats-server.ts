import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { findExecutable } from './binaries.js';
import { env } from './env.js';
import { ServerProcessError } from './errors.js';
import { canConnect, onFreePort } from './ports.js';
import { killQuietly, onProcessExit, spawnWatchdog } from './process-guard.js';

export interface StartNatsServerOptions {
  /**
   * Run with JetStream (`-js`), file storage in the server's temp store dir.
   * @default true
   */
  jetstream?: boolean;
  /**
   * The `nats-server` executable.
   * @default found in /usr/sbin, /usr/local/bin, /usr/bin, then PATH
   */
  binary?: string;
  /**
   * Time allowed for each start to accept connections.
   * @default 15_000
   */
  startTimeoutMs?: number;
}

export interface StopNatsServerOptions {
  /**
   * Keep the store dir so that {@link NatsServer.start} brings the server back
   * with its JetStream data. Without it the stop is final and the temp dir goes.
   * @default false
   */
  keepData?: boolean;
  /**
   * `SIGTERM` shuts down in order; `SIGKILL` simulates a crash.
   * @default 'SIGTERM'
   */
  signal?: 'SIGTERM' | 'SIGKILL';
}

/** A throwaway `nats-server` on a spare port of 127.0.0.1, owned by one test. */
export interface NatsServer {
  readonly url: string;
  readonly port: number;
  /** JetStream store dir (inside the server's temp dir). */
  readonly storeDir: string;
  /** Its log file. */
  readonly logFile: string;
  /** Pid of the running server; undefined while stopped. */
  readonly pid: number | undefined;
  /** Starts it again after `stop({ keepData: true })`, on the same port and store dir. */
  start(): Promise<void>;
  /** Stops it and waits for the exit; final (temp dir removed) unless `keepData`. */
  stop(options?: StopNatsServerOptions): Promise<void>;
  /** Stops it (SIGTERM) and starts it again on the same port and store dir. */
  restart(): Promise<void>;
}

const STOP_GRACE_MS = 10_000;

function findNatsServer(): string {
  const found = findExecutable('nats-server', ['/usr/sbin', '/usr/local/bin', '/usr/bin'], env.path());
  if (!found) {
    throw new ServerProcessError('nats-server not found in /usr/sbin, /usr/local/bin, /usr/bin or PATH (apt-get install nats-server)');
  }
  return found;
}

function logTail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Starts a private `nats-server -a 127.0.0.1 -p PORT -js -sd <tmpdir>` and waits
 * until it accepts connections. It never touches the machine's shared server;
 * it is killed, and its temp dir removed, if the test process exits first.
 */
export async function startNatsServer(options: StartNatsServerOptions = {}): Promise<NatsServer> {
  const { jetstream = true, startTimeoutMs = 15_000 } = options;
  const binary = options.binary ?? findNatsServer();
  const dir = mkdtempSync(join(tmpdir(), 'hearth-nats-'));
  const storeDir = join(dir, 'store');
  const logFile = join(dir, 'nats.log');

  let port = 0;
  let child: ChildProcess | undefined;
  let watchdog: number | undefined;
  let unregister: (() => void) | undefined;
  let removed = false;

  const removeDir = (): void => {
    removed = true;
    rmSync(dir, { recursive: true, force: true });
  };

  const launch = async (): Promise<void> => {
    const args = ['-a', '127.0.0.1', '-p', String(port), '-l', logFile];
    if (jetstream) args.push('-js', '-sd', storeDir);
    const proc = spawn(binary, args, { stdio: 'ignore' });
    const exited = once(proc, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as string | null }));
    const failed = once(proc, 'error').then(([err]) => ({ err: err as Error }));
    child = proc;
    const guarded = proc.pid;
    watchdog = guarded === undefined ? undefined : spawnWatchdog(['kill', '-KILL', String(guarded)], dir);
    unregister = onProcessExit(() => {
      killQuietly(guarded, 'SIGKILL');
      killQuietly(watchdog, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });

    const deadline = Date.now() + startTimeoutMs;
    const outcome: { early?: { code?: number | null; signal?: string | null; err?: Error } } = {};
    void Promise.race([exited, failed]).then((r) => (outcome.early = r));
    let ready = false;
    while (!ready && !outcome.early && Date.now() < deadline) {
      ready = await canConnect('127.0.0.1', port, 500);
      if (!ready) await sleep(25);
    }
    if (ready && !outcome.early) {
      proc.unref();
      return;
    }
    const early = outcome.early;
    const why = early?.err
      ? early.err.message
      : early
        ? `exited (code ${early.code}, signal ${early.signal})`
        : `did not accept connections within ${startTimeoutMs} ms`;
    await halt('SIGKILL');
    throw new ServerProcessError(`nats-server on port ${port} ${why}; log:\n${logTail(logFile)}`);
  };

  const halt = async (signal: NodeJS.Signals): Promise<void> => {
    const proc = child;
    child = undefined;
    if (proc && proc.exitCode === null && proc.signalCode === null) {
      proc.ref();
      const exited = once(proc, 'exit');
      proc.kill(signal);
      const grace = new AbortController();
      const timedOut = await Promise.race([
        exited.then(() => false),
        sleep(STOP_GRACE_MS, true, { signal: grace.signal }).catch(() => false),
      ]);
      grace.abort();
      if (timedOut) {
        proc.kill('SIGKILL');
        await exited;
      }
    }
    killQuietly(watchdog, 'SIGKILL');
    watchdog = undefined;
    unregister?.();
    unregister = undefined;
  };

  try {
    await onFreePort(async (p) => {
      port = p;
      await launch();
    });
  } catch (err) {
    removeDir();
    throw err;
  }

  const server: NatsServer = {
    url: `nats://127.0.0.1:${port}`,
    port,
    storeDir,
    logFile,
    get pid() {
      return child?.pid;
    },
    async start() {
      if (removed) throw new ServerProcessError('this nats-server was stopped for good (stop without keepData)');
      if (child) return;
      await launch();
    },
    async stop(stopOptions = {}) {
      await halt(stopOptions.signal ?? 'SIGTERM');
      if (!stopOptions.keepData) removeDir();
    },
    async restart() {
      await server.stop({ keepData: true });
      await server.start();
    },
  };
  return server;
}
