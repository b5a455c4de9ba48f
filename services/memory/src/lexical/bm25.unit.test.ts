import { Bm25Shelf, type Bm25Doc } from './bm25.js';

const doc = (memoryId: string, terms: string[]): Bm25Doc => ({ memoryId, key: `k:${memoryId}`, terms, lastConfirmedAt: 0, confidence: 0.5 });

function scoresOf(shelf: Bm25Shelf, query: string[]): Map<string, number> {
  const out = new Map<string, number>();
  const hits = shelf.search(query);
  for (let i = 0; i < hits.count; i++) out.set(shelf.docAt(hits.slots[i]!).memoryId, hits.scores[i]!);
  return out;
}

/** BM25+ of one term held once, as MiniSearch scores it (k1 1.2, b 0.7, δ 0.5). */
function bm25(df: number, n: number, length: number, averageLength: number): number {
  const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
  return idf * (0.5 + 2.2 / (1 + 1.2 * (0.3 + (0.7 * length) / averageLength)));
}

describe('Bm25Shelf (lexical index, issue 20)', () => {
  it('scores as MiniSearch did: BM25+ per query term held, times the number of query terms held', () => {
    // given 4 documents of 2, 3, 1 and 2 terms (average 2)
    const shelf = new Bm25Shelf();
    shelf.put(doc('a', ['sushi', 'food']));
    shelf.put(doc('b', ['sushi', 'ramen', 'food']));
    shelf.put(doc('c', ['jazz']));
    shelf.put(doc('d', ['jazz', 'piano']));

    // when
    const scores = scoresOf(shelf, ['sushi', 'food', 'piano']);

    // then
    expect([...scores.keys()].sort()).toEqual(['a', 'b', 'd']);
    expect(scores.get('a')).toBeCloseTo((bm25(2, 4, 2, 2) + bm25(2, 4, 2, 2)) * 2, 12);
    expect(scores.get('b')).toBeCloseTo((bm25(2, 4, 3, 2) + bm25(2, 4, 3, 2)) * 2, 12);
    expect(scores.get('d')).toBeCloseTo(bm25(1, 4, 2, 2), 12);
    expect(shelf.documentCount).toBe(4);
    expect(shelf.documentFrequency('sushi')).toBe(2);
    expect(shelf.documentFrequency('never')).toBe(0);
  });

  it('forgets a dropped or refiled document\'s terms and moves the last one into its place', () => {
    // given
    const shelf = new Bm25Shelf();
    for (let i = 0; i < 10; i++) shelf.put(doc(`m${i}`, ['common', `own${i}`]));

    // when: the first dropped (the last moves into its slot), one refiled with other terms, one emptied
    shelf.drop('m0');
    shelf.put(doc('m3', ['rare']));
    shelf.put(doc('m4', []));
    shelf.drop('never-filed');

    // then
    expect(shelf.documentCount).toBe(8);
    expect(shelf.documentFrequency('common')).toBe(7);
    expect(shelf.documentFrequency('own0')).toBe(0);
    expect([...scoresOf(shelf, ['own9']).keys()]).toEqual(['m9']);
    expect([...scoresOf(shelf, ['rare']).keys()]).toEqual(['m3']);
    expect([...scoresOf(shelf, ['common']).keys()].sort()).toEqual(['m1', 'm2', 'm5', 'm6', 'm7', 'm8', 'm9']);
  });

  it('answers the same search twice alike (its per-search sums start from zero each time)', () => {
    // given
    const shelf = new Bm25Shelf();
    for (let i = 0; i < 50; i++) shelf.put(doc(`m${i}`, i % 2 ? ['tea', `x${i}`] : ['coffee', 'tea']));

    // when
    const first = scoresOf(shelf, ['tea', 'coffee']);
    const second = scoresOf(shelf, ['tea', 'coffee']);

    // then
    expect(second).toEqual(first);
    expect(first.get('m0')).toBeGreaterThan(first.get('m1')!);
  });
});
