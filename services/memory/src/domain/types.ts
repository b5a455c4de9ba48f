import type { MemoryType } from '@hearth/memory-rules';

export type { Candidate, Extractor, MemoryType, StatedTime } from '@hearth/memory-rules';

/** §12.4 status semantics. */
export type MemoryStatus = 'ACTIVE' | 'SUPERSEDED' | 'INVALID';

/** One stored record, as dedup needs it. */
export interface MemoryRow {
  memoryId: string;
  type: MemoryType;
  key: string;
  value: string;
  confidence: number;
  status: MemoryStatus;
  createdAt: Date;
  lastConfirmedAt: Date;
}
