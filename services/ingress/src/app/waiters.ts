/**
 * Requests waiting for their turn's reply. They are woken when it is applied:
 * by the local projection, or by the core-NATS note of the replica whose
 * projection applied it (index.ts). A re-check once a second covers a lost
 * note without a burst of waiting requests polling the database.
 */
const RECHECK_MS = 1_000;

export class TurnWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Wakes the requests waiting for these message ids. */
  notify(messageIds: Iterable<string>): void {
    for (const id of messageIds) for (const wake of this.waiting.get(id) ?? []) wake();
  }

  /** Waits for `check` to find the reply: at once, then whenever woken, and every `pollMs`. */
  async wait<T>(messageId: string, timeoutMs: number, check: () => Promise<T | undefined>, pollMs = RECHECK_MS): Promise<T | undefined> {
    return this.expect(messageId).wait(timeoutMs, check, { pollMs, checkFirst: true });
  }

  /**
   * Listens for a message's reply from now on. A request about to append its
   * turn registers first: the reply cannot then be applied unseen, so it need
   * not look before it is woken (two reads a turn fewer).
   */
  expect(messageId: string): ExpectedReply {
    const set = this.waiting.get(messageId) ?? new Set();
    this.waiting.set(messageId, set);
    let wake: () => void = () => undefined;
    const arm = () =>
      new Promise<void>((resolve) => {
        wake = resolve;
        set.add(resolve);
      });
    let woken = arm();
    const release = () => {
      set.delete(wake);
      if (set.size === 0 && this.waiting.get(messageId) === set) this.waiting.delete(messageId);
    };
    return {
      cancel: release,
      wait: async (timeoutMs, check, opts = {}) => {
        const deadline = performance.now() + timeoutMs;
        try {
          if (opts.checkFirst) {
            const found = await check();
            if (found !== undefined) return found;
          }
          for (;;) {
            const left = deadline - performance.now();
            if (left <= 0) return undefined;
            const pollMs = opts.pollMs ?? RECHECK_MS;
            let timer: NodeJS.Timeout | undefined;
            await Promise.race([woken, new Promise<void>((r) => (timer = setTimeout(r, Math.min(pollMs, left))))]);
            clearTimeout(timer);
            // Armed again before looking: a wake during the check is not lost.
            set.delete(wake);
            woken = arm();
            const found = await check();
            if (found !== undefined) return found;
            // That was the look at the deadline.
            if (left <= pollMs && performance.now() >= deadline - 1) return undefined;
          }
        } finally {
          release();
        }
      },
    };
  }
}

/** A reply listened for since {@link TurnWaiters.expect}. */
export interface ExpectedReply {
  /**
   * Waits until `check` finds it: when woken, at every poll and, with
   * `checkFirst`, at once. Stops listening when it returns.
   */
  wait<T>(timeoutMs: number, check: () => Promise<T | undefined>, opts?: { pollMs?: number; checkFirst?: boolean }): Promise<T | undefined>;
  /** Stops listening without waiting (the turn was not appended). */
  cancel(): void;
}
