import type { Generated } from 'kysely';

export interface NodesTable {
  belief_id: string;
  user_id: string;
  holder: string;
  canonical_text: string;
  canonical_hash: string;
  belief_type: string;
  polarity: string;
  temporal_scope: string;
  embedding: number[];
  embedding_model: string;
  embedding_text: string;
  raw_text: string;
  activation: Generated<number>;
  core_score: Generated<number>;
  status: Generated<string>;
  confidence: number;
  conflict_count: Generated<number>;
  stream: string;
  secondary_stream: Generated<string>;
  stream_confidence: Generated<number>;
  migrated_from: string | null;
  migrated_at: Date | null;
  migration_history: Generated<unknown>;
  seeded: Generated<boolean>;
  created_at: Date;
  last_reinforced_at: Date;
  deleted_at: Date | null;
  merged_into: string | null;
  /** uncertainty-engine.md: reliable | uncertain | contradicted | superseded, as the uncertainty service last said. */
  reliability: Generated<string>;
  /** outcome-driven-trust.md: the gardener's level, −1 deprecated, 0, +1 promoted (BeliefGardened). */
  gardener_level: Generated<number>;
}

export interface OccurrencesTable {
  occurrence_id: string;
  belief_id: string;
  user_id: string;
  source_message_id: string;
  extractor_version: string;
  raw_text: string;
  raw_span: unknown;
  source_weight: number;
  atom_confidence: number;
  epistemic_frame: unknown;
  epistemic_confidence: number;
  match_confidence: number;
  context_id: string;
  created_at: Date;
  deleted_at: Date | null;
}

export interface LinksTable {
  link_id: string;
  user_id: string;
  from_belief_id: string;
  to_belief_id: string;
  confidence: number;
  state: string;
  support_both: Generated<number>;
  support_one: Generated<number>;
  last_support_at: Date;
  signals: Generated<unknown>;
  extractor_version: string;
  created_at: Date;
  updated_at: Date;
}

export interface ConflictsTable {
  conflict_id: string;
  user_id: string;
  node_a_id: string;
  node_b_id: string;
  conflict_type: string;
  detection_method: string;
  evidence: unknown;
  source_message_ids: string[];
  status: Generated<string>;
  created_at: Date;
  resolved_at: Date | null;
  resolution_reason: string | null;
}

export interface ChallengesTable {
  challenge_id: string;
  user_id: string;
  belief_id: string;
  style: string;
  message_id: string;
  assistant_message_id: string;
  conversation_id: string;
  prompt: string;
  created_at: Date;
  answered_message_id: string | null;
  answer_signal: string | null;
}

export interface SourcesTable {
  user_id: string;
  source_message_id: string;
  holder: string;
  extractor_version: string;
  atoms: number;
  processed_at: Date;
}

/** The latest ReliabilityChanged of each of the user's belief ids, applied or not yet to `nodes`. */
export interface BeliefReliabilityTable {
  user_id: string;
  belief_id: string;
  reliability: string;
  changed_at: Date;
}

/** Every BeliefGardened: the answer to one of trust's GardenerDecided, applied or not. */
export interface GardenedTable {
  decision_id: string;
  user_id: string;
  belief_id: string;
  action: string;
  applied: boolean;
  reason: string;
  /** The level and confidence after it (unchanged when not applied). */
  level: number;
  confidence: number;
  at: Date;
}

/** The outcomes trust evaluated about a belief (OutcomeEvaluated), for the reward correlation. */
export interface BeliefRewardsTable {
  user_id: string;
  belief_id: string;
  outcomes: number;
  reward_sum: number;
}

export interface BeliefDb {
  nodes: NodesTable;
  occurrences: OccurrencesTable;
  links: LinksTable;
  conflicts: ConflictsTable;
  challenges: ChallengesTable;
  sources: SourcesTable;
  belief_reliability: BeliefReliabilityTable;
  gardened: GardenedTable;
  belief_rewards: BeliefRewardsTable;
}
