import { llmExchangeToProto, type RetentionPlanned } from '@hearth/events';
import type { LlmExchange } from '@hearth/llm';
import type { memory, orchestrator } from '@hearth/proto';
import type { MemoryLookup } from '../adapters/memory.js';
import type { ReliabilityLookup } from '../adapters/uncertainty.js';
import { isStage, OFFLINE_PROVIDER, RETENTION, RETENTION_ROUTING, type Stage } from '../config.js';
import { evaluateReply, RETENTION_FACT_ALLOWLIST, type ExemptGate, type GateVerdict } from '../gates/index.js';
import { retrievedToProto, verdictToProto } from '../handlers/mapping.js';
import { NEUTRAL_STYLE, type StableStyle } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { personaConstraints } from './constraints.js';
import { declineReason, followUpOf, nudgeReliability, reliableForNudge, renderRetention, type DeclineReason, type RetentionInput, type RetentionMemory, type RetentionStep } from './retention.js';

// A proactive message is short by design (§14.5): the persona's sentence, emoji,
// lexicon and quirk bands do not bind it (its hint tokens are checked against
// the persona when they are woven in). Safety, intimacy, repetition, personal
// facts, sensitive memories and taboo topics do.
export const RETENTION_EXEMPT: ExemptGate[] = ['emoji_band', 'sentence_band', 'lexicon', 'punctuation_quirks'];
// A follow-up restates the earlier question by definition (§14.5 step 1): not a §10.3 near-copy.
export const FOLLOW_UP_EXEMPT: ExemptGate[] = [...RETENTION_EXEMPT, 'similarity'];

/** An earlier message of the conversation, as the `turns` projection keeps it in `dialogue`. */
export interface RetentionHistoryRow {
  source: string;
  assistant_text: string;
  opener_norm: string;
  asked_question: boolean;
  user_message_id: string;
  created_at: Date;
}

/**
 * What the shell reads from the orchestrator's read models for one plan, once
 * they hold the user's chain and latest controls.
 */
export interface RetentionState {
  /** The user's profile (controls, suppressed topics, companion); undefined before onboarding is applied. */
  profile:
    | { userState: string; proactiveMessagesEnabled: boolean; muteUntil: Date | null; suppressedTopics: readonly string[]; aiFriendId: string | null }
    | undefined;
  /** Whether the user chatted at or after the planned hour (§14.4). */
  chattedSinceSlot: boolean;
  persona: { templateId: string; stableStyleParams: unknown; personaSeed: number } | undefined;
  /** The orchestrator's own relationship stage for the user, if any. */
  relationshipStage: string | undefined;
  /** The conversation's last GATES.recentAssistantMessages messages, newest first. */
  history: readonly RetentionHistoryRow[];
  /** opener_norm of the user's last RETENTION.recentOpeners proactive messages, newest first. */
  recentOpeners: readonly string[];
}

/** What a retention plan decides once the controls are read: the §14.4 decline, or render. */
export type RetentionGate =
  | { kind: 'declined'; reason: DeclineReason; event: orchestrator.RetentionDeclined }
  | { kind: 'render'; plan: RetentionPlan };

/** Everything the rendering needs besides what memory and uncertainty answer. */
export interface RetentionPlan {
  planned: RetentionPlanned;
  input: Omit<RetentionInput, 'memories' | 'check'>;
  style: StableStyle;
  stage: Stage;
  aiFriendId: string;
  template: (typeof PERSONA_LIBRARY)[number] | undefined;
  history: readonly RetentionHistoryRow[];
  /** §14.5 step 2 needs memories: the FindMemories to ask, or null (step 1 applies, or the stage allows no nudge). */
  memoryRequest: memory.FindMemoriesRequest | null;
}

export type RetentionRendered = { kind: 'rendered'; step: RetentionStep; event: orchestrator.TurnCompleted; failedGates: string[] };

/** The plan as the reactor received it: whose, and the hour the message belongs to. */
export interface PlannedRetention {
  userId: string;
  planned: RetentionPlanned;
  /** RetentionPlanned.slot, or the event's time when it names none. */
  slot: Date;
}

/** The part of the state the §14.4 decline reads: the shell reads the rest only to render. */
export type RetentionControls = Pick<RetentionState, 'profile' | 'chattedSinceSlot'>;

/**
 * Given the plan and the user's controls, at `now`: RetentionDeclined
 * (retention_policy SKIP) when the controls stopped it (§14.4), else null.
 */
export function declineRetention(given: PlannedRetention, state: RetentionControls, now: Date): (RetentionGate & { kind: 'declined' }) | null {
  const { planned } = given;
  const { profile } = state;
  const reason = declineReason({
    controls: profile && { userState: profile.userState, proactiveMessagesEnabled: profile.proactiveMessagesEnabled, muteUntil: profile.muteUntil },
    now,
    chattedSinceSlot: state.chattedSinceSlot,
  });
  if (!reason) return null;
  const routing: orchestrator.RetentionDeclined['routing'] = { ...RETENTION_ROUTING, memoryReadPolicy: 'NONE', retentionPolicy: 'SKIP', notes: `declined: ${reason}` };
  return { kind: 'declined', reason, event: { retentionId: planned.retentionId, conversationId: planned.conversationId, reason, routing } };
}

/**
 * Given the plan and the state read, at `now`: RetentionDeclined (retention_policy
 * SKIP) when the controls stopped it (§14.4), or the plan of the render, with the
 * memories §14.5 step 2 needs, if any.
 */
export function gateRetention(given: PlannedRetention, state: RetentionState, now: Date): RetentionGate {
  return declineRetention(given, state, now) ?? { kind: 'render', plan: planRetention(given, state) };
}

/** The render's plan, once the controls let it through (declineRetention gave null). */
export function planRetention(given: PlannedRetention, state: RetentionState): RetentionPlan {
  const { planned, slot } = given;
  const { profile } = state;
  const template = PERSONA_LIBRARY.find((t) => t.template_id === state.persona?.templateId);
  const style = (state.persona?.stableStyleParams as StableStyle | undefined) ?? NEUTRAL_STYLE;
  // The stage the retention service measured eligibility at; the orchestrator's own if it named none.
  const stage: Stage = isStage(planned.eligibility?.stage) ? planned.eligibility.stage : isStage(state.relationshipStage) ? state.relationshipStage : 'STRANGER';
  const aiFriendId = planned.aiFriendId || profile?.aiFriendId || '';
  const last = state.history[0];
  const input: RetentionPlan['input'] = {
    retentionId: planned.retentionId,
    personaSeed: Number(state.persona?.personaSeed ?? 0),
    slot,
    stage,
    localTime: planned.eligibility?.localTime ?? '',
    persona: {
      hintTokens: template?.lexicon_bias.hint_tokens ?? [],
      tabooSoftBounds: template?.taboo_soft_bounds ?? [],
      lexiconBias: style.lexicon_bias,
      punctuationQuirks: style.punctuation_quirks,
    },
    suppressedTopics: profile?.suppressedTopics ?? [],
    lastAssistant: last ? { source: last.source, text: last.assistant_text, createdAt: last.created_at } : null,
    recentOpeners: state.recentOpeners,
  };
  // §14.5 step 2 needs memories; asked only when step 1 does not apply and the stage allows a nudge.
  const nudging = RETENTION.nudgeStages.includes(stage) && !('question' in followUpOf(input));
  const memoryRequest = nudging
    ? { userId: given.userId, aiFriendId, readPolicy: RETENTION.memoryReadPolicy, limit: RETENTION.memoryLimit, afterMessageId: last?.user_message_id ?? '', queryText: '' }
    : null;
  return { planned, input, style, stage, aiFriendId, template, history: state.history, memoryRequest };
}

/** The memories memory returned that a nudge could name: the ones to ask uncertainty about (issue 17, Context 3). */
export function nameableMemoryIds(memories: MemoryLookup['memories']): string[] {
  return memories.filter((m) => m.type === 'FACT' && RETENTION_FACT_ALLOWLIST.includes(m.memoryKey)).map((m) => m.memoryId);
}

/** What memory answered, or 'skipped' when it was not asked. */
export type RetentionRetrieval = { status: MemoryLookup['status'] | 'skipped'; memories: MemoryLookup['memories']; error: string };
/** What uncertainty answered about the nameable memories, or 'skipped' when there were none. */
export type RetentionReliability = Omit<ReliabilityLookup, 'status'> & { status: ReliabilityLookup['status'] | 'skipped' };

export const SKIPPED_RETRIEVAL: RetentionRetrieval = { status: 'skipped', memories: [], error: '' };
export const SKIPPED_RELIABILITY: RetentionReliability = { status: 'skipped', reliability: [], error: '' };

/**
 * The proactive message as a synthetic turn: rendered down the §14.5 ladder with
 * the §10 gates recorded and no LLM call. Either service's doubt leaves a memory
 * unnamed; without uncertainty's answer memory's own projection of it decides.
 */
export function renderPlannedRetention(plan: RetentionPlan, retrieval: RetentionRetrieval, checked: RetentionReliability): RetentionRendered {
  const { planned, input, style, stage, template, history } = plan;
  const suppressed = [...input.suppressedTopics];
  const answered = new Map(checked.reliability.map((r) => [r.memoryId, r.reliability]));
  const memories: RetentionMemory[] = retrieval.memories.map((m) => ({
    memoryId: m.memoryId,
    type: m.type,
    key: m.memoryKey,
    value: m.memoryValue,
    topicIds: m.topicIds,
    confidence: m.confidence,
    lastConfirmedAt: m.lastConfirmedAt ?? null,
    reliability: nudgeReliability(answered.get(m.memoryId), m.reliability),
  }));
  const withheld = memories.filter((m) => !reliableForNudge(m));

  const evaluate = (c: { text: string; surfacedMemoryIds: string[] }, step: RetentionStep): GateVerdict[] =>
    evaluateReply({
      text: c.text,
      style,
      stage,
      source: 'retention',
      surfaced: memories.filter((m) => c.surfacedMemoryIds.includes(m.memoryId)),
      surfacedIds: c.surfacedMemoryIds,
      recallAsked: false,
      // Nothing is user-initiated in a message the user did not prompt.
      userInitiated: [],
      initiatedRecent: [],
      suppressedTopics: suppressed,
      tabooSoftBounds: template?.taboo_soft_bounds ?? [],
      recentAssistant: history.map((h) => h.assistant_text),
      recentOpeners: history.map((h) => h.opener_norm),
      withheld: withheld.map((m) => ({ key: m.key, value: m.value })),
      exempt: step === 'follow_up' ? FOLLOW_UP_EXEMPT : RETENTION_EXEMPT,
    });
  const r = renderRetention({ ...input, memories, check: evaluate });
  const verdicts = evaluate(r, r.step).map((v) => ({ ...v, passNumber: 0 }));
  // Rendered, not generated: recorded like the fixed replies, so replay never asks anything.
  const exchange: LlmExchange = {
    ...OFFLINE_PROVIDER,
    purpose: 'retention',
    attempt: 1,
    messages: [{ role: 'system', content: [...r.trace, `${r.step}: ${r.intent}`, `renders: ${r.renders}`].join('\n') }],
    output: r.text,
    error: '',
    latencyMs: 0,
    seed: r.seed,
  };
  const constraints = personaConstraints({
    style,
    template: template ?? { taboo_soft_bounds: [], emotional_expression_level: 'normal' },
    stage,
    suppressedTopics: suppressed,
    initiatedNow: [],
    initiatedRecent: [],
    previousAskedQuestion: history[0]?.asked_question ?? false,
  });
  const event: orchestrator.TurnCompleted = {
    messageId: planned.retentionId,
    conversationId: planned.conversationId,
    routing: { ...RETENTION_ROUTING, notes: r.trace.join('; ') },
    assistantMessageId: planned.notificationId,
    assistantText: r.text,
    surfacedMemoryIds: r.surfacedMemoryIds,
    llm: llmExchangeToProto(exchange),
    source: 'retention',
    exchanges: [llmExchangeToProto(exchange)],
    plan: {
      ackStyle: 'none',
      answerOutline: [`${r.step}: ${r.intent}`],
      followupQuestion: r.text.includes('?') ? 'one low-pressure question' : '',
      emotionalTone: 'calm',
      tabooGuard: constraints.tabooTopics,
      constraints,
      userInitiatedTopics: [],
      recentInitiatedTopics: [],
      respondOnlyTopics: [],
      memoryIds: r.surfacedMemoryIds,
      recallAsked: false,
    },
    gates: verdicts.map(verdictToProto),
    outcome: 'draft',
    retrieval: {
      memoryReadPolicy: RETENTION_ROUTING.memoryReadPolicy,
      status: retrieval.status,
      memories: retrieval.memories.map((m) => retrievedToProto(m, 'structured')),
      vectorSearched: false,
      vectorTriggers: [],
      queryText: '',
      error: retrieval.error,
    },
    emotion: undefined,
    openerNorm: r.opener,
    relationshipStage: stage,
    userText: '',
    aiFriendId: plan.aiFriendId,
    retentionId: planned.retentionId,
    retentionStep: r.step,
    retentionRenders: r.renders,
    beliefs: undefined,
    // What Context 3 answered for the memories a nudge could name, and which it left unnamed.
    uncertainty: {
      status: checked.status,
      error: checked.error,
      verdict: 'none',
      withheldMemoryIds: withheld.map((m) => m.memoryId),
      surfacedUncertaintyId: '',
      phrasingId: '',
      answersUncertaintyId: '',
    },
  };
  return { kind: 'rendered', step: r.step, event, failedGates: verdicts.filter((v) => !v.pass).map((v) => v.gate) };
}
