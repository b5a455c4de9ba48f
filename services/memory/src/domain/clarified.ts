import { isUuid, type MemoryRecorded, type UncertaintyResolved } from '@hearth/events';
import type { Strategy } from '@hearth/uncertainty';
import { embeddingText } from './describe.js';
import type { MemoryStatus, MemoryType } from './types.js';

/**
 * Resolution feedback (uncertainty-engine.md "Conversational Clarification",
 * "Evidence Resolution": the winner holds, the loser is superseded). The
 * uncertainty service owns the states; memory owns which record of a key is
 * ACTIVE. When the side that held had already been superseded in memory (the
 * user had said it changed, then took it back), it becomes the key's ACTIVE
 * record again: recorded anew, superseding the loser. Pure: no I/O.
 */

/** The strategies whose winner the user (or new evidence) confirmed. */
export const CLARIFYING: readonly Strategy[] = ['user_clarified', 'evidence_resolved'];

/** The extractor a record restored by a resolution names. */
export const CLARIFIED_EXTRACTOR = 'clarified';

/** A record as the decision reads it (the user's own, any status). */
export interface ResolvedSide {
  memoryId: string;
  aiFriendId: string;
  type: MemoryType;
  key: string;
  value: string;
  confidence: number;
  status: MemoryStatus;
  topicIds: string[];
  occurredOn: string | null;
  occurredPrecision: string | null;
  occurredText: string | null;
}

/**
 * The two ids a resolution names, or null when it is not one memory acts on
 * (another strategy, a side missing — e.g. decayed — or not an id). Whether
 * they are this user's memories, the records tell.
 */
export function clarifiedSides(r: Pick<UncertaintyResolved, 'strategy' | 'winnerId' | 'loserId'>): { winnerId: string; loserId: string } | null {
  if (!CLARIFYING.includes(r.strategy as Strategy) || !isUuid(r.winnerId) || !isUuid(r.loserId)) return null;
  const winnerId = r.winnerId.toLowerCase();
  const loserId = r.loserId.toLowerCase();
  return winnerId === loserId ? null : { winnerId, loserId };
}

/**
 * The MemoryRecorded (without its embedding) that restores the winner: only
 * when the winner is SUPERSEDED and the loser is the ACTIVE record of the same
 * key with the same companion, and the user has not suppressed the key. The
 * winner's value, type, confidence, topics and stated time, under `memoryId`
 * (derived from the resolution). Anything else — the winner already ACTIVE, a
 * side forgotten or of another key — records nothing.
 */
export function decideClarified(
  resolution: Pick<UncertaintyResolved, 'sourceMessageId'>,
  memoryId: string,
  winner: ResolvedSide | undefined,
  loser: ResolvedSide | undefined,
  suppressedKeys: ReadonlySet<string>,
): Omit<MemoryRecorded, 'embedding' | 'embeddingModel'> | null {
  if (!winner || !loser || winner.status !== 'SUPERSEDED' || loser.status !== 'ACTIVE') return null;
  if (winner.key !== loser.key || winner.aiFriendId !== loser.aiFriendId || winner.value === '' || suppressedKeys.has(winner.key)) return null;
  return {
    memoryId,
    aiFriendId: winner.aiFriendId,
    type: winner.type,
    memoryKey: winner.key,
    memoryValue: winner.value,
    confidence: winner.confidence,
    extractor: CLARIFIED_EXTRACTOR,
    sourceMessageId: resolution.sourceMessageId,
    supersedes: loser.memoryId,
    topicIds: winner.topicIds,
    embeddingText: embeddingText(winner.key, winner.value),
    occurredOn: winner.occurredOn ?? '',
    occurredPrecision: winner.occurredPrecision ?? '',
    occurredText: winner.occurredText ?? '',
  };
}
