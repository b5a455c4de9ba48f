import { assemblyWeight, decayedConfidence, reliabilityOf } from '@hearth/uncertainty';
import { byRank, type Ranked } from './relevance.js';

/**
 * Retrieval's order (issue 17): how relevant a memory is, times how much it
 * should weigh in the reply's context — uncertainty-engine.md's
 * ContextAssemblyService formula. Pure: `now` comes from the caller's clock.
 */

/** A memory as the weight reads it. */
export interface Weighable {
  /** FACT | PREFERENCE | RELATIONSHIP_EVENT | EMOTIONAL_PATTERN */
  type: string;
  confidence: number;
  /** reliable | uncertain | contradicted | superseded; anything else reads as reliable. */
  reliability: string;
  /** Epoch milliseconds of its last confirmation: what its confidence decays from. */
  lastConfirmedAt: number;
}

/**
 * assembly_weight = base_type_weight · importance · max(reliability_floor,
 * reliability_factor) ("Memory Reliability Model"), importance being the
 * memory's confidence decayed from its last confirmation to `now`, faster for
 * a less reliable state ("The decay engine reads the reliability field").
 */
export function retrievalWeight(m: Weighable, now: number): number {
  const reliability = reliabilityOf(m.reliability);
  const importance = decayedConfidence(m.confidence, m.type, reliability, now - m.lastConfirmedAt);
  return assemblyWeight(m.type, importance, reliability);
}

/**
 * Best first by score × {@link retrievalWeight}; equal products fall back to
 * byRank's ties (more recently confirmed, more confident, smaller id). Nothing
 * is dropped: the floor keeps an important contradicted memory in reach, to be
 * asked about rather than asserted. Items keep their own score.
 */
export function rankWeighted<T extends Ranked & Weighable>(items: readonly T[], now: number): T[] {
  return items
    .map((item) => ({ item, rank: { ...item, score: item.score * retrievalWeight(item, now) } }))
    .sort((a, b) => byRank(a.rank, b.rank))
    .map((x) => x.item);
}
