import { appendDecided, draft, type Bus } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, isUuid } from '@hearth/events';
import type { Embedder } from '@hearth/llm';
import { memory } from '@hearth/proto';
import { waitForPosition } from '@hearth/store';
import type { Logger } from '@hearth/telemetry';
import type { Kysely, Selectable } from 'kysely';
import { RETRIEVAL, WRITEBACK } from '../config.js';
import type { MemoriesTable, MemoryDb } from '../db.js';
import { snippet } from '../domain/describe.js';
import { memoriesProjection } from '../projections/memories.js';
import type { VectorIndex } from '../vector/port.js';

/** Query names on the bus (`<namespace>.q.memory.<name>`): the shared catalogue's. */
export { FIND_MEMORIES, SEARCH_MEMORIES, LIST_MEMORIES, INVALIDATE_MEMORY } from '@hearth/events';

/** A memory query that cannot be answered: undecodable, or ids that are not uuids. */
export class InvalidMemoryRequestError extends Error {
  readonly code = 'MEMORY_INVALID_REQUEST';

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'InvalidMemoryRequestError';
  }
}


function decodeWith<T>(decode: (b: Uint8Array) => T, bytes: Uint8Array, what: string): T {
  try {
    return decode(bytes);
  } catch (err) {
    throw new InvalidMemoryRequestError(`${what} does not decode`, { cause: err });
  }
}

// The bus carries a query's error in a header: one line, whatever the caller sent.
function uuidOf(name: string, value: string, optional = false): string {
  if (optional && value === '') return '';
  if (!isUuid(value)) throw new InvalidMemoryRequestError(`${name} must be a uuid, got ${JSON.stringify(value.slice(0, 64))}`);
  return value.toLowerCase();
}

type Row = Selectable<MemoriesTable>;

function toSnippet(r: Row, score = 0): memory.MemorySnippet {
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
  };
}

function toRecord(r: Row): memory.MemoryRecord {
  return {
    memoryId: r.memory_id,
    type: r.type,
    memoryKey: r.memory_key,
    memoryValue: r.memory_value,
    confidence: r.confidence,
    status: r.status,
    // No reliability of its own until the uncertainty service rates memories.
    reliability: r.confidence,
    sourceMessageIds: r.source_message_ids,
    createdAt: r.created_at,
    lastConfirmedAt: r.last_confirmed_at,
    supersededBy: r.superseded_by ?? '',
    aiFriendId: r.ai_friend_id,
    topicIds: r.topic_ids,
  };
}

export interface QueryDeps {
  bus: Bus;
  db: Kysely<MemoryDb>;
  clock: Clock;
  index: VectorIndex;
  embedder: Embedder;
  logger?: Logger;
}

/** Read your writes: wait (briefly) until the projection holds the user's latest memory event. */
async function caughtUp(deps: QueryDeps, userId: string): Promise<void> {
  const last = await deps.bus.lastOnSubject('memory', userId);
  if (last) await waitForPosition(deps.db, memoriesProjection.name, last.subject, last.seq, { timeoutMs: 2_000 });
}

/**
 * Waits (up to RETRIEVAL.writtenBackWaitMs) until memory has written back the
 * turn of `messageId`: a "forget that" in the previous message is then applied
 * before the next reply reads memories. "" waits for nothing.
 */
async function writtenBack(deps: QueryDeps, userId: string, messageId: string): Promise<void> {
  if (!messageId) return;
  const deadline = performance.now() + RETRIEVAL.writtenBackWaitMs;
  for (;;) {
    const row = await deps.db.selectFrom('memory_turns').select('message_id').where('user_id', '=', userId).where('message_id', '=', messageId).executeTakeFirst();
    if (row) return;
    if (performance.now() >= deadline) {
      deps.logger?.warn({ userId, messageId, waitedMs: RETRIEVAL.writtenBackWaitMs }, 'the previous turn is not written back yet: answering from the memories as they are');
      return;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

function suppressedKeys(db: Kysely<MemoryDb>, userId: string) {
  return db.selectFrom('suppressed_keys').select('memory_key').where('user_id', '=', userId);
}

/**
 * FindMemories (§7.1 step 2): the user's ACTIVE memories with this companion,
 * never a suppressed key, most recently confirmed first, then most confident.
 */
export function createFindMemoriesQuery(deps: QueryDeps) {
  return async (bytes: Uint8Array): Promise<Uint8Array> => {
    const req = decodeWith(memory.FindMemoriesRequest.decode, bytes, 'FindMemoriesRequest');
    const userId = uuidOf('user_id', req.userId);
    const aiFriendId = uuidOf('ai_friend_id', req.aiFriendId, true);
    const limit = Math.min(req.limit || RETRIEVAL.defaultLimit, RETRIEVAL.maxLimit);
    await writtenBack(deps, userId, uuidOf('after_message_id', req.afterMessageId, true));
    let q = deps.db
      .selectFrom('memories')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', 'ACTIVE')
      .where('memory_key', 'not in', suppressedKeys(deps.db, userId));
    if (aiFriendId) q = q.where('ai_friend_id', '=', aiFriendId);
    const rows = await q.orderBy('last_confirmed_at', 'desc').orderBy('confidence', 'desc').orderBy('memory_id').limit(limit).execute();
    return memory.MemoriesResponse.encode({ memories: rows.map((r) => toSnippet(r)) }).finish();
  };
}

/**
 * SearchMemories (§13): the query text embedded as memories are, then topK
 * (default 4) from the vector index, filtered by user and companion, ACTIVE
 * only, suppressed keys excluded — checked again against the projection, so a
 * lagging external index can never return an INVALID memory.
 */
export function createSearchMemoriesQuery(deps: QueryDeps) {
  return async (bytes: Uint8Array): Promise<Uint8Array> => {
    const req = decodeWith(memory.SearchMemoriesRequest.decode, bytes, 'SearchMemoriesRequest');
    const userId = uuidOf('user_id', req.userId);
    const aiFriendId = uuidOf('ai_friend_id', req.aiFriendId);
    const topK = Math.min(req.topK || RETRIEVAL.topK, RETRIEVAL.maxLimit);
    const text = req.queryText.trim();
    if (text === '') return memory.MemoriesResponse.encode({ memories: [] }).finish();
    await writtenBack(deps, userId, uuidOf('after_message_id', req.afterMessageId, true));
    const [vector] = await deps.embedder.embed([text]);
    const excludeKeys = (await suppressedKeys(deps.db, userId).execute()).map((r) => r.memory_key);
    const hits = await deps.index.search({ userId, aiFriendId, vector: vector!, model: deps.embedder.model, topK, excludeKeys });
    if (hits.length === 0) return memory.MemoriesResponse.encode({ memories: [] }).finish();
    const rows = await deps.db
      .selectFrom('memories')
      .selectAll()
      .where('memory_id', 'in', hits.map((h) => h.memoryId))
      .where('user_id', '=', userId)
      .where('status', '=', 'ACTIVE')
      .execute();
    const byId = new Map(rows.map((r) => [r.memory_id, r]));
    const excluded = new Set(excludeKeys);
    const memories = hits.flatMap((h) => {
      const r = byId.get(h.memoryId);
      return r && !excluded.has(r.memory_key) ? [toSnippet(r, h.score)] : [];
    });
    return memory.MemoriesResponse.encode({ memories }).finish();
  };
}

/**
 * ListMemories (GET /v1/me/memories): ACTIVE, or every record with `all`, newest
 * first; an INVALID one comes without its value ("": the projection keeps none).
 */
export function createListMemoriesQuery(deps: QueryDeps) {
  return async (bytes: Uint8Array): Promise<Uint8Array> => {
    const req = decodeWith(memory.ListMemoriesRequest.decode, bytes, 'ListMemoriesRequest');
    const userId = uuidOf('user_id', req.userId);
    await caughtUp(deps, userId);
    let q = deps.db.selectFrom('memories').selectAll().where('user_id', '=', userId);
    if (!req.all) q = q.where('status', '=', 'ACTIVE');
    const rows = await q.orderBy('created_at', 'desc').orderBy('memory_id').execute();
    return memory.ListMemoriesResponse.encode({ memories: rows.map(toRecord) }).finish();
  };
}

/**
 * InvalidateMemory (DELETE /v1/me/memories/{id}): "forget that" for one memory
 * (§12.4) — INVALID and its key suppressed — for its owner only. Another user's
 * memory, or none, is `found: false` and nothing changes. Forgetting twice is
 * one event.
 */
export function createInvalidateMemoryQuery(deps: QueryDeps) {
  return async (bytes: Uint8Array): Promise<Uint8Array> => {
    const req = decodeWith(memory.InvalidateMemoryRequest.decode, bytes, 'InvalidateMemoryRequest');
    const userId = uuidOf('user_id', req.userId);
    const memoryId = uuidOf('memory_id', req.memoryId);
    await caughtUp(deps, userId);
    const row = await deps.db.selectFrom('memories').selectAll().where('memory_id', '=', memoryId).where('user_id', '=', userId).executeTakeFirst();
    if (!row) return memory.InvalidateMemoryResponse.encode({ found: false, memory: undefined }).finish();
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
      if (last && !(await waitForPosition(deps.db, memoriesProjection.name, last.subject, last.seq, { timeoutMs: WRITEBACK.projectionWaitMs }))) {
        throw new Error(`projection ${memoriesProjection.name} has not applied ${last.subject}#${last.seq}`);
      }
    }
    const after = await deps.db.selectFrom('memories').selectAll().where('memory_id', '=', memoryId).executeTakeFirstOrThrow();
    return memory.InvalidateMemoryResponse.encode({ found: true, memory: toRecord(after) }).finish();
  };
}
