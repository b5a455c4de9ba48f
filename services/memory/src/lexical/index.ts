import type { Kysely } from 'kysely';
import MiniSearch from 'minisearch';
import type { MemoryDb } from '../db.js';
import { createProjectionCopy, type ProjectionCopyOptions } from '../projection-copy.js';
import { byRank, memoryText, relevance, terms, type TermStats } from '../domain/relevance.js';

/** A lexical search (issue 15): one user's memories with one companion, or with all of them for ''. */
export interface LexicalQuery {
  userId: string;
  /** '' searches the user's memories with every companion. */
  aiFriendId: string;
  text: string;
  /** The user's suppressed_memory_keys (§12.4): never returned. */
  excludeKeys: readonly string[];
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
  /** Every hit, best BM25 first (ties: more recently confirmed, more confident, smaller id). */
  search(query: LexicalQuery): Promise<LexicalHit[]>;
  /** Erasure: forgets what it holds of the user (their rows are gone already). Idempotent. */
  eraseUser(userId: string): Promise<void>;
  close(): Promise<void>;
}

export type LexicalIndexOptions = ProjectionCopyOptions;

interface Doc {
  memoryId: string;
  key: string;
  /** Its distinct terms, joined by spaces: what MiniSearch indexed (and needs to remove it). */
  text: string;
  terms: string[];
  lastConfirmedAt: number;
  confidence: number;
}

/** One companion's memories of the user: the BM25 index and the counts relevance weighs by. */
class Shelf implements TermStats {
  readonly docs = new Map<string, Doc>();
  private readonly df = new Map<string, number>();
  // The text is terms already: split at spaces, nothing more.
  readonly search = new MiniSearch<Doc>({
    idField: 'memoryId',
    fields: ['text'],
    tokenize: (s) => s.split(' '),
    processTerm: (t) => t || null,
    searchOptions: { tokenize: (s) => s.split(' '), processTerm: (t) => t || null, combineWith: 'OR' },
  });

  get documentCount(): number {
    return this.docs.size;
  }

  documentFrequency(term: string): number {
    return this.df.get(term) ?? 0;
  }

  put(doc: Doc): void {
    this.drop(doc.memoryId);
    if (doc.terms.length === 0) return;
    this.docs.set(doc.memoryId, doc);
    for (const t of doc.terms) this.df.set(t, (this.df.get(t) ?? 0) + 1);
    this.search.add(doc);
  }

  drop(memoryId: string): void {
    const doc = this.docs.get(memoryId);
    if (!doc) return;
    this.docs.delete(memoryId);
    for (const t of doc.terms) {
      const n = (this.df.get(t) ?? 0) - 1;
      if (n > 0) this.df.set(t, n);
      else this.df.delete(t);
    }
    this.search.remove(doc);
  }
}

interface Entry {
  /** By companion. */
  shelves: Map<string, Shelf>;
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
      if (!shelf) entry.shelves.set(r.ai_friend_id, (shelf = new Shelf()));
      shelf.put({ memoryId: r.memory_id, key: r.memory_key, text: t.join(' '), terms: t, lastConfirmedAt: r.last_confirmed_at.getTime(), confidence: r.confidence });
      entry.friendOf.set(r.memory_id, r.ai_friend_id);
    }
    return entry;
  });

  function searchShelf(shelf: Shelf, queryTerms: readonly string[], exclude: ReadonlySet<string>): LexicalHit[] {
    if (shelf.documentCount === 0) return [];
    const hits: LexicalHit[] = [];
    for (const r of shelf.search.search(queryTerms.join(' '))) {
      const doc = shelf.docs.get(r.id as string);
      if (!doc || exclude.has(doc.key)) continue;
      hits.push({ memoryId: doc.memoryId, bm25: r.score, relevance: relevance(queryTerms, doc.terms, shelf), lastConfirmedAt: doc.lastConfirmedAt, confidence: doc.confidence });
    }
    return hits;
  }

  return {
    async search(q: LexicalQuery): Promise<LexicalHit[]> {
      const queryTerms = terms(q.text);
      if (queryTerms.length === 0) return [];
      const entry = await copy.get(q.userId);
      const exclude = new Set(q.excludeKeys);
      const shelves = q.aiFriendId ? [entry.shelves.get(q.aiFriendId)].filter((s) => s !== undefined) : [...entry.shelves.values()];
      const ranked = shelves.flatMap((s) => searchShelf(s, queryTerms, exclude)).map((h) => ({ ...h, score: h.bm25 }));
      return ranked.sort(byRank).map(({ score: _score, ...hit }) => hit);
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
