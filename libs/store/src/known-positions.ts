/**
 * The last applied sequence per subject that this process knows of, for one
 * projection or reactor. Positions only ever grow in the database, so a known
 * one is never ahead of it: at worst behind, when a replica moved it since.
 * Bounded: cleared when full, and reread on demand.
 */
export class KnownPositions {
  private readonly seqs = new Map<string, number>();
  constructor(private readonly limit = 50_000) {}
  get(subject: string): number | undefined {
    return this.seqs.get(subject);
  }
  /** Records a position read from the database or committed there (never moves back). */
  set(subject: string, seq: number): void {
    if (this.seqs.size >= this.limit && !this.seqs.has(subject)) this.seqs.clear();
    if (seq > (this.seqs.get(subject) ?? -1)) this.seqs.set(subject, seq);
  }
  /** Forgets a subject, so that its position is read again (a replica may have moved it). */
  forget(subject: string): void {
    this.seqs.delete(subject);
  }
}
