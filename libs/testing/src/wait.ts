import { setTimeout as sleep } from 'node:timers/promises';
import { WaitTimeoutError } from './errors.js';

export interface WaitForOptions {
  /** What is awaited, in words; the timeout error says it ("the row to appear"). */
  what: string;
  /**
   * Give up after this long.
   * @default 10_000
   */
  timeoutMs?: number;
  /**
   * Pause between two probes.
   * @default 25
   */
  intervalMs?: number;
}

/**
 * Calls `probe` until it returns something other than `undefined` or `false`,
 * and returns that. A probe that throws counts as "not yet"; the last error
 * becomes the `cause` of the {@link WaitTimeoutError}.
 */
export async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  options: WaitForOptions,
): Promise<T> {
  const { what, timeoutMs = 10_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const result = await probe();
      if (result !== undefined && result !== false) return result;
    } catch (err) {
      lastError = err;
    }
    if (Date.now() >= deadline) {
      throw new WaitTimeoutError(what, timeoutMs, lastError === undefined ? undefined : { cause: lastError });
    }
    await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
  }
}
