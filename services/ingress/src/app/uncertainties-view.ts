import type { uncertainty } from '@hearth/proto';

/** What an uncertainty is about: a memory or a belief node (uncertainty-engine.md "memory_a / memory_b"). */
export interface UncertaintySubjectView {
  /** memory | belief */
  kind: string;
  id: string;
}

/** One row of the `uncertainties` table (uncertainty-engine.md "Database Schema"), as API.md shows it. */
export interface UncertaintyItemView {
  uncertainty_id: string;
  /** contradiction | unverified | stale | ambiguous */
  uncertainty_type: string;
  subjects: UncertaintySubjectView[];
  /** low | medium | high | critical */
  severity: string;
  /** open | surfaced | resolved | decayed */
  state: string;
  /** ingestion | drift | pre_action | consolidation */
  detection_context: string;
  temporal_signal: boolean;
  /** temporal_supersede | user_clarified | evidence_resolved | confidence_dominance | decayed; null while unresolved. */
  resolution_strategy: string | null;
  surfaced_count: number;
  source_message_ids: string[];
  created_at: string;
  /** Null while unresolved. */
  resolved_at: string | null;
}

/** GET /v1/admin/users/{user_id}/uncertainties (API.md), and the export's `uncertainties`. */
export interface UncertaintiesView {
  uncertainties: UncertaintyItemView[];
  /** The companion's uncertainty tolerance for this user (uncertainty-engine.md "Uncertainty Tolerance"). */
  tolerance: number;
}

/** The uncertainty service's GetUncertainties answer as the admin API shows it, in API.md's field order. */
export function uncertaintiesView(response: uncertainty.GetUncertaintiesResponse): UncertaintiesView {
  return { uncertainties: response.uncertainties.map(itemView), tolerance: response.tolerance };
}

function itemView(u: uncertainty.UncertaintyView): UncertaintyItemView {
  return {
    uncertainty_id: u.uncertaintyId,
    uncertainty_type: u.uncertaintyType,
    // A side stated by a message memory has not written yet has no id: nothing to name until it has.
    subjects: u.subjects.filter((s) => s.id !== '').map((s) => ({ kind: s.kind, id: s.id })),
    severity: u.severity,
    state: u.state,
    detection_context: u.detectionContext,
    temporal_signal: u.temporalSignal,
    // Protobuf has no null string: "" is an unresolved one's strategy.
    resolution_strategy: u.resolutionStrategy === '' ? null : u.resolutionStrategy,
    surfaced_count: u.surfacedCount,
    source_message_ids: [...u.sourceMessageIds],
    // The service always sets created_at, so '' only marks a broken answer (as the beliefs view).
    created_at: u.createdAt?.toISOString() ?? '',
    resolved_at: u.resolvedAt?.toISOString() ?? null,
  };
}
