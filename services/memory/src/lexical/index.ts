import type { Kysely } from 'kysely';
import type { MemoryDb } from '../db.js';
import { createProjectionCopy, type ProjectionCopyOptions } from '../projection-copy.js';
import { byRank, memoryText, relevance, terms, type Ranked } from '../domain/relevance.js';
import { Bm25Shelf, type Bm25Doc } from './bm25.js';
import { TopK } from './top-k.js';

/** A lexical search (issue 15): one user's memories with one companion, or with all of them for ''. */
export interface LexicalQuery {
  userId: string;
  /** '' searches the user's memories with every companion. */
  aiFriendId: string;
  text: string;
  /** The user's suppressed_memory_keys (§12.4): never returned. */
  excludeKeys: readonly string[];
  /**
   * Only the best `limit` hits (a term every tenth memory holds matches
   * thousands at 100k; their relevance is computed only for the hits returned).
   * @default every hit
   */
  limit?: number;
  /**
   * Memories returned too, whatever their rank, when they are hits: a caller
   * that shows their relevance (SearchMemories: its vector hits). They sort
   * after the best `limit`, being worse by rank.
   * @default none
   */
  include?: readonly string[];
}

/** One ACTIVE memory sharing a content term with the query. */
export interface LexicalHit {
  memoryId: string;
  /** Its BM25 score among the companion's memories. */
  bm25: number;
  /** domain/relevance: 0..1, > 0 for every hit. */
  relevance: number;
  /** Epoch milliseconds. */
  lastConfirmedAt: number;
  confidence: number;
}

/**
 * BM25 over each ACTIVE memory's text (domain/relevance memoryText), one index
 * per user and companion, kept in step with the memory projection exactly as
 * the embedded vector index is (vector/embedded.ts).
 */
export interface LexicalIndex {
  /** Every hit (or the best `limit`, then the included ones), best BM25 first (ties: more recently confirmed, more confident, smaller id). */
  search(query: LexicalQuery): Promise<LexicalHit[]>;
  /** Erasure: forgets what it holds of the user (their rows are gone already). Idempotent. */
  eraseUser(userId: string): Promise<void>;
  close(): Promise<void>;
}

export type LexicalIndexOptions = ProjectionCopyOptions;

/** A hit while the search ranks it: `score` its BM25. */
interface Found extends Ranked {
  doc: Bm25Doc;
  shelf: Bm25Shelf;
}

interface Entry {
  /** By companion. */
  shelves: Map<string, Bm25Shelf>;
  /** Which companion each memory is filed under, to take it off its shelf. */
  friendOf: Map<string, string>;
}

/**
 * The in-process lexical index: each user's ACTIVE memories, loaded from the
 * memory projection on first search and brought up to date (the rows changed
 * since: a new record, a confirmation, a supersede, an invalidation) whenever
 * the projection has applied a newer event of that user's chain. So it is
 * always rebuilt from the projection — after a restart, a replay, or on another
 * replica — and never disagrees with it; an erasure drops the user.
 */
export function createLexicalIndex(db: Kysely<MemoryDb>, opts: LexicalIndexOptions): LexicalIndex {
  const copy = createProjectionCopy<Entry>(db, opts, async (userId, since, cached) => {
    let q = db
      .selectFrom('memories')
      .select(['memory_id', 'ai_friend_id', 'memory_key', 'memory_value', 'status', 'confidence', 'last_confirmed_at'])
      .where('user_id', '=', userId);
    q = since !== null ? q.where('updated_seq', '>', since) : q.where('status', '=', 'ACTIVE');
    const rows = await q.execute();
    const entry: Entry = cached ?? { shelves: new Map(), friendOf: new Map() };
    for (const r of rows) {
      const was = entry.friendOf.get(r.memory_id);
      if (was !== undefined) entry.shelves.get(was)?.drop(r.memory_id);
      entry.friendOf.delete(r.memory_id);
      if (r.status !== 'ACTIVE' || r.memory_value === '') continue;
      const t = terms(memoryText(r.memory_key, r.memory_value));
      let shelf = entry.shelves.get(r.ai_friend_id);
      if (!shelf) entry.shelves.set(r.ai_friend_id, (shelf = new Bm25Shelf()));
      shelf.put({ memoryId: r.memory_id, key: r.memory_key, terms: t, lastConfirmedAt: r.last_confirmed_at.getTime(), confidence: r.confidence });
      entry.friendOf.set(r.memory_id, r.ai_friend_id);
    }
    return entry;
  });

  return {
    async search(q: LexicalQuery): Promise<LexicalHit[]> {
      const queryTerms = terms(q.text);
      if (queryTerms.length === 0) return [];
      const entry = await copy.get(q.userId);
      const exclude = new Set(q.excludeKeys);
      const include = new Set(q.include);
      const limit = q.limit ?? Number.POSITIVE_INFINITY;
      const shelves = q.aiFriendId ? [entry.shelves.get(q.aiFriendId)].filter((s) => s !== undefined) : [...entry.shelves.values()];
      // BM25 ranks the hits; relevance is worked out for the ones returned only.
      const best = new TopK<Found, Ranked>(limit, byRank);
      const extra: Found[] = [];
      // Offered only when it would make the cut (or is included): one comparison, no object, for most hits.
      const probe: Ranked = { memoryId: '', score: 0, lastConfirmedAt: 0, confidence: 0 };
      for (const shelf of shelves) {
        const hits = shelf.search(queryTerms);
        const included = new Set([...include].map((id) => shelf.slotOf(id)));
        // Last filed first: rows load oldest first, and on a tie the more recent wins, so most ties are turned away at once.
        for (let i = hits.count - 1; i >= 0; i--) {
          const slot = hits.slots[i]!;
          const score = hits.scores[i]!;
          const worst = best.threshold;
          // Out without reading the document: a lower score by far more than byRank's
          // tolerance for equal scores (a relative 1e-9), or the same score confirmed earlier.
          if (worst && !included.has(slot) && (score < worst.score - 1e-6 * Math.max(1, worst.score) || (score === worst.score && hits.confirmed[slot]! < worst.lastConfirmedAt))) continue;
          const doc = shelf.docAt(slot);
          if (exclude.size > 0 && exclude.has(doc.key)) continue;
          probe.memoryId = doc.memoryId;
          probe.score = score;
          probe.lastConfirmedAt = doc.lastConfirmedAt;
          probe.confidence = doc.confidence;
          if (!best.admits(probe) && !include.has(doc.memoryId)) continue;
          const out = best.offer({ doc, shelf, memoryId: doc.memoryId, score, lastConfirmedAt: doc.lastConfirmedAt, confidence: doc.confidence });
          if (out && include.has(out.memoryId)) extra.push(out);
        }
      }
      return [...best.sorted(), ...extra.sort(byRank)].map((f) => ({
        memoryId: f.memoryId,
        bm25: f.score,
        relevance: relevance(queryTerms, f.doc.terms, f.shelf),
        lastConfirmedAt: f.lastConfirmedAt,
        confidence: f.confidence,
      }));
    },
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
