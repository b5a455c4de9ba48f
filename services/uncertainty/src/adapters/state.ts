import { reliabilityOf, UNCERTAINTY_CONFIG, type HeldMemory, type Severity, type Side, type UncertaintyRecord, type UncertaintyState, type UncertaintyType } from '@hearth/uncertainty';
import { pollUntil } from '@hearth/store';
import type { Kysely, Selectable } from 'kysely';
import type { HeldMemoriesTable, UncertaintiesTable, UncertaintyDb } from '../db.js';
import type { StoredSubject } from '../projections/uncertainties.js';

// Reads of the projection into the domain's types: the only place the domain's
// inputs come from the database.

function heldOf(row: Selectable<HeldMemoriesTable>, reliability: string | undefined): HeldMemory {
  return {
    memoryId: row.memory_id,
    type: row.type,
    key: row.memory_key,
    value: row.memory_value,
    confidence: row.confidence,
    status: row.status as HeldMemory['status'],
    reliability: reliabilityOf(reliability),
    extractor: row.extractor,
    statements: row.statements,
    accessCount: row.access_count,
    createdAt: row.created_at,
    lastConfirmedAt: row.last_confirmed_at,
    topicIds: row.topic_ids,
    sourceMessageId: row.source_message_id,
  };
}

async function reliabilities(db: Kysely<UncertaintyDb>, userId: string, ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('reliability').select(['subject_id', 'reliability']).where('user_id', '=', userId).where('subject_kind', '=', 'memory').where('subject_id', 'in', ids).execute();
  return new Map(rows.map((r) => [r.subject_id, r.reliability]));
}

/**
 * The user's memories of these keys as they stood before `beforeMessageId` wrote
 * anything (a late check runs after memory wrote the message back): the ACTIVE
 * ones not from that message, and the ones that message superseded.
 */
export async function loadHeld(db: Kysely<UncertaintyDb>, userId: string, keys: readonly string[], beforeMessageId = ''): Promise<HeldMemory[]> {
  if (keys.length === 0) return [];
  const rows = await db
    .selectFrom('held_memories')
    .selectAll()
    .where('user_id', '=', userId)
    .where('memory_key', 'in', keys)
    .where('status', 'in', beforeMessageId ? ['ACTIVE', 'SUPERSEDED'] : ['ACTIVE'])
    .execute();
  const fromMessage = new Set(rows.filter((r) => beforeMessageId && r.source_message_id === beforeMessageId).map((r) => r.memory_id));
  const held = rows.filter((r) => (r.status === 'ACTIVE' && !fromMessage.has(r.memory_id)) || (r.status === 'SUPERSEDED' && r.superseded_by !== null && fromMessage.has(r.superseded_by)));
  const rel = await reliabilities(db, userId, held.map((r) => r.memory_id));
  return held.map((r) => ({ ...heldOf(r, rel.get(r.memory_id)), status: 'ACTIVE' as const }));
}

/** Every memory of the user (drift samples from them), with reliability. */
export async function loadAllHeld(db: Kysely<UncertaintyDb>, userId: string): Promise<HeldMemory[]> {
  const rows = await db.selectFrom('held_memories').selectAll().where('user_id', '=', userId).where('status', '!=', 'INVALID').execute();
  const rel = await reliabilities(db, userId, rows.map((r) => r.memory_id));
  return rows.map((r) => heldOf(r, rel.get(r.memory_id)));
}

/**
 * The user's uncertainty records in these states, each side linked to the memory
 * its message wrote (when it has) and read at that memory's current confidence
 * and statement count (the evidence).
 */
export async function loadRecords(db: Kysely<UncertaintyDb>, userId: string, states: readonly UncertaintyState[]): Promise<UncertaintyRecord[]> {
  const rows = await db.selectFrom('uncertainties').selectAll().where('user_id', '=', userId).where('state', 'in', states).orderBy('created_at').execute();
  if (rows.length === 0) return [];
  const subjects = rows.flatMap((r) => r.subjects as StoredSubject[]);
  const memoryIds = subjects.filter((s) => s.kind === 'memory' && s.id).map((s) => s.id);
  const pending = subjects.filter((s) => s.kind === 'memory' && !s.id).map((s) => s.sourceMessageId);
  const mirror =
    memoryIds.length + pending.length > 0
      ? await db
          .selectFrom('held_memories')
          .selectAll()
          .where('user_id', '=', userId)
          .where((eb) => eb.or([...(memoryIds.length ? [eb('memory_id', 'in', memoryIds)] : []), ...(pending.length ? [eb('source_message_id', 'in', pending)] : [])]))
          .execute()
      : [];
  return rows.map((r) => recordOf(r, mirror));
}

function recordOf(r: Selectable<UncertaintiesTable>, mirror: readonly Selectable<HeldMemoriesTable>[]): UncertaintyRecord {
  const sides: Side[] = (r.subjects as StoredSubject[]).map((s) => {
    const held = s.kind !== 'memory' ? undefined : s.id ? mirror.find((m) => m.memory_id === s.id) : mirror.find((m) => m.source_message_id === s.sourceMessageId && m.memory_key === s.memoryKey);
    return {
      kind: s.kind === 'belief' ? 'belief' : 'memory',
      id: held?.memory_id ?? s.id,
      store: s.store as Side['store'],
      key: s.memoryKey,
      value: s.value,
      confidence: held?.confidence ?? s.confidence,
      source: s.source === 'inferred' ? 'inferred' : 'explicit',
      sourceMessageId: s.sourceMessageId,
      statements: Math.max(held?.statements ?? 0, s.statements, 1),
    };
  });
  return {
    uncertaintyId: r.uncertainty_id,
    type: r.uncertainty_type as UncertaintyType,
    severity: r.severity as Severity,
    state: r.state as UncertaintyState,
    key: r.memory_key,
    sides,
    surfaceCues: r.surface_cues,
    surfacedCount: r.surfaced_count,
    steppedDown: r.stepped_down,
    usedPhrasingIds: r.used_phrasing_ids,
    sourceMessageIds: r.source_message_ids,
    createdAt: r.created_at,
  };
}

export async function loadTolerance(db: Kysely<UncertaintyDb>, userId: string): Promise<number> {
  const row = await db.selectFrom('tolerances').select('tolerance').where('user_id', '=', userId).executeTakeFirst();
  return row?.tolerance ?? UNCERTAINTY_CONFIG.tolerance.baseline;
}

/** Waits (briefly) until memory's write-back of `messageId` is applied here; false on timeout. */
export async function waitWrittenBack(db: Kysely<UncertaintyDb>, userId: string, messageId: string, timeoutMs: number): Promise<boolean> {
  const applied = () => db.selectFrom('written_back').select('message_id').where('user_id', '=', userId).where('message_id', '=', messageId).executeTakeFirst();
  return pollUntil(async () => (await applied()) !== undefined, { timeoutMs, intervalMs: 20 });
}
