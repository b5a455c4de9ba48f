import type { VectorHit } from './port.js';

/** The vector scaled to length 1; empty when it has no length (nothing is near it). */
export function unit(values: ArrayLike<number>): Float32Array {
  let sq = 0;
  for (let i = 0; i < values.length; i++) sq += values[i]! * values[i]!;
  if (sq === 0) return new Float32Array(0);
  const n = Math.sqrt(sq);
  const out = new Float32Array(values.length);
  for (let i = 0; i < values.length; i++) out[i] = values[i]! / n;
  return out;
}

/** Cosine of two unit vectors of one size: their dot product. */
export function dot(a: Float32Array, b: Float32Array, offset = 0): number {
  let s = 0;
  for (let i = 0; i < b.length; i++) s += a[offset + i]! * b[i]!;
  return s;
}

/** Best first: the higher score, then the smaller id, so one state always answers alike. */
export function better(a: VectorHit, b: VectorHit): boolean {
  return a.score > b.score || (a.score === b.score && a.memoryId < b.memoryId);
}

/** Keeps `best` the best `k` hits, best first, offered one at a time. */
export function offer(best: VectorHit[], hit: VectorHit, k: number): void {
  if (best.length === k && !better(hit, best[best.length - 1]!)) return;
  let at = best.length;
  while (at > 0 && better(hit, best[at - 1]!)) at--;
  best.splice(at, 0, hit);
  if (best.length > k) best.pop();
}

/** A point as the exact scan reads it: any vector, unit or not. */
export interface ScanPoint {
  memoryId: string;
  vector: ArrayLike<number>;
}

/**
 * The exact scan over `points`: cosine of a query with every point, the best
 * `k`, ties by id. What the index's recall is measured against (tests,
 * bench:memory), never on the query path.
 */
export function exactScan(points: Iterable<ScanPoint>): (query: ArrayLike<number>, k: number) => VectorHit[] {
  const units = [...points].map((p) => ({ memoryId: p.memoryId, vector: unit(p.vector) }));
  return (query, k) => {
    const q = unit(query);
    const best: VectorHit[] = [];
    if (q.length === 0 || k <= 0) return best;
    for (const p of units) {
      if (p.vector.length === q.length) offer(best, { memoryId: p.memoryId, score: dot(p.vector, q) }, k);
    }
    return best;
  };
}

/** Of the exact top-k ids, the share the index returned too (1 when both are empty). */
export function recallAt(exact: readonly VectorHit[], found: readonly VectorHit[]): number {
  if (exact.length === 0) return 1;
  const got = new Set(found.map((h) => h.memoryId));
  return exact.filter((h) => got.has(h.memoryId)).length / exact.length;
}
