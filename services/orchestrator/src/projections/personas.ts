import { GLOBAL_KEYS, payloadOf } from '@hearth/bus';
import { Events, styleParamsToJson } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { OrchestratorDb } from '../db.js';

/** The persona of each user's companion, from the orchestrator's own events. */
export const personasProjection: Projection<OrchestratorDb> = {
  name: 'personas',
  sources: ['orchestrator'],
  tables: ['personas'],
  types: [Events.PersonaAssigned.name],
  // Every PersonaAssigned is on the global assignment log (§3.4.1): read only that subject.
  key: GLOBAL_KEYS.personaAssignments,
  async apply(trx, e) {
    if (e.type !== Events.PersonaAssigned.name) return;
    const p = payloadOf(e, Events.PersonaAssigned);
    await trx
      .insertInto('personas')
      .values({
        user_id: e.userId,
        ai_friend_id: p.aiFriendId,
        template_id: p.templateId,
        core_archetype: p.coreArchetype,
        humor_mode: p.humorMode,
        friend_energy: p.friendEnergy,
        stable_style_params: JSON.stringify(styleParamsToJson(p.stableStyleParams)),
        persona_seed: p.personaSeed,
        assigned_at: e.occurredAt,
        mutated_categories: JSON.stringify(p.mutatedCategories) as unknown as string[],
        resamples: p.resamples,
        fallback: p.fallback,
        window_total: p.windowTotal,
        window_combo_count: p.windowComboCount,
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  },
  /**
   * The user's own row only. The anti-cloning window (§3.4.1) is counted from
   * these rows, so after erasure it no longer counts this assignment — as
   * replay, which passes over the unreadable PersonaAssigned, never did. The
   * window_total/window_combo_count of other users' rows stay: they are numbers
   * recorded in those users' own events (no data of this user), and replay
   * copies the same numbers back.
   */
  async erase(trx, userId) {
    await trx.deleteFrom('personas').where('user_id', '=', userId).execute();
  },
};

