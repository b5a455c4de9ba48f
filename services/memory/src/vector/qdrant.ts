import { QdrantClient, type Schemas } from '@qdrant/js-client-rest';
import type { Logger } from '@hearth/telemetry';
import type { VectorHit, VectorIndex, VectorPoint, VectorQuery } from './port.js';

export interface QdrantIndexOptions {
  /** QDRANT_URL, with its protocol (http:// or https://). */
  url: string;
  apiKey?: string;
  collection: string;
  /** The embedder's dimensions: the collection's vector size. */
  dimensions: number;
  logger?: Logger;
}

/** The payload fields a search filters on (§13), each with a keyword index. */
const INDEXED_FIELDS = ['user_id', 'ai_friend_id', 'status', 'memory_key', 'model'] as const;

/** Points per upsert request, so a large catch-up does not make one huge body. */
const UPSERT_BATCH = 256;

type Status = 'ACTIVE' | 'SUPERSEDED' | 'INVALID';

/**
 * The vector index in Qdrant (§13), one point per memory: the point id is the
 * memory id (a UUID), the payload carries what a search filters on.
 */
export function createQdrantIndex(opts: QdrantIndexOptions): VectorIndex {
  const { collection, dimensions, logger } = opts;
  if (!Number.isInteger(dimensions) || dimensions <= 0) {
    throw new Error(`qdrant collection ${collection}: dimensions must be a positive integer, got ${dimensions}`);
  }
  // No compatibility check in the constructor: it runs unawaited and reports with
  // console.warn. start() asks for the server's version itself and logs it.
  const client = new QdrantClient({ url: opts.url, apiKey: opts.apiKey, checkCompatibility: false });
  const warnedModels = new Set<string>();

  /** Whether a vector has the collection's size; warns once per model that does not. */
  function fits(model: string, size: number): boolean {
    if (size === dimensions) return true;
    if (!warnedModels.has(model)) {
      warnedModels.add(model);
      logger?.warn(
        { collection, model, expected: dimensions, found: size },
        'qdrant index skips vectors whose size differs from the collection (not stored, never found)',
      );
    }
    return false;
  }

  async function call<T>(operation: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      throw new Error(`qdrant ${operation} failed: ${describeError(err)}`, { cause: err });
    }
  }

  async function ensureCollection(): Promise<Schemas['CollectionInfo']> {
    const { exists } = await call('collectionExists', () => client.collectionExists(collection));
    if (!exists) {
      try {
        await client.createCollection(collection, { vectors: { size: dimensions, distance: 'Cosine' } });
        logger?.info({ collection, dimensions, distance: 'Cosine' }, 'qdrant collection created');
      } catch (err) {
        // Another process may have created it between the check and here.
        const again = await call('collectionExists', () => client.collectionExists(collection));
        if (!again.exists) throw new Error(`qdrant createCollection failed: ${describeError(err)}`, { cause: err });
      }
    }
    const info = await call('getCollection', () => client.getCollection(collection));
    checkVectors(collection, dimensions, info.config.params.vectors);
    return info;
  }

  async function ensurePayloadIndexes(info: Schemas['CollectionInfo']): Promise<void> {
    const created: string[] = [];
    for (const field of INDEXED_FIELDS) {
      const existing = info.payload_schema[field];
      if (existing) {
        if (existing.data_type !== 'keyword') {
          logger?.warn({ collection, field, dataType: existing.data_type }, 'qdrant payload index is not a keyword index; left as it is');
        }
        continue;
      }
      // Idempotent on the server too: a keyword index that exists already is fine.
      await call('createPayloadIndex', () =>
        client.createPayloadIndex(collection, { field_name: field, field_schema: 'keyword', wait: true }),
      );
      created.push(field);
    }
    if (created.length > 0) logger?.info({ collection, fields: created }, 'qdrant payload indexes created');
  }

  return {
    kind: 'qdrant',

    async start() {
      const version = await call('versionInfo', () => client.versionInfo());
      const info = await ensureCollection();
      await ensurePayloadIndexes(info);
      logger?.info(
        { collection, dimensions, server: version.version, points: info.points_count ?? null },
        'qdrant vector index ready',
      );
    },

    async upsert(points: readonly VectorPoint[]) {
      const fitting = points.filter((p) => fits(p.model, p.vector.length));
      for (let i = 0; i < fitting.length; i += UPSERT_BATCH) {
        const batch = fitting.slice(i, i + UPSERT_BATCH).map((p) => ({
          id: p.memoryId,
          vector: [...p.vector],
          payload: {
            user_id: p.userId,
            ai_friend_id: p.aiFriendId,
            memory_key: p.memoryKey,
            model: p.model,
            status: 'ACTIVE' satisfies Status,
          },
        }));
        await call('upsert', () => client.upsert(collection, { wait: true, points: batch }));
      }
    },

    async setStatus(memoryIds: readonly string[], status: Status) {
      if (memoryIds.length === 0) return;
      // By a has_id filter rather than a list of points: a memory whose vector never
      // reached the index (skipped, or older than it) is no error, just nothing to do.
      const filter = { must: [{ has_id: [...memoryIds] }] };
      if (status === 'INVALID') {
        // The user deleted these memories: the vectors made from their values go too.
        await call('delete', () => client.delete(collection, { filter, wait: true }));
        return;
      }
      await call('setPayload', () => client.setPayload(collection, { payload: { status }, filter, wait: true }));
    },

    async eraseUser(userId: string) {
      await call('delete', () => client.delete(collection, { filter: { must: [{ key: 'user_id', match: { value: userId } }] }, wait: true }));
    },

    async search(q: VectorQuery): Promise<VectorHit[]> {
      if (q.topK <= 0) return [];
      // No point of another size is ever stored (upsert skips them), so nothing could match.
      if (!fits(q.model, q.vector.length)) return [];
      const filter: Schemas['Filter'] = {
        must: [
          { key: 'user_id', match: { value: q.userId } },
          { key: 'ai_friend_id', match: { value: q.aiFriendId } },
          { key: 'status', match: { value: 'ACTIVE' } },
          { key: 'model', match: { value: q.model } },
        ],
      };
      if (q.excludeKeys.length > 0) filter.must_not = [{ key: 'memory_key', match: { any: [...q.excludeKeys] } }];
      const res = await call('query', () =>
        client.query(collection, {
          query: [...q.vector],
          filter,
          limit: Math.floor(q.topK),
          with_payload: false,
          with_vector: false,
        }),
      );
      // Qdrant answers best first; the id is the memory id as Qdrant prints a UUID.
      return res.points.map((p) => ({ memoryId: String(p.id), score: p.score }));
    },

    async close() {
      // The client keeps no connection to close; its keep-alive sockets idle out.
    },
  };
}

/** Throws unless the collection holds one unnamed cosine vector of `dimensions`. */
function checkVectors(collection: string, dimensions: number, config: Schemas['VectorsConfig'] | undefined): void {
  const vectors = config as Partial<Schemas['VectorParams']> | undefined;
  if (!vectors || typeof vectors.size !== 'number') {
    throw new Error(
      `qdrant collection ${collection} has no single unnamed vector (expected size ${dimensions}, found ${JSON.stringify(config ?? null)})`,
    );
  }
  if (vectors.size !== dimensions) {
    throw new Error(
      `qdrant collection ${collection} has vectors of size ${vectors.size}, expected ${dimensions}: ` +
        'use another collection name (or delete this one) when the embedding dimensions change',
    );
  }
  if (vectors.distance !== 'Cosine') {
    throw new Error(`qdrant collection ${collection} uses ${String(vectors.distance)} distance, expected Cosine`);
  }
}

/** The client's errors carry the response: status and Qdrant's own message. */
function describeError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const e = err as Error & { status?: unknown; data?: unknown };
  const serverMessage = (e.data as { status?: { error?: unknown } } | undefined)?.status?.error;
  const parts = [typeof e.status === 'number' ? `${e.status} ${e.message}` : e.message];
  if (typeof serverMessage === 'string') parts.push(serverMessage);
  // fetch's own "fetch failed" says why only in its cause (ECONNREFUSED and the like).
  if (e.cause instanceof Error) parts.push(e.cause.message);
  return parts.join(': ');
}
