import { randomUUID } from 'node:crypto';
import { seededRandom } from '@hearth/testing';
import { exactScan, recallAt } from './exact.js';
import type { VectorHit, VectorIndex, VectorPoint, VectorQuery } from './port.js';

/**
 * The behaviours every VectorIndex shares (turn-pipeline §13), declared as one
 * jest `describe` block that each implementation's test file calls:
 *
 *   vectorIndexContract('qdrant', async () => ({ index, seed, cleanup }));
 *
 * `make` runs before every test and returns a fresh, started, empty index built
 * for vectors of CONTRACT_DIMENSIONS. `seed(points, statuses)` makes `points`
 * ACTIVE and then gives the memories named in `statuses` that status (points
 * seeded earlier may be named too); once it resolves, searches see the change.
 * Qdrant seeds through `index.upsert` and `index.setStatus`; the embedded index
 * through the memory projection it reads. `eraseRows(userId)` does what an
 * erasure does before it calls `eraseUser`: the embedded index's projection
 * rows of the user go (Qdrant: nothing). `cleanup` runs after every test.
 */
export interface ContractFixture {
  index: VectorIndex;
  seed(points: VectorPoint[], statuses?: Record<string, 'SUPERSEDED' | 'INVALID'>): Promise<void>;
  eraseRows(userId: string): Promise<void>;
  cleanup(): Promise<void>;
}

/** The vector size the contract's points and queries use. */
export const CONTRACT_DIMENSIONS = 4;

/** The embedding model of the contract's points and queries… */
export const CONTRACT_MODEL = 'contract-model-a';
/** …and another model, whose vectors a search for CONTRACT_MODEL never returns. */
export const CONTRACT_OTHER_MODEL = 'contract-model-b';

/** Cosine similarities to the query [1, 0, 0, 0] of the vectors below. */
const SQRT1_2 = Math.SQRT1_2;
const INV_SQRT3 = 1 / Math.sqrt(3);

/** Identifiers and points of one test's world: fresh UUIDs every time. */
function world() {
  const me = randomUUID();
  const otherUser = randomUUID();
  const friend = randomUUID();
  const otherFriend = randomUUID();
  const point = (memoryKey: string, vector: number[], over: Partial<VectorPoint> = {}): VectorPoint => ({
    memoryId: randomUUID(),
    userId: me,
    aiFriendId: friend,
    memoryKey,
    model: CONTRACT_MODEL,
    vector,
    ...over,
  });

  // Mine with this companion, of decreasing similarity to the query [1, 0, 0, 0].
  const exact = point('fact:home_city', [1, 0, 0, 0]);
  const near = point('pref:food:sushi', [1, 1, 0, 0]);
  const mid = point('pref:music:jazz', [1, 1, 1, 0]);
  const far = point('fact:occupation', [1, 1, 1, 1]);
  const orthogonal = point('event:school:exam', [0, 1, 0, 0]);
  // As close as `exact`, but not to be returned to me with this companion.
  const otherUsers = point('fact:home_city', [1, 0, 0, 0], { userId: otherUser });
  const otherFriends = point('fact:home_city', [1, 0, 0, 0], { aiFriendId: otherFriend });
  const otherModels = point('fact:home_city', [1, 0, 0, 0], { model: CONTRACT_OTHER_MODEL });
  const superseded = point('fact:current_city', [1, 0, 0, 0]);
  const invalid = point('fact:timezone', [1, 0, 0, 0]);

  const query = (over: Partial<VectorQuery> = {}): VectorQuery => ({
    userId: me,
    aiFriendId: friend,
    vector: [1, 0, 0, 0],
    model: CONTRACT_MODEL,
    topK: 4,
    excludeKeys: [],
    ...over,
  });

  return {
    me,
    otherUser,
    friend,
    otherFriend,
    mine: { exact, near, mid, far, orthogonal },
    others: { otherUsers, otherFriends, otherModels },
    retired: { superseded, invalid },
    all: [exact, near, mid, far, orthogonal, otherUsers, otherFriends, otherModels, superseded, invalid],
    statuses: { [superseded.memoryId]: 'SUPERSEDED', [invalid.memoryId]: 'INVALID' } as Record<string, 'SUPERSEDED' | 'INVALID'>,
    query,
  };
}

const ids = (hits: readonly VectorHit[]) => hits.map((h) => h.memoryId);

export function vectorIndexContract(name: string, make: () => Promise<ContractFixture>): void {
  describe(`VectorIndex contract: ${name} (turn-pipeline §13)`, () => {
    let fixture: ContractFixture | undefined;
    let w: ReturnType<typeof world>;

    const made = () => {
      if (!fixture) throw new Error('the contract fixture was not made');
      return fixture;
    };
    const index = () => made().index;
    const seed: ContractFixture['seed'] = (points, statuses) => made().seed(points, statuses);

    beforeEach(async () => {
      fixture = await make();
      w = world();
    });

    afterEach(async () => {
      const f = fixture;
      fixture = undefined;
      await f?.cleanup();
    });

    it('returns only the asked user and companion ACTIVE points of the model, best first, at most topK', async () => {
      // given points of mine, of another user, another companion, another model, and retired ones
      await seed(w.all, w.statuses);

      // when
      const hits = await index().search(w.query({ topK: 4 }));

      // then
      const { exact, near, mid, far } = w.mine;
      expect(ids(hits)).toEqual([exact.memoryId, near.memoryId, mid.memoryId, far.memoryId]);
      expect(hits.map((h) => h.score)).toEqual([
        expect.closeTo(1, 4),
        expect.closeTo(SQRT1_2, 4),
        expect.closeTo(INV_SQRT3, 4),
        expect.closeTo(0.5, 4),
      ]);
    });

    it('returns fewer than topK when fewer match, and nothing for topK 0', async () => {
      // given
      await seed(w.all, w.statuses);

      // when
      const wide = await index().search(w.query({ topK: 50 }));
      const none = await index().search(w.query({ topK: 0 }));

      // then
      const { exact, near, mid, far, orthogonal } = w.mine;
      expect(ids(wide)).toEqual([exact.memoryId, near.memoryId, mid.memoryId, far.memoryId, orthogonal.memoryId]);
      expect(none).toEqual([]);
    });

    it('finds nothing for a user or companion without points', async () => {
      // given
      await seed(w.all, w.statuses);

      // when
      const stranger = await index().search(w.query({ userId: randomUUID() }));
      const otherFriend = await index().search(w.query({ aiFriendId: w.otherFriend }));

      // then
      expect(stranger).toEqual([]);
      expect(ids(otherFriend)).toEqual([w.others.otherFriends.memoryId]);
    });

    it('stops returning a memory once it is SUPERSEDED or INVALID', async () => {
      // given my points, all found
      const { exact, near, mid, far, orthogonal } = w.mine;
      await seed([exact, near, mid, far, orthogonal]);
      expect(ids(await index().search(w.query()))).toEqual([exact.memoryId, near.memoryId, mid.memoryId, far.memoryId]);

      // when the two best are retired
      await seed([], { [exact.memoryId]: 'SUPERSEDED', [near.memoryId]: 'INVALID' });

      // then
      expect(ids(await index().search(w.query()))).toEqual([mid.memoryId, far.memoryId, orthogonal.memoryId]);
    });

    it('never returns a suppressed memory key', async () => {
      // given
      await seed(w.all, w.statuses);
      const { exact, near, mid, far, orthogonal } = w.mine;

      // when
      const one = await index().search(w.query({ excludeKeys: [exact.memoryKey] }));
      const two = await index().search(w.query({ excludeKeys: [near.memoryKey, 'fact:never_stored', far.memoryKey] }));

      // then
      expect(ids(one)).toEqual([near.memoryId, mid.memoryId, far.memoryId, orthogonal.memoryId]);
      expect(ids(two)).toEqual([exact.memoryId, mid.memoryId, orthogonal.memoryId]);
    });

    it('compares vectors of the same model only', async () => {
      // given
      await seed(w.all, w.statuses);

      // when
      const hits = await index().search(w.query({ model: CONTRACT_OTHER_MODEL }));
      const unknown = await index().search(w.query({ model: 'never-used-model' }));

      // then
      expect(ids(hits)).toEqual([w.others.otherModels.memoryId]);
      expect(unknown).toEqual([]);
    });

    it('starts again without losing or duplicating points', async () => {
      // given
      await seed(w.all, w.statuses);
      const before = await index().search(w.query({ topK: 50 }));

      // when
      await index().start();
      await index().start();

      // then
      expect(ids(await index().search(w.query({ topK: 50 })))).toEqual(ids(before));
      expect(before).toHaveLength(5);
    });

    it('forgets every vector of an erased user and no one else\'s, and erasing again changes nothing', async () => {
      // given: my points found (an in-process index holds them now)
      await seed(w.all, w.statuses);
      expect(await index().search(w.query())).toHaveLength(4);

      // when
      await made().eraseRows(w.me);
      await index().eraseUser(w.me);
      await index().eraseUser(w.me);

      // then
      expect(await index().search(w.query({ topK: 50 }))).toEqual([]);
      expect(await index().search(w.query({ aiFriendId: w.otherFriend }))).toEqual([]);
      expect(ids(await index().search(w.query({ userId: w.otherUser })))).toEqual([w.others.otherUsers.memoryId]);
      await expect(index().eraseUser(randomUUID())).resolves.toBeUndefined();
    });

    it('answers as an exact scan over many points (recall@4 and @50 at least 0.99), suppressed keys and all', async () => {
      // given 600 points of mine, spread around a few directions, 40 of them under one suppressed key
      const next = seededRandom(20);
      const centres = Array.from({ length: 3 }, () => Array.from({ length: CONTRACT_DIMENSIONS }, () => next() - 0.5));
      const many = Array.from({ length: 600 }, (_, i) => ({
        memoryId: randomUUID(),
        userId: w.me,
        aiFriendId: w.friend,
        memoryKey: i % 15 === 0 ? 'fact:suppressed' : `pref:food:item_${i}`,
        model: CONTRACT_MODEL,
        vector: centres[i % 3]!.map((c) => c + 0.5 * (next() - 0.5)),
      }));
      await seed(many);
      const allowed = many.filter((p) => p.memoryKey !== 'fact:suppressed');
      const scan = exactScan(allowed);

      // when
      let at4 = 0;
      let at50 = 0;
      const queries = Array.from({ length: 20 }, () => Array.from({ length: CONTRACT_DIMENSIONS }, () => next() - 0.5));
      for (const vector of queries) {
        const four = await index().search(w.query({ vector, excludeKeys: ['fact:suppressed'] }));
        const fifty = await index().search(w.query({ vector, topK: 50, excludeKeys: ['fact:suppressed'] }));
        expect([...four, ...fifty].filter((h) => !allowed.some((p) => p.memoryId === h.memoryId))).toEqual([]);
        at4 += recallAt(scan(vector, 4), four);
        at50 += recallAt(scan(vector, 50), fifty);
      }

      // then
      expect(at4 / queries.length).toBeGreaterThanOrEqual(0.99);
      expect(at50 / queries.length).toBeGreaterThanOrEqual(0.99);
    });

    it('takes empty writes as no-ops', async () => {
      // given
      await seed([w.mine.exact]);

      // when
      await index().upsert([]);
      await index().setStatus([], 'INVALID');

      // then
      expect(ids(await index().search(w.query()))).toEqual([w.mine.exact.memoryId]);
    });
  });
}
