/**
 * Requests waiting for their turn's reply. A local projection wakes them at
 * once; a short poll of the database covers replies applied by another
 * replica of ingress.
 */
export class TurnWaiters {
  private readonly waiting = new Map<string, Set<() => void>>();

  /** Wakes the requests waiting for these message ids. */
  notify(messageIds: Iterable<string>): void {
    for (const id of messageIds) for (const wake of this.waiting.get(id) ?? []) wake();
  }

  async wait<T>(messageId: string, timeoutMs: number, check: () => Promise<T | undefined>, pollMs = 50): Promise<T | undefined> {
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
