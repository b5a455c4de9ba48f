/**
 * Runs tasks one at a time per key, in arrival order; different keys run in
 * parallel. Ingress queues a user's appends here, so one process's concurrent
 * requests for one user never race each other on the user's chain (a phone
 * flushing its offline queue sends dozens at once); only other replicas can
 * still conflict, which the append's bounded retry absorbs.
 */
export class KeyedQueue {
  readonly #tails = new Map<string, Promise<unknown>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    const result = previous.then(task);
    // A failed task must not fail the ones queued behind it: the tail never rejects.
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return result;
  }

  /** Keys with a task running or waiting. */
  get size(): number {
    return this.#tails.size;
  }
}
