import { BELIEF_CONFIG } from '../config.js';
import { ageDays, isBeliefChallengeAllowed } from './eligibility.js';

const DAY = 86_400_000;
const AT = new Date('2025-03-20T12:00:00Z');
const daysAgo = (d: number) => new Date(AT.getTime() - d * DAY);
const clear = { shame: false, isolation: false, dependencyFear: false, relationalStrain: false };
const settled = { confidence: 0.6, createdAt: daysAgo(10) };

describe('isBeliefChallengeAllowed (the hard safety lock, BC §2)', () => {
  it('given a settled belief and no safety signal, then eligible at low risk', () => {
    expect(isBeliefChallengeAllowed(settled, clear, AT)).toEqual({ eligible: true, reason: 'eligible', risk: 'low' });
  });

  it.each([
    ['shame alone', { ...clear, shame: true }],
    ['isolation alone', { ...clear, isolation: true }],
    ['shame and isolation', { ...clear, shame: true, isolation: true }],
  ])('given %s, then blocked at high risk (the stricter reading: either state blocks)', (_case, safety) => {
    expect(isBeliefChallengeAllowed(settled, safety, AT)).toEqual({ eligible: false, reason: 'shame_or_isolation', risk: 'high' });
  });

  it('given dependency fear, then blocked at high risk', () => {
    expect(isBeliefChallengeAllowed(settled, { ...clear, dependencyFear: true }, AT)).toEqual({ eligible: false, reason: 'dependency_fear', risk: 'high' });
  });

  it('given shame and dependency fear, then shame decides (it comes first)', () => {
    expect(isBeliefChallengeAllowed(settled, { ...clear, shame: true, dependencyFear: true }, AT).reason).toBe('shame_or_isolation');
  });

  it.each([
    [0.29, false],
    [0.2999, false],
    [0.3, true],
    [0.31, true],
  ])('given confidence %p (threshold exactly 0.3), then eligible is %p', (confidence, eligible) => {
    const r = isBeliefChallengeAllowed({ ...settled, confidence }, clear, AT);

    expect(r.eligible).toBe(eligible);
    if (!eligible) expect(r).toEqual({ eligible: false, reason: 'low_confidence', risk: 'medium' });
  });

  it.each([
    [0.3, false],
    [0.49, false],
    [0.5, true],
    [0.7, true],
  ])('given relational strain and confidence %p (threshold exactly 0.5), then eligible is %p', (confidence, eligible) => {
    const r = isBeliefChallengeAllowed({ ...settled, confidence }, { ...clear, relationalStrain: true }, AT);

    expect(r.eligible).toBe(eligible);
    if (!eligible) expect(r).toEqual({ eligible: false, reason: 'relational_strain_low_confidence', risk: 'medium' });
  });

  it('given relational strain and confidence below 0.3, then the low-confidence block decides (it comes first)', () => {
    expect(isBeliefChallengeAllowed({ ...settled, confidence: 0.2 }, { ...clear, relationalStrain: true }, AT).reason).toBe('low_confidence');
  });

  it.each([
    [0, false],
    [6.99, false],
    [7 - 1 / 86_400_000, false],
    [7, true],
    [7.01, true],
    [30, true],
  ])('given a belief %p days old (threshold exactly 7 days), then eligible is %p', (days, eligible) => {
    const r = isBeliefChallengeAllowed({ ...settled, createdAt: daysAgo(days) }, clear, AT);

    expect(r.eligible).toBe(eligible);
    if (!eligible) expect(r).toEqual({ eligible: false, reason: 'too_recent', risk: 'low' });
  });

  it('given a belief created after the turn (a replay\'s future), then too recent', () => {
    expect(isBeliefChallengeAllowed({ ...settled, createdAt: daysAgo(-3) }, clear, AT).reason).toBe('too_recent');
  });

  it('given a young belief with low confidence, then low confidence decides (the spec order)', () => {
    expect(isBeliefChallengeAllowed({ confidence: 0.1, createdAt: daysAgo(1) }, clear, AT)).toEqual({ eligible: false, reason: 'low_confidence', risk: 'medium' });
  });

  it.each([
    ['a confidence that is not a number', { confidence: Number.NaN, createdAt: daysAgo(10) }, 'low_confidence'],
    ['an invalid creation date', { confidence: 0.6, createdAt: new Date('not a date') }, 'too_recent'],
  ] as const)('given %s, then it fails closed', (_case, perception, reason) => {
    expect(isBeliefChallengeAllowed(perception, clear, AT)).toMatchObject({ eligible: false, reason });
  });

  it('reads its thresholds from BELIEF_CONFIG', () => {
    expect(BELIEF_CONFIG.challengeLock).toEqual({ minConfidence: 0.3, strainMinConfidence: 0.5, minAgeDays: 7 });
  });
});

describe('ageDays', () => {
  it('given two dates, then the fractional days between them', () => {
    expect(ageDays(daysAgo(2.5), AT)).toBe(2.5);
    expect(ageDays(AT, daysAgo(1))).toBe(-1);
  });
});
