import { CONFIDENCE } from '../config.js';
import { stanceOf } from '@hearth/memory-rules';
import type { Candidate, MemoryRow, StatedTime } from './types.js';

/** What dedup makes of one candidate (§12.3, §12.3.2). */
export type WriteOp =
  /** A new ACTIVE record; `supersedes` (same key, other value) becomes SUPERSEDED. */
  | { op: 'record'; candidate: Candidate; confidence: number; supersedes: MemoryRow | null }
  /** Same key, same value: sources merge and confidence rises; the record keeps its first stated time. */
  | { op: 'confirm'; candidate: Candidate; memory: MemoryRow; confidence: number }
  /** The user asked not to have this key remembered (§12.4): not stored. */
  | { op: 'suppressed'; candidate: Candidate };

/** §12.3: the initial confidence of an extractor's candidate. */
export function initialConfidence(c: Candidate): number {
  return c.extractor === 'llm' ? CONFIDENCE.llm : CONFIDENCE.heuristic;
}

// Confidences are stored to two decimals, so 0.6 + 0.15 is 0.75, not 0.7499999.
const round2 = (x: number) => Math.round(x * 100) / 100;

/** §12.3: one confirmation, capped at 1.0. */
export function confirmedConfidence(current: number): number {
  return round2(Math.min(CONFIDENCE.max, current + CONFIDENCE.confirmStep));
}

/**
 * One candidate per key and turn: the LLM's reading wins over the heuristic's
 * (it read the whole message), else the first one found. A time the user
 * stated stays when the winner has none (the LLM is not asked for dates): the
 * first one found.
 */
export function mergeCandidates(candidates: readonly Candidate[]): Candidate[] {
  const byKey = new Map<string, Candidate>();
  const stated = new Map<string, StatedTime>();
  for (const c of candidates) {
    const seen = byKey.get(c.key);
    if (!seen || (c.extractor === 'llm' && seen.extractor !== 'llm')) byKey.set(c.key, c);
    if (c.occurred && !stated.has(c.key)) stated.set(c.key, c.occurred);
  }
  return [...byKey.values()].map((c) => (c.occurred || !stated.has(c.key) ? c : { ...c, occurred: stated.get(c.key)! }));
}

/**
 * §12.3 / §12.3.1 / §12.3.2 for one turn's candidates against the user's ACTIVE
 * records with this companion (at most one per key): the same value confirms
 * (+0.15, cap 1.0); another value records a new ACTIVE record that supersedes the
 * old one (an opposite PREFERENCE stance starts at min(init, 0.55)); a new key
 * records at its extractor's confidence. Nothing is ever deleted. Pure.
 */
export function decideWrites(
  candidates: readonly Candidate[],
  activeByKey: ReadonlyMap<string, MemoryRow>,
  suppressedKeys: ReadonlySet<string>,
): WriteOp[] {
  return mergeCandidates(candidates).map((candidate): WriteOp => {
    if (suppressedKeys.has(candidate.key)) return { op: 'suppressed', candidate };
    const init = initialConfidence(candidate);
    const existing = activeByKey.get(candidate.key);
    if (!existing) return { op: 'record', candidate, confidence: init, supersedes: null };
    if (existing.value === candidate.value) {
      return { op: 'confirm', candidate, memory: existing, confidence: confirmedConfidence(existing.confidence) };
    }
    const before = stanceOf(existing.value);
    const after = stanceOf(candidate.value);
    const opposite = candidate.type === 'PREFERENCE' && before !== null && after !== null && before !== after;
    return { op: 'record', candidate, confidence: opposite ? Math.min(init, CONFIDENCE.oppositeStanceCap) : init, supersedes: existing };
  });
}
