import { KeyedQueue } from './keyed-queue.js';

function deferred<T = void>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('KeyedQueue', () => {
  it('runs the tasks of one key one at a time, in arrival order', async () => {
    const q = new KeyedQueue();
    const log: string[] = [];
    let running = 0;
    let most = 0;
    const task = (name: string) => async () => {
      running++;
      most = Math.max(most, running);
      log.push(`start ${name}`);
      await new Promise((r) => setImmediate(r));
      log.push(`end ${name}`);
      running--;
      return name;
    };
    const results = await Promise.all(['a', 'b', 'c'].map((n) => q.run('user-1', task(n))));
    expect(results).toEqual(['a', 'b', 'c']);
    expect(most).toBe(1);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('runs different keys in parallel', async () => {
    const q = new KeyedQueue();
    const gate = deferred();
    const first = q.run('user-1', () => gate.promise.then(() => 'one'));
    // user-2 is not stuck behind user-1's unfinished task.
    await expect(q.run('user-2', async () => 'two')).resolves.toBe('two');
    gate.resolve();
    await expect(first).resolves.toBe('one');
  });

  it('passes a failure to its caller only; the next task still runs', async () => {
    const q = new KeyedQueue();
    const failed = q.run('user-1', async () => {
      throw new Error('boom');
    });
    const next = q.run('user-1', async () => 'after');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
  });

  it('forgets a key once its queue is empty', async () => {
    const q = new KeyedQueue();
    await q.run('user-1', async () => 1);
    await new Promise((r) => setImmediate(r));
    expect(q.size).toBe(0);
  });
});
