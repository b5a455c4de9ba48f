import type { memory } from '@hearth/proto';

/** One memory as GET /v1/me/memories shows it (API.md). */
export interface MemoryView {
  memory_id: string;
  type: string;
  memory_key: string;
  /** Null once INVALID: a memory the user deleted keeps no value. */
  memory_value: string | null;
  confidence: number;
  status: string;
  /** uncertainty-engine.md "Memory Reliability Model": reliable | uncertain | contradicted | superseded. */
  reliability: string;
  source_message_ids: string[];
  created_at: string;
  last_confirmed_at: string;
  /** When what it tells happened, as the user stated it: YYYY-MM-DD (the first day of a stated week, month or year), null for none. */
  occurred_on: string | null;
  /** day | week | month | year; null with occurred_on. */
  occurred_precision: string | null;
  superseded_by?: string | null;
}

/** A memory's record as API.md shows it; `all` (?status=all, the export, a forgotten memory) adds superseded_by. */
export function memoryView(m: memory.MemoryRecord, all: boolean): MemoryView {
  return {
    memory_id: m.memoryId,
    type: m.type,
    memory_key: m.memoryKey,
    // Memory sends "" for a value that is gone (protobuf has no null string).
    memory_value: m.memoryValue === '' ? null : m.memoryValue,
    confidence: m.confidence,
    status: m.status,
    reliability: reliabilityOf(m),
    source_message_ids: m.sourceMessageIds,
    created_at: m.createdAt?.toISOString() ?? '',
    last_confirmed_at: m.lastConfirmedAt?.toISOString() ?? '',
    occurred_on: m.occurredOn || null,
    occurred_precision: m.occurredPrecision || null,
    ...(all ? { superseded_by: m.supersededBy || null } : {}),
  };
}

/**
 * A memory's reliability state as uncertainty rated it. Memory sends "" for one never
 * rated ("default reliable"); field 7 (`reliability`, a number) is the confidence it
 * stood in for before issue 17, not a state.
 */
function reliabilityOf(m: memory.MemoryRecord): string {
  return m.reliabilityState || 'reliable';
}
