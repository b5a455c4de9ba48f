import { BELIEF_CONFIG } from './config.js';
import { activationOf, coreScoreOf, migrationOf, statusOf } from './scoring.js';
import type { OccurrenceView } from './types.js';

const T0 = new Date('2025-01-01T00:00:00Z');
const day = (n: number) => new Date(T0.getTime() + n * 86_400_000);
const occ = (d: number, ctx = 'c1:normal_chat', sw = 1, ac = 1): OccurrenceView => ({ at: day(d), sourceWeight: sw, atomConfidence: ac, contextId: ctx });
const core = BELIEF_CONFIG.coreScore;
const sig = (x: number) => 1 / (1 + Math.exp(-x));

describe('activationOf (§4.16)', () => {
  it('halves per half-life of the stream', () => {
    expect(activationOf([occ(0)], 'identity', day(60))).toBeCloseTo(0.5, 9);
    expect(activationOf([occ(0)], 'state', day(7))).toBeCloseTo(0.5, 9);
    expect(activationOf([occ(0)], 'meta', day(30))).toBeCloseTo(0.5, 9);
  });
  it('sums weighted occurrences and ignores future ones', () => {
    expect(activationOf([occ(0, 'x', 0.8), occ(0, 'y', 0.4), occ(5)], 'relational', day(0))).toBeCloseTo(1.2, 9);
  });
});

describe('coreScoreOf (§4.17)', () => {
  it('follows the formula', () => {
    const os = [occ(0, 'a'), occ(10, 'b'), occ(20, 'c', 0.5, 0.8)];
    const n = 1 + 1 + 0.4;
    const s = coreScoreOf(os, 1, day(20));
    expect(s.support).toBeCloseTo(1 - Math.exp(-n / core.kN), 9);
    expect(s.spread).toBeCloseTo(sig((20 - core.spreadMidpointDays) / core.spreadTemperatureDays), 9);
    expect(s.diversity).toBeCloseTo(sig((3 - core.diversityMidpointContexts) / core.diversityTemperature), 9);
    expect(s.base).toBeCloseTo(s.support * s.spread * s.diversity, 9);
    expect(s.conflictPenalty).toBeCloseTo(core.conflictPenaltyWeight / n, 9);
    expect(s.coreScore).toBe(Math.max(0, s.base - s.conflictPenalty));
  });

  it('reaches core with wide, diverse, repeated evidence and no conflicts', () => {
    const os = Array.from({ length: 40 }, (_, i) => occ(i * 2, `c${i % 10}:journaling`));
    const s = coreScoreOf(os, 0, day(80));
    expect(s.coreScore).toBeGreaterThanOrEqual(core.core);
    expect(s.status).toBe('core');
  });

  it('counts only conflicts within the recent window when given their times', () => {
    const os = [occ(0, 'a'), occ(1, 'b')];
    expect(coreScoreOf(os, [day(-100), day(0)], day(1)).conflictPenalty).toBeCloseTo(coreScoreOf(os, 1, day(1)).conflictPenalty, 9);
  });

  it('is 0 without evidence', () => {
    expect(coreScoreOf([], 3, day(0))).toEqual(expect.objectContaining({ coreScore: 0, conflictPenalty: 0, status: 'surface' }));
  });

  it.each([
    [0.29, 'surface'],
    [core.developing, 'developing'],
    [0.59, 'developing'],
    [core.core, 'core'],
  ] as const)('status of %d is %s', (score, status) => {
    expect(statusOf(score)).toBe(status);
  });
});

describe('migrationOf (§4.14)', () => {
  const m = BELIEF_CONFIG.migration;
  it('promotes a state belief when spread, diversity and activation reach their minimums', () => {
    expect(migrationOf({ stream: 'state', spread: m.minSpread, diversity: m.minDiversity, activation: m.minActivation })).toEqual({ migrate: true, from: 'state', to: 'identity', reason: 'promote_state_to_identity' });
  });
  it('names what falls short', () => {
    expect(migrationOf({ stream: 'state', spread: 0.5, diversity: 0.9, activation: 0.1 })).toEqual({ migrate: false, from: 'state', to: 'state', reason: 'below_min:spread,activation' });
  });
  it('never auto-demotes identity (the ratchet, §9.5)', () => {
    expect(migrationOf({ stream: 'identity', spread: 0, diversity: 0, activation: 0 })).toEqual({ migrate: false, from: 'identity', to: 'identity', reason: 'ratchet' });
  });
  it('demotes identity only on an explicit trigger', () => {
    expect(migrationOf({ stream: 'identity', spread: 1, diversity: 1, activation: 1, demotionTrigger: 'explicit_obsolescence' })).toEqual({ migrate: true, from: 'identity', to: 'state', reason: 'explicit_obsolescence' });
  });
  it('does not migrate meta or relational beliefs', () => {
    expect(migrationOf({ stream: 'meta', spread: 1, diversity: 1, activation: 1 }).migrate).toBe(false);
    expect(migrationOf({ stream: 'relational', spread: 1, diversity: 1, activation: 1 }).migrate).toBe(false);
  });
});

describe('scores whatever order the occurrences come in (replay equals live)', () => {
  // Terms whose float sum changes with the order they are added in.
  const at = new Date('2026-11-20T00:00:00Z');
  const occurrences: OccurrenceView[] = Array.from({ length: 9 }, (_, i) => ({
    at: new Date(at.getTime() - (i * 7 + 1) * 3_600_000 * 13),
    sourceWeight: [0.1, 0.7, 0.3, 1, 0.45, 0.2, 0.9, 0.05, 0.6][i]!,
    atomConfidence: [0.33, 0.9, 0.71, 0.5, 0.2, 0.95, 0.61, 0.8, 0.4][i]!,
    contextId: `c${i % 4}`,
  }));
  const orders = [occurrences, [...occurrences].reverse(), [3, 7, 0, 5, 1, 8, 2, 6, 4].map((i) => occurrences[i]!)];

  it('gives bit-identical activation and core score for every order', () => {
    const activations = orders.map((o) => activationOf(o, 'state', at));
    const scores = orders.map((o) => coreScoreOf(o, 1, at).coreScore);
    expect(new Set(activations).size).toBe(1);
    expect(new Set(scores).size).toBe(1);
  });
});
