import { positionOf } from '@hearth/store';
import type { Kysely } from 'kysely';
import type { MemoryDb } from '../db.js';
import type { VectorHit, VectorIndex, VectorQuery } from './port.js';

interface Entry {
  /** The projection's position on the user's chain when this was loaded. */
  position: number;
  /** Unit vectors, so a search is one dot product per point. */
  points: { memoryId: string; aiFriendId: string; key: string; model: string; vector: Float32Array }[];
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
 * loaded from the memory projection on first search and reloaded whenever the
 * projection has applied a newer event of that user's chain. So it is always
 * "rebuilt from the projection" — after a restart, a replay, or on another
 * replica — and never disagrees with it. Search is exact cosine over the user's
 * points, which stays in single-digit milliseconds at 10k memories per user.
 */
export function createEmbeddedIndex(db: Kysely<MemoryDb>, opts: EmbeddedIndexOptions): VectorIndex {
  const maxUsers = opts.maxUsers ?? 1000;
  const cache = new Map<string, Entry>();

  async function load(userId: string): Promise<Entry> {
    const position = await positionOf(db, opts.projection, opts.subjectOf(userId));
    const cached = cache.get(userId);
    if (cached && cached.position === position) {
      // Most recently used last, so eviction takes the oldest.
      cache.delete(userId);
      cache.set(userId, cached);
      return cached;
    }
    const rows = await db
      .selectFrom('memories')
      .select(['memory_id', 'ai_friend_id', 'memory_key', 'embedding_model', 'embedding'])
      .where('user_id', '=', userId)
      .where('status', '=', 'ACTIVE')
      .execute();
    const points = rows
      .filter((r) => r.embedding.length > 0)
      .map((r) => ({ memoryId: r.memory_id, aiFriendId: r.ai_friend_id, key: r.memory_key, model: r.embedding_model, vector: unit(r.embedding) }))
      .filter((p) => p.vector.length > 0);
    const entry = { position, points };
    cache.delete(userId);
    cache.set(userId, entry);
    while (cache.size > maxUsers) cache.delete(cache.keys().next().value!);
    return entry;
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
      for (const p of entry.points) {
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
    close() {
      cache.clear();
      return Promise.resolve();
    },
  };
}
