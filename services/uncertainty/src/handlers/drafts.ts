import { draft, type EventDraft } from '@hearth/bus';
import { deriveId, Events, type UncertaintySubject } from '@hearth/events';
import type { NewUncertainty, ReliabilityChange, Resolution, Side, ToleranceChange } from '@hearth/uncertainty';

// Domain decisions → the service's events, each id derived from what caused it,
// so deciding again appends nothing new.

export interface Meta {
  userId: string;
  causationId: string;
  correlationId: string;
  occurredAt: Date;
  /** What the ids derive from (the checked message, the drift cycle, the event). */
  basis: string;
}

export function subjectOf(s: Side): UncertaintySubject {
  return { kind: s.kind, id: s.id, store: s.store, memoryKey: s.key, value: s.value, confidence: s.confidence, source: s.source, sourceMessageId: s.sourceMessageId, statements: s.statements };
}

function meta(m: Meta, id: string) {
  return { userId: m.userId, causationId: m.causationId, correlationId: m.correlationId, occurredAt: m.occurredAt, id };
}

export function recordedDraft(m: Meta, u: NewUncertainty): EventDraft {
  return draft(
    Events.UncertaintyRecorded,
    {
      uncertaintyId: u.uncertaintyId,
      uncertaintyType: u.type,
      subjects: u.sides.map(subjectOf),
      severity: u.severity,
      detectionContext: u.detectionContext,
      reasoning: u.reasoning,
      temporalSignal: u.temporalSignal,
      surfaceContext: u.surfaceContext,
      surfaceCues: u.surfaceCues,
      state: u.state,
      resolutionStrategy: u.strategy,
      resolutionDetail: u.detail,
      sourceMessageIds: u.sourceMessageIds,
      at: m.occurredAt,
    },
    meta(m, deriveId('uncertainty', 'recorded', u.uncertaintyId)),
  );
}

export function resolvedDraft(m: Meta, r: Resolution, sourceMessageId: string): EventDraft {
  return draft(
    Events.UncertaintyResolved,
    { uncertaintyId: r.uncertaintyId, strategy: r.strategy, detail: r.detail, winnerId: r.winnerId, loserId: r.loserId, sourceMessageId, at: m.occurredAt, state: r.state },
    meta(m, deriveId('uncertainty', 'resolved', r.uncertaintyId)),
  );
}

export function reliabilityDrafts(m: Meta, changes: readonly ReliabilityChange[]): EventDraft[] {
  return changes
    .filter((c) => c.side.id !== '')
    .map((c, i) =>
      draft(
        Events.ReliabilityChanged,
        { subject: subjectOf(c.side), from: c.from, to: c.to, reason: c.reason, uncertaintyId: c.uncertaintyId, at: m.occurredAt },
        meta(m, deriveId('uncertainty', 'reliability', m.basis, i)),
      ),
    );
}

export function toleranceDraft(m: Meta, t: ToleranceChange, sourceMessageId: string): EventDraft {
  return draft(Events.ToleranceAdjusted, { from: t.from, to: t.to, reason: t.reason, sourceMessageId, at: m.occurredAt }, meta(m, deriveId('uncertainty', 'tolerance', m.basis)));
}
