// Runs only against a real Qdrant: export QDRANT_URL (and QDRANT_API_KEY when the
// server wants one), e.g. with infra/compose.yaml. Without it the suite is skipped.
import { randomUUID } from 'node:crypto';
import { QdrantClient } from '@qdrant/js-client-rest';
import { createLogger } from '@hearth/telemetry';
import { CONTRACT_DIMENSIONS, CONTRACT_MODEL, vectorIndexContract } from './contract.js';
import type { VectorIndex, VectorPoint } from './port.js';
import { createQdrantIndex } from './qdrant.js';

const url = process.env.QDRANT_URL;
const apiKey = process.env.QDRANT_API_KEY;
const maybe = url ? describe : describe.skip;

maybe('Qdrant vector index', () => {
  let admin: QdrantClient;
  // Every collection this run made, fresh names only; afterAll deletes what is left.
  const made = new Set<string>();
  const freshCollection = () => {
    const name = `hearth_test_${randomUUID().replaceAll('-', '')}`;
    made.add(name);
    return name;
  };
  const drop = async (collection: string) => {
    await admin.deleteCollection(collection);
    made.delete(collection);
  };
  const indexFor = (collection: string, dimensions = CONTRACT_DIMENSIONS, lines?: string[]): VectorIndex =>
    createQdrantIndex({
      url: url!,
      ...(apiKey ? { apiKey } : {}),
      collection,
      dimensions,
      ...(lines ? { logger: createLogger({ service: 'memory-test', level: 'debug', destination: { write: (l: string) => void lines.push(l) } }) } : {}),
    });

  beforeAll(() => {
    admin = new QdrantClient({ url: url!, ...(apiKey ? { apiKey } : {}), checkCompatibility: false });
  });

  afterAll(async () => {
    // What a failed test left behind; a collection that is gone already is fine.
    for (const collection of [...made]) await drop(collection).catch(() => undefined);
  });

  vectorIndexContract('qdrant', async () => {
    const collection = freshCollection();
    const index = indexFor(collection);
    await index.start();
    return {
      index,
      async seed(points, statuses = {}) {
        await index.upsert(points);
        for (const status of ['SUPERSEDED', 'INVALID'] as const) {
          const ids = Object.entries(statuses)
            .filter(([, s]) => s === status)
            .map(([id]) => id);
          await index.setStatus(ids, status);
        }
      },
      // The points are Qdrant's own: nothing outside the index to remove first.
      eraseRows: () => Promise.resolve(),
      async cleanup() {
        await index.close();
        await drop(collection);
      },
    };
  });

  describe('start', () => {
    it('creates a cosine collection of the given size with keyword indexes on the filtered fields, once', async () => {
      // given
      const collection = freshCollection();
      const lines: string[] = [];
      const index = indexFor(collection, CONTRACT_DIMENSIONS, lines);

      // when
      await index.start();
      await index.start();

      // then
      const info = await admin.getCollection(collection);
      expect(info.config.params.vectors).toMatchObject({ size: CONTRACT_DIMENSIONS, distance: 'Cosine' });
      for (const field of ['user_id', 'ai_friend_id', 'status', 'memory_key', 'model']) {
        expect(info.payload_schema[field]).toMatchObject({ data_type: 'keyword' });
      }
      const messages = lines.map((l) => (JSON.parse(l) as { msg: string }).msg);
      expect(messages.filter((m) => m === 'qdrant collection created')).toHaveLength(1);
      expect(messages.filter((m) => m === 'qdrant payload indexes created')).toHaveLength(1);
      expect(messages.filter((m) => m === 'qdrant vector index ready')).toHaveLength(2);
      await drop(collection);
    });

    it('refuses a collection whose vectors have another size, naming it and both sizes', async () => {
      // given a collection made for 8 dimensions
      const collection = freshCollection();
      await indexFor(collection, 8).start();

      // when an index for 4 dimensions starts on it
      const started = indexFor(collection, CONTRACT_DIMENSIONS).start();

      // then
      await expect(started).rejects.toThrow(new RegExp(`${collection}.*size 8, expected ${CONTRACT_DIMENSIONS}`));
      await drop(collection);
    });
  });

  describe('writes', () => {
    it('skips points of another size, warning once per model, and stores the rest', async () => {
      // given
      const collection = freshCollection();
      const lines: string[] = [];
      const index = indexFor(collection, CONTRACT_DIMENSIONS, lines);
      await index.start();
      const userId = randomUUID();
      const aiFriendId = randomUUID();
      const point = (vector: number[], model = CONTRACT_MODEL): VectorPoint => ({
        memoryId: randomUUID(),
        userId,
        aiFriendId,
        memoryKey: 'fact:home_city',
        model,
        vector,
      });
      const fitting = point([1, 0, 0, 0]);

      // when
      await index.upsert([point([1, 0]), fitting, point([1, 0, 0])]);
      await index.upsert([point([1, 0, 0, 0, 0], 'other-model')]);

      // then
      const hits = await index.search({ userId, aiFriendId, vector: [1, 0, 0, 0], model: CONTRACT_MODEL, topK: 4, excludeKeys: [] });
      expect(hits.map((h) => h.memoryId)).toEqual([fitting.memoryId]);
      const warnings = lines.map((l) => JSON.parse(l) as { level: string; model?: string }).filter((l) => l.level === 'warn');
      expect(warnings.map((w) => w.model)).toEqual([CONTRACT_MODEL, 'other-model']);
      await drop(collection);
    });

    it('deletes the points of INVALID memories: no vector of a value the user deleted stays', async () => {
      // given
      const collection = freshCollection();
      const index = indexFor(collection);
      await index.start();
      const base = { userId: randomUUID(), aiFriendId: randomUUID(), memoryKey: 'fact:occupation', model: CONTRACT_MODEL };
      const kept = { ...base, memoryId: randomUUID(), vector: [1, 0, 0, 0] };
      const forgotten = { ...base, memoryId: randomUUID(), vector: [0, 1, 0, 0] };
      await index.upsert([kept, forgotten]);

      // when
      await index.setStatus([forgotten.memoryId], 'INVALID');
      await index.setStatus([kept.memoryId], 'SUPERSEDED');

      // then
      const left = await admin.retrieve(collection, { ids: [kept.memoryId, forgotten.memoryId], with_vector: true });
      expect(left.map((p) => String(p.id))).toEqual([kept.memoryId]);
      await drop(collection);
    });

    it('takes a status change for a memory it never stored as nothing to do', async () => {
      // given
      const collection = freshCollection();
      const index = indexFor(collection);
      await index.start();

      // when
      const changed = index.setStatus([randomUUID()], 'SUPERSEDED');

      // then
      await expect(changed).resolves.toBeUndefined();
      await drop(collection);
    });

    it('names the operation when Qdrant refuses a request', async () => {
      // given an index whose collection was never created (nor will be: not start()ed)
      const index = indexFor(`hearth_test_missing_${randomUUID().replaceAll('-', '')}`);

      // when
      const searched = index.search({
        userId: randomUUID(),
        aiFriendId: randomUUID(),
        vector: [1, 0, 0, 0],
        model: CONTRACT_MODEL,
        topK: 4,
        excludeKeys: [],
      });

      // then
      await expect(searched).rejects.toThrow(/^qdrant query failed: /);
    });
  });
});
