import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findExecutable, postgresBinDirs } from './binaries.js';
import { env } from './env.js';
import { ServerProcessError } from './errors.js';
import { onFreePort } from './ports.js';
import { killQuietly, onProcessExit, spawnWatchdog } from './process-guard.js';

export interface StartPostgresServerOptions {
  /**
   * Directory holding `initdb` and `pg_ctl`.
   * @default the newest /usr/lib/postgresql/<N>/bin, else PATH
   */
  binDir?: string;
  /**
   * Time allowed for each start (`pg_ctl -w -t`).
   * @default 60_000
   */
  startTimeoutMs?: number;
}

export interface StopPostgresServerOptions {
  /**
   * Keep the data dir so that {@link PostgresServer.start} brings the server back
   * with its data. Without it the stop is final and the temp dir goes.
   * @default false
   */
  keepData?: boolean;
  /**
   * `pg_ctl stop -m`: `fast` shuts down in order; `immediate` simulates a crash
   * (the next start runs recovery).
   * @default 'fast'
   */
  mode?: 'fast' | 'immediate';
}

/** A throwaway PostgreSQL server on a spare port of 127.0.0.1, trust auth, owned by one test. */
export interface PostgresServer {
  /** URL of its `postgres` database as superuser `postgres`. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Its log file. */
  readonly logFile: string;
  /** Starts it again after `stop({ keepData: true })`, on the same port and data dir. */
  start(): Promise<void>;
  /** Stops it; final (temp dir removed) unless `keepData`. */
  stop(options?: StopPostgresServerOptions): Promise<void>;
  /** Stops it (fast) and starts it again on the same port and data dir. */
  restart(): Promise<void>;
}


/** How commands run: as ourselves, or (when we are root, which initdb refuses) as `postgres`. */
interface RunAs {
  argv(command: string, args: readonly string[]): [string, string[]];
  owner?: { uid: number; gid: number };
}

function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function runAs(): RunAs {
  if (process.getuid?.() !== 0) return { argv: (command, args) => [command, [...args]] };
  let owner: { uid: number; gid: number };
  try {
    owner = {
      uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()),
      gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).trim()),
    };
  } catch (err) {
    throw new ServerProcessError('running as root, and initdb refuses root: a `postgres` user is needed', { cause: err });
  }
  const runuser = findExecutable('runuser', ['/usr/sbin', '/sbin', '/usr/bin', '/bin'], env.path());
  if (runuser) {
    return { owner, argv: (command, args) => [runuser, ['-u', 'postgres', '--', command, ...args]] };
  }
  return {
    owner,
    argv: (command, args) => ['su', ['postgres', '-s', '/bin/sh', '-c', [command, ...args].map(shellQuote).join(' ')]],
  };
}

function findBinDir(binDir: string | undefined): string {
  if (binDir) return binDir;
  for (const dir of postgresBinDirs()) {
    if (findExecutable('pg_ctl', [dir], undefined)) return dir;
  }
  const pgCtl = findExecutable('pg_ctl', [], env.path());
  const initdb = findExecutable('initdb', [], env.path());
  if (pgCtl && initdb) return pgCtl.slice(0, pgCtl.lastIndexOf('/'));
  throw new ServerProcessError(
    'PostgreSQL server binaries (initdb, pg_ctl) not found under /usr/lib/postgresql/*/bin or on PATH (apt-get install postgresql)',
  );
}

function logTail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/**
 * Creates a private PostgreSQL cluster (`initdb`, trust auth, superuser
 * `postgres`) in a temp dir and starts it on a spare port of 127.0.0.1 with
 * `fsync=off`. It never touches the machine's shared server; it is stopped, and
 * its temp dir removed, if the test process exits first.
 */
export async function startPostgresServer(options: StartPostgresServerOptions = {}): Promise<PostgresServer> {
  const { startTimeoutMs = 60_000 } = options;
  const binDir = findBinDir(options.binDir);
  const as = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'hearth-pg-'));
  const dataDir = join(dir, 'data');
  const logFile = join(dir, 'postgres.log');
  const pgCtl = join(binDir, 'pg_ctl');

  const run = (command: string, args: readonly string[], timeoutMs: number): Promise<string> => {
    const [file, argv] = as.argv(command, args);
    return new Promise((resolve, reject) => {
      execFile(file, argv, { cwd: dir, timeout: timeoutMs, encoding: 'utf8' }, (err, stdout, stderr) => {
        if (err) reject(new ServerProcessError(`${command} ${args.join(' ')} failed: ${stderr.trim() || err.message}`, { cause: err }));
        else resolve(stdout);
      });
    });
  };
  const stopArgs = (mode: string): string[] => ['stop', '-D', dataDir, '-m', mode, '-w', '-t', '60', '-s'];

  let port = 0;
  let running = false;
  let removed = false;
  let watchdog: number | undefined;
  let unregister: (() => void) | undefined;

  const removeDir = (): void => {
    removed = true;
    rmSync(dir, { recursive: true, force: true });
  };

  const launch = async (): Promise<void> => {
    const serverOptions = `-p ${port} -k ${shellQuote(dir)} -c listen_addresses=127.0.0.1 -c fsync=off`;
    const [killFile, killArgs] = as.argv(pgCtl, stopArgs('immediate'));
    watchdog = spawnWatchdog([killFile, ...killArgs], dir);
    unregister = onProcessExit(() => {
      spawnSync(killFile, killArgs, { stdio: 'ignore', timeout: 15_000 });
      killQuietly(watchdog, 'SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    });
    try {
      const startArgs = ['start', '-D', dataDir, '-l', logFile, '-o', serverOptions, '-w', '-s'];
      await run(pgCtl, [...startArgs, '-t', String(Math.ceil(startTimeoutMs / 1000))], startTimeoutMs + 5_000);
      running = true;
    } catch (err) {
      await halt('immediate').catch(() => undefined);
      throw new ServerProcessError(`postgres on port ${port} did not start; log:\n${logTail(logFile)}`, { cause: err });
    }
  };

  const halt = async (mode: 'fast' | 'immediate'): Promise<void> => {
    try {
      await run(pgCtl, stopArgs(mode), 70_000);
    } catch (err) {
      // "PID file does not exist": it was not running (a failed start); anything else is real.
      if (running) throw err;
    } finally {
      running = false;
      killQuietly(watchdog, 'SIGKILL');
      watchdog = undefined;
      unregister?.();
      unregister = undefined;
    }
  };

  try {
    if (as.owner) chownSync(dir, as.owner.uid, as.owner.gid);
    await run(join(binDir, 'initdb'), ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--no-locale', '-N'], 120_000);
    await onFreePort(async (p) => {
      port = p;
      await launch();
    });
  } catch (err) {
    removeDir();
    throw err;
  }

  const server: PostgresServer = {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    logFile,
    async start() {
      if (removed) throw new ServerProcessError('this postgres was stopped for good (stop without keepData)');
      if (running) return;
      await launch();
    },
    async stop(stopOptions = {}) {
      if (running) await halt(stopOptions.mode ?? 'fast');
      if (!stopOptions.keepData && !removed) removeDir();
    },
    async restart() {
      await server.stop({ keepData: true });
      await server.start();
    },
  };
  return server;
}
