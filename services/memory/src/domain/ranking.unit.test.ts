import { UNCERTAINTY_CONFIG } from '@hearth/uncertainty';
import { rankWeighted, retrievalWeight, type Weighable } from './ranking.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 28, 9);

type Item = Weighable & { memoryId: string; score: number };

/** A preference at 0.75 confirmed at NOW, equally relevant unless told. */
function memory(memoryId: string, over: Partial<Item> = {}): Item {
  return { memoryId, type: 'PREFERENCE', confidence: 0.75, reliability: 'reliable', lastConfirmedAt: NOW, score: 0.8, ...over };
}

const ids = (items: readonly Item[]) => items.map((m) => m.memoryId);

describe('retrievalWeight (uncertainty-engine.md: assembly_weight)', () => {
  it('is base_type_weight · confidence · reliability_factor for a memory confirmed now', () => {
    const base = UNCERTAINTY_CONFIG.baseTypeWeight.FACT!;
    expect(retrievalWeight(memory('a', { type: 'FACT' }), NOW)).toBeCloseTo(base * 0.75 * 1.0, 12);
    expect(retrievalWeight(memory('a', { type: 'FACT', reliability: 'uncertain' }), NOW)).toBeCloseTo(base * 0.75 * 0.6, 12);
    expect(retrievalWeight(memory('a', { type: 'FACT', reliability: 'contradicted' }), NOW)).toBeCloseTo(base * 0.75 * 0.4, 12);
  });

  it('never weighs a state below the reliability floor (superseded: 0.2 → 0.3)', () => {
    const reliable = retrievalWeight(memory('a'), NOW);
    expect(retrievalWeight(memory('a', { reliability: 'superseded' }), NOW) / reliable).toBeCloseTo(UNCERTAINTY_CONFIG.reliabilityFloor, 12);
  });

  it('decays importance from the last confirmation, faster for a contradicted memory, and reads an unknown state as reliable', () => {
    const halfLife = UNCERTAINTY_CONFIG.halfLifeDays.PREFERENCE! * DAY;
    const old = { lastConfirmedAt: NOW - halfLife };
    expect(retrievalWeight(memory('a', old), NOW) / retrievalWeight(memory('a'), NOW)).toBeCloseTo(0.5, 12);
    // contradicted: 2× the decay, so a quarter after one half-life, times its factor
    expect(retrievalWeight(memory('a', { ...old, reliability: 'contradicted' }), NOW) / retrievalWeight(memory('a'), NOW)).toBeCloseTo(0.25 * 0.4, 12);
    expect(retrievalWeight(memory('a', { reliability: 'someday' }), NOW)).toBe(retrievalWeight(memory('a'), NOW));
  });
});

describe('rankWeighted (issue 17: score × assembly weight)', () => {
  it('puts a contradicted memory below an equally relevant reliable one, and a superseded-state one below both, dropping none', () => {
    // given: three equally relevant and confident preferences, the most doubtful confirmed last
    const items = [
      memory('superseded', { reliability: 'superseded', lastConfirmedAt: NOW }),
      memory('contradicted', { reliability: 'contradicted', lastConfirmedAt: NOW - 60_000 }),
      memory('reliable', { lastConfirmedAt: NOW - 120_000 }),
    ];

    // when
    const ranked = rankWeighted(items, NOW);

    // then
    expect(ids(ranked)).toEqual(['reliable', 'contradicted', 'superseded']);
    expect(ranked.map((m) => m.score)).toEqual([0.8, 0.8, 0.8]);
  });

  it('still surfaces a contradicted memory far more relevant than a reliable one (the floor keeps it in reach)', () => {
    const ranked = rankWeighted([memory('reliable', { score: 0.3 }), memory('contradicted', { reliability: 'contradicted', score: 1 })], NOW);
    expect(ids(ranked)).toEqual(['contradicted', 'reliable']);
  });

  it('weighs a fact above an equally relevant event, and a fresh memory above a stale one', () => {
    expect(ids(rankWeighted([memory('event', { type: 'RELATIONSHIP_EVENT' }), memory('fact', { type: 'FACT' })], NOW))).toEqual(['fact', 'event']);
    expect(ids(rankWeighted([memory('stale', { lastConfirmedAt: NOW - 400 * DAY }), memory('fresh', { lastConfirmedAt: NOW - DAY })], NOW))).toEqual(['fresh', 'stale']);
  });

  it('keeps byRank ties when score × weight is equal: more recently confirmed, more confident, smaller id', () => {
    const zero = [memory('b', { score: 0 }), memory('a', { score: 0 }), memory('c', { score: 0, lastConfirmedAt: NOW - DAY, confidence: 1 })];
    expect(ids(rankWeighted(zero, NOW))).toEqual(['a', 'b', 'c']);
  });
});
