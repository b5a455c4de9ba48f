import { GLOBAL_KEYS, payloadOf } from '@hearth/bus';
import { Events, styleParamsToJson } from '@hearth/events';
import type { Projection } from '@hearth/store';
import type { IngressDb } from '../db.js';

/** The persona shown in the profile, from the orchestrator's events. */
export const personasProjection: Projection<IngressDb> = {
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
        friend_energy: p.friendEnergy,
        stable_style_params: JSON.stringify(styleParamsToJson(p.stableStyleParams)),
        assigned_at: e.occurredAt,
        event_seq: e.seq,
      })
      .onConflict((oc) => oc.column('user_id').doNothing())
      .execute();
  },
  // Only the user's own row: replay passes over the user's PersonaAssigned on the
  // shared log and applies everyone else's as before.
  async erase(trx, userId) {
    await trx.deleteFrom('personas').where('user_id', '=', userId).execute();
  },
};
