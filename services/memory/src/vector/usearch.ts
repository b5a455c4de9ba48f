import { createRequire } from 'node:module';
import type * as Usearch from 'usearch';

// usearch's ESM entry looks for its native binary from the importer's file URL
// and never finds it on Node 20 (endless recursion); its CommonJS entry finds
// the prebuilt binary the npm package ships. So it is required: with the
// bundle's `require` (the bundler then counts the package as a dependency),
// else (tsx, jest) with one made here.
const usearch = (
  typeof require === 'function'
    ? // eslint-disable-next-line @typescript-eslint/no-require-imports -- the CommonJS entry, see above
      require('usearch')
    : createRequire(import.meta.url)('usearch')
) as typeof Usearch;

/** Rows of a matrix nearest a query, best first, with their cosines. */
export interface Nearest {
  rows: Uint32Array;
  cosines: Float32Array;
}

/**
 * The `count` rows of `matrix` (`dims` int8 values each) of highest cosine to
 * `query` (the cosine of the int8 vectors themselves), best first: usearch's
 * exact brute-force scan (SIMD), on the calling thread when `threads` is 1.
 */
export function nearestInt8(matrix: Int8Array, query: Int8Array, dims: number, count: number, threads: number): Nearest {
  return nearest(matrix, query, dims, count, threads, usearch.MetricKind.Cos);
}

/** The same over float32 rows of unit vectors: their dot products are their cosines. */
export function nearestFloat32(matrix: Float32Array, query: Float32Array, dims: number, count: number, threads: number): Nearest {
  return nearest(matrix, query, dims, count, threads, usearch.MetricKind.IP);
}

function nearest<T extends Int8Array | Float32Array>(matrix: T, query: T, dims: number, count: number, threads: number, metric: Usearch.MetricKind): Nearest {
  const rows = matrix.length / dims;
  if (count <= 0 || rows === 0) return { rows: new Uint32Array(0), cosines: new Float32Array(0) };
  const found = usearch.exactSearch(matrix, query, dims, Math.min(count, rows), metric, threads) as Usearch.Matches;
  // Both metrics are distances: 1 - cosine.
  return { rows: Uint32Array.from(found.keys, Number), cosines: found.distances.map((d) => 1 - d) };
}
