import type { CorrectionCommand } from '@hearth/text';
import type { MemoryRow } from './types.js';

/** Why memories were invalidated (§12.4), as MemoriesInvalidated records it. */
export type InvalidationReason = 'not_true' | 'forget_that' | 'forget_key' | 'delete_api';

/** One key's invalidation: its memories become INVALID and the key is suppressed. */
export interface Invalidation {
  memoryIds: string[];
  key: string;
  reason: InvalidationReason;
}

export interface CorrectionDecision {
  correction: 'not_true' | 'forget_that' | 'forget_key' | 'suppress_topic';
  invalidations: Invalidation[];
  /** "That's not true" with nothing surfaced: ask "which part is wrong?", change nothing. */
  clarificationNeeded: boolean;
  /** TopicIDs to add to suppressed_topics (ingress owns them). */
  suppressTopicIds: string[];
}

export interface CorrectionInput {
  command: CorrectionCommand;
  /** surfaced_memory_ids of the immediately previous assistant message, in order. */
  surfaced: readonly string[];
  /** The user's records by id, any status. */
  records: ReadonlyMap<string, MemoryRow>;
  /** For "forget X": the keys X parses to (§12.3.1), possibly none. */
  targetKeys: readonly string[];
  /** For "don't bring this topic up again": the topics it names, else those of the previous exchange. */
  namedTopics: readonly string[];
  previousTopics: readonly string[];
}

/** The last surfaced memory that is not already INVALID, invalidated for `reason`. */
function lastSurfaced(input: CorrectionInput, reason: InvalidationReason): Invalidation[] {
  const id = input.surfaced.at(-1);
  const row = id === undefined ? undefined : input.records.get(id);
  if (!row || row.status === 'INVALID') return [];
  return [{ memoryIds: [row.memoryId], key: row.key, reason }];
}

/**
 * §12.4: what a correction command does. It targets memories only through the
 * previous assistant message's surfaced_memory_ids ("the last extracted memory"
 * is never a target unless it was surfaced), except "forget X", which first looks
 * for ACTIVE memories of X's key. Pure.
 */
export function decideCorrection(input: CorrectionInput): CorrectionDecision {
  const none = { invalidations: [], clarificationNeeded: false, suppressTopicIds: [] };
  switch (input.command.command) {
    case 'not_true': {
      const invalidations = lastSurfaced(input, 'not_true');
      return { ...none, correction: 'not_true', invalidations, clarificationNeeded: input.surfaced.length === 0 };
    }
    case 'forget_that':
      return { ...none, correction: 'forget_that', invalidations: lastSurfaced(input, 'forget_that') };
    case 'forget_target': {
      const keys = new Set(input.targetKeys);
      const byKey = new Map<string, string[]>();
      for (const row of input.records.values()) {
        if (row.status === 'ACTIVE' && keys.has(row.key)) byKey.set(row.key, [...(byKey.get(row.key) ?? []), row.memoryId]);
      }
      if (byKey.size === 0) return { ...none, correction: 'forget_that', invalidations: lastSurfaced(input, 'forget_that') };
      const invalidations = [...byKey].map(([key, memoryIds]) => ({ key, memoryIds: memoryIds.sort(), reason: 'forget_key' as const }));
      return { ...none, correction: 'forget_key', invalidations };
    }
    case 'suppress_topic': {
      const topics = input.namedTopics.length > 0 ? input.namedTopics : input.previousTopics;
      return { ...none, correction: 'suppress_topic', suppressTopicIds: [...new Set(topics)].sort() };
    }
  }
}
