import { isUuid } from '@hearth/events';
import { uncertainty } from '@hearth/proto';
import type { Kysely } from 'kysely';
import type { UncertaintyDb } from '../db.js';

/** Each memory's reliability state (absent from the table: reliable) and the uncertainty behind it. */
export async function reliabilityFor(db: Kysely<UncertaintyDb>, userId: string, memoryIds: readonly string[]): Promise<uncertainty.MemoryReliability[]> {
  if (memoryIds.length === 0) return [];
  const rows = await db.selectFrom('reliability').select(['subject_id', 'reliability', 'uncertainty_id']).where('user_id', '=', userId).where('subject_kind', '=', 'memory').where('subject_id', 'in', memoryIds).execute();
  const byId = new Map(rows.map((r) => [r.subject_id, r]));
  return memoryIds.map((id) => ({ memoryId: id, reliability: byId.get(id)?.reliability ?? 'reliable', uncertaintyId: byId.get(id)?.uncertainty_id ?? '' }));
}

/** CheckReliability (Context 3): a caller about to name memories (a retention nudge) asks first. */
export function createCheckReliabilityQuery(db: Kysely<UncertaintyDb>): (request: uncertainty.CheckReliabilityRequest) => Promise<uncertainty.CheckReliabilityResponse> {
  return async (request) => {
    const r = request;
    if (!isUuid(r.userId)) throw new Error(`CheckReliabilityRequest.user_id must be a uuid, got ${JSON.stringify(r.userId.slice(0, 64))}`);
    const bad = r.memoryIds.find((id) => !isUuid(id));
    if (bad !== undefined) throw new Error(`CheckReliabilityRequest.memory_ids must be uuids, got ${JSON.stringify(bad.slice(0, 64))}`);
    return { reliability: await reliabilityFor(db, r.userId, r.memoryIds) };
  };
}
