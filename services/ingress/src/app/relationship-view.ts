import type { orchestrator } from '@hearth/proto';

/** The caller's relationship with their companion (../shared/API.md, GET /v1/me/relationship). */
export interface RelationshipView {
  relationship_stage: string;
  rapport_score: number;
  sessions_count: number;
  last_interaction_at: string | null;
  last_stage_promotion_at: string | null;
}

/** A user's relationship before the first turn: every user starts as a STRANGER (turn-pipeline §2.5). */
export const INITIAL_RELATIONSHIP: Readonly<RelationshipView> = Object.freeze({
  relationship_stage: 'STRANGER',
  rapport_score: 0,
  sessions_count: 0,
  last_interaction_at: null,
  last_stage_promotion_at: null,
});

/** The orchestrator's GetRelationship answer as the API shows it; not found is the initial state. */
export function relationshipView(response: orchestrator.GetRelationshipResponse): RelationshipView {
  const s = response.found ? response.state : undefined;
  if (!s) return { ...INITIAL_RELATIONSHIP };
  return {
    relationship_stage: s.stage,
    rapport_score: s.rapportScore,
    sessions_count: s.sessionsCount,
    last_interaction_at: s.lastInteractionAt?.toISOString() ?? null,
    last_stage_promotion_at: s.lastStagePromotionAt?.toISOString() ?? null,
  };
}
