import { TRUST_CONFIG } from './config.js';
import { anchorsOf, coherenceOf, decisionCoherence, gAlign } from './anchors.js';
import type { BeliefView } from './types.js';

function belief(beliefId: string, embedding: number[], over: Partial<BeliefView> = {}): BeliefView {
  return { beliefId, canonicalText: beliefId, embedding, embeddingModel: 'm', stream: 'identity', activation: 1, confidence: 1, seeded: false, level: 0, openConflicts: 0, ...over };
}

describe('anchors (awareness loop)', () => {
  it('given only seeded beliefs then it is a cold start, origin is their mean and live their weighted mean', () => {
    const a = anchorsOf([belief('s1', [1, 0, 0], { seeded: true }), belief('s2', [0, 1, 0], { seeded: true, activation: 3 })]);
    expect(a.coldStart).toBe(true);
    expect(a.origin).toEqual([0.5, 0.5, 0]);
    expect(a.live).toEqual([0.25, 0.75, 0]);
  });

  it('given a learned belief then it is no cold start and live moves towards it, weighted by activation · confidence', () => {
    const seeded = belief('s1', [1, 0], { seeded: true });
    const faint = anchorsOf([seeded, belief('n1', [0, 1], { activation: 1, confidence: 0.25 })]);
    const held = anchorsOf([seeded, belief('n1', [0, 1], { activation: 1, confidence: 1 })]);
    expect(faint.coldStart).toBe(false);
    expect(faint.origin).toEqual([1, 0]);
    expect(faint.live).toEqual([0.8, 0.2]);
    expect(held.live).toEqual([0.5, 0.5]);
    expect(coherenceOf(faint)).toBeGreaterThan(coherenceOf(held));
  });

  it('given a deprecated or non-identity belief then live leaves it out, origin keeps the seeded one', () => {
    const a = anchorsOf([
      belief('s1', [1, 0], { seeded: true, level: TRUST_CONFIG.levels.min }),
      belief('s2', [0, 1], { seeded: true }),
      belief('st', [1, 1], { stream: 'state' }),
    ]);
    expect(a.origin).toEqual([0.5, 0.5]);
    expect(a.live).toEqual([0, 1]);
  });

  it('given vectors of several models then only one model is averaged (the given one, else the most common)', () => {
    const beliefs = [belief('a', [1, 0], { seeded: true }), belief('b', [0, 1], { seeded: true, embeddingModel: 'other' }), belief('c', [1, 0], { embeddingModel: 'm' })];
    expect(anchorsOf(beliefs).origin).toEqual([1, 0]);
    expect(anchorsOf(beliefs, 'other').origin).toEqual([0, 1]);
    expect(anchorsOf(beliefs, 'other').live).toEqual([0, 1]);
  });

  it('given no seeded or no held beliefs then the missing anchor is null and coherence 0', () => {
    expect(anchorsOf([]).origin).toBeNull();
    expect(anchorsOf([belief('n', [1, 0], { activation: 0 })]).live).toBeNull();
    expect(coherenceOf({ origin: null, live: [1, 0], coldStart: false })).toBe(0);
    expect(coherenceOf({ origin: [1, 0], live: [1, 0], coldStart: false })).toBeCloseTo(1, 12);
  });
});

describe('g_align (§3)', () => {
  const anchors = { origin: [1, 0], live: [0, 1], coldStart: false };

  it('given a cold start, missing anchors or an incomparable vector then g_align = 1', () => {
    expect(gAlign([1, 0], { ...anchors, coldStart: true })).toBe(1);
    expect(gAlign([1, 0], { ...anchors, live: null })).toBe(1);
    expect(gAlign([], anchors)).toBe(1);
    expect(gAlign([1, 0, 0], anchors)).toBe(1);
  });

  it('given a belief at the live self then 2^1.5, at the origin ≈0, as near one as the other 1: ((a_live − a_origin + 1)/2)^1.5 over its neutral value 0.5^1.5', () => {
    expect(gAlign([0, 1], anchors)).toBeCloseTo(2 ** 1.5, 12);
    expect(gAlign([1, 0], anchors)).toBeCloseTo(0, 12);
    expect(gAlign([1, 1], anchors)).toBeCloseTo(1, 12);
  });
});

describe('decisionCoherence (§2 Coherence, the decision’s own move)', () => {
  // A persona of two statements along x and y; beliefs picked up since along z, and between z and x.
  const seeds = [belief('p1', [1, 0, 0], { seeded: true, confidence: 0.6 }), belief('p2', [0, 1, 0], { seeded: true, confidence: 0.6 })];
  const foreign = belief('f1', [0, 0, 1], { confidence: 0.6 });
  const nearer = belief('f2', [1, 0, 1], { confidence: 0.6 });
  const step = TRUST_CONFIG.gardenerStep;

  it('given a persona belief promoted then it moves toward the persona: step × (its alignment − that of what was picked up)', () => {
    // p1 aligns 1/√2 with the origin; f1 0, f2 1/2 (equal weights: 1/4).
    expect(decisionCoherence([{ ...seeds[0]!, confidence: 0.6 + step }, seeds[1]!, foreign, nearer], 'p1', { confidence: 0.6, level: 0 })).toBeCloseTo(step * (Math.SQRT1_2 - 0.25), 12);
    // With nothing picked up yet, against nothing.
    expect(decisionCoherence([{ ...seeds[0]!, confidence: 0.6 + step }, seeds[1]!], 'p1', { confidence: 0.6, level: 0 })).toBeCloseTo(step * Math.SQRT1_2, 12);
  });

  it('given a persona belief deprecated then it moves away', () => {
    expect(decisionCoherence([{ ...seeds[0]!, level: -1, confidence: 0.45 }, seeds[1]!, foreign], 'p1', { confidence: 0.6, level: 0 })).toBeLessThan(0);
  });

  it('given a picked-up belief that agrees less than the others deprecated then it moves toward the persona; promoted, away', () => {
    expect(decisionCoherence([...seeds, { ...foreign, level: -1, confidence: 0.45 }, nearer], 'f1', { confidence: 0.6, level: 0 })).toBeGreaterThan(0);
    expect(decisionCoherence([...seeds, { ...foreign, level: 1, confidence: 0.75 }, nearer], 'f1', { confidence: 0.6, level: 0 })).toBeLessThan(0);
  });

  it('given a decision not in the identity stream, or one later undone, then it has no share', () => {
    expect(decisionCoherence([...seeds, { ...foreign, stream: 'state', confidence: 0.75 }], 'f1', { confidence: 0.6, level: 0 })).toBe(0);
    expect(decisionCoherence([...seeds, foreign, nearer], 'f1', { confidence: 0.6, level: 0 })).toBeCloseTo(0, 12);
  });
});
