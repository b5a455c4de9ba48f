import { TurnWaiters } from './waiters.js';

describe('TurnWaiters', () => {
  it('returns at once when the reply is already there', async () => {
    const w = new TurnWaiters();
    await expect(w.wait('m1', 1_000, async () => 'reply')).resolves.toBe('reply');
  });

  it('wakes a waiter when its message is notified, before the poll interval', async () => {
    const w = new TurnWaiters();
    let ready = false;
    const started = performance.now();
    const waiting = w.wait('m1', 5_000, async () => (ready ? 'reply' : undefined), 10_000);
    setTimeout(() => {
      ready = true;
      w.notify(['m1']);
    }, 20);
    await expect(waiting).resolves.toBe('reply');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('finds a reply applied elsewhere by polling, and gives up after the timeout', async () => {
    const w = new TurnWaiters();
    let checks = 0;
    await expect(w.wait('m1', 1_000, async () => (++checks >= 3 ? 'reply' : undefined), 10)).resolves.toBe('reply');
    await expect(w.wait('m2', 50, async () => undefined, 10)).resolves.toBeUndefined();
  });

  it('ignores notifications for other messages', async () => {
    const w = new TurnWaiters();
    let checks = 0;
    const waiting = w.wait('m1', 300, async () => {
      checks++;
      return undefined;
    }, 10_000);
    await new Promise((r) => setTimeout(r, 10));
    expect(checks).toBe(1);
    w.notify(['m2']);
    await new Promise((r) => setTimeout(r, 50));
    // The other message's notification woke nothing: still only the first check.
    expect(checks).toBe(1);
    w.notify(['m1']);
    await new Promise((r) => setTimeout(r, 10));
    expect(checks).toBe(2);
    await expect(waiting).resolves.toBeUndefined();
  });

  it('listens from expect() on: a reply applied before the wait begins is not missed, and nothing is read before the wake', async () => {
    const w = new TurnWaiters();
    const expected = w.expect('m1');
    let checks = 0;
    w.notify(['m1']);
    const started = performance.now();
    await expect(expected.wait(5_000, async () => (++checks, 'reply'), { pollMs: 10_000 })).resolves.toBe('reply');
    expect(checks).toBe(1);
    expect(performance.now() - started).toBeLessThan(1_000);

    const quiet = w.expect('m2');
    let quietChecks = 0;
    await expect(quiet.wait(50, async () => (++quietChecks, undefined), { pollMs: 10_000 })).resolves.toBeUndefined();
    // Never woken, no poll due within the timeout: read once, at the deadline.
    expect(quietChecks).toBe(1);
  });

  it('stops listening on cancel', async () => {
    const w = new TurnWaiters();
    w.expect('m1').cancel();
    expect((w as unknown as { waiting: Map<string, unknown> }).waiting.size).toBe(0);
  });
});

