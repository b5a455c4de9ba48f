/** T_actor of one user's actor (absent: 0.5, no update yet). */
export interface ActorsTable {
  user_id: string;
  actor: string;
  trust: number;
  updates: number;
  updated_at: Date | null;
}

/** Every tag FeedbackRecorded carried, counted or not. */
export interface FeedbackTable {
  feedback_id: string;
  user_id: string;
  source_message_id: string;
  position: number;
  tag: string;
  actor: string;
  belief_id: string;
  alignment: number;
  cue: string;
  precision: number;
  g_conviction: number;
  g_trust: number;
  g_align: number;
  base_weight: number;
  weight: number;
  applied: boolean;
  reason: string;
  text: string;
  created_at: Date;
}

/** GardenerDecided: the scan of one belief and the state its outcomes are measured against. */
export interface DecisionsTable {
  decision_id: string;
  user_id: string;
  belief_id: string;
  action: string;
  reason: string;
  feedback: number;
  neg: number;
  /** Partial<Record<Actor, number>> */
  contributions: unknown;
  global_feedback: number;
  global_neg: number;
  coherence: number;
  conflicts: number;
  confidence: number;
  /** The belief's gardener level before the decision. */
  level: number;
  doubt_rate: number;
  source_message_id: string;
  created_at: Date;
}

/** One decision at one horizon: pending (evaluated_at null) until OutcomeEvaluated. */
export interface OutcomesTable {
  outcome_id: string;
  user_id: string;
  decision_id: string;
  belief_id: string;
  horizon: string;
  due_at: Date;
  evaluated_at: Date | null;
  reward: number | null;
  /** OutcomeResult['components'] */
  components: unknown;
  /** Partial<Record<Actor, number>> */
  credit: unknown;
  validation_explicit: number | null;
  validation_implicit: number | null;
  coherence_baseline: number | null;
  alpha_scale: number | null;
}

/** The scheduler's per-user row: when the next outcome is due, and which replica holds the lease. */
export interface ScheduleTable {
  user_id: string;
  next_due_at: Date | null;
  claimed_by: string | null;
  claimed_until: Date | null;
}

/** A belief challenge the companion wove in (BeliefChallengeIssued) and the user's answer (BeliefConfidenceUpdated). */
export interface ChallengesTable {
  challenge_id: string;
  user_id: string;
  belief_id: string;
  decision_id: string;
  message_id: string;
  issued_at: Date;
  answer_signal: string | null;
  answer_message_id: string | null;
  answer_delta: number | null;
  answer_confidence: number | null;
  answered_at: Date | null;
}

export interface TrustDb {
  actors: ActorsTable;
  feedback: FeedbackTable;
  decisions: DecisionsTable;
  outcomes: OutcomesTable;
  schedule: ScheduleTable;
  challenges: ChallengesTable;
}
