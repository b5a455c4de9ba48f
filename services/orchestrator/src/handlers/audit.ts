import type { orchestrator } from '@hearth/proto';
import type { Stage } from '../config.js';
import { updateRelationship, type RelationshipState } from '../relationship/index.js';
import { relationshipToProto } from './mapping.js';

/** One recorded field that today's rules decide differently. */
export interface RelationshipChange {
  field: string;
  before: unknown;
  after: unknown;
}

function stateFromProto(s: orchestrator.RelationshipState | undefined): RelationshipState | null {
  if (!s) return null;
  return {
    stage: s.stage as Stage,
    rapportScore: s.rapportScore,
    sessionsCount: s.sessionsCount,
    lastInteractionAt: s.lastInteractionAt ?? null,
    lastSessionAt: s.lastSessionAt ?? null,
    lastStagePromotionAt: s.lastStagePromotionAt ?? null,
    sessionDisengaged: s.sessionDisengaged,
  };
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
  const u = updateRelationship(stateFromProto(recorded.previous), { now, evidence });
  const next = relationshipToProto(u.next);
  const after: Record<string, unknown> = {
    ...Object.fromEntries(Object.entries(next).map(([k, v]) => [`next.${k}`, v])),
    rawDelta: u.delta.raw,
    delta: u.delta.clamped,
    parts: u.delta.parts.map((p) => ({ rule: p.rule, points: p.points })),
    decayPoints: u.decay.points,
    decayApplied: u.decay.applied,
    sessionStarted: u.sessionStarted,
    promotedFrom: u.promotedFrom ?? '',
    promotionBlockedBy: u.promotionBlockedBy,
  };
  const changes: RelationshipChange[] = [];
  for (const [field, value] of Object.entries(after)) {
    const before = field.startsWith('next.')
      ? (recorded.next as unknown as Record<string, unknown>)[field.slice(5)]
      : (recorded as unknown as Record<string, unknown>)[field];
    if (JSON.stringify(before) !== JSON.stringify(value)) changes.push({ field, before, after: value });
  }
  return changes;
}
