import { sql, type Kysely } from 'kysely';
import { VECTOR_INDEX } from '../config.js';
import type { MemoryDb } from '../db.js';
import { createProjectionCopy, type ProjectionCopyOptions } from '../projection-copy.js';
import { unit } from './exact.js';
import { float4ArrayFromSend } from './pg-float4.js';
import type { VectorHit, VectorIndex, VectorQuery } from './port.js';
import { VectorShelf, type ShelfSearchOptions } from './shelf.js';

interface Entry {
  /** By companion, embedding model and vector size: only those compare. */
  shelves: Map<string, VectorShelf>;
  /** The shelf each memory is on, to take it off when its row changes. */
  shelfOf: Map<string, VectorShelf>;
}

const shelfKey = (aiFriendId: string, model: string, dims: number) => `${aiFriendId}\u0000${model}\u0000${dims}`;

export type EmbeddedIndexOptions = ProjectionCopyOptions & {
  /** @default VECTOR_INDEX (config.ts) */
  search?: Partial<ShelfSearchOptions>;
};

/**
 * The in-process index when QDRANT_URL is unset: each user's ACTIVE vectors,
 * loaded from the memory projection on first search and brought up to date
 * (the rows changed since) whenever the projection has applied a newer event of
 * that user's chain. So it is always "rebuilt from the projection" — after a
 * restart, a replay, or on another replica — and never disagrees with it. The
 * vectors sit on shelves (vector/shelf.ts), one per companion and model, which
 * a native scan searches.
 */
export function createEmbeddedIndex(db: Kysely<MemoryDb>, opts: EmbeddedIndexOptions): VectorIndex {
  const searchOptions: ShelfSearchOptions = { ...VECTOR_INDEX, ...opts.search };
  // The user's points: all of them the first time, then only the rows changed
  // since, so a write costs the next search a few rows, not 10k.
  const copy = createProjectionCopy<Entry>(db, opts, async (userId, since, cached) => {
    let q = db
      .selectFrom('memories')
      .select(['memory_id', 'ai_friend_id', 'memory_key', 'embedding_model', 'status'])
      // Binary, not the text form: see pg-float4.ts.
      .select(sql<Uint8Array>`array_send(embedding)`.as('embedding'))
      .where('user_id', '=', userId);
    q = since !== null ? q.where('updated_seq', '>', since) : q.where('status', '=', 'ACTIVE');
    const rows = (await q.execute()).map((r) => {
      const vector = r.status === 'ACTIVE' ? unit(float4ArrayFromSend(r.embedding)) : new Float32Array(0);
      return { ...r, vector, shelf: shelfKey(r.ai_friend_id, r.embedding_model, vector.length) };
    });
    const entry: Entry = cached ?? { shelves: new Map(), shelfOf: new Map() };
    // A new shelf is made as large as the rows it gets now: a first load fills it once, without growing.
    const sizes = new Map<string, number>();
    for (const r of rows) if (r.vector.length > 0) sizes.set(r.shelf, (sizes.get(r.shelf) ?? 0) + 1);
    for (const r of rows) {
      entry.shelfOf.get(r.memory_id)?.drop(r.memory_id);
      entry.shelfOf.delete(r.memory_id);
      if (r.vector.length === 0) continue;
      let shelf = entry.shelves.get(r.shelf);
      if (!shelf) entry.shelves.set(r.shelf, (shelf = new VectorShelf(r.vector.length, sizes.get(r.shelf))));
      shelf.put(r.memory_id, r.memory_key, r.vector);
      entry.shelfOf.set(r.memory_id, shelf);
    }
    return entry;
  });

  return {
    kind: 'embedded',
    async start() {
      // Nothing to create: the projection is the index's source.
    },
    async search(q: VectorQuery): Promise<VectorHit[]> {
      if (q.topK <= 0) return [];
      const v = unit(q.vector);
      if (v.length === 0) return [];
      const entry = await copy.get(q.userId);
      const shelf = entry.shelves.get(shelfKey(q.aiFriendId, q.model, v.length));
      return shelf ? shelf.search(v, Math.floor(q.topK), new Set(q.excludeKeys), searchOptions) : [];
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
