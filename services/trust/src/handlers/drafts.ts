import { draft, type EventDraft } from '@hearth/bus';
import { Events, llmExchangeToProto, type ActorShare } from '@hearth/events';
import type { LlmExchange } from '@hearth/llm';
import { ACTORS, type Actor, type Horizon, type OutcomeResult, type TrustStep } from '@hearth/trust';
import { feedbackRecordedId, trustUpdatedId } from '../ids.js';
import type { ChallengeDecision } from '../feedback/challenge.js';
import type { TurnDecisionResult } from '../feedback/turn.js';

export interface Meta {
  userId: string;
  causationId: string;
  correlationId: string;
  occurredAt: Date;
}

export function sharesOf(shares: Partial<Record<Actor, number>>): ActorShare[] {
  return ACTORS.flatMap((actor) => (shares[actor] === undefined ? [] : [{ actor, share: shares[actor] }]));
}

/** A turn's FeedbackRecorded and its GardenerDecided events, in that order. */
export function turnDrafts(
  meta: Meta,
  turn: { messageId: string; assistantMessageId: string; conversationId: string; detector: 'rules' | 'llm'; exchanges: readonly LlmExchange[]; embeddingModel: string },
  d: TurnDecisionResult,
): EventDraft[] {
  const base = { userId: meta.userId, causationId: meta.causationId, correlationId: meta.correlationId, occurredAt: meta.occurredAt };
  return [
    draft(
      Events.FeedbackRecorded,
      {
        messageId: turn.messageId,
        assistantMessageId: turn.assistantMessageId,
        conversationId: turn.conversationId,
        detector: turn.detector,
        exchanges: turn.exchanges.map(llmExchangeToProto),
        embeddingModel: turn.embeddingModel,
        coherence: d.coherence,
        tags: d.tags.map((t) => ({
          feedbackId: t.feedbackId,
          tag: t.tag,
          actor: t.actor,
          beliefId: t.beliefId,
          alignment: t.alignment,
          cue: t.cue,
          sourceMessageId: t.sourceMessageId,
          precision: t.weighting.precision,
          gConviction: t.weighting.gConviction,
          gTrust: t.weighting.gTrust,
          gAlign: t.weighting.gAlign,
          baseWeight: t.weighting.baseWeight,
          weight: t.weighting.weight,
          applied: t.applied,
          reason: t.reason,
          text: t.text,
        })),
      },
      { ...base, id: feedbackRecordedId(turn.messageId) },
    ),
    ...d.decisions.map((x) =>
      draft(
        Events.GardenerDecided,
        {
          decisionId: x.decisionId,
          beliefId: x.beliefId,
          action: x.verdict.action,
          reason: x.verdict.reason,
          feedback: x.score.feedback,
          neg: x.score.neg,
          contributions: sharesOf(x.score.contributions),
          globalFeedback: x.global.feedback,
          globalNeg: x.global.neg,
          coherence: x.coherence,
          conflicts: x.conflicts,
          confidence: x.confidence,
          level: x.level,
          doubtRate: x.doubtRate,
          shortDueAt: x.shortDueAt ?? undefined,
          longDueAt: x.longDueAt ?? undefined,
          sourceMessageId: turn.messageId,
        },
        { ...base, id: x.decisionId },
      ),
    ),
  ];
}

/**
 * A belief challenge's GardenerDecided (action challenge): no feedback score, no
 * global score and no coherence are read for it (the evaluator takes none of
 * them); belief-graph applies nothing for it.
 */
export function challengeDraft(meta: Meta, d: ChallengeDecision): EventDraft {
  return draft(
    Events.GardenerDecided,
    {
      decisionId: d.decisionId,
      beliefId: d.beliefId,
      action: d.action,
      reason: d.reason,
      feedback: 0,
      neg: 0,
      contributions: sharesOf(d.contributions),
      globalFeedback: 0,
      globalNeg: 0,
      coherence: 0,
      conflicts: d.conflicts,
      confidence: d.confidence,
      level: d.level,
      doubtRate: 0,
      shortDueAt: d.shortDueAt,
      longDueAt: d.longDueAt,
      sourceMessageId: d.sourceMessageId,
    },
    { userId: meta.userId, causationId: meta.causationId, correlationId: meta.correlationId, occurredAt: meta.occurredAt, id: d.decisionId },
  );
}

/** One outcome's OutcomeEvaluated and the TrustUpdated steps it caused, in that order. */
export function outcomeDrafts(
  meta: Meta,
  o: { outcomeId: string; decisionId: string; beliefId: string; horizon: Horizon; dueAt: Date; alphaScale: number },
  result: OutcomeResult,
  steps: readonly TrustStep[],
): EventDraft[] {
  const base = { userId: meta.userId, causationId: meta.causationId, correlationId: meta.correlationId, occurredAt: meta.occurredAt };
  return [
    draft(
      Events.OutcomeEvaluated,
      {
        outcomeId: o.outcomeId,
        decisionId: o.decisionId,
        beliefId: o.beliefId,
        horizon: o.horizon,
        reward: result.reward,
        components: result.components,
        credit: sharesOf(result.credit),
        dueAt: o.dueAt,
        validationExplicit: result.validationExplicit,
        validationImplicit: result.validationImplicit,
        coherenceBaseline: result.coherenceBaseline,
        alphaScale: o.alphaScale,
      },
      { ...base, id: o.outcomeId },
    ),
    ...steps.map((s) =>
      draft(
        Events.TrustUpdated,
        { actor: s.actor, trustBefore: s.trustBefore, trust: s.trust, reward: s.reward, target: s.target, alpha: s.alpha, updates: s.updates, outcomeId: o.outcomeId, horizon: o.horizon },
        { ...base, id: trustUpdatedId(o.outcomeId, s.actor) },
      ),
    ),
  ];
}
