import { payloadOf } from '@hearth/bus';
import { Events } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { OrchestratorDb } from '../db.js';

/** RelationshipState per user (§2.5), from the orchestrator's RelationshipUpdated events. */
export const relationshipsProjection: Projection<OrchestratorDb> = {
  name: 'relationships',
  sources: ['orchestrator'],
  tables: ['relationships'],
  async apply(trx, e) {
    if (e.type !== Events.RelationshipUpdated.name) return;
    const p = payloadOf(e, Events.RelationshipUpdated);
    const s = p.next;
    if (!s) return;
    const row = {
      ai_friend_id: p.aiFriendId,
      stage: s.stage,
      rapport_score: s.rapportScore,
      sessions_count: s.sessionsCount,
      last_interaction_at: s.lastInteractionAt ?? null,
      last_session_at: s.lastSessionAt ?? null,
      last_stage_promotion_at: s.lastStagePromotionAt ?? null,
      session_disengaged: s.sessionDisengaged,
      updated_at: e.occurredAt,
    };
    await trx
      .insertInto('relationships')
      .values({ user_id: e.userId, ...row })
      .onConflict((oc) => oc.column('user_id').doUpdateSet(row))
      .execute();
  },
};
