import { createLocalEmbedder } from '@hearth/llm';
import { seededRandom } from '@hearth/testing';
import { VECTOR_INDEX } from '../config.js';
import { exactScan, recallAt, unit, type ScanPoint } from './exact.js';
import { VectorShelf } from './shelf.js';
import { nearestInt8 } from './usearch.js';

/**
 * `n` points of `dims` values around `centres` centres, each component moved by
 * up to ±spread/2: 0.6 spreads them as embeddings of related texts do, 0.005
 * makes near-duplicates (cosines above 0.9999), which int8 cannot tell apart.
 */
function clustered(n: number, dims: number, seed: number, spread = 0.6, centres = 12): ScanPoint[] {
  const next = seededRandom(seed);
  const at = Array.from({ length: centres }, () => Array.from({ length: dims }, () => next() - 0.5));
  return Array.from({ length: n }, (_, i) => ({
    memoryId: `m${String(i).padStart(6, '0')}`,
    vector: at[i % centres]!.map((c) => c + spread * (next() - 0.5)),
  }));
}

function shelfOf(points: readonly ScanPoint[], keyOf: (i: number) => string = (i) => `k${i}`): VectorShelf {
  const shelf = new VectorShelf(points[0]!.vector.length);
  points.forEach((p, i) => shelf.put(p.memoryId, keyOf(i), unit(p.vector)));
  return shelf;
}

/** Mean recall@k of the shelf's answers against the exact scan's. */
function recall(shelf: VectorShelf, points: readonly ScanPoint[], queries: readonly ScanPoint[], k: number): number {
  const scan = exactScan(points);
  return queries.reduce((sum, q) => sum + recallAt(scan(q.vector, k), shelf.search(unit(q.vector), k, none, VECTOR_INDEX)), 0) / queries.length;
}

const none: ReadonlySet<string> = new Set();

describe('VectorShelf (the embedded index, issue 20)', () => {
  it('answers exactly as the exact scan while it holds no more points than candidates', () => {
    // given fewer points than the candidates a search keeps
    const points = clustered(40, 16, 1);
    const shelf = shelfOf(points);
    const query = clustered(1, 16, 2)[0]!.vector;

    // when
    const hits = shelf.search(unit(query), 10, none, VECTOR_INDEX);

    // then: the same ids, order and scores
    expect(hits).toEqual(exactScan(points)(query, 10));
  });

  it('answers as the exact scan, ids, order and scores, when the int8 scan picks the candidates', () => {
    // given 3,000 points of 256 values (the local embedder's size), far more than the candidates
    const points = clustered(3_000, 256, 3);
    const shelf = shelfOf(points);
    const scan = exactScan(points);

    // when / then
    for (const q of clustered(40, 256, 4)) {
      expect(shelf.search(unit(q.vector), 4, none, VECTOR_INDEX)).toEqual(scan(q.vector, 4));
      expect(shelf.search(unit(q.vector), 50, none, VECTOR_INDEX)).toEqual(scan(q.vector, 50));
    }
  });

  it('keeps recall@4 at or above 0.99 on the local embedder\'s vectors of memory-like texts', () => {
    // given memories as bench:memory writes them, and questions about them
    const embedder = createLocalEmbedder({ dimensions: 256, model: 'm' });
    const items = ['sushi', 'ramen', 'jazz', 'hiking', 'chess', 'tennis', 'green tea', 'horror'];
    const points = Array.from({ length: 3_000 }, (_, j) => ({
      memoryId: `m${String(j).padStart(6, '0')}`,
      vector: embedder.embedSync(`preference ${j % 3 === 0 ? 'dislike' : 'like'} ${items[j % items.length]} ${j}`),
    }));
    const queries = Array.from({ length: 100 }, (_, i) => ({ memoryId: '', vector: embedder.embedSync(`do I like ${items[(i * 37) % items.length]} ${(i * 7919) % 3_000}`) }));

    // when / then
    expect(recall(shelfOf(points), points, queries, 4)).toBeGreaterThanOrEqual(0.99);
  });

  it('stays exact on near-duplicates, where the int8 order alone misses most of the best', () => {
    // given points so alike that int8 cannot order them
    const points = clustered(3_000, 256, 5, 0.005, 1);
    const shelf = shelfOf(points);
    const queries = clustered(30, 256, 6, 0.005, 1);
    const scan = exactScan(points);
    const int8 = new Int8Array(256 * points.length);
    const toInt8 = (v: Float32Array) => {
      const max = Math.max(...v.map(Math.abs));
      return Int8Array.from(v, (x) => Math.round((x * 127) / max));
    };
    points.forEach((p, i) => int8.set(toInt8(unit(p.vector)), i * 256));

    // when
    const int8Alone =
      queries.reduce((sum, q) => {
        const rows = nearestInt8(int8, toInt8(unit(q.vector)), 256, 4, 1).rows;
        return sum + recallAt(scan(q.vector, 4), [...rows].map((r) => ({ memoryId: points[r]!.memoryId, score: 0 })));
      }, 0) / queries.length;

    // then: the measure can fail (int8 alone), the shelf does not
    expect(int8Alone).toBeLessThan(0.9);
    expect(recall(shelf, points, queries, 4)).toBe(1);
    expect(recall(shelf, points, queries, 50)).toBe(1);
  });

  it('never returns a dropped memory, and answers as the exact scan over what is left', () => {
    // given a shelf past its first capacity, then half its points dropped (the last rows move into the holes)
    const points = clustered(1_000, 32, 7);
    const shelf = shelfOf(points);
    const dropped = new Set(points.filter((_, i) => i % 2 === 0).map((p) => p.memoryId));
    for (const id of dropped) expect(shelf.drop(id)).toBe(true);
    const left = points.filter((p) => !dropped.has(p.memoryId));
    const query = clustered(1, 32, 8)[0]!.vector;

    // when
    const hits = shelf.search(unit(query), 50, none, VECTOR_INDEX);

    // then
    expect(shelf.size).toBe(500);
    expect(shelf.drop(points[0]!.memoryId)).toBe(false);
    expect(hits).toEqual(exactScan(left)(query, 50));
    expect(shelf.search(unit(query), 500, none, VECTOR_INDEX)).toHaveLength(500);
  });

  it('refiles a memory whose vector changed, once', () => {
    // given
    const points = clustered(300, 8, 9);
    const shelf = shelfOf(points);
    const target = points[123]!;
    const query = [1, 2, 3, 4, 5, 6, 7, 8];

    // when its vector becomes the query itself
    shelf.put(target.memoryId, 'k123', unit(query));

    // then
    expect(shelf.size).toBe(300);
    const [best] = shelf.search(unit(query), 1, none, VECTOR_INDEX);
    expect(best).toEqual({ memoryId: target.memoryId, score: expect.closeTo(1, 5) });
  });

  it('never returns an excluded key, however many of the best points carry it', () => {
    // given 2,000 points, the 300 nearest to the query under one suppressed key
    const points = clustered(2_000, 64, 10);
    const query = clustered(1, 64, 11)[0]!.vector;
    const nearest = new Set(exactScan(points)(query, 300).map((h) => h.memoryId));
    const shelf = shelfOf(points, (i) => (nearest.has(points[i]!.memoryId) ? 'fact:suppressed' : `k${i}`));

    // when
    const hits = shelf.search(unit(query), 4, new Set(['fact:suppressed']), VECTOR_INDEX);

    // then: the exact best four of the others
    expect(hits).toEqual(exactScan(points.filter((p) => !nearest.has(p.memoryId)))(query, 4));
  });

  it('takes only vectors of its own size, and grows from any first capacity', () => {
    // given
    const shelf = new VectorShelf(4);
    const tiny = new VectorShelf(2, 0);

    // when
    tiny.put('a', 'k1', unit([1, 0]));
    tiny.put('b', 'k2', unit([1, 1]));
    tiny.put('c', 'k3', unit([0, 1]));

    // then
    expect(() => shelf.put('m', 'k', unit([1, 0, 0]))).toThrow(RangeError);
    expect(shelf.search(unit([1, 0, 0]), 4, none, VECTOR_INDEX)).toEqual([]);
    expect(tiny.search(unit([1, 0]), 4, none, VECTOR_INDEX).map((h) => h.memoryId)).toEqual(['a', 'b', 'c']);
  });
});
