import {
  alignTag,
  anchorsOf,
  coherenceOf,
  doubtRateBefore,
  gAlign,
  gardenerVerdict,
  gateFeedback,
  globalScore,
  scoreBelief,
  TRUST_CONFIG,
  weighFeedback,
  type Actor,
  type BeliefScore,
  type BeliefView,
  type FeedbackEntry,
  type GardenerVerdict,
  type GlobalScore,
  type TagCandidate,
  type Weighting,
} from '@hearth/trust';

/** One tag of a turn as recorded: the entry the aggregator reads, with its weighting and where it came from. */
export interface TurnTag extends FeedbackEntry {
  cue: string;
  text: string;
  sourceMessageId: string;
  weighting: Weighting;
}

/** The gardener's scan of one belief after this turn's feedback (GardenerDecided). */
export interface TurnDecision {
  decisionId: string;
  beliefId: string;
  verdict: GardenerVerdict;
  score: BeliefScore;
  global: GlobalScore;
  coherence: number;
  conflicts: number;
  confidence: number;
  /** The belief's gardener level before the decision. */
  level: number;
  doubtRate: number;
  /** When the outcome is judged at each horizon; null for a hold (nothing was decided). */
  shortDueAt: Date | null;
  longDueAt: Date | null;
}

export interface TurnInput {
  at: Date;
  /** The user message and the reply: the source of a user's and of the agent's tags. */
  messageId: string;
  assistantMessageId: string;
  candidates: readonly TagCandidate[];
  /** The embedding of each candidate's text, in order, by `model`. */
  vectors: readonly (readonly number[])[];
  model: string;
  /** The companion's beliefs now (belief-graph's GetCompanionBeliefs). */
  beliefs: readonly BeliefView[];
  /** The user's recorded tags (both actors) before this turn, over SERVICE.historyMs at least. */
  history: readonly FeedbackEntry[];
  /** T_actor now (0.5 for an actor never updated). */
  trust: Readonly<Record<Actor, number>>;
  /** Ids derived from the turn, so deciding again gives the same events. */
  tagId: (index: number) => string;
  decisionId: (beliefId: string) => string;
}

export interface TurnDecisionResult {
  /** cos(anchor_live, anchor_origin) when the turn was read. */
  coherence: number;
  tags: TurnTag[];
  decisions: TurnDecision[];
}

/**
 * One turn's tags through the Enhanced Feedback Aggregator and the Belief
 * Gardener (outcome-driven-trust.md §3, Integration 2): each tag is aligned
 * with the companion's closest belief, gated (no belief, off-target negative
 * tag, tag storm) against the history and the turn's earlier tags, and weighed
 * with g_conviction, g_trust and g_align; each belief a counted tag touched is
 * scored and decided. Pure: the beliefs, history, trust and ids come in.
 */
export function decideTurn(input: TurnInput): TurnDecisionResult {
  const { at, beliefs } = input;
  const anchors = anchorsOf(beliefs);
  const coherence = coherenceOf(anchors);
  const byId = new Map(beliefs.map((b) => [b.beliefId, b]));
  const entries: FeedbackEntry[] = [...input.history];
  const tags: TurnTag[] = input.candidates.map((c, i) => {
    const aligned = alignTag(input.vectors[i] ?? [], beliefs, input.model);
    const belief = aligned ? byId.get(aligned.beliefId) : undefined;
    const beliefId = belief?.beliefId ?? '';
    const alignment = belief ? aligned!.alignment : 0;
    const gate = gateFeedback({ tag: c.tag, actor: c.actor, beliefId, alignment, at }, entries);
    const weighting = weighFeedback({ tag: c.tag, alignment, beliefConfidence: belief?.confidence ?? 0, trust: input.trust[c.actor], gAlign: belief ? gAlign(belief.embedding, anchors) : 1 });
    const entry: FeedbackEntry = { feedbackId: input.tagId(i), tag: c.tag, actor: c.actor, beliefId, alignment, weight: weighting.weight, applied: gate.applied, reason: gate.reason, at };
    entries.push(entry);
    return { ...entry, cue: c.cue, text: c.text, sourceMessageId: c.actor === 'user' ? input.messageId : input.assistantMessageId, weighting };
  });
  const counted = [...new Set(tags.filter((t) => t.applied).map((t) => t.beliefId))];
  const global = counted.length > 0 ? globalScore(entries, at) : null;
  const doubtRate = doubtRateBefore(
    input.history.filter((e) => e.actor === 'user'),
    at,
  );
  const decisions = counted.map((beliefId): TurnDecision => {
    const belief = byId.get(beliefId)!;
    const score = scoreBelief(beliefId, entries, at);
    const verdict = gardenerVerdict(score, global!, belief.level);
    const decided = verdict.action !== 'hold';
    return {
      decisionId: input.decisionId(beliefId),
      beliefId,
      verdict,
      score,
      global: global!,
      coherence,
      conflicts: belief.openConflicts,
      confidence: belief.confidence,
      level: belief.level,
      doubtRate,
      shortDueAt: decided ? new Date(at.getTime() + TRUST_CONFIG.horizons['2h'].ms) : null,
      longDueAt: decided ? new Date(at.getTime() + TRUST_CONFIG.horizons['24h'].ms) : null,
    };
  });
  return { coherence, tags, decisions };
}
