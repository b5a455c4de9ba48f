import { PERSONA } from '../config.js';
import { AntiCloningInputError, capAllows, capViolations, comboKey, maxAllowed, windowOf, type CapAssignment, type CapWindow } from './cap.js';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const NOW = new Date('2026-11-22T12:00:00.000Z');
const at = (ms: number) => new Date(NOW.getTime() + ms);
const windowWith = (total: number, counts: Record<string, number> = {}): CapWindow => ({ total, counts: new Map(Object.entries(counts)) });

describe('comboKey (turn-pipeline §3.4)', () => {
  it('joins archetype, humor mode and energy', () => {
    expect(comboKey('Dry Humor', 'deadpan', 'passive')).toBe('Dry Humor|deadpan|passive');
  });
});

describe('maxAllowed (turn-pipeline §3.4.1 rounding rule)', () => {
  it.each([
    [0, 1],
    [1, 1],
    [14, 1],
    [28, 1],
    [29, 2],
    [42, 2],
    [43, 3],
    [100, 7],
    [300, 21],
    [500, 35],
    [1441, 100],
  ])('given N = %i, then max_allowed is %i', (n, expected) => {
    expect(maxAllowed(n)).toBe(expected);
  });

  it('given every N from 1 to 10,000, then it equals max(1, floor(7N / 100)) in exact integer arithmetic', () => {
    // given
    const mismatches: number[] = [];
    for (let n = 1; n <= 10_000; n++) {
      // when
      const exact = Number((7n * BigInt(n)) / 100n);
      // then
      if (maxAllowed(n) !== Math.max(1, exact)) mismatches.push(n);
    }
    expect(mismatches).toEqual([]);
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER])('given N = %p, then it throws a named error', (n) => {
    expect(() => maxAllowed(n)).toThrow(AntiCloningInputError);
    try {
      maxAllowed(n);
    } catch (err) {
      expect((err as AntiCloningInputError).code).toBe('ANTI_CLONING_INPUT_INVALID');
    }
  });
});

describe('capAllows (turn-pipeline §3.4.1 cap rule)', () => {
  it('given an empty window, then any combo is allowed', () => {
    expect(capAllows(windowWith(0), 'A|none|passive')).toBe(true);
  });

  it('given N_new below 29, then a combo already in the window is refused (early stage: at most one per combo)', () => {
    for (let total = 1; total <= 27; total++) {
      // given
      const window = windowWith(total, { A: 1 });
      // when / then
      expect([total, capAllows(window, 'A')]).toEqual([total, false]);
      expect(capAllows(window, 'B')).toBe(true);
    }
  });

  it('given N_prev = 28 (N_new = 29), then a second assignment of a combo is allowed, a third is not', () => {
    expect(capAllows(windowWith(28, { A: 1 }), 'A')).toBe(true);
    expect(capAllows(windowWith(28, { A: 2 }), 'A')).toBe(false);
  });

  it.each([
    // [N_prev, k_prev, allowed]: k_prev + 1 <= max_allowed(N_prev + 1)
    [41, 2, false], // N_new 42 → max 2, k_new 3
    [42, 2, true], // N_new 43 → max 3
    [99, 6, true], // N_new 100 → max 7
    [99, 7, false],
    [499, 34, true], // N_new 500 → max 35
    [499, 35, false],
  ])('given N_prev = %i and k_prev = %i, then allowed is %p', (total, k, allowed) => {
    expect(capAllows(windowWith(total, { A: k }), 'A')).toBe(allowed);
  });
});

describe('windowOf (turn-pipeline §3.4.1 window definition)', () => {
  it('given the log before the candidate, then it keeps everything since now − 24 h, including the same instant', () => {
    // given
    const log: CapAssignment[] = [
      { combo: 'older', assignedAt: at(-DAY - 1) },
      { combo: 'edge', assignedAt: at(-DAY) },
      { combo: 'inside', assignedAt: at(-HOUR) },
      { combo: 'inside', assignedAt: at(-1) },
      { combo: 'now', assignedAt: at(0) },
      { combo: 'ahead', assignedAt: at(1) },
    ];

    // when
    const window = windowOf(log, NOW);

    // then
    // then: the candidate is not in the log, so a logged entry stamped at (or, from a
    // replica whose clock runs ahead, just after) now is an earlier assignment and counts.
    expect(window.total).toBe(5);
    expect(Object.fromEntries(window.counts)).toEqual({ edge: 1, inside: 2, now: 1, ahead: 1 });
  });

  it('given a custom window length, then it uses it', () => {
    const log = [
      { combo: 'A', assignedAt: at(-HOUR) },
      { combo: 'A', assignedAt: at(-2 * HOUR) },
    ];
    expect(windowOf(log, NOW, HOUR).total).toBe(1);
    expect(PERSONA.antiCloning.windowMs).toBe(DAY);
  });
});

describe('capViolations (audit of an assignment log)', () => {
  it('given a combo assigned twice while N is below 29, then it reports it at the second instant', () => {
    // given
    const log = [
      { combo: 'A', assignedAt: at(0) },
      { combo: 'A', assignedAt: at(60_000) },
    ];

    // when
    const violations = capViolations(log);

    // then
    expect(violations).toEqual([{ at: at(60_000), combo: 'A', count: 2, n: 2, max: 1 }]);
  });

  it('given the repeat exactly 24 h later, then the window [t − 24 h, t] still holds the first; 1 ms later it does not', () => {
    const edge = [
      { combo: 'A', assignedAt: at(0) },
      { combo: 'A', assignedAt: at(DAY) },
    ];
    const past = [
      { combo: 'A', assignedAt: at(0) },
      { combo: 'A', assignedAt: at(DAY + 1) },
    ];
    expect(capViolations(edge)).toHaveLength(1);
    expect(capViolations(past)).toEqual([]);
  });

  it('given a log in any order, then it audits it in time order', () => {
    const log = [
      { combo: 'A', assignedAt: at(60_000) },
      { combo: 'A', assignedAt: at(0) },
    ];
    expect(capViolations(log)).toEqual([{ at: at(60_000), combo: 'A', count: 2, n: 2, max: 1 }]);
  });

  it('given a window that shrinks below 29, then scope "all" reports the drift and scope "assigned" does not', () => {
    // given: 27 single combos and A twice make N = 29 (A may hold 2) ...
    const log: CapAssignment[] = [];
    for (let i = 0; i < 27; i++) log.push({ combo: `B${i}`, assignedAt: at(i) });
    log.push({ combo: 'A', assignedAt: at(100) }, { combo: 'A', assignedAt: at(200) });
    // ... then B0 and B1 leave the window when C arrives, so N = 28 and max is 1 again.
    log.push({ combo: 'C', assignedAt: at(DAY + 2) });

    // when
    const all = capViolations(log, DAY, 'all');
    const assigned = capViolations(log, DAY, 'assigned');

    // then
    expect(all).toEqual([{ at: at(DAY + 2), combo: 'A', count: 2, n: 28, max: 1 }]);
    expect(assigned).toEqual([]);
  });
});
