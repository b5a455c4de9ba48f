/**
 * The best `limit` of many items offered one at a time, by `compare` (negative:
 * the first is better) over what `R` holds of them: a heap whose root is the
 * worst kept, so an item that does not make the cut costs one comparison and
 * one that does O(log limit).
 */
export class TopK<T extends R, R = T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly compare: (a: R, b: R) => number,
  ) {}

  get size(): number {
    return this.heap.length;
  }

  /** The worst kept, once `limit` are kept: what a newcomer must beat. */
  get threshold(): T | undefined {
    return this.heap.length >= this.limit ? this.heap[0] : undefined;
  }

  /** Whether an item comparing as `item` would be kept if offered now. */
  admits(item: R): boolean {
    return this.heap.length < this.limit || (this.limit > 0 && this.compare(item, this.heap[0]!) < 0);
  }

  /** Keeps `item` if it makes the cut; returns what did not (it, or the one it pushed out), if anything. */
  offer(item: T): T | undefined {
    if (!this.admits(item)) return item;
    if (this.heap.length < this.limit) {
      this.heap.push(item);
      this.up(this.heap.length - 1);
      return undefined;
    }
    const out = this.heap[0]!;
    this.heap[0] = item;
    this.down(0);
    return out;
  }

  /** What is kept, best first. */
  sorted(): T[] {
    return [...this.heap].sort(this.compare);
  }

  // The root is the worst: a parent compares after (or as) its children.
  private worse(i: number, j: number): boolean {
    return this.compare(this.heap[i]!, this.heap[j]!) > 0;
  }

  private swap(i: number, j: number): void {
    const t = this.heap[i]!;
    this.heap[i] = this.heap[j]!;
    this.heap[j] = t;
  }

  private up(i: number): void {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.worse(i, parent)) return;
      this.swap(i, parent);
      i = parent;
    }
  }

  private down(i: number): void {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let worst = i;
      if (l < this.heap.length && this.worse(l, worst)) worst = l;
      if (r < this.heap.length && this.worse(r, worst)) worst = r;
      if (worst === i) return;
      this.swap(i, worst);
      i = worst;
    }
  }
}
