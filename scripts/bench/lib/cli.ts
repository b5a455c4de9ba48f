import { InvalidArgumentError } from 'commander';
import { baseEnvSchema, ConfigError, loadConfig } from '@hearth/config';

/** How long a cleanup step may take before a benchmark gives up on it and exits. */
export const CLEANUP_TIMEOUT_MS = 30_000;

export function log(msg: string): void {
  process.stderr.write(`[bench] ${msg}\n`);
}

/** A commander parser for an integer option in [min, max]. */
export function intArg(min: number, max = Number.MAX_SAFE_INTEGER): (value: string) => number {
  return (value) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(max === Number.MAX_SAFE_INTEGER ? `expected an integer ≥ ${min}` : `expected an integer from ${min} to ${max}`);
    }
    return n;
  };
}

/** Benchmarks send traffic to this machine only. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '[::1]' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** Runs a cleanup step, logging (not throwing) when it fails or takes longer than CLEANUP_TIMEOUT_MS. */
export async function withTimeout(what: string, work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`timed out after ${CLEANUP_TIMEOUT_MS} ms`)), CLEANUP_TIMEOUT_MS)));
  try {
    await Promise.race([work, timeout]);
  } catch (err) {
    log(`cleanup: ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    clearTimeout(timer);
  }
}

/** The servers a benchmark or evaluation runs against. */
export interface ServerEnv {
  NATS_URL: string;
  DATABASE_URL: string;
}

/**
 * NATS_URL and DATABASE_URL, both required (no default NATS, no embedded PGlite).
 * A missing or bad one goes to `fail` with the config error's message and `hint`.
 */
export function requiredServerEnv(fail: (message: string) => never, hint: string, env: NodeJS.ProcessEnv = process.env): ServerEnv {
  try {
    return loadConfig(
      baseEnvSchema.pick({ NATS_URL: true, DATABASE_URL: true }).extend({
        NATS_URL: baseEnvSchema.shape.NATS_URL.unwrap(),
        DATABASE_URL: baseEnvSchema.shape.DATABASE_URL.unwrap(),
      }),
      env,
    );
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    return fail(`${err.message}\n${hint}`);
  }
}
