import type { orchestrator } from '@hearth/proto';
import type { Selectable } from 'kysely';
import type { Stage } from '../config.js';
import type { RelationshipsTable } from '../db.js';
import type { Evidence, RelationshipState, RelationshipUpdate } from '../relationship/index.js';
import type { PassVerdict } from '../turn/compose.js';

/** A relationships row as the domain state. */
export function relationshipFromRow(row: Selectable<RelationshipsTable>): RelationshipState {
  return {
    stage: row.stage as Stage,
    rapportScore: row.rapport_score,
    sessionsCount: row.sessions_count,
    lastInteractionAt: row.last_interaction_at,
    lastSessionAt: row.last_session_at,
    lastStagePromotionAt: row.last_stage_promotion_at,
    sessionDisengaged: row.session_disengaged,
  };
}

export function relationshipToProto(s: RelationshipState): orchestrator.RelationshipState {
  return {
    stage: s.stage,
    rapportScore: s.rapportScore,
    sessionsCount: s.sessionsCount,
    lastInteractionAt: s.lastInteractionAt ?? undefined,
    lastSessionAt: s.lastSessionAt ?? undefined,
    lastStagePromotionAt: s.lastStagePromotionAt ?? undefined,
    sessionDisengaged: s.sessionDisengaged,
  };
}

/** A recorded relationship state as the domain state (audit replay reads it back). */
export function relationshipFromProto(s: orchestrator.RelationshipState): RelationshipState {
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

/** The RelationshipUpdated of one §11 update: what the orchestrator records and an audit replay compares. */
export function relationshipUpdatedOf(
  turn: { messageId: string; aiFriendId: string },
  u: RelationshipUpdate,
  evidence: Evidence,
): orchestrator.RelationshipUpdated {
  return {
    messageId: turn.messageId,
    aiFriendId: turn.aiFriendId,
    previous: relationshipToProto(u.previous),
    next: relationshipToProto(u.next),
    evidence: {
      preferences: evidence.preferences,
      meaningfulResponse: evidence.meaningfulResponse,
      emotionalDisclosure: evidence.emotionalDisclosure,
      pastReference: evidence.pastReference,
      disengaged: evidence.disengaged,
      tokens: evidence.tokens,
    },
    rawDelta: u.delta.raw,
    delta: u.delta.clamped,
    parts: u.delta.parts.map((p) => ({ rule: p.rule, points: p.points })),
    decayPoints: u.decay.points,
    decayApplied: u.decay.applied,
    sessionStarted: u.sessionStarted,
    promotedFrom: u.promotedFrom ?? '',
    promotionBlockedBy: u.promotionBlockedBy,
  };
}

export function verdictToProto(v: PassVerdict): orchestrator.GateVerdict {
  return {
    gate: v.gate,
    pass: v.pass,
    detail: v.detail,
    passNumber: v.passNumber,
    measured: Object.fromEntries(Object.entries(v.measured).map(([k, val]) => [k, String(val)])),
  };
}

/** A memory the turn loaded, as `Retrieval.memories` records it. */
export function retrievedToProto(
  m: { memoryId: string; type: string; memoryKey: string; memoryValue: string; confidence: number; topicIds: string[]; relevance: number; occurredOn: string; occurredPrecision: string },
  via: 'structured' | 'vector',
): orchestrator.RetrievedMemory {
  return { memoryId: m.memoryId, type: m.type, memoryKey: m.memoryKey, memoryValue: m.memoryValue, confidence: m.confidence, topicIds: m.topicIds, via, relevance: m.relevance, occurredOn: m.occurredOn, occurredPrecision: m.occurredPrecision };
}
