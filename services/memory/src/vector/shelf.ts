import { dot, offer } from './exact.js';
import type { VectorHit } from './port.js';
import { nearestFloat32, nearestInt8 } from './usearch.js';

/** How a shelf searches. */
export interface ShelfSearchOptions {
  /**
   * Candidates the int8 scan hands to the float32 re-score (at least twice
   * the hits wanted); a shelf of no more points is scored whole.
   */
  candidates: number;
  /** Threads of a native scan; 1 runs it on the calling thread. */
  threads: number;
}

/** Slack for the float32 rounding of the scans' cosines. */
const ROUNDING = 1e-5;
/** Rows the float32 scan returns beyond the hits wanted, so rows tied in its rounding are re-scored too. */
const TIE_ROWS = 16;

/**
 * Writes the int8 form of the unit vector `v` at `offset` (scaled so its
 * largest component is ±127; the cosine ignores the scale) and returns how
 * far `v` is from that form normalized: the most the int8 cosine of `v` can
 * be off its true cosine with any unit vector, beside the other's own distance.
 */
function quantize(v: Float32Array, into: Int8Array, offset: number): number {
  let max = 0;
  for (let i = 0; i < v.length; i++) max = Math.max(max, Math.abs(v[i]!));
  const s = max === 0 ? 0 : 127 / max;
  let sq = 0;
  for (let i = 0; i < v.length; i++) {
    const q = Math.round(v[i]! * s);
    into[offset + i] = q;
    sq += q * q;
  }
  const norm = Math.sqrt(sq);
  let err = 0;
  for (let i = 0; i < v.length; i++) {
    const d = v[i]! - (norm === 0 ? 0 : into[offset + i]! / norm);
    err += d * d;
  }
  return Math.sqrt(err);
}

/**
 * One user's ACTIVE vectors of one companion and embedding model, all of one
 * size, packed in rows of float32 (the scores) and of int8 (the scan). A search
 * scans the int8 rows natively for candidates and re-scores them in float32
 * until the answer is certain: |int8 cosine − cosine| ≤ δq + δv, δ being each
 * vector's distance from its normalized int8 form, so once the k-th best score
 * re-scored beats every unscored candidate's int8 cosine plus that bound, no
 * other point can enter. Without that certainty (points too alike for int8 to
 * tell apart) it scans the float32 rows instead. Either way the answer is the
 * exact scan's. Deleting moves the last row into the hole: no tombstones, no
 * rebuild, and a search never sees a retired memory.
 */
export class VectorShelf {
  private f32: Float32Array;
  private i8: Int8Array;
  private errors: Float32Array;
  /** No row's δ exceeds it (it never shrinks: a bound, not the maximum). */
  private maxError = 0;
  private readonly ids: string[] = [];
  private readonly keys: string[] = [];
  private readonly rowOf = new Map<string, number>();
  private readonly perKey = new Map<string, number>();

  /** `capacity`: the rows it makes room for at first (it grows past them). */
  constructor(
    readonly dims: number,
    capacity = 16,
  ) {
    const rows = Math.max(1, Math.floor(capacity));
    this.f32 = new Float32Array(dims * rows);
    this.i8 = new Int8Array(dims * rows);
    this.errors = new Float32Array(rows);
  }

  get size(): number {
    return this.ids.length;
  }

  /** Files (or refiles) a memory's unit vector of `dims` values under its key. */
  put(memoryId: string, key: string, vector: Float32Array): void {
    if (vector.length !== this.dims) throw new RangeError(`a vector of ${vector.length} values on a shelf of ${this.dims}`);
    this.drop(memoryId);
    const row = this.ids.length;
    if (row === this.errors.length) this.grow();
    this.f32.set(vector, row * this.dims);
    const error = quantize(vector, this.i8, row * this.dims);
    this.errors[row] = error;
    this.maxError = Math.max(this.maxError, Math.fround(error));
    this.ids.push(memoryId);
    this.keys.push(key);
    this.rowOf.set(memoryId, row);
    this.perKey.set(key, (this.perKey.get(key) ?? 0) + 1);
  }

  /** Takes a memory off the shelf; false when it was not on it. */
  drop(memoryId: string): boolean {
    const row = this.rowOf.get(memoryId);
    if (row === undefined) return false;
    const key = this.keys[row]!;
    const n = this.perKey.get(key)! - 1;
    if (n > 0) this.perKey.set(key, n);
    else this.perKey.delete(key);
    this.rowOf.delete(memoryId);
    const last = this.ids.length - 1;
    if (row !== last) {
      const d = this.dims;
      this.f32.copyWithin(row * d, last * d, last * d + d);
      this.i8.copyWithin(row * d, last * d, last * d + d);
      this.errors[row] = this.errors[last]!;
      this.ids[row] = this.ids[last]!;
      this.keys[row] = this.keys[last]!;
      this.rowOf.set(this.ids[row], row);
    }
    this.ids.pop();
    this.keys.pop();
    return true;
  }

  /**
   * The `topK` memories of highest cosine to the unit vector `query`, best
   * first (ties by id), never one whose key is in `exclude`: the exact scan's
   * answer, found as the class comment says.
   */
  search(query: Float32Array, topK: number, exclude: ReadonlySet<string>, opts: ShelfSearchOptions): VectorHit[] {
    const best: VectorHit[] = [];
    if (topK <= 0 || this.size === 0 || query.length !== this.dims) return best;
    const score = (row: number) => {
      if (!exclude.has(this.keys[row]!)) offer(best, { memoryId: this.ids[row]!, score: dot(this.f32, query, row * this.dims) }, topK);
    };
    // Excluded points take candidate places: ask for as many more.
    let excluded = 0;
    for (const key of exclude) excluded += this.perKey.get(key) ?? 0;
    const wanted = topK + excluded;
    const candidates = Math.max(opts.candidates, 2 * wanted);
    if (candidates >= this.size) {
      for (let row = 0; row < this.size; row++) score(row);
      return best;
    }
    const q = new Int8Array(this.dims);
    const slack = quantize(query, q, 0) + this.maxError + ROUNDING;
    const found = nearestInt8(this.i8.subarray(0, this.size * this.dims), q, this.dims, candidates, opts.threads);
    for (let i = 0; i < found.rows.length; i++) {
      score(found.rows[i]!);
      // Every point not scored yet has an int8 cosine of at most this one's.
      if (best.length === topK && best[topK - 1]!.score > found.cosines[i]! + slack) return best;
    }
    best.length = 0;
    const exact = nearestFloat32(this.f32.subarray(0, this.size * this.dims), query, this.dims, wanted + TIE_ROWS, opts.threads);
    for (const row of exact.rows) score(row);
    return best;
  }

  private grow(): void {
    const f32 = new Float32Array(this.f32.length * 2);
    f32.set(this.f32);
    const i8 = new Int8Array(this.i8.length * 2);
    i8.set(this.i8);
    const errors = new Float32Array(this.errors.length * 2);
    errors.set(this.errors);
    this.f32 = f32;
    this.i8 = i8;
    this.errors = errors;
  }
}
