import { GLOBAL_KEYS, payloadOf, SERVICE_NAMES } from '@hearth/bus';
import { ErasureEvents, type Projection } from '@hearth/store';
import type { IngressDb } from '../db.js';

/**
 * Erasures and their progress: UserErased from ingress's `_erasures` subject,
 * ErasureApplied from every service's. An erasure is completed once every
 * service applied it (API.md DELETE /v1/me).
 */
export const erasuresProjection: Projection<IngressDb> = {
  name: 'erasures',
  sources: SERVICE_NAMES,
  key: GLOBAL_KEYS.erasures,
  tables: ['erasures', 'erasures_applied'],
  types: [ErasureEvents.UserErased.name, ErasureEvents.ErasureApplied.name],
  async apply(trx, e) {
    if (e.type === ErasureEvents.UserErased.name) {
      const v = payloadOf(e, ErasureEvents.UserErased);
      await trx
        .insertInto('erasures')
        .values({ erasure_id: v.erasureId, user_id: e.userId, key_generation: v.keyGeneration, requested_at: v.requestedAt ?? e.occurredAt })
        .onConflict((oc) => oc.column('erasure_id').doNothing())
        .execute();
    } else if (e.type === ErasureEvents.ErasureApplied.name) {
      const v = payloadOf(e, ErasureEvents.ErasureApplied);
      await trx
        .insertInto('erasures_applied')
        .values({ erasure_id: v.erasureId, service: v.service, applied_at: v.appliedAt ?? e.occurredAt })
        .onConflict((oc) => oc.columns(['erasure_id', 'service']).doNothing())
        .execute();
    }
  },
  // Ids and times only, and they must outlive the user's data: a repeated
  // DELETE /v1/me answers with the same erasure.
  async erase() {},
};
