import type { Generated } from 'kysely';

export interface ProfilesTable {
  user_id: string;
  user_state: string;
  preferred_name: string | null;
  age_band: string | null;
  client_timezone: string | null;
  suppressed_topics: Generated<string[]>;
  ai_friend_id: string | null;
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

/** The orchestrator's schema. */
export interface OrchestratorDb {
  profiles: ProfilesTable;
  personas: PersonasTable;
}
