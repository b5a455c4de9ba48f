import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cleanupNamespace, databaseUrl, dropSchemas, freePort, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { SERVICE_NAMES } from '@hearth/bus';

const ROOT = resolve(import.meta.dirname, '../..');

export interface StartOptions {
  /** `all`: scripts/start (every service in one process); `per-service`: one process each. */
  mode: 'all' | 'per-service';
  /** `postgres`: DATABASE_URL of the test server; `pglite`: the embedded database. */
  database: 'postgres' | 'pglite';
  /** Extra environment for every process. */
  env?: Record<string, string>;
  /** Keep every line the processes print (a test that reads all logs); else the last 400 chunks. */
  keepAllOutput?: boolean;
}

export interface RunningHearth {
  url: string;
  namespace: string;
  /** Output of every process so far, for failure messages. */
  output(): string;
  /** The embedded database's directory (database: pglite). */
  pgliteDir?: string;
  /**
   * SIGTERM to every process; resolves with their exit codes. Then deletes the
   * namespace's streams and schemas (or PGlite directory), unless `keepData`:
   * a test reads them after the stop (PGlite is single-process), then calls `cleanup`.
   */
  stop(opts?: { keepData?: boolean }): Promise<(number | null)[]>;
  /** Deletes the namespace's streams and schemas (or PGlite directory); idempotent. */
  cleanup(): Promise<void>;
}

interface Proc {
  name: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  out: string[];
}

function launch(name: string, command: string, args: string[], env: NodeJS.ProcessEnv, keepAll = false): Proc {
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: false });
  const out: string[] = [];
  const keep = (b: Buffer) => {
    out.push(b.toString());
    if (!keepAll && out.length > 400) out.splice(0, out.length - 400);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return { name, child, exited, out };
}

/**
 * Starts Hearth the way the README does (scripts/start), or as one process per
 * service (the Kubernetes shape), under a fresh namespace; waits for /readyz.
 */
export async function startHearth(opts: StartOptions): Promise<RunningHearth> {
  const namespace = testNamespace('e');
  const nats = await natsUrl();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    HEARTH_ENV: 'test',
    HEARTH_NAMESPACE: namespace,
    NATS_URL: nats,
    HEARTH_SKIP_INSTALL: '1',
    LOG_LEVEL: 'warn',
    // Harness traffic is not a user's: the rate limits would only slow it down.
    RATE_LIMIT_CHAT_PER_MINUTE: '0',
    RATE_LIMIT_CHAT_BURST: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_ANON_PER_MINUTE: '0',
    ...opts.env,
  };
  let pgliteDir: string | undefined;
  if (opts.database === 'postgres') {
    env.DATABASE_URL = await databaseUrl();
  } else {
    delete env.DATABASE_URL;
    pgliteDir = await mkdtemp(join(tmpdir(), 'hearth-e2e-pglite-'));
    env.PGLITE_DIR = pgliteDir;
  }
  const procs: Proc[] = [];
  // Every process must report ready, not only ingress.
  const readyUrls: string[] = [];
  if (opts.mode === 'all') {
    const port = await freePort();
    procs.push(launch('hearth', 'bash', ['scripts/start', '--port', String(port)], env, opts.keepAllOutput));
    readyUrls.push(`http://127.0.0.1:${port}`);
  } else {
    for (const s of SERVICE_NAMES) {
      const port = await freePort();
      procs.push(launch(s, 'node', ['--import', 'tsx', `services/${s}/src/main.ts`], { ...env, PORT: String(port) }, opts.keepAllOutput));
      readyUrls.push(`http://127.0.0.1:${port}`);
    }
  }
  const url = readyUrls[0]!;
  const output = () => procs.map((p) => `--- ${p.name}\n${p.out.join('')}`).join('\n');
  try {
    // A process that exits while starting ends the wait at once, not after the timeout
    // (waitFor retries on errors, so the probe reports the exit as its result).
    const outcome = await waitFor(
      async () => {
        const dead = procs.find((p) => p.child.exitCode !== null);
        if (dead) return `${dead.name} exited with ${dead.child.exitCode}`;
        for (const u of readyUrls) {
          const res = await fetch(`${u}/readyz`).catch(() => undefined);
          if (res?.status !== 200) return false;
        }
        return 'ready';
      },
      { timeoutMs: 150_000, intervalMs: 250, what: `Hearth (${opts.mode}, ${opts.database}) to be ready` },
    );
    if (outcome !== 'ready') throw new Error(outcome);
  } catch (err) {
    for (const p of procs) p.child.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${output()}`, { cause: err });
  }
  const cleanup = async (): Promise<void> => {
    await cleanupNamespace(nats, namespace).catch(() => undefined);
    if (opts.database === 'postgres') await dropSchemas(env.DATABASE_URL!, namespace).catch(() => undefined);
    if (pgliteDir) await rm(pgliteDir, { recursive: true, force: true });
  };
  return {
    url,
    namespace,
    output,
    pgliteDir,
    cleanup,
    async stop(stopOpts = {}) {
      for (const p of procs) p.child.kill('SIGTERM');
      const codes = await Promise.all(
        procs.map(async (p) => {
          let timer: NodeJS.Timeout | undefined;
          const code = await Promise.race([p.exited, new Promise<number>((r) => (timer = setTimeout(() => r(-1), 30_000)))]);
          clearTimeout(timer);
          return code;
        }),
      );
      for (const p of procs) if (p.child.exitCode === null) p.child.kill('SIGKILL');
      if (!stopOpts.keepData) await cleanup();
      return codes;
    },
  };
}
