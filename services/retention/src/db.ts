import type { Generated } from 'kysely';

/** What eligibility needs of one user (turn-pipeline §14.1, §2.7). */
export interface UsersTable {
  user_id: string;
  /** The user's first message activated it (turn-pipeline §4.1.2). */
  active: Generated<boolean>;
  timezone: Generated<string>;
  proactive_enabled: Generated<boolean>;
  mute_until: Date | null;
  stage: Generated<string>;
  last_interaction_at: Date | null;
  conversation_id: string | null;
  ai_friend_id: Generated<string>;
  onboarded_at: Date | null;
}

/** One proactive message (§14.2). */
export interface RetentionsTable {
  retention_id: string;
  user_id: string;
  notification_id: string | null;
  conversation_id: string | null;
  planned_at: Date | null;
  delivered_at: Date | null;
  declined_reason: string | null;
  /** '' | acknowledged | ignored */
  outcome: string;
  acknowledged_via: string | null;
  resolved_at: Date | null;
}

/** The scheduler's progress per user (not a projection table). */
export interface ScheduleTable {
  user_id: string;
  evaluated_through: Date | null;
  evaluations: string | number;
  claimed_by: string | null;
  claimed_until: Date | null;
}

export interface RetentionDb {
  users: UsersTable;
  retentions: RetentionsTable;
  schedule: ScheduleTable;
}
