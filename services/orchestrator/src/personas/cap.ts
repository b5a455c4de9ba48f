import { PERSONA } from '../config.js';

/**
 * The anti-cloning cap of turn-pipeline §3.4 and §3.4.1: pure arithmetic over a
 * window of earlier assignments. The caller reads the window and the time; this
 * module only counts.
 */

export class AntiCloningInputError extends Error {
  readonly code = 'ANTI_CLONING_INPUT_INVALID';
  override readonly name = 'AntiCloningInputError';
}

/** One earlier assignment, as the cap sees it. */
export interface CapAssignment {
  /** The assignment's combo key (see {@link comboKey}). */
  combo: string;
  assignedAt: Date;
}

/** The rolling window of §3.4.1 before a candidate: `N_prev` and `k_prev` per combo key. */
export interface CapWindow {
  /** `N_prev`: assignments in the window. */
  total: number;
  /** `k_prev` per combo key; a key that is absent has 0. */
  counts: ReadonlyMap<string, number>;
}

/** One combo key above the cap at one instant of an assignment log. */
export interface CapViolation {
  at: Date;
  combo: string;
  count: number;
  /** Assignments in the window `[at - windowMs, at]`. */
  n: number;
  max: number;
}

/** The combo key of §3.4: `(core_archetype, humor_mode, friend_energy)`. */
export function comboKey(archetype: string, humorMode: string, friendEnergy: string): string {
  return `${archetype}|${humorMode}|${friendEnergy}`;
}

// The share in basis points, so max_allowed is integer arithmetic: 0.07 * n in
// floating point is not guaranteed to floor to the same integer as 7n / 100.
const CAP_BASIS_POINTS = Math.round(PERSONA.antiCloning.maxShare * 10_000);

/** `max_allowed(N) = max(1, floor(0.07 * N))` of §3.4.1, computed exactly. */
export function maxAllowed(n: number): number {
  const scaled = CAP_BASIS_POINTS * n;
  if (!Number.isSafeInteger(n) || n < 0 || !Number.isSafeInteger(scaled)) {
    throw new AntiCloningInputError(`max_allowed needs a non-negative safe integer, got ${n}`);
  }
  return Math.max(1, (scaled - (scaled % 10_000)) / 10_000);
}

/**
 * The earliest `assignedAt` that counts in the window of a candidate assigned at
 * `now` (§3.4.1); every logged assignment from then on counts (see windowOf).
 * @param windowMs @default PERSONA.antiCloning.windowMs (24 h)
 */
export function windowStart(now: Date, windowMs: number = PERSONA.antiCloning.windowMs): Date {
  return new Date(now.getTime() - windowMs);
}

/**
 * The window of §3.4.1 for a candidate assigned at `now`, given the log of
 * assignments made before it: those with `assignedAt >= now - windowMs`.
 * The spec's `< now` excludes the candidate, which is not in the log yet; an
 * earlier assignment stamped in the same millisecond (or by a replica whose
 * clock runs ahead) still counts, or concurrent onboardings would not see
 * each other.
 * @param windowMs @default PERSONA.antiCloning.windowMs (24 h)
 */
export function windowOf(assignments: readonly CapAssignment[], now: Date, windowMs: number = PERSONA.antiCloning.windowMs): CapWindow {
  const start = windowStart(now, windowMs).getTime();
  const counts = new Map<string, number>();
  let total = 0;
  for (const a of assignments) {
    const t = a.assignedAt.getTime();
    if (t < start) continue;
    total++;
    counts.set(a.combo, (counts.get(a.combo) ?? 0) + 1);
  }
  return { total, counts };
}

/** §3.4.1 cap rule: a candidate is allowed iff `k_prev + 1 <= max_allowed(N_prev + 1)`. */
export function capAllows(window: CapWindow, combo: string): boolean {
  return (window.counts.get(combo) ?? 0) + 1 <= maxAllowed(window.total + 1);
}

/**
 * Audits an assignment log: at each assignment instant `t`, over the window
 * `[t - windowMs, t]` (the assignments at `t` included), reports combo keys whose
 * count exceeds `max_allowed` of that window's size. The log is sorted by time
 * here, so any order is accepted.
 *
 * With `scope: 'all'` every combo in the window is checked. A combo can go over
 * the cap without a new assignment of it, when older assignments leave the window
 * and N shrinks; the §3.4.1 rule only binds the combo being assigned, which is
 * what `scope: 'assigned'` checks.
 * @param windowMs @default PERSONA.antiCloning.windowMs (24 h)
 * @param scope @default 'all'
 */
export function capViolations(
  assignments: readonly CapAssignment[],
  windowMs: number = PERSONA.antiCloning.windowMs,
  scope: 'all' | 'assigned' = 'all',
): CapViolation[] {
  const sorted = [...assignments].sort((a, b) => a.assignedAt.getTime() - b.assignedAt.getTime());
  const counts = new Map<string, number>();
  const violations: CapViolation[] = [];
  let lo = 0;
  let hi = 0;
  while (hi < sorted.length) {
    const at = sorted[hi]!.assignedAt.getTime();
    const assignedHere = new Set<string>();
    for (; hi < sorted.length && sorted[hi]!.assignedAt.getTime() === at; hi++) {
      const combo = sorted[hi]!.combo;
      assignedHere.add(combo);
      counts.set(combo, (counts.get(combo) ?? 0) + 1);
    }
    for (; sorted[lo]!.assignedAt.getTime() < at - windowMs; lo++) {
      const combo = sorted[lo]!.combo;
      const left = counts.get(combo)! - 1;
      if (left === 0) counts.delete(combo);
      else counts.set(combo, left);
    }
    const n = hi - lo;
    const max = maxAllowed(n);
    for (const combo of scope === 'all' ? counts.keys() : assignedHere) {
      const count = counts.get(combo) ?? 0;
      if (count > max) violations.push({ at: new Date(at), combo, count, n, max });
    }
  }
  return violations;
}
