import { ClockError, ManualClock, systemClock, waitForClockOffset } from './index.js';

describe('ManualClock', () => {
  const start = new Date('2030-01-01T00:00:00.000Z');

  it('tells the time it was given until told otherwise', () => {
    const clock = new ManualClock(start);
    expect(clock.now().toISOString()).toBe('2030-01-01T00:00:00.000Z');
  });

  it('advances by milliseconds and sets to a date', () => {
    const clock = new ManualClock(start);

    expect(clock.advance(90_000).toISOString()).toBe('2030-01-01T00:01:30.000Z');
    clock.set(new Date('2029-12-31T00:00:00.000Z'));
    expect(clock.now().toISOString()).toBe('2029-12-31T00:00:00.000Z');
  });

  it('hands out copies, so callers cannot move it by mutating a Date', () => {
    const clock = new ManualClock(start);
    clock.now().setFullYear(1999);
    expect(clock.now().getTime()).toBe(start.getTime());
  });

  it.each([[-1], [Number.NaN], [Number.POSITIVE_INFINITY]])('rejects advance(%p)', (ms) => {
    const clock = new ManualClock(start);
    expect(() => clock.advance(ms)).toThrow(expect.objectContaining({ name: 'ClockError', code: 'CLOCK_INVALID_ADVANCE' }));
    expect(clock.now().getTime()).toBe(start.getTime());
  });
});

describe('systemClock', () => {
  it('tells wall time', () => {
    const before = Date.now();
    const now = systemClock.now().getTime();
    expect(now).toBeGreaterThanOrEqual(before);
    expect(now).toBeLessThanOrEqual(Date.now());
  });
});

describe('waitForClockOffset', () => {
  it('resolves once the offset reaches the minimum', async () => {
    let offset = 0;
    setTimeout(() => (offset = 5_000), 20);

    await expect(waitForClockOffset({ offsetMs: () => offset }, 5_000, 1_000)).resolves.toBe(5_000);
  });

  it('fails with CLOCK_WAIT_TIMEOUT when the offset never arrives', async () => {
    const error = await waitForClockOffset({ offsetMs: () => 0 }, 1, 30).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ClockError);
    expect(error).toMatchObject({ code: 'CLOCK_WAIT_TIMEOUT' });
  });
});
