import { appendDecided, draft, type Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, isUuid } from '@hearth/events';
import type { Embedder } from '@hearth/llm';
import { memory } from '@hearth/proto';
import { pollUntil, requirePosition, waitForPosition } from '@hearth/store';
import type { Logger } from '@hearth/telemetry';
import { sql, type Kysely, type Selectable } from 'kysely';
import { RETRIEVAL, WRITEBACK } from '../config.js';
import type { MemoriesTable, MemoryDb } from '../db.js';
import { snippet } from '../domain/describe.js';
import { rankWeighted } from '../domain/ranking.js';
import { byRank, fuseRankings, withCosine } from '../domain/relevance.js';
import { createLexicalIndex, type LexicalIndex } from '../lexical/index.js';
import { memoriesProjection } from '../projections/memories.js';
import type { VectorIndex } from '../vector/port.js';

/** A memory query that cannot be answered: ids that are not uuids. */
export class InvalidMemoryRequestError extends Error {
  readonly code = 'MEMORY_INVALID_REQUEST';

  constructor(message: string) {
    super(message);
    this.name = 'InvalidMemoryRequestError';
  }
}

// The bus carries a query's error in a header: one line, whatever the caller sent.
function uuidOf(name: string, value: string, optional = false): string {
  if (optional && value === '') return '';
  if (!isUuid(value)) throw new InvalidMemoryRequestError(`${name} must be a uuid, got ${JSON.stringify(value.slice(0, 64))}`);
  return value.toLowerCase();
}

/**
 * Every column a snippet shows — not the embedding, whose text form costs more
 * to parse than the rest of a query (50 rows: milliseconds).
 */
const SNIPPET_COLUMNS = [
  'memory_id',
  'type',
  'memory_key',
  'memory_value',
  'confidence',
  'reliability',
  'created_at',
  'last_confirmed_at',
  'topic_ids',
  'occurred_on',
  'occurred_precision',
] as const satisfies readonly (keyof MemoriesTable)[];

/** …and every column a record shows. */
const RECORD_COLUMNS = [...SNIPPET_COLUMNS, 'status', 'source_message_ids', 'superseded_by', 'ai_friend_id'] as const;

type SnippetRow = Pick<Selectable<MemoriesTable>, (typeof SNIPPET_COLUMNS)[number]>;
type RecordRow = Pick<Selectable<MemoriesTable>, (typeof RECORD_COLUMNS)[number]>;

/**
 * `memory_id = any($1)`: one array parameter instead of one per id, which costs
 * Postgres (and PGlite most) less to parse and plan: -20% for SearchMemories' ~100
 * ids, more for the thousands of FindMemories' hits.
 */
function anyOf(ids: readonly string[]) {
  return sql<string>`any(${[...ids]}::uuid[])`;
}

function selectRecords(db: Kysely<MemoryDb>) {
  return db.selectFrom('memories').select(RECORD_COLUMNS);
}

function toSnippet(r: SnippetRow, score = 0, relevance = 0): memory.MemorySnippet {
  return {
    memoryId: r.memory_id,
    type: r.type,
    memoryKey: r.memory_key,
    memoryValue: snippet(r.memory_value),
    confidence: r.confidence,
    topicIds: r.topic_ids,
    createdAt: r.created_at,
    lastConfirmedAt: r.last_confirmed_at,
    score,
    relevance,
    occurredOn: r.occurred_on ?? '',
    occurredPrecision: r.occurred_precision ?? '',
    reliability: r.reliability,
  };
}

/** A row as retrieval ranks it (domain/ranking): `score` its relevance to the query. */
function ranked<R extends Pick<SnippetRow, 'memory_id' | 'type' | 'confidence' | 'reliability' | 'last_confirmed_at'>>(r: R, score: number) {
  return { row: r, memoryId: r.memory_id, score, type: r.type, confidence: r.confidence, reliability: r.reliability, lastConfirmedAt: r.last_confirmed_at.getTime() };
}

function toRecord(r: RecordRow): memory.MemoryRecord {
  return {
    memoryId: r.memory_id,
    type: r.type,
    memoryKey: r.memory_key,
    memoryValue: r.memory_value,
    confidence: r.confidence,
    status: r.status,
    // The double API.md called reliability before issue 17 (the confidence); kept on the wire.
    reliability: r.confidence,
    reliabilityState: r.reliability,
    sourceMessageIds: r.source_message_ids,
    createdAt: r.created_at,
    lastConfirmedAt: r.last_confirmed_at,
    supersededBy: r.superseded_by ?? '',
    aiFriendId: r.ai_friend_id,
    topicIds: r.topic_ids,
    occurredOn: r.occurred_on ?? '',
    occurredPrecision: r.occurred_precision ?? '',
  };
}

export interface QueryDeps {
  bus: Bus;
  db: Kysely<MemoryDb>;
  clock: Clock;
  index: VectorIndex;
  /**
   * BM25 and relevance over the memories' words (issue 15); the service passes
   * one index to all its queries.
   * @default an index of each query's own, over `db` at the memory projection's positions
   */
  lexical?: LexicalIndex;
  embedder: Embedder;
  logger?: Logger;
}

function lexicalOf(deps: QueryDeps): LexicalIndex {
  return deps.lexical ?? createLexicalIndex(deps.db, { projection: memoriesProjection.name, subjectOf: (userId) => deps.bus.topology.subject('memory', userId) });
}

/**
 * Vectors that carry meaning: an embeddings endpoint is configured. The local
 * hashing embedder's vectors only share letters with the query, which the
 * lexical ranking already weighs, better.
 */
function meaningfulVectors(embedder: Embedder): boolean {
  return embedder.provider !== 'local-hash';
}

/**
 * Read your writes: wait (briefly) until the projection holds the user's latest
 * event of each of its sources (memory's own, and uncertainty's reliability states).
 */
async function caughtUp(deps: QueryDeps, userId: string): Promise<void> {
  for (const source of memoriesProjection.sources) {
    const last = await deps.bus.lastOnSubject(source, userId);
    if (last) await waitForPosition(deps.db, memoriesProjection.name, last.subject, last.seq, { timeoutMs: 2_000 });
  }
}

/**
 * Waits (up to RETRIEVAL.writtenBackWaitMs) until memory has written back the
 * turn of `messageId`: a "forget that" in the previous message is then applied
 * before the next reply reads memories. "" waits for nothing.
 */
async function writtenBack(deps: QueryDeps, userId: string, messageId: string): Promise<void> {
  if (!messageId) return;
  const written = await pollUntil(
    async () => (await deps.db.selectFrom('memory_turns').select('message_id').where('user_id', '=', userId).where('message_id', '=', messageId).executeTakeFirst()) !== undefined,
    { timeoutMs: RETRIEVAL.writtenBackWaitMs, intervalMs: 10 },
  );
  if (!written) {
    deps.logger?.warn({ userId, messageId, waitedMs: RETRIEVAL.writtenBackWaitMs }, 'the previous turn is not written back yet: answering from the memories as they are');
  }
}

function suppressedKeys(db: Kysely<MemoryDb>, userId: string) {
  return db.selectFrom('suppressed_keys').select('memory_key').where('user_id', '=', userId);
}

/**
 * FindMemories (§7.1 step 2): the user's ACTIVE memories with this companion,
 * never a suppressed key, most recently confirmed first, then most confident.
 * With query text (issue 15), the memories that share a content word with it
 * come first (lexical only: §13 keeps the vector part ON_DEMAND), ordered by
 * relevance × assembly weight (issue 17, domain/ranking: a contradicted or
 * superseded-state memory below an equally relevant reliable one), each with
 * its relevance as both `relevance` and `score`; the rest of the limit follows
 * as without (no relevance: nothing for the weight to scale).
 */
export function createFindMemoriesQuery(deps: QueryDeps) {
  const lexical = lexicalOf(deps);
  return async (req: memory.FindMemoriesRequest): Promise<memory.MemoriesResponse> => {
    const userId = uuidOf('user_id', req.userId);
    const aiFriendId = uuidOf('ai_friend_id', req.aiFriendId, true);
    const limit = Math.min(req.limit || RETRIEVAL.defaultLimit, RETRIEVAL.maxLimit);
    const text = req.queryText.trim();
    await writtenBack(deps, userId, uuidOf('after_message_id', req.afterMessageId, true));
    let active = deps.db
      .selectFrom('memories')
      .where('user_id', '=', userId)
      .where('status', '=', 'ACTIVE')
      .where('memory_key', 'not in', suppressedKeys(deps.db, userId));
    if (aiFriendId) active = active.where('ai_friend_id', '=', aiFriendId);
    const relevant: memory.MemorySnippet[] = [];
    if (text) {
      // Suppressed keys are left to the row reads (`active`), which drop them: one round trip fewer.
      const hits = await lexical.search({ userId, aiFriendId, text, excludeKeys: [] });
      if (hits.length > 0) {
        // Every hit's weight needs its type and state before the limit cuts. With
        // more hits than that, those few columns of every hit first (thousands at
        // 100k), the shown ones of the best after.
        const relevanceOf = new Map(hits.map((h) => [h.memoryId, h.relevance]));
        const ids = [...relevanceOf.keys()];
        const now = deps.clock.now().getTime();
        if (hits.length <= limit) {
          const rows = await active.select(SNIPPET_COLUMNS).where('memory_id', '=', anyOf(ids)).execute();
          for (const m of rankWeighted(rows.map((r) => ranked(r, relevanceOf.get(r.memory_id)!)), now)) relevant.push(toSnippet(m.row, m.score, m.score));
        } else {
          const weighed = await active.select(['memory_id', 'type', 'confidence', 'reliability', 'last_confirmed_at']).where('memory_id', '=', anyOf(ids)).execute();
          const best = rankWeighted(
            weighed.map((r) => ranked(r, relevanceOf.get(r.memory_id)!)),
            now,
          ).slice(0, limit);
          const shown = best.length > 0 ? await active.select(SNIPPET_COLUMNS).where('memory_id', '=', anyOf(best.map((m) => m.memoryId))).execute() : [];
          const rowOf = new Map(shown.map((r) => [r.memory_id, r]));
          for (const m of best) {
            const r = rowOf.get(m.memoryId);
            if (r) relevant.push(toSnippet(r, m.score, m.score));
          }
        }
      }
    }
    let q = active.select(SNIPPET_COLUMNS);
    if (relevant.length > 0) q = q.where('memory_id', 'not in', relevant.map((m) => m.memoryId));
    const rest = relevant.length < limit ? await q.orderBy('last_confirmed_at', 'desc').orderBy('confidence', 'desc').orderBy('memory_id').limit(limit - relevant.length).execute() : [];
    return { memories: [...relevant, ...rest.map((r) => toSnippet(r))] };
  };
}

/**
 * SearchMemories (§13, hybrid per issue 15): the BM25 ranking of the memories'
 * words and, with real embeddings, the vector ranking of the query embedded as
 * memories are, fused by reciprocal rank, each ranking ordered by its score
 * (BM25, cosine) × assembly weight (issue 17, domain/ranking: a contradicted or
 * superseded-state memory below an equally relevant reliable one); ties go to
 * the more recently confirmed, then the more confident. topK (default 4),
 * filtered by user and companion, ACTIVE only, suppressed keys excluded —
 * checked against the projection before ranking, so a lagging external index
 * can never return an INVALID memory; each ranking is its best fusionDepth of
 * the memories that check keeps. Each snippet's score is its fused score, its
 * relevance the lexical one or the cosine, whichever is higher.
 */
export function createSearchMemoriesQuery(deps: QueryDeps) {
  const lexical = lexicalOf(deps);
  return async (req: memory.SearchMemoriesRequest): Promise<memory.MemoriesResponse> => {
    const userId = uuidOf('user_id', req.userId);
    const aiFriendId = uuidOf('ai_friend_id', req.aiFriendId);
    const topK = Math.min(req.topK || RETRIEVAL.topK, RETRIEVAL.maxLimit);
    const text = req.queryText.trim();
    if (text === '') return { memories: [] };
    await writtenBack(deps, userId, uuidOf('after_message_id', req.afterMessageId, true));
    const vector = meaningfulVectors(deps.embedder) ? (await deps.embedder.embed([text]))[0]! : undefined;
    const depth = RETRIEVAL.fusionDepth;
    const candidates = async (excludeKeys: readonly string[], deep: number) => {
      const cosines = new Map<string, number>();
      if (vector) for (const h of await deps.index.search({ userId, aiFriendId, vector, model: deps.embedder.model, topK: deep, excludeKeys })) cosines.set(h.memoryId, h.score);
      // The best BM25 hits, and the vector hits' lexical relevance whatever their BM25 rank.
      const words = await lexical.search({ userId, aiFriendId, text, excludeKeys, limit: deep, include: [...cosines.keys()] });
      const bm25 = new Map(words.slice(0, deep).map((h) => [h.memoryId, h.bm25]));
      const ids = [...new Set([...bm25.keys(), ...cosines.keys()])];
      // ACTIVE and never a suppressed key, by the projection (an external index may lag).
      const rows =
        ids.length === 0
          ? []
          : await deps.db
              .selectFrom('memories')
              .select(SNIPPET_COLUMNS)
              .where('memory_id', '=', anyOf(ids))
              .where('user_id', '=', userId)
              .where('status', '=', 'ACTIVE')
              .where('memory_key', 'not in', suppressedKeys(deps.db, userId))
              .execute();
      const kept = new Set(rows.map((r) => r.memory_id));
      // Each ranking's best `depth` of what the rows kept, and whether that is all of them.
      const best = (scores: ReadonlyMap<string, number>) => {
        const top = new Map([...scores].filter(([id]) => kept.has(id)).slice(0, depth));
        return { top, whole: top.size === depth || scores.size < deep };
      };
      return { rows, words, bm25: best(bm25), cosines: best(cosines) };
    };
    // The searches do not wait for the suppressed keys (a round trip): they go
    // `exclusionSlack` deeper, and the row read drops suppressed (and retired)
    // memories. Only when it dropped more than that are they searched again.
    let found = await candidates([], depth + RETRIEVAL.exclusionSlack);
    if (!found.bm25.whole || !found.cosines.whole) {
      found = await candidates((await suppressedKeys(deps.db, userId).execute()).map((r) => r.memory_key), depth);
    }
    const { words } = found;
    const bm25 = found.bm25.top;
    const cosines = found.cosines.top;
    const rows = found.rows.filter((r) => bm25.has(r.memory_id) || cosines.has(r.memory_id));
    if (rows.length === 0) return { memories: [] };
    // Issue 17: each ranking orders by its own score × assembly weight before the
    // fusion. Weighing the fused score instead would let the weight decide alone:
    // reciprocal ranks barely differ (1/61 against 1/62).
    const now = deps.clock.now().getTime();
    const rankingOf = (scores: ReadonlyMap<string, number>) =>
      rankWeighted(
        rows.filter((r) => scores.has(r.memory_id)).map((r) => ranked(r, Math.max(0, scores.get(r.memory_id)!))),
        now,
      ).map((m) => m.memoryId);
    const fused = fuseRankings([rankingOf(bm25), rankingOf(cosines)], RETRIEVAL.rrfK);
    const lexicalRelevance = new Map(words.map((h) => [h.memoryId, h.relevance]));
    const memories = rows
      .map((r) => ranked(r, fused.get(r.memory_id)!))
      .sort(byRank)
      .slice(0, topK)
      .map((m) => toSnippet(m.row, m.score, withCosine(lexicalRelevance.get(m.memoryId) ?? 0, cosines.get(m.memoryId))));
    return { memories };
  };
}

/**
 * ListMemories (GET /v1/me/memories): ACTIVE, or every record with `all`, newest
 * first; an INVALID one comes without its value ("": the projection keeps none).
 */
export function createListMemoriesQuery(deps: QueryDeps) {
  return async (req: memory.ListMemoriesRequest): Promise<memory.ListMemoriesResponse> => {
    const userId = uuidOf('user_id', req.userId);
    await caughtUp(deps, userId);
    let q = selectRecords(deps.db).where('user_id', '=', userId);
    if (!req.all) q = q.where('status', '=', 'ACTIVE');
    const rows = await q.orderBy('created_at', 'desc').orderBy('memory_id').execute();
    return { memories: rows.map(toRecord) };
  };
}

/**
 * InvalidateMemory (DELETE /v1/me/memories/{id}): "forget that" for one memory
 * (§12.4) — INVALID and its key suppressed — for its owner only. Another user's
 * memory, or none, is `found: false` and nothing changes. Forgetting twice is
 * one event.
 */
export function createInvalidateMemoryQuery(deps: QueryDeps) {
  return async (req: memory.InvalidateMemoryRequest): Promise<memory.InvalidateMemoryResponse> => {
    const userId = uuidOf('user_id', req.userId);
    const memoryId = uuidOf('memory_id', req.memoryId);
    await caughtUp(deps, userId);
    const row = await selectRecords(deps.db).where('memory_id', '=', memoryId).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return { found: false, memory: undefined };
    if (row.status !== 'INVALID') {
      const id = deriveId('memory', 'delete-api', memoryId);
      await appendDecided(deps.bus, 'memory', userId, (last) =>
        last?.id === id
          ? []
          : [
              draft(
                Events.MemoriesInvalidated,
                { memoryIds: [memoryId], suppressedKey: row.memory_key, reason: 'delete_api', sourceMessageId: '' },
                { userId, id, causationId: '', correlationId: '', occurredAt: deps.clock.now() },
              ),
            ],
      );
      const last = await deps.bus.lastOnSubject('memory', userId);
      await requirePosition(deps.db, memoriesProjection.name, last, { timeoutMs: WRITEBACK.projectionWaitMs });
    }
    const after = await selectRecords(deps.db).where('memory_id', '=', memoryId).executeTakeFirstOrThrow();
    return { found: true, memory: toRecord(after) };
  };
}
