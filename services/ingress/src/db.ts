import type { Generated } from 'kysely';

export interface UsersTable {
  user_id: string;
  user_state: string;
  answers: unknown;
  /** {proactive_messages_enabled, mute_until, suppressed_topics}; null before onboarding. */
  controls: Generated<unknown>;
  ai_friend_id: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface PersonasTable {
  user_id: string;
  ai_friend_id: string;
  template_id: string;
  core_archetype: string;
  friend_energy: string;
  stable_style_params: unknown;
  assigned_at: Date;
  /** Sequence of the PersonaAssigned event in the orchestrator's assignment log. */
  event_seq: number | null;
}

export interface TurnsTable {
  message_id: string;
  user_id: string;
  conversation_id: string;
  text: string | null;
  source: string | null;
  user_state: string | null;
  activates_user: boolean | null;
  received_at: Date | null;
  routing: unknown;
  assistant_message_id: string | null;
  assistant_text: string | null;
  surfaced_memory_ids: unknown;
  completed_at: Date | null;
  refused: Generated<boolean>;
}

/** The ingress schema. */
export interface IngressDb {
  users: UsersTable;
  personas: PersonasTable;
  turns: TurnsTable;
  app_opens: AppOpensTable;
  erasures: ErasuresTable;
  erasures_applied: ErasuresAppliedTable;
}

export interface ErasuresTable {
  erasure_id: string;
  user_id: string;
  key_generation: number;
  requested_at: Date;
}

export interface ErasuresAppliedTable {
  erasure_id: string;
  service: string;
  applied_at: Date;
}

export interface AppOpensTable {
  user_id: string;
  app_open_id: string;
  opened_notification_id: string | null;
  opened_at: Date;
}
