import type { TermStats } from '../domain/relevance.js';

/**
 * BM25+ as MiniSearch scored the lexical index before issue 20 (its defaults:
 * k1 1.2, b 0.7, δ 0.5), so the ranking is unchanged: MiniSearch built a
 * result object per hit, ~11 ms for a term 10,000 of 90,000 memories hold.
 */
const K1 = 1.2;
const B = 0.7;
const DELTA = 0.5;

/** A memory as the lexical index files it. */
export interface Bm25Doc {
  memoryId: string;
  key: string;
  /** Its distinct content terms (domain/relevance terms). */
  terms: readonly string[];
  /** Epoch milliseconds. */
  lastConfirmedAt: number;
  confidence: number;
}

/**
 * One companion's memories of a user, for BM25: per term the documents that
 * hold it. A term counts once per document (terms are distinct), so a
 * document's score for a query is Σ over the query terms it holds of
 * idf · (δ + (k1 + 1) / (1 + k1 · (1 − b + b · length / average length))),
 * times how many query terms it holds (MiniSearch's "quality").
 */
export class Bm25Shelf implements TermStats {
  private readonly docs: Bm25Doc[] = [];
  private readonly slots = new Map<string, number>();
  private readonly postings = new Map<string, Set<number>>();
  private totalLength = 0;
  // By slot, packed, so a search over thousands of holders reads no document object.
  private lengths = new Uint16Array(16);
  private confirmed = new Float64Array(16);
  // One search's sums and counts by slot (zeroed again after it), and its hits.
  private sums = new Float64Array(16);
  private matched = new Uint16Array(16);
  private hitSlots = new Uint32Array(16);
  private hitScores = new Float64Array(16);

  get documentCount(): number {
    return this.docs.length;
  }

  documentFrequency(term: string): number {
    return this.postings.get(term)?.size ?? 0;
  }

  /** Files (or refiles) a document; one without terms is only taken off. */
  put(doc: Bm25Doc): void {
    this.drop(doc.memoryId);
    if (doc.terms.length === 0) return;
    const slot = this.docs.length;
    if (slot === this.lengths.length) this.grow();
    this.docs.push(doc);
    this.slots.set(doc.memoryId, slot);
    this.lengths[slot] = Math.min(doc.terms.length, 0xffff);
    this.confirmed[slot] = doc.lastConfirmedAt;
    this.totalLength += doc.terms.length;
    for (const t of doc.terms) {
      let holders = this.postings.get(t);
      if (!holders) this.postings.set(t, (holders = new Set()));
      holders.add(slot);
    }
  }

  drop(memoryId: string): void {
    const slot = this.slots.get(memoryId);
    if (slot === undefined) return;
    const doc = this.docs[slot]!;
    this.slots.delete(memoryId);
    this.totalLength -= doc.terms.length;
    for (const t of doc.terms) {
      const holders = this.postings.get(t)!;
      holders.delete(slot);
      if (holders.size === 0) this.postings.delete(t);
    }
    // The last document moves into the hole.
    const last = this.docs.length - 1;
    if (slot !== last) {
      const moved = this.docs[last]!;
      for (const t of moved.terms) {
        const holders = this.postings.get(t)!;
        holders.delete(last);
        holders.add(slot);
      }
      this.docs[slot] = moved;
      this.slots.set(moved.memoryId, slot);
      this.lengths[slot] = this.lengths[last]!;
      this.confirmed[slot] = this.confirmed[last]!;
    }
    this.docs.pop();
  }

  /**
   * Every document holding a query term and its score, roughly in the order
   * they were filed: the first `count` of `slots` (for {@link docAt}) and of `scores`,
   * with each slot's last confirmation in `confirmed`. All are this shelf's own
   * buffers, valid until its next search or change.
   */
  search(queryTerms: readonly string[]): { count: number; slots: Uint32Array; scores: Float64Array; confirmed: Float64Array } {
    const n = this.docs.length;
    const { sums, matched, hitSlots, hitScores, lengths } = this;
    let count = 0;
    if (n === 0) return { count, slots: hitSlots, scores: hitScores, confirmed: this.confirmed };
    const averageLength = this.totalLength / n;
    for (const t of new Set(queryTerms)) {
      const holders = this.postings.get(t);
      if (!holders) continue;
      const idf = Math.log(1 + (n - holders.size + 0.5) / (holders.size + 0.5));
      for (const slot of holders) {
        if (matched[slot] === 0) hitSlots[count++] = slot;
        sums[slot]! += idf * (DELTA + (K1 + 1) / (1 + K1 * (1 - B + (B * lengths[slot]!) / averageLength)));
        matched[slot]!++;
      }
    }
    for (let i = 0; i < count; i++) {
      const slot = hitSlots[i]!;
      hitScores[i] = sums[slot]! * matched[slot]!;
      sums[slot] = 0;
      matched[slot] = 0;
    }
    return { count, slots: hitSlots, scores: hitScores, confirmed: this.confirmed };
  }

  docAt(slot: number): Bm25Doc {
    return this.docs[slot]!;
  }

  /** Where a document is filed (for the slots a search returns); undefined when it is not. */
  slotOf(memoryId: string): number | undefined {
    return this.slots.get(memoryId);
  }

  private grow(): void {
    const size = 2 * this.lengths.length;
    const lengths = new Uint16Array(size);
    lengths.set(this.lengths);
    const confirmed = new Float64Array(size);
    confirmed.set(this.confirmed);
    this.lengths = lengths;
    this.confirmed = confirmed;
    this.sums = new Float64Array(size);
    this.matched = new Uint16Array(size);
    this.hitSlots = new Uint32Array(size);
    this.hitScores = new Float64Array(size);
  }
}
