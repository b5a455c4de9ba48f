import { positionOf } from '@hearth/store';
import type { Kysely } from 'kysely';
import type { MemoryDb } from './db.js';

export interface ProjectionCopyOptions {
  /** The projection it reads (its positions tell when a user's memories changed). */
  projection: string;
  /** The memory stream's subject of a user, e.g. `hearth.memory.v1.<user_id>`. */
  subjectOf: (userId: string) => string;
  /** Users kept in memory at once; the least recently used go first. @default 1000 */
  maxUsers?: number;
}

/**
 * Brings one user's copy up to date: from nothing (`since` null: read the
 * user's ACTIVE rows), or from `cached` with the rows changed after `since`
 * (`updated_seq > since`: a new record, a confirmation, a supersede, an
 * invalidation).
 */
export type Refresh<T> = (userId: string, since: number | null, cached: T | undefined) => Promise<T>;

export interface ProjectionCopy<T> {
  /** The user's copy as of the projection's position now. */
  get(userId: string): Promise<T>;
  /** Erasure: this process's copy of the user goes (their rows are gone already). */
  forget(userId: string): void;
  clear(): void;
}

/**
 * A per-user in-process copy of the memory projection's rows — what the
 * embedded vector index and the lexical index search — loaded on a user's first
 * search and caught up whenever the projection has applied a newer event of
 * that user's chain. So it is always rebuilt from the projection (after a
 * restart, a replay, or on another replica) and never disagrees with it. A
 * position behind the cached one means the rows were rebuilt or erased
 * (deleted rows leave no trace to catch up on): the copy is loaded afresh.
 */
export function createProjectionCopy<T>(db: Kysely<MemoryDb>, opts: ProjectionCopyOptions, refresh: Refresh<T>): ProjectionCopy<T> {
  const maxUsers = opts.maxUsers ?? 1000;
  const cache = new Map<string, { position: number; value: T }>();
  // One refresh per user at a time: two interleaved catch-ups could file an older row over a newer one.
  const loading = new Map<string, Promise<T>>();

  function touch(userId: string, position: number, value: T): T {
    // Most recently used last, so eviction takes the oldest.
    cache.delete(userId);
    cache.set(userId, { position, value });
    while (cache.size > maxUsers) cache.delete(cache.keys().next().value!);
    return value;
  }

  async function loadNow(userId: string): Promise<T> {
    const position = await positionOf(db, opts.projection, opts.subjectOf(userId));
    let cached = cache.get(userId);
    if (cached && cached.position === position) return touch(userId, position, cached.value);
    if (cached && position < cached.position) cached = undefined;
    return touch(userId, position, await refresh(userId, cached ? cached.position : null, cached?.value));
  }

  return {
    get(userId) {
      const next = (loading.get(userId) ?? Promise.resolve(undefined)).catch(() => undefined).then(() => loadNow(userId));
      loading.set(userId, next);
      void next
        .finally(() => {
          if (loading.get(userId) === next) loading.delete(userId);
        })
        .catch(() => undefined);
      return next;
    },
    forget(userId) {
      cache.delete(userId);
    },
    clear() {
      cache.clear();
    },
  };
}
