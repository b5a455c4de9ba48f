import { TRUST_CONFIG } from '@hearth/trust';
import { gardenBelief, type GardenedNode } from './gardener.js';

const companion = (over: Partial<GardenedNode> = {}): GardenedNode => ({ holder: 'companion', live: true, level: 0, confidence: 0.6, ...over });

describe('gardenBelief', () => {
  it('given a live companion belief at level 0, when promoted, then it rises one level and a confidence step', () => {
    expect(gardenBelief('promote', companion())).toEqual({ applied: true, reason: 'applied', levelBefore: 0, level: 1, confidenceBefore: 0.6, confidence: 0.75 });
  });

  it('given a live companion belief at level 0, when deprecated, then it falls one level and a confidence step', () => {
    expect(gardenBelief('deprecate', companion())).toEqual({ applied: true, reason: 'applied', levelBefore: 0, level: -1, confidenceBefore: 0.6, confidence: 0.45 });
  });

  it('given a deprecated belief, when promoted, then it is back at level 0', () => {
    expect(gardenBelief('promote', companion({ level: -1, confidence: 0.45 }))).toMatchObject({ applied: true, level: 0, confidence: 0.6 });
  });

  it('keeps the confidence within [0, 1] while the level still moves', () => {
    expect(gardenBelief('promote', companion({ confidence: 0.95 }))).toMatchObject({ applied: true, level: 1, confidence: 1 });
    expect(gardenBelief('deprecate', companion({ confidence: 0.1 }))).toMatchObject({ applied: true, level: -1, confidence: 0 });
  });

  it.each([
    ['promote', 'at_ceiling', TRUST_CONFIG.levels.max],
    ['deprecate', 'at_floor', TRUST_CONFIG.levels.min],
  ] as const)('given a belief already at the bound, when asked to %s, then nothing changes (%s)', (action, reason, level) => {
    expect(gardenBelief(action, companion({ level, confidence: 0.5 }))).toEqual({ applied: false, reason, levelBefore: level, level, confidenceBefore: 0.5, confidence: 0.5 });
  });

  it("given the user's own belief, when promoted, then it is not the gardener's to change (not_companion)", () => {
    expect(gardenBelief('promote', companion({ holder: 'user', confidence: 0.4 }))).toEqual({ applied: false, reason: 'not_companion', levelBefore: 0, level: 0, confidenceBefore: 0.4, confidence: 0.4 });
  });

  it('given no node, or one merged or rolled back, when deprecated, then it is an unknown belief', () => {
    expect(gardenBelief('deprecate', null)).toEqual({ applied: false, reason: 'unknown_belief', levelBefore: 0, level: 0, confidenceBefore: 0, confidence: 0 });
    expect(gardenBelief('deprecate', companion({ live: false }))).toMatchObject({ applied: false, reason: 'unknown_belief', level: 0, confidence: 0.6 });
  });
});
