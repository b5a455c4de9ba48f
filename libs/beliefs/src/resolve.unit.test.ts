import { BELIEF_CONFIG } from './config.js';
import { resolveAtom } from './resolve.js';
import type { NodeView } from './types.js';

/** A unit vector at a given cosine to e1 (in the e1/e2 plane). */
const at = (cos: number) => [cos, Math.sqrt(1 - cos * cos), 0];
const node = (id: string, vector: number[], extra: Partial<NodeView> = {}): NodeView => ({
  beliefId: id, canonicalText: id, canonicalHash: `h-${id}`, polarity: 'affirm', beliefType: 'TRAIT', temporalScope: 'unknown', stream: 'identity', vector, ...extra,
});
const e1 = [1, 0, 0];
const r = BELIEF_CONFIG.resolution;

describe('resolveAtom (§4.10)', () => {
  it('matches an exact hash of the same polarity at 1.0 whatever the vectors', () => {
    const res = resolveAtom({ canonicalHash: 'h-a', polarity: 'affirm', vector: [0, 0, 1] }, [node('a', e1)]);
    expect(res).toEqual(expect.objectContaining({ outcome: 'match', matchedId: 'a', matchConfidence: 1, inVerifierBand: false }));
  });

  it('never joins a deny atom to an affirm node, even with the same hash', () => {
    const res = resolveAtom({ canonicalHash: 'h-a', polarity: 'deny', vector: e1 }, [node('a', e1)]);
    expect(res.outcome).toBe('no_match');
    expect(res.candidateIds).toEqual([]);
  });

  it.each([
    [0.95, 'match', false],
    [r.matchThreshold, 'match', false],
    [0.85, 'uncertain', true],
    [r.noMatchThreshold, 'uncertain', true],
    [0.7, 'no_match', false],
  ] as const)('similarity %d → %s', (cos, outcome, band) => {
    const res = resolveAtom({ canonicalHash: 'new', polarity: 'affirm', vector: e1 }, [node('a', at(cos))]);
    expect(res.outcome).toBe(outcome);
    expect(res.inVerifierBand).toBe(band);
    expect(res.matchConfidence).toBeCloseTo(cos, 9);
    expect(res.matchedId).toBe(outcome === 'no_match' ? null : 'a');
  });

  it('keeps the top_k candidates by similarity, ties by id', () => {
    const nodes = Array.from({ length: r.topK + 3 }, (_, i) => node(`n${String(i).padStart(2, '0')}`, at(0.5 + i * 0.01)));
    nodes.push(node('m-tie', at(0.5 + (r.topK + 2) * 0.01)));
    const res = resolveAtom({ canonicalHash: 'new', polarity: 'affirm', vector: e1 }, nodes);
    expect(res.candidateIds).toHaveLength(r.topK);
    expect(res.candidateIds.slice(0, 2)).toEqual(['m-tie', `n${r.topK + 2}`]);
  });

  it('returns no_match on an empty graph', () => {
    expect(resolveAtom({ canonicalHash: 'x', polarity: 'affirm', vector: e1 }, [])).toEqual({ outcome: 'no_match', matchedId: null, matchConfidence: 0, candidateIds: [], inVerifierBand: false });
  });
});
