import type { RunningConsumer } from '@hearth/bus';
import type { Logger } from '@hearth/telemetry';

export interface PollerOptions<R extends object> {
  /** The consumer name the host reports (readiness, lag, shutdown). */
  name: string;
  pollMs: number;
  /** One pass; `isStopping` lets a long pass end early. What it resolves to is logged when `worthLogging` says so. */
  pass: (isStopping: () => boolean) => Promise<R>;
  worthLogging: (report: R) => boolean;
  /** What the host shows as this loop's lag (work due and not done). */
  lag: () => Promise<number>;
  logger?: Logger;
  /** The log message of a pass that did something, and of one that failed. */
  messages: { done: string; failed: string };
}

/**
 * A pass every `pollMs` until stopped — the shape of retention's and trust's
 * schedulers on the virtual clock: a failed pass is logged and retried at the
 * next poll (the process never ends on an outage), and stop() wakes the wait
 * and lets the pass in progress end. Shaped as a consumer so that the host's
 * readiness and shutdown cover it.
 */
export function startPoller<R extends object>(opts: PollerOptions<R>): RunningConsumer {
  let stopping = false;
  let wake: (() => void) | null = null;
  const loop = (async () => {
    while (!stopping) {
      try {
        const report = await opts.pass(() => stopping);
        if (opts.worthLogging(report)) opts.logger?.info({ ...(report as Record<string, unknown>) }, opts.messages.done);
      } catch (err) {
        opts.logger?.error({ err }, opts.messages.failed);
      }
      if (stopping) break;
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, opts.pollMs);
      });
      wake = null;
    }
  })();
  return {
    name: opts.name,
    isBound: () => !stopping,
    lag: opts.lag,
    async stop() {
      stopping = true;
      (wake as (() => void) | null)?.();
      await loop;
    },
  };
}
