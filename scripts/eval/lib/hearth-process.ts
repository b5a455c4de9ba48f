// Hearth as a child process, started as the README starts it (scripts/start) and
// as test-e2e/support/process.ts does: a fresh namespace, every service in one
// process, /readyz before any request; stopped with SIGTERM, then its streams
// and schemas removed.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { InvalidArgumentError } from 'commander';
import pg from 'pg';
import { canConnect, cleanupNamespace, dropSchemas, freePort, testNamespace, waitFor } from '@hearth/testing';
import { ApiCallError } from '../../bench/lib/api-client.js';
import { log, requiredServerEnv, withTimeout, type ServerEnv } from '../../bench/lib/cli.js';
import type { CountingApi } from './api.js';

const ROOT = resolve(import.meta.dirname, '../../..');

/** How long Hearth may take to report ready (migrations of eight schemas included). */
const READY_TIMEOUT_MS = 150_000;
/** How long SIGTERM may take before SIGKILL. */
const STOP_TIMEOUT_MS = 30_000;
/** Lines of the child's output kept for an error message. */
const KEPT_OUTPUT_CHUNKS = 200;

export interface HearthChildOptions {
  natsUrl: string;
  databaseUrl: string;
  /** Extra environment of the child. */
  env?: Record<string, string>;
  /** Called at once with a SIGKILL of the child, for an exit while it is still starting. */
  onSpawn?: (kill: () => void) => void;
}

export interface HearthChild {
  url: string;
  namespace: string;
  /** The child's recent output, for failure messages. */
  output(): string;
  /** SIGTERM, then removal of the namespace's streams and schemas; safe to call twice. */
  stop(): Promise<void>;
}

/**
 * Starts `scripts/start --port <free>` under namespace `eval_<8 hex>` and waits
 * for /readyz. The child has its own process group, so a Ctrl-C at the terminal
 * reaches only the eval, which then stops Hearth and cleans up itself.
 */
export async function startHearthChild(opts: HearthChildOptions): Promise<HearthChild> {
  const namespace = testNamespace('eval');
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_OPTIONS: '',
    HEARTH_ENV: 'dev',
    HEARTH_NAMESPACE: namespace,
    NATS_URL: opts.natsUrl,
    DATABASE_URL: opts.databaseUrl,
    HEARTH_SKIP_INSTALL: '1',
    LOG_LEVEL: 'warn',
    // Harness traffic is not a user's: the rate limits would only slow it down.
    RATE_LIMIT_CHAT_PER_MINUTE: '0',
    RATE_LIMIT_CHAT_BURST: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_ANON_PER_MINUTE: '0',
    ...opts.env,
  };
  const child: ChildProcess = spawn('bash', ['scripts/start', '--port', String(port)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  opts.onSpawn?.(() => child.kill('SIGKILL'));
  const chunks: string[] = [];
  const keep = (b: Buffer): void => {
    chunks.push(b.toString());
    if (chunks.length > KEPT_OUTPUT_CHUNKS) chunks.splice(0, chunks.length - KEPT_OUTPUT_CHUNKS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const url = `http://127.0.0.1:${port}`;
  const output = (): string => chunks.join('');

  let stopped: Promise<void> | undefined;
  const cleanup = async (): Promise<void> => {
    await withTimeout(
      'deleting streams',
      cleanupNamespace(opts.natsUrl, namespace).then((names) => log(`deleted streams: ${names.join(', ') || 'none'}`)),
    );
    await withTimeout(
      'dropping schemas',
      dropSchemas(opts.databaseUrl, namespace).then((names) => log(`dropped schemas: ${names.join(', ') || 'none'}`)),
    );
  };
  const stop = (): Promise<void> =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) {
        log('stopping Hearth');
        child.kill('SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const code = await Promise.race([exited, new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), STOP_TIMEOUT_MS)))]);
        clearTimeout(timer);
        if (code === 'timeout') {
          log(`Hearth did not stop within ${STOP_TIMEOUT_MS / 1000} s: SIGKILL`);
          child.kill('SIGKILL');
        }
      }
      await cleanup();
    })());

  try {
    const outcome = await waitFor(
      async () => {
        if (child.exitCode !== null || child.signalCode !== null) return `scripts/start exited with ${child.exitCode ?? child.signalCode}`;
        const res = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2_000) }).catch(() => undefined);
        return res?.status === 200 ? 'ready' : false;
      },
      { timeoutMs: READY_TIMEOUT_MS, intervalMs: 250, what: `Hearth (scripts/start, namespace ${namespace}) to be ready` },
    );
    if (outcome !== 'ready') throw new Error(outcome);
  } catch (err) {
    child.kill('SIGKILL');
    await cleanup();
    throw new Error(`${(err as Error).message}\n--- scripts/start output\n${output()}`, { cause: err });
  }
  return {
    url,
    namespace,
    output,
    stop,
  };
}

/** A commander parser for --url: the origin of an http(s) URL. */
export function baseUrlArg(value: string): string {
  try {
    const u = new URL(value);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('not http');
    return u.origin;
  } catch {
    throw new InvalidArgumentError('expected a URL such as http://127.0.0.1:8080');
  }
}

/** Why NATS_URL or DATABASE_URL does not answer, naming the variable; undefined when both do. */
export async function serversProblem(env: ServerEnv): Promise<string | undefined> {
  const first = env.NATS_URL.split(',')[0]!.trim();
  const nats = new URL(first.includes('://') ? first : `nats://${first}`);
  if (!(await canConnect(nats.hostname, Number(nats.port || 4222), 2_000))) {
    return `NATS_URL=${env.NATS_URL}: nothing answers on ${nats.hostname}:${nats.port || 4222}`;
  }
  const client = new pg.Client({ connectionString: env.DATABASE_URL, connectionTimeoutMillis: 5_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (err) {
    return `DATABASE_URL: cannot connect (${(err as Error).message})`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function describeDatabase(url: string): string {
  const u = new URL(url);
  return `Postgres ${u.hostname}:${u.port || 5432}${u.pathname}`;
}

/** Throws unless Hearth answers at the API's URL with a virtual clock (dev or test mode). */
export async function checkVirtualClock(api: CountingApi): Promise<void> {
  try {
    // The dev clock answers a token only: any dev token.
    const { token } = await api.call<{ token: string }>('POST', '/v1/dev/token', { body: {} });
    await api.call('GET', '/v1/dev/clock', { token });
  } catch (err) {
    if (err instanceof ApiCallError && err.status === 0) throw new Error(`${api.url} does not answer (${err.code})`, { cause: err });
    throw new Error(`${api.url} has no virtual clock (${(err as Error).message}): the eval needs Hearth in dev mode (HEARTH_ENV dev or test)`, { cause: err });
  }
}

/**
 * A second signal within this long is the same Ctrl-C: the terminal signals the
 * whole process group, and tsx relays the signal it got to this process too.
 */
const SAME_SIGNAL_MS = 1_000;

/** Ctrl-C for an eval: the first asks it to finish the turn in flight, report and clean up; a second exits at once. */
export interface Interrupts {
  requested(): boolean;
  /** The Hearth child to kill, and whose namespace is named, on a second signal. */
  watch(child: { namespace?: string; kill?: () => void }): void;
}

export function handleInterrupts(): Interrupts {
  let interrupted = false;
  let at = 0;
  const child: { namespace?: string; kill?: () => void } = {};
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      if (interrupted && performance.now() - at < SAME_SIGNAL_MS) return;
      if (interrupted) {
        child.kill?.();
        log(`${signal} again: exiting now${child.namespace ? `; namespace ${child.namespace} (streams, schemas) is left behind` : ''}`);
        process.exit(130);
      }
      interrupted = true;
      at = performance.now();
      log(`${signal}: finishing the turn in flight, then reporting and cleaning up (again to exit now)`);
    });
  }
  return {
    requested: () => interrupted,
    watch: (c) => Object.assign(child, c),
  };
}

/** Which Hearth an eval talked to, as its report names it. */
export interface EvalTarget {
  mode: 'started' | 'external';
  url: string;
  namespace?: string;
  database?: string;
  nats?: string;
}

/**
 * The Hearth an eval talks to: the one running at `url`, or one it starts on
 * the servers NATS_URL and DATABASE_URL name (both required), after checking they
 * answer. The caller stops the child it gets.
 */
export async function openTarget(url: string | undefined, fail: (message: string) => never, interrupts: Interrupts): Promise<{ target: EvalTarget; hearth?: HearthChild }> {
  if (url) return { target: { mode: 'external', url } };
  const servers = requiredServerEnv(
    fail,
    'the eval starts Hearth on NATS_URL (JetStream) and DATABASE_URL (Postgres): set both, ' +
      'e.g. NATS_URL=nats://127.0.0.1:4222 DATABASE_URL=postgres://postgres@127.0.0.1:5432/hearth_test, or pass --url of a running Hearth',
  );
  const problem = await serversProblem(servers);
  if (problem) fail(problem);
  log(`starting Hearth (scripts/start) on ${describeDatabase(servers.DATABASE_URL)}, NATS ${servers.NATS_URL}`);
  const hearth = await startHearthChild({ natsUrl: servers.NATS_URL, databaseUrl: servers.DATABASE_URL, onSpawn: (kill) => interrupts.watch({ kill }) });
  interrupts.watch({ namespace: hearth.namespace });
  log(`Hearth is ready at ${hearth.url} (namespace ${hearth.namespace})`);
  return { hearth, target: { mode: 'started', url: hearth.url, namespace: hearth.namespace, database: describeDatabase(servers.DATABASE_URL), nats: servers.NATS_URL } };
}
