import type { trust } from '@hearth/proto';

/** §1 ProvenanceTrust: one actor's learned trust T ∈ [0, 1] and how many updates made it. */
export interface ActorTrustView {
  /** user | agent */
  actor: string;
  trust: number;
  updates: number;
  /** Null before the first update. */
  updated_at: string | null;
}

/** The four outcome components of §2 (the spec's Δcoh, Δconf, stab, val), each in [−1, 1]. */
export interface OutcomeComponentsView {
  coherence: number;
  confidence: number;
  stability: number;
  validation: number;
}

/** One gardener decision judged at one horizon (§2 OutcomeEvaluator). */
export interface OutcomeView {
  outcome_id: string;
  /** 2h | 24h */
  horizon: string;
  reward: number;
  components: OutcomeComponentsView;
  evaluated_at: string;
}

/** One +keep / +doubt / +artifact tag as §3 weighed it. */
export interface FeedbackView {
  /** +keep | +doubt | +artifact */
  tag: string;
  /** user | agent */
  actor: string;
  /** The companion belief it aligned with; null when none was close (reason no_belief). */
  belief_id: string | null;
  weight: number;
  applied: boolean;
  /** counted | duplicate | off_target | no_belief */
  reason: string;
  created_at: string;
}

/** GET /v1/admin/users/{user_id}/trust (API.md), and the export's `trust`. */
export interface TrustView {
  actors: ActorTrustView[];
  outcomes: OutcomeView[];
  feedback: FeedbackView[];
}

/** The trust service's GetTrust answer as the admin API shows it, in API.md's field order. */
export function trustView(response: trust.GetTrustResponse): TrustView {
  return {
    actors: response.actors.map((a) => ({ actor: a.actor, trust: a.trust, updates: a.updates, updated_at: a.updatedAt?.toISOString() ?? null })),
    outcomes: response.outcomes.map(outcomeView),
    feedback: response.feedback.map(feedbackView),
  };
}

function outcomeView(o: trust.Outcome): OutcomeView {
  const c = o.components;
  return {
    outcome_id: o.outcomeId,
    horizon: o.horizon,
    reward: o.reward,
    components: { coherence: c?.coherence ?? 0, confidence: c?.confidence ?? 0, stability: c?.stability ?? 0, validation: c?.validation ?? 0 },
    // Only evaluated outcomes are listed, so '' only marks a broken answer (as the beliefs view).
    evaluated_at: o.evaluatedAt?.toISOString() ?? '',
  };
}

function feedbackView(f: trust.Feedback): FeedbackView {
  return {
    tag: f.tag,
    actor: f.actor,
    // Protobuf has no null string: "" is a tag that aligned with no belief.
    belief_id: f.beliefId === '' ? null : f.beliefId,
    weight: f.weight,
    applied: f.applied,
    reason: f.reason,
    created_at: f.createdAt?.toISOString() ?? '',
  };
}
