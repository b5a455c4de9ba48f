import { positionOf } from '@hearth/store';
import type { Kysely } from 'kysely';
import type { MemoryDb } from '../db.js';
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
  /** The projection's position on the user's chain when this was loaded. */
  position: number;
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

export interface EmbeddedIndexOptions {
  /** The projection it reads (its positions tell when a user's vectors changed). */
  projection: string;
  /** The memory stream's subject of a user, e.g. `hearth.memory.v1.<user_id>`. */
  subjectOf: (userId: string) => string;
  /** Users kept in memory at once; the least recently used go first. @default 1000 */
  maxUsers?: number;
}

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
  const maxUsers = opts.maxUsers ?? 1000;
  const cache = new Map<string, Entry>();

  function touch(userId: string, entry: Entry): Entry {
    // Most recently used last, so eviction takes the oldest.
    cache.delete(userId);
    cache.set(userId, entry);
    while (cache.size > maxUsers) cache.delete(cache.keys().next().value!);
    return entry;
  }

  /**
   * The user's points as of the projection's position now: all of them the
   * first time, then only the rows changed since (a new record, a supersede, an
   * invalidation), so a write costs the next search a few rows, not 10k.
   */
  async function load(userId: string): Promise<Entry> {
    const position = await positionOf(db, opts.projection, opts.subjectOf(userId));
    let cached = cache.get(userId);
    if (cached && cached.position === position) return touch(userId, cached);
    // A position behind the cached one means the rows were rebuilt or erased
    // (deleted rows leave no trace to catch up on): load afresh.
    if (cached && position < cached.position) cached = undefined;
    let q = db
      .selectFrom('memories')
      .select(['memory_id', 'ai_friend_id', 'memory_key', 'embedding_model', 'embedding', 'status'])
      .where('user_id', '=', userId);
    // Rows changed after the cached position; a fresh load reads only ACTIVE ones.
    q = cached ? q.where('updated_seq', '>', cached.position) : q.where('status', '=', 'ACTIVE');
    const rows = await q.execute();
    const points = cached ? cached.points : new Map<string, Point>();
    for (const r of rows) {
      const vector = r.status === 'ACTIVE' ? unit(r.embedding) : new Float32Array(0);
      if (vector.length === 0) points.delete(r.memory_id);
      else points.set(r.memory_id, { memoryId: r.memory_id, aiFriendId: r.ai_friend_id, key: r.memory_key, model: r.embedding_model, vector });
    }
    return touch(userId, { position, points, list: rows.length > 0 || !cached ? [...points.values()] : cached.list });
  }

  return {
    kind: 'embedded',
    async start() {
      // Nothing to create: the projection is the index's source.
    },
    async search(q: VectorQuery): Promise<VectorHit[]> {
      if (q.topK <= 0) return [];
      const entry = await load(q.userId);
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
      cache.delete(userId);
      return Promise.resolve();
    },
    close() {
      cache.clear();
      return Promise.resolve();
    },
  };
}
