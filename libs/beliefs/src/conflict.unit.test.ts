import { BELIEF_CONFIG } from './config.js';
import { detectConflicts, exclusiveSlot, isMomentary } from './conflict.js';
import type { NodeView } from './types.js';

const at = (cos: number) => [cos, Math.sqrt(1 - cos * cos), 0];
const node = (id: string, extra: Partial<NodeView> = {}): NodeView => ({
  beliefId: id, canonicalText: id, canonicalHash: `h-${id}`, polarity: 'affirm', beliefType: 'TRAIT', temporalScope: 'unknown', stream: 'identity', vector: [1, 0, 0], ...extra,
});

describe('detectConflicts (§4.15)', () => {
  it('finds a contradiction: same hash, opposite polarity (polarity_flip), pair ordered', () => {
    const out = detectConflicts(node('b', { canonicalHash: 'h', polarity: 'deny' }), [node('a', { canonicalHash: 'h' })]);
    expect(out).toEqual([{ nodeAId: 'a', nodeBId: 'b', conflictType: 'contradiction', detectionMethod: 'polarity_flip', similarity: 1 }]);
  });

  it('finds a tension above the threshold with a different hash', () => {
    const out = detectConflicts(node('a', { polarity: 'deny' }), [node('z', { vector: at(0.95) })]);
    expect(out).toEqual([expect.objectContaining({ nodeAId: 'a', nodeBId: 'z', conflictType: 'tension', detectionMethod: 'semantic_opposition' })]);
  });

  it('does not find a tension at or under the threshold, nor with the same polarity', () => {
    expect(detectConflicts(node('a', { polarity: 'deny' }), [node('z', { vector: at(BELIEF_CONFIG.conflict.embeddingThreshold) })])).toEqual([]);
    expect(detectConflicts(node('a'), [node('z', { vector: at(0.99) })])).toEqual([]);
    expect(detectConflicts(node('a'), [node('z', { canonicalHash: 'h-a' })])).toEqual([]);
  });

  it('never lets two momentary nodes conflict (state vs state)', () => {
    const now = node('a', { canonicalHash: 'h', beliefType: 'FEELING_STATE', temporalScope: 'state', stream: 'state' });
    const then = node('b', { canonicalHash: 'h', polarity: 'deny', beliefType: 'FEELING_STATE', temporalScope: 'unknown', stream: 'state' });
    expect(detectConflicts(now, [then])).toEqual([]);
  });

  it('lets a state conflict with a habitual or identity node', () => {
    const now = node('a', { canonicalHash: 'h', temporalScope: 'state', stream: 'state' });
    expect(detectConflicts(now, [node('b', { canonicalHash: 'h', polarity: 'deny', temporalScope: 'habitual', stream: 'identity' })])).toHaveLength(1);
    expect(detectConflicts(now, [node('c', { canonicalHash: 'h', polarity: 'deny', temporalScope: 'unknown', stream: 'identity' })])).toHaveLength(1);
  });

  it('lets habitual vs habitual and identity vs identity conflict', () => {
    expect(detectConflicts(node('a', { canonicalHash: 'h', temporalScope: 'habitual' }), [node('b', { canonicalHash: 'h', polarity: 'deny', temporalScope: 'habitual' })])).toHaveLength(1);
  });

  it('skips the node itself and checks tension only among the top_k', () => {
    const others = Array.from({ length: BELIEF_CONFIG.conflict.topK + 5 }, (_, i) => node(`n${String(i).padStart(2, '0')}`, { polarity: 'deny', vector: at(0.99 - i * 0.001) }));
    const out = detectConflicts(node('a'), [node('a', { polarity: 'deny' }), ...others]);
    expect(out).toHaveLength(BELIEF_CONFIG.conflict.topK);
    expect(out.every((c) => c.nodeAId < c.nodeBId)).toBe(true);
  });

  it('marks momentary nodes by scope or stream', () => {
    expect(isMomentary({ temporalScope: 'state', stream: 'identity' })).toBe(true);
    expect(isMomentary({ temporalScope: 'unknown', stream: 'state' })).toBe(true);
    expect(isMomentary({ temporalScope: 'habitual', stream: 'identity' })).toBe(false);
  });
});

describe('exclusive values (Hearth, beyond §4.15)', () => {
  const n = (beliefId: string, canonicalText: string, polarity: 'affirm' | 'deny' = 'affirm') => ({
    beliefId,
    canonicalText,
    canonicalHash: canonicalText,
    polarity,
    beliefType: 'BELIEF_ABOUT_SELF' as const,
    temporalScope: 'unknown' as const,
    stream: 'identity' as const,
    vector: [1, 0],
  });

  it('reads the attribute and its value', () => {
    expect(exclusiveSlot('my favorite album is the wall')).toEqual({ slot: 'favorite:album', value: 'the wall' });
    expect(exclusiveSlot('i am from oregon')).toEqual({ slot: 'from', value: 'oregon' });
    expect(exclusiveSlot('i am 34 years old')).toEqual({ slot: 'age', value: '34' });
    expect(exclusiveSlot('i am a patient person')).toBeNull();
  });

  it('two values of one attribute contradict; the same value, another attribute or a denial do not', () => {
    const oregon = n('a', 'i am from oregon');
    expect(detectConflicts(n('b', 'i am from ohio'), [oregon])).toEqual([
      { nodeAId: 'a', nodeBId: 'b', conflictType: 'contradiction', detectionMethod: 'exclusive_value', similarity: 0 },
    ]);
    expect(detectConflicts(n('c', 'my favorite band is the wall'), [n('d', 'my favorite album is the wall')])).toEqual([]);
    expect(detectConflicts({ ...n('e', 'i am from ohio', 'deny'), vector: [0, 1] }, [oregon])).toEqual([]);
  });
});
