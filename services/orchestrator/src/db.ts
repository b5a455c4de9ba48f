import type { Generated } from 'kysely';

export interface ProfilesTable {
  user_id: string;
  user_state: string;
  preferred_name: string | null;
  age_band: string | null;
  client_timezone: string | null;
  suppressed_topics: Generated<string[]>;
  ai_friend_id: string | null;
  /** §2.7 UserControls: proactive messages on (the default) or off, and muted until when (null: not muted). */
  proactive_messages_enabled: Generated<boolean>;
  mute_until: Date | null;
  updated_at: Date;
}

export interface PersonasTable {
  user_id: string;
  ai_friend_id: string;
  template_id: string;
  core_archetype: string;
  humor_mode: string;
  friend_energy: string;
  stable_style_params: unknown;
  persona_seed: number;
  assigned_at: Date;
  mutated_categories: Generated<string[]>;
  resamples: Generated<number>;
  fallback: Generated<boolean>;
  window_total: Generated<number>;
  window_combo_count: Generated<number>;
}

/** RelationshipState per user and companion (turn-pipeline §2.5). */
export interface RelationshipsTable {
  user_id: string;
  ai_friend_id: string;
  stage: string;
  rapport_score: number;
  sessions_count: number;
  last_interaction_at: Date | null;
  last_session_at: Date | null;
  last_stage_promotion_at: Date | null;
  session_disengaged: number;
  updated_at: Date;
}

/** One assistant reply and what the gates and §2.8 need of its turn. */
export interface DialogueTable {
  assistant_message_id: string;
  user_id: string;
  conversation_id: string;
  user_message_id: string;
  source: string;
  user_text: string;
  assistant_text: string;
  opener_norm: string;
  asked_question: boolean;
  surfaced_memory_ids: string[];
  user_initiated_topics: string[];
  /** The belief challenge the reply wove in (issue 16), "" for none. */
  challenge_id: Generated<string>;
  /** The uncertainty the reply asked about (issue 17), "" for none. */
  surfaced_uncertainty_id: Generated<string>;
  created_at: Date;
  event_seq: string | number | bigint;
}

/** The orchestrator's schema. */
export interface OrchestratorDb {
  profiles: ProfilesTable;
  personas: PersonasTable;
  relationships: RelationshipsTable;
  dialogue: DialogueTable;
}
