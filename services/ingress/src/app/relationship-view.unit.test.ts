import { INITIAL_RELATIONSHIP, relationshipView } from './relationship-view.js';

describe('relationshipView', () => {
  it('shows the state the orchestrator answers, timestamps as ISO', () => {
    const view = relationshipView({
      found: true,
      state: {
        stage: 'ACQUAINTANCE',
        rapportScore: 18,
        sessionsCount: 4,
        lastInteractionAt: new Date('2026-11-22T10:00:00Z'),
        lastSessionAt: new Date('2026-11-22T08:00:00Z'),
        lastStagePromotionAt: new Date('2026-11-01T09:00:00Z'),
        sessionDisengaged: 1,
      },
    });

    expect(view).toEqual({
      relationship_stage: 'ACQUAINTANCE',
      rapport_score: 18,
      sessions_count: 4,
      last_interaction_at: '2026-11-22T10:00:00.000Z',
      last_stage_promotion_at: '2026-11-01T09:00:00.000Z',
    });
  });

  it('shows null for a timestamp not set yet', () => {
    const view = relationshipView({
      found: true,
      state: { stage: 'STRANGER', rapportScore: 1, sessionsCount: 1, lastInteractionAt: new Date(0), lastSessionAt: undefined, lastStagePromotionAt: undefined, sessionDisengaged: 0 },
    });

    expect(view.last_stage_promotion_at).toBeNull();
  });

  it('shows the initial STRANGER relationship before the first turn', () => {
    expect(relationshipView({ found: false, state: undefined })).toEqual({
      relationship_stage: 'STRANGER',
      rapport_score: 0,
      sessions_count: 0,
      last_interaction_at: null,
      last_stage_promotion_at: null,
    });
    expect(Object.isFrozen(INITIAL_RELATIONSHIP)).toBe(true);
  });
});
