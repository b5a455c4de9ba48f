import type { Generated } from 'kysely';

/** Uncertainty's mirror of memory's records (from memory's events): what it checks and rates. */
export interface HeldMemoriesTable {
  memory_id: string;
  user_id: string;
  type: string;
  memory_key: string;
  memory_value: string;
  confidence: number;
  status: string;
  superseded_by: string | null;
  extractor: string;
  statements: Generated<number>;
  access_count: Generated<number>;
  topic_ids: string[];
  source_message_id: string;
  created_at: Date;
  last_confirmed_at: Date;
}

/** The reliability state of a memory or belief node, as uncertainty's events set it (absent: reliable). */
export interface ReliabilityTable {
  user_id: string;
  subject_kind: string;
  subject_id: string;
  reliability: string;
  uncertainty_id: string;
  changed_at: Date;
}

/** The spec's `uncertainties` table, with what Hearth needs to surface and link sides. */
export interface UncertaintiesTable {
  uncertainty_id: string;
  user_id: string;
  memory_a_type: string;
  memory_a_id: string;
  memory_b_type: string | null;
  memory_b_id: string | null;
  uncertainty_type: string;
  severity: string;
  detection_context: string;
  reasoning: string;
  temporal_signal: boolean;
  surface_context: string;
  state: string;
  resolution_strategy: string | null;
  resolution_detail: string | null;
  resolved_at: Date | null;
  surfaced_count: Generated<number>;
  last_surfaced_at: Date | null;
  created_at: Date;
  memory_key: string;
  /** Both sides as recorded (uncertainty.Subject JSON); a side stated by the message gets its memory id once memory wrote it. */
  subjects: unknown;
  surface_cues: string[];
  stepped_down: Generated<boolean>;
  used_phrasing_ids: Generated<string[]>;
  source_message_ids: string[];
}

/** One row per checked user message (MessageChecked): what the reply was told. */
export interface ChecksTable {
  message_id: string;
  user_id: string;
  verdict: string;
  contradicted_memory_ids: string[];
  uncertainty_id: string;
  late: boolean;
  checked_at: Date;
}

/** Memory's write-backs applied here, so a check waits for the previous turn's. */
export interface WrittenBackTable {
  user_id: string;
  message_id: string;
}

export interface TolerancesTable {
  user_id: string;
  tolerance: number;
  updated_at: Date;
}

export interface DriftTable {
  user_id: string;
  cycle: number;
  last_drift_at: Date;
}

export interface UncertaintyDb {
  held_memories: HeldMemoriesTable;
  reliability: ReliabilityTable;
  uncertainties: UncertaintiesTable;
  checks: ChecksTable;
  written_back: WrittenBackTable;
  tolerances: TolerancesTable;
  drift: DriftTable;
}
