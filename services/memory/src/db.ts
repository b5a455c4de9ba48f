import type { Generated } from 'kysely';

/** One memory record (turn-pipeline §12), any status. */
export interface MemoriesTable {
  memory_id: string;
  user_id: string;
  ai_friend_id: string;
  type: string;
  memory_key: string;
  /** "" once INVALID: a memory the user deleted keeps no value (nor embedding). */
  memory_value: string;
  confidence: number;
  /** ACTIVE | SUPERSEDED | INVALID */
  status: string;
  superseded_by: string | null;
  source_message_ids: string[];
  extractor: string;
  topic_ids: string[];
  embedding: number[];
  embedding_model: string;
  created_at: Date;
  last_confirmed_at: Date;
  /** "" while ACTIVE; superseded, or the MemoriesInvalidated reason. */
  status_reason: string;
  updated_at: Date;
  /** The stated time of what it tells (MemoryRecorded occurred_*): YYYY-MM-DD, day|week|month|year, the words; null for none or once INVALID. */
  occurred_on: string | null;
  occurred_precision: string | null;
  occurred_text: string | null;
  /**
   * uncertainty-engine.md: reliable | uncertain | contradicted | superseded, as the
   * uncertainty service last said (ReliabilityChanged); 'reliable' until it does.
   * Independent of `status`: a SUPERSEDED record may be reliable (true in the past).
   */
  reliability: Generated<string>;
  /** Stream sequence of the event that last changed the row. */
  updated_seq: string | number;
}

/** UserControls.suppressed_memory_keys (§12.4), owned by memory. */
export interface SuppressedKeysTable {
  user_id: string;
  memory_key: string;
  suppressed_at: Date;
}

/** Each turn's write-back: what the assistant surfaced and what the user's message wrote. */
export interface MemoryTurnsTable {
  assistant_message_id: string;
  user_id: string;
  conversation_id: string;
  message_id: string;
  source: string;
  surfaced_memory_ids: string[];
  candidate_ids: string[];
  topic_ids: string[];
  correction: string;
  created_at: Date;
  event_seq: string | number;
}

/**
 * The latest ReliabilityChanged of each of the user's memory ids, applied or not
 * yet to `memories` (the uncertainty stream may run ahead of the memory stream).
 */
export interface MemoryReliabilityTable {
  user_id: string;
  memory_id: string;
  reliability: string;
  changed_at: Date;
}

export interface MemoryDb {
  memories: MemoriesTable;
  memory_reliability: MemoryReliabilityTable;
  suppressed_keys: SuppressedKeysTable;
  memory_turns: MemoryTurnsTable;
}
