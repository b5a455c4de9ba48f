/** One hit of a vector search: a memory and its cosine similarity. */
export interface VectorHit {
  memoryId: string;
  score: number;
}

/** A vector search, filtered as §13 says. */
export interface VectorQuery {
  userId: string;
  aiFriendId: string;
  vector: readonly number[];
  /** The embedding model of `vector`: only vectors of the same model compare. */
  model: string;
  topK: number;
  /** The user's suppressed_memory_keys (§12.4): never returned. */
  excludeKeys: readonly string[];
}

/** A memory's point as the index stores it. */
export interface VectorPoint {
  memoryId: string;
  userId: string;
  aiFriendId: string;
  memoryKey: string;
  model: string;
  vector: readonly number[];
}

/**
 * The one interface behind which vectors live (§13): Qdrant when QDRANT_URL is
 * set, else an embedded in-process index rebuilt from the memory projection.
 * Either way a search returns ACTIVE memories of that user and companion only,
 * never a suppressed key.
 */
export interface VectorIndex {
  readonly kind: 'embedded' | 'qdrant';
  /** Creates what the index needs (Qdrant: the collection and payload indexes). */
  start(): Promise<void>;
  search(query: VectorQuery): Promise<VectorHit[]>;
  /**
   * Keeps an external index in step with the memory events: a new ACTIVE point,
   * and status changes (SUPERSEDED; INVALID deletes the point, as the user took
   * its value back). The embedded index reads the projection instead and
   * ignores these.
   */
  upsert(points: readonly VectorPoint[]): Promise<void>;
  setStatus(memoryIds: readonly string[], status: 'ACTIVE' | 'SUPERSEDED' | 'INVALID'): Promise<void>;
  /**
   * Erasure: forgets every vector of the user (Qdrant: deletes the points; the
   * embedded index: drops what it holds in memory, its rows being gone already).
   * Idempotent.
   */
  eraseUser(userId: string): Promise<void>;
  close(): Promise<void>;
}
