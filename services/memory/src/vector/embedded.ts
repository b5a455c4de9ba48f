import type { Kysely } from 'kysely';
import type { MemoryDb } from '../db.js';
import { createProjectionCopy, type ProjectionCopyOptions } from '../projection-copy.js';
import type { VectorHit, VectorIndex, VectorQuery } from './port.js';

interface Point {
  memoryId: string;
  aiFriendId: string;
  key: string;
  model: string;
  /** A unit vector, so a search is one dot product per point. */
  vector: Float32Array;
}

interface Entry {
  /** The user's ACTIVE points with a vector, by memory id… */
  points: Map<string, Point>;
  /** …and as an array, which a search scans faster (rebuilt after a change). */
  list: Point[];
}

/** The vector scaled to length 1; empty when it has no length (nothing is near it). */
function unit(values: readonly number[]): Float32Array {
  let sq = 0;
  for (const x of values) sq += x * x;
  if (sq === 0) return new Float32Array(0);
  const n = Math.sqrt(sq);
  return Float32Array.from(values, (x) => x / n);
}

export type EmbeddedIndexOptions = ProjectionCopyOptions;

/**
 * The in-process index when QDRANT_URL is unset: each user's ACTIVE vectors,
 * loaded from the memory projection on first search and brought up to date
 * (the rows changed since) whenever the projection has applied a newer event of
 * that user's chain. So it is always
 * "rebuilt from the projection" — after a restart, a replay, or on another
 * replica — and never disagrees with it. Search is exact cosine over the user's
 * points, which stays in single-digit milliseconds at 10k memories per user.
 */
export function createEmbeddedIndex(db: Kysely<MemoryDb>, opts: EmbeddedIndexOptions): VectorIndex {
  // The user's points: all of them the first time, then only the rows changed
  // since, so a write costs the next search a few rows, not 10k.
  const copy = createProjectionCopy<Entry>(db, opts, async (userId, since, cached) => {
    let q = db
      .selectFrom('memories')
      .select(['memory_id', 'ai_friend_id', 'memory_key', 'embedding_model', 'embedding', 'status'])
      .where('user_id', '=', userId);
    q = since !== null ? q.where('updated_seq', '>', since) : q.where('status', '=', 'ACTIVE');
    const rows = await q.execute();
    const points = cached ? cached.points : new Map<string, Point>();
    for (const r of rows) {
      const vector = r.status === 'ACTIVE' ? unit(r.embedding) : new Float32Array(0);
      if (vector.length === 0) points.delete(r.memory_id);
      else points.set(r.memory_id, { memoryId: r.memory_id, aiFriendId: r.ai_friend_id, key: r.memory_key, model: r.embedding_model, vector });
    }
    return { points, list: rows.length > 0 || !cached ? [...points.values()] : cached.list };
  });

  return {
    kind: 'embedded',
    async start() {
      // Nothing to create: the projection is the index's source.
    },
    async search(q: VectorQuery): Promise<VectorHit[]> {
      if (q.topK <= 0) return [];
      const entry = await copy.get(q.userId);
      const exclude = new Set(q.excludeKeys);
      const v = unit(q.vector);
      if (v.length === 0) return [];
      // The best topK so far, best first; ties by id, so the same state always answers the same.
      const best: VectorHit[] = [];
      const better = (a: VectorHit, b: VectorHit) => a.score > b.score || (a.score === b.score && a.memoryId < b.memoryId);
      for (const p of entry.list) {
        if (p.aiFriendId !== q.aiFriendId || p.model !== q.model || p.vector.length !== v.length || exclude.has(p.key)) continue;
        let dot = 0;
        for (let i = 0; i < v.length; i++) dot += p.vector[i]! * v[i]!;
        const hit = { memoryId: p.memoryId, score: dot };
        if (best.length === q.topK && !better(hit, best[best.length - 1]!)) continue;
        let at = best.length;
        while (at > 0 && better(hit, best[at - 1]!)) at--;
        best.splice(at, 0, hit);
        if (best.length > q.topK) best.pop();
      }
      return best;
    },
    // The projection is the source of truth here; events reach it, not the index.
    upsert: () => Promise.resolve(),
    setStatus: () => Promise.resolve(),
    // The rows are deleted by the projection's erase; only this process's copy is left.
    eraseUser(userId: string) {
      copy.forget(userId);
      return Promise.resolve();
    },
    close() {
      copy.clear();
      return Promise.resolve();
    },
  };
}
