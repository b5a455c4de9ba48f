import { UNCERTAINTY_CONFIG } from './config.js';
import { domainOf, driftBudget, reconcile, sampleForDrift } from './drift.js';
import type { HeldMemory, UncertaintyRecord } from './types.js';

const AT = new Date('2026-11-20T12:00:00Z');
const DAY = 86_400_000;

function mem(i: number, over: Partial<HeldMemory> = {}): HeldMemory {
  return { memoryId: `m${String(i).padStart(3, '0')}`, type: 'PREFERENCE', key: `pref:food:item${i}`, value: `like|item${i}`, confidence: 0.6, status: 'ACTIVE', reliability: 'reliable', extractor: 'heuristic', statements: 1, accessCount: 0, createdAt: AT, lastConfirmedAt: AT, topicIds: [], sourceMessageId: `s${i}`, ...over };
}

describe('drift (RECONCILE)', () => {
  it('rotates domains cycle by cycle: work, personal, relationships, hobbies', () => {
    const base = { memories: [], records: [], tolerance: 0.5, at: AT, newId: (x: string) => x };
    expect([0, 1, 2, 3, 4].map((cycle) => reconcile({ ...base, cycle }).domain)).toEqual(['work', 'personal', 'relationships', 'hobbies', 'work']);
    expect(domainOf('fact:occupation')).toBe('work');
    expect(domainOf('pref:food:sushi')).toBe('hobbies');
    expect(domainOf('event:family:2026_01:visit')).toBe('relationships');
  });

  it('samples within the budget of 10–20, more when tolerance is low, by recency, access and strength', () => {
    expect(driftBudget(0.5)).toBe(15);
    expect(driftBudget(0.2)).toBe(UNCERTAINTY_CONFIG.drift.budgetMax);
    expect(driftBudget(0.8)).toBe(UNCERTAINTY_CONFIG.drift.budgetMin);
    const many = Array.from({ length: 40 }, (_, i) => mem(i, { lastConfirmedAt: new Date(AT.getTime() - i * DAY) }));
    many[39] = { ...many[39]!, accessCount: 50, confidence: 1 };
    const picked = sampleForDrift(many, 'hobbies', 15, AT);
    expect(picked).toHaveLength(15);
    expect(picked[0]!.memoryId).toBe('m039');
    expect(picked.map((m) => m.memoryId)).toContain('m000');
    expect(picked.map((m) => m.memoryId)).not.toContain('m038');
  });

  it('a contradicted side that decayed below the floor resolves the uncertainty as decayed', () => {
    const old = mem(1, { reliability: 'contradicted', lastConfirmedAt: new Date(AT.getTime() - 400 * DAY) });
    const fresh = mem(2, { key: old.key, value: 'dislike|item1', reliability: 'contradicted' });
    const u: UncertaintyRecord = {
      uncertaintyId: 'u1', type: 'contradiction', severity: 'critical', state: 'open', key: old.key, surfaceCues: [], surfacedCount: 0, steppedDown: false, usedPhrasingIds: [], sourceMessageIds: [], createdAt: AT,
      sides: [old, fresh].map((m) => ({ kind: 'memory' as const, id: m.memoryId, store: 'trait' as const, key: m.key, value: m.value, confidence: m.confidence, source: 'explicit' as const, sourceMessageId: m.sourceMessageId, statements: 1 })),
    };
    const d = reconcile({ cycle: 3, memories: [old, fresh], records: [u], tolerance: 0.5, at: AT, newId: (x) => x });
    expect(d.resolutions).toEqual([expect.objectContaining({ uncertaintyId: 'u1', strategy: 'decayed', state: 'decayed', loserId: 'm001' })]);
  });

  it('an event that hates what a preference loves is an episode-vs-trait contradiction (medium)', () => {
    const pref = mem(1, { key: 'pref:food:sushi', value: 'like|sushi' });
    const event = mem(2, { type: 'RELATIONSHIP_EVENT', key: 'event:other:2026_11:sushi_place', value: 'i hate the sushi place near work' });
    const d = reconcile({ cycle: 3, memories: [pref, event], records: [], tolerance: 0.5, at: AT, newId: (x) => x });
    expect(d.records).toEqual([expect.objectContaining({ type: 'contradiction', severity: 'medium', detectionContext: 'drift' })]);
    expect(d.reliability.map((r) => r.to)).toEqual(['contradicted', 'contradicted']);
  });

  it('a singleton fact not heard of for two years is a stale solo uncertainty (low)', () => {
    const city = mem(1, { type: 'FACT', key: 'fact:current_city', value: 'toronto', lastConfirmedAt: new Date(AT.getTime() - 800 * DAY) });
    const d = reconcile({ cycle: 1, memories: [city], records: [], tolerance: 0.5, at: AT, newId: (x) => x });
    expect(d.records).toEqual([expect.objectContaining({ type: 'stale', severity: 'low', sides: [expect.objectContaining({ id: 'm001' })] })]);
  });
});
