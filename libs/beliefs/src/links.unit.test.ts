import { BELIEF_CONFIG } from './config.js';
import { linkConfidence, linkStateOf, orderedPair } from './links.js';

const { a, b, c } = BELIEF_CONFIG.tentativeLink;

describe('tentative links (§3.3, §4.12)', () => {
  it('computes sigmoid(a·both − b·one − c·age)', () => {
    expect(linkConfidence(0, 0, 0)).toBeCloseTo(0.5, 9);
    expect(linkConfidence(2, 1, 10)).toBeCloseTo(1 / (1 + Math.exp(-(2 * a - b - 10 * c))), 9);
  });

  it('rises with shared support and falls with one-sided support and age', () => {
    expect(linkConfidence(3, 0, 0)).toBeGreaterThan(linkConfidence(1, 0, 0));
    expect(linkConfidence(1, 2, 0)).toBeLessThan(linkConfidence(1, 0, 0));
    expect(linkConfidence(1, 0, 30)).toBeLessThan(linkConfidence(1, 0, 0));
  });

  it('auto-accepts above 0.85 and auto-rejects below 0.15, else pending (never merges)', () => {
    expect(linkStateOf(linkConfidence(2, 0, 0))).toBe('accepted'); // ≈ 0.917
    expect(linkStateOf(linkConfidence(1, 0, 0))).toBe('pending'); // ≈ 0.769
    expect(linkStateOf(linkConfidence(0, 2, 0))).toBe('rejected'); // ≈ 0.142
    expect(linkStateOf(BELIEF_CONFIG.resolution.autoAcceptThreshold)).toBe('pending');
    expect(linkStateOf(BELIEF_CONFIG.resolution.autoRejectThreshold)).toBe('pending');
  });

  it('orders a pair with the smaller id first (§9.3)', () => {
    expect(orderedPair('b', 'a')).toEqual(['a', 'b']);
    expect(orderedPair('a', 'b')).toEqual(['a', 'b']);
    expect(orderedPair('B-2', 'a-1')).toEqual(['B-2', 'a-1']);
  });
});
