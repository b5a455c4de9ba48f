import type { BeliefType, Polarity } from './config.js';
import type { Span } from './types.js';

/** What dedup needs of an atom; the rest of the atom is kept as it is. */
export interface Dedupable {
  canonicalHash: string;
  polarity: Polarity;
  beliefType: BeliefType;
  atomConfidence: number;
  spans: Span[];
}

/**
 * §4.6: one atom per (canonical_hash, polarity, belief_type) within one
 * extraction; the most confident survives (the first on a tie), carrying the
 * spans of all its duplicates, sorted. Output keeps first-seen order.
 */
export function dedupAtoms<T extends Dedupable>(atoms: readonly T[]): { atoms: T[]; duplicatesRemoved: number } {
  const byKey = new Map<string, T>();
  for (const atom of atoms) {
    const key = `${atom.canonicalHash}|${atom.polarity}|${atom.beliefType}`;
    const kept = byKey.get(key);
    if (!kept) {
      byKey.set(key, { ...atom, spans: [...atom.spans] });
      continue;
    }
    const winner = atom.atomConfidence > kept.atomConfidence ? atom : kept;
    byKey.set(key, { ...winner, spans: mergeSpans(kept.spans, atom.spans) });
  }
  return { atoms: [...byKey.values()], duplicatesRemoved: atoms.length - byKey.size };
}

function mergeSpans(a: readonly Span[], b: readonly Span[]): Span[] {
  const seen = new Map<string, Span>();
  for (const s of [...a, ...b]) seen.set(`${s.start}:${s.end}`, s);
  return [...seen.values()].sort((x, y) => x.start - y.start || x.end - y.end);
}
