import type { NodeView } from '@hearth/beliefs';
import { tokenize } from '@hearth/text';
import { SURFACING, type Stage } from '../config.js';
import { evaluateReply, isSensitive, recallAsked, type ExemptGate, type GateVerdict, type AskedUncertainty, type WithheldValue } from '../gates/index.js';
import type { StableStyle } from '../personas/assign.js';
import type { PersonaTemplate } from '../personas/library.js';
import { analyzeEmotion, type EmotionReading } from '../relationship/index.js';
import { personaConstraints, type PersonaConstraints } from './constraints.js';
import { planResponse, type PlannedMemory, type ResponsePlan } from './plan.js';

/** An earlier reply of the conversation, as the `turns` projection keeps it in `dialogue`. */
export interface RecordedReply {
  source: string;
  assistantText: string;
  openerNorm: string;
  askedQuestion: boolean;
  userInitiatedTopics: string[];
  /** The memories that reply said back (§12.4's surfaced_memory_ids). */
  surfacedMemoryIds: readonly string[];
}

/** A memory retrieved for the turn (§7.1 steps 2–3). */
export interface RetrievedMemory {
  memoryId: string;
  type: string;
  memoryKey: string;
  memoryValue: string;
  confidence: number;
  topicIds: string[];
  /** 0..1 as the memory service answered (issue 15); what the plan surfaces by. */
  relevance: number;
  /** YYYY-MM-DD the user stated, or '' (issue 15). */
  occurredOn: string;
  occurredPrecision: string;
}

/** What the recipe decides a reply from, once loaded (or, in an audit, recorded). */
export interface TurnFacts {
  pipeline: string;
  source: 'chat' | 'retention';
  /**
   * A message the user did not prompt (a rendered proactive one): nothing in it
   * is user-initiated and no recall is asked.
   */
  proactive: boolean;
  /** Stage A's forms of the user's message. */
  normalized: { normNoPunct: string; userTextNorm: string };
  style: StableStyle;
  template: PersonaTemplate | undefined;
  stage: Stage;
  suppressedTopics: readonly string[];
  /** §2.8: the TopicIDs the user initiated in this message. */
  initiatedNow: readonly string[];
  /** The conversation's earlier replies, newest first. */
  history: readonly RecordedReply[];
  retrieved: readonly RetrievedMemory[];
  /**
   * The companion's core beliefs the reply must not contradict (issue 16), as
   * the belief graph answered them. @default []
   */
  coreBeliefs?: readonly NodeView[];
  /**
   * What the reply must not assert (issue 17; turn/withhold.ts): not among
   * `retrieved`, and judged by the `uncertain_assertion` gate. @default []
   */
  withheld?: readonly WithheldValue[];
  /** The uncertainty the reply was given to ask about (issue 17), or null. @default null */
  uncertainty?: AskedUncertainty | null;
}

/** A candidate reply: its text and the memories it surfaces. */
export interface ReplyCandidate {
  text: string;
  surfacedMemoryIds: string[];
}

/** The pure part of one turn's recipe: §8.2's constraints, §8.1's plan, and §10's gates over any candidate. */
export interface PlannedTurn {
  initiatedNow: readonly string[];
  initiatedRecent: string[];
  recallAsked: boolean;
  emotion: EmotionReading;
  constraints: PersonaConstraints;
  memories: PlannedMemory[];
  plan: ResponsePlan;
  evaluate(candidate: ReplyCandidate, exempt?: readonly ExemptGate[]): GateVerdict[];
}

// No template found: no soft bounds.
const NO_TEMPLATE: Pick<PersonaTemplate, 'taboo_soft_bounds' | 'emotional_expression_level'> = { taboo_soft_bounds: [], emotional_expression_level: 'normal' };

/** §2.8: the topics the user initiated in the previous 2 chat messages of the conversation (newest first). */
export function initiatedBefore(history: readonly Pick<RecordedReply, 'source' | 'userInitiatedTopics'>[]): string[] {
  return history
    .filter((h) => h.source === 'chat')
    .slice(0, 2)
    .flatMap((h) => h.userInitiatedTopics);
}

/**
 * §7.1 steps 4–6 without I/O: emotion, the persona constraints, the plan over
 * the retrieved memories, and the §10 gates with this turn's context, for the
 * recipe and for the audit that re-decides it. Pure.
 */
export function planTurn(f: TurnFacts): PlannedTurn {
  const initiatedNow = f.proactive ? [] : f.initiatedNow;
  const initiatedRecent = f.proactive ? [] : [...new Set([...initiatedNow, ...initiatedBefore(f.history)])];
  const recall = !f.proactive && recallAsked(f.normalized.normNoPunct);
  // Issue 15: what the last few replies already said back is not said again unprompted.
  const recentlySurfaced = f.history.slice(0, SURFACING.notAgainWithinReplies).flatMap((h) => h.surfacedMemoryIds);
  const memories: PlannedMemory[] = f.retrieved.map((m) => {
    const surfaced = { memoryId: m.memoryId, type: m.type, key: m.memoryKey, value: m.memoryValue, topicIds: m.topicIds };
    return { ...surfaced, confidence: m.confidence, relevance: m.relevance, occurredOn: m.occurredOn, occurredPrecision: m.occurredPrecision, sensitive: isSensitive(surfaced, 'chat') && !m.topicIds.some((t) => initiatedNow.includes(t)) };
  });
  const emotion = analyzeEmotion(f.normalized.normNoPunct);
  const previousAskedQuestion = f.history[0]?.askedQuestion ?? false;
  const constraints = personaConstraints({
    style: f.style,
    template: f.template ?? NO_TEMPLATE,
    stage: f.stage,
    suppressedTopics: f.suppressedTopics,
    initiatedNow,
    initiatedRecent,
    previousAskedQuestion,
  });
  const plan = planResponse({
    pipeline: f.pipeline,
    source: f.source,
    isQuestion: f.normalized.userTextNorm.includes('?'),
    emotion,
    constraints,
    initiatedNow,
    initiatedRecent,
    suppressedTopics: f.suppressedTopics,
    userTokens: tokenize(f.normalized.normNoPunct),
    memories,
    recentlySurfaced,
    recallAsked: recall,
    directness: f.style.directness_level,
  });
  const evaluate = (c: ReplyCandidate, exempt: readonly ExemptGate[] = []): GateVerdict[] =>
    evaluateReply({
      text: c.text,
      style: f.style,
      stage: f.stage,
      source: f.source,
      surfaced: memories.filter((m) => c.surfacedMemoryIds.includes(m.memoryId)),
      // §10.1 counts the ids on the message itself.
      surfacedIds: c.surfacedMemoryIds,
      recallAsked: recall,
      userInitiated: [...initiatedNow],
      initiatedRecent,
      suppressedTopics: [...f.suppressedTopics],
      tabooSoftBounds: f.template?.taboo_soft_bounds ?? [],
      recentAssistant: f.history.map((h) => h.assistantText),
      // §10.2: the openers as stored with each earlier reply.
      recentOpeners: f.history.map((h) => h.openerNorm),
      coreBeliefs: f.coreBeliefs ?? [],
      withheld: f.withheld ?? [],
      uncertainty: f.uncertainty ?? null,
      exempt,
    });
  return { initiatedNow, initiatedRecent, recallAsked: recall, emotion, constraints, memories, plan, evaluate };
}
