import { UNCERTAINTY_CONFIG } from './config.js';
import { assemblyWeight, decayedConfidence } from './decay.js';

const DAY = 86_400_000;

describe('the reliability model', () => {
  it('decays at the category half-life, times the state multiplier (1.0 / 1.5 / 2.0 / 3.0)', () => {
    const half = UNCERTAINTY_CONFIG.halfLifeDays.PREFERENCE! * DAY;
    expect(decayedConfidence(0.8, 'PREFERENCE', 'reliable', half)).toBeCloseTo(0.4);
    expect(decayedConfidence(0.8, 'PREFERENCE', 'contradicted', half / 2)).toBeCloseTo(0.4);
    expect(decayedConfidence(0.8, 'PREFERENCE', 'superseded', half / 3)).toBeCloseTo(0.4);
    expect(decayedConfidence(0.8, 'PREFERENCE', 'uncertain', half / 1.5)).toBeCloseTo(0.4);
    expect(decayedConfidence(0.8, 'FACT', 'reliable', 0)).toBe(0.8);
  });

  it('assembly_weight = base · importance · max(0.3, factor): a contradicted memory is deprioritized, not suppressed', () => {
    expect(assemblyWeight('FACT', 1, 'reliable')).toBe(1);
    expect(assemblyWeight('FACT', 1, 'uncertain')).toBeCloseTo(0.6);
    expect(assemblyWeight('FACT', 1, 'contradicted')).toBeCloseTo(0.4);
    // superseded's factor 0.2 is under the floor
    expect(assemblyWeight('FACT', 1, 'superseded')).toBeCloseTo(0.3);
    expect(assemblyWeight('PREFERENCE', 0.5, 'reliable')).toBeCloseTo(0.45);
  });
});
