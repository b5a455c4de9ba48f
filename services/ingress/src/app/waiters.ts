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

  async wait<T>(messageId: string, timeoutMs: number, check: () => Promise<T | undefined>, pollMs = RECHECK_MS): Promise<T | undefined> {
    const deadline = performance.now() + timeoutMs;
    let wake: () => void = () => undefined;
    const set = this.waiting.get(messageId) ?? new Set();
    this.waiting.set(messageId, set);
    try {
      for (;;) {
        const woken = new Promise<void>((resolve) => {
          wake = resolve;
          set.add(resolve);
        });
        const found = await check();
        if (found !== undefined) return found;
        const left = deadline - performance.now();
        if (left <= 0) return undefined;
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([woken, new Promise<void>((r) => (timer = setTimeout(r, Math.min(pollMs, left))))]);
        clearTimeout(timer);
        set.delete(wake);
      }
    } finally {
      set.delete(wake);
      if (set.size === 0) this.waiting.delete(messageId);
    }
  }
}
