import type { orchestrator } from '@hearth/proto';
import { updateRelationship } from '../relationship/index.js';
import { relationshipFromProto, relationshipUpdatedOf } from './mapping.js';

/** One recorded field that today's rules decide differently. */
export interface RelationshipChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** The outcome fields of a RelationshipUpdated, the next state's one by one (`next.rapportScore`). */
function outcomeFields(r: orchestrator.RelationshipUpdated): Record<string, unknown> {
  const { messageId: _m, aiFriendId: _a, previous: _p, evidence: _e, next, ...rest } = r;
  return { ...Object.fromEntries(Object.entries(next ?? {}).map(([k, v]) => [`next.${k}`, v])), ...rest };
}

/**
 * Applies today's §11 rules to a recorded RelationshipUpdated: the recorded
 * previous state and evidence in, every field of the outcome compared. The
 * turn's time is the recorded `next.last_interaction_at` (the rules set it to
 * the message's time), so the comparison needs nothing but the event. Pure.
 */
export function reRelate(recorded: orchestrator.RelationshipUpdated): RelationshipChange[] {
  const now = recorded.next?.lastInteractionAt;
  const evidence = recorded.evidence;
  if (!now || !evidence) return [{ field: 'next.lastInteractionAt', before: now ?? null, after: 'a recorded time and evidence are needed' }];
  const previous = recorded.previous ? relationshipFromProto(recorded.previous) : null;
  const today = outcomeFields(relationshipUpdatedOf(recorded, updateRelationship(previous, { now, evidence }), evidence));
  const before = outcomeFields(recorded);
  return Object.entries(today)
    .filter(([field, after]) => JSON.stringify(before[field]) !== JSON.stringify(after))
    .map(([field, after]) => ({ field, before: before[field], after }));
}
