import { appendDecided, draft, payloadOf, TerminalError, type Bus, type EventDraft, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, isUuid, llmExchangeToProto, type RetentionPlanned } from '@hearth/events';
import type { LlmExchange } from '@hearth/llm';
import type { orchestrator } from '@hearth/proto';
import { requireApplied, type Reactor } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import type { MemoryPort } from '../adapters/memory.js';
import { createUncertaintyClient, type ReliabilityLookup, type UncertaintyPort } from '../adapters/uncertainty.js';
import { GATES, OFFLINE_PROVIDER, RECIPE, RETENTION, RETENTION_ROUTING, STAGES, UNCERTAINTY, type Stage } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import { evaluateReply, RETENTION_FACT_ALLOWLIST, type ExemptGate, type GateVerdict } from '../gates/index.js';
import { NEUTRAL_STYLE, type StableStyle } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { profilesProjection } from '../projections/profiles.js';
import { turnsProjection } from '../projections/turns.js';
import { personaConstraints } from '../turn/constraints.js';
import { declineReason, followUpOf, nudgeReliability, reliableForNudge, renderRetention, type DeclineReason, type RetentionMemory, type RetentionStep } from '../turn/retention.js';
import { retrievedToProto, verdictToProto } from './mapping.js';

export interface RenderRetentionDeps {
  bus: Bus;
  db: Kysely<OrchestratorDb>;
  clock: Clock;
  logger?: Logger;
  memory: MemoryPort;
  /**
   * Uncertainty's CheckReliability before a nudge names a memory (issue 17, Context 3).
   * @default a client over `bus` with UNCERTAINTY's budgets
   */
  uncertainty?: UncertaintyPort;
}

// A proactive message is short by design (§14.5): the persona's sentence, emoji,
// lexicon and quirk bands do not bind it (its hint tokens are checked against
// the persona when they are woven in). Safety, intimacy, repetition, personal
// facts, sensitive memories and taboo topics do.
export const RETENTION_EXEMPT: ExemptGate[] = ['emoji_band', 'sentence_band', 'lexicon', 'punctuation_quirks'];
// A follow-up restates the earlier question by definition (§14.5 step 1): not a §10.3 near-copy.
export const FOLLOW_UP_EXEMPT: ExemptGate[] = [...RETENTION_EXEMPT, 'similarity'];

// What an operator watches: what proactive messages say, and why planned ones are not sent.
const rendered = counter('hearth_retention_rendered_total', 'Proactive messages rendered, by §14.5 ladder step (follow_up, context_nudge, check_in)');
const declined = counter('hearth_retention_declined_total', 'Planned proactive messages the orchestrator declined, by reason (proactive_disabled, muted, not_active, user_interacted)');


function isStage(s: string | undefined): s is Stage {
  return (STAGES as readonly string[]).includes(s ?? '');
}

type Decided = { kind: 'rendered'; step: RetentionStep } | { kind: 'declined'; reason: DeclineReason };

/**
 * RetentionPlanned → the proactive message as a synthetic turn (turn-pipeline
 * §14, ARCHITECTURE "A turn, as events" step 7), in one decision on the user's
 * orchestrator chain: RetentionDeclined (retention_policy SKIP) when the user
 * turned proactive messages off, muted them, is not active or wrote since the
 * planned hour (§14.4); otherwise TurnCompleted with source = retention, rendered
 * down the §14.5 ladder with the §10 gates recorded and no LLM call. Either
 * event has one id derived from the plan, and is dated at the planned hour: the
 * message belongs to the hour the retention service evaluated.
 */
export function createRenderRetentionReactor(input: RenderRetentionDeps): Reactor {
  const deps: RenderRetentionDeps = {
    ...input,
    uncertainty:
      input.uncertainty ??
      createUncertaintyClient(input.bus, { timeoutMs: UNCERTAINTY.timeoutMs, reliabilityTimeoutMs: UNCERTAINTY.reliabilityTimeoutMs, ...(input.logger ? { logger: input.logger } : {}) }),
  };
  const { bus, db } = deps;
  return {
    name: 'render-retention',
    sources: ['retention'],
    async react(event: StoredEvent) {
      if (event.type !== Events.RetentionPlanned.name) return;
      const planned = payloadOf(event, Events.RetentionPlanned);
      for (const [name, value] of [['retention_id', planned.retentionId], ['notification_id', planned.notificationId], ['conversation_id', planned.conversationId]] as const) {
        if (!isUuid(value)) throw new TerminalError(`RetentionPlanned ${event.id}: ${name} must be a uuid, got ${JSON.stringify(value.slice(0, 64))}`);
      }
      // One id whatever the decision, so a redelivery can neither render twice nor decline what it rendered.
      const decisionId = deriveId('orchestrator', 'retention', event.id);
      const meta = { id: decisionId, userId: event.userId, causationId: event.id, correlationId: event.correlationId || planned.retentionId, occurredAt: event.occurredAt };
      const seen: { decided?: Decided } = {};
      const results = await appendDecided(bus, 'orchestrator', event.userId, async (last) => {
        seen.decided = undefined;
        if (last?.id === decisionId) return [];
        await requireApplied(db, turnsProjection.name, last, { timeoutMs: RECIPE.projectionWaitMs });
        // §14.4 "immediately": the controls as of the user's latest ingress event.
        const controls = await bus.lastOnSubject('ingress', event.userId);
        await requireApplied(db, profilesProjection.name, controls, { timeoutMs: RECIPE.projectionWaitMs });
        // Rendered before, past the dedup window.
        const done = await db.selectFrom('dialogue').select('assistant_message_id').where('user_id', '=', event.userId).where('user_message_id', '=', planned.retentionId).executeTakeFirst();
        if (done) return [];
        const d = await decide(deps, event, planned);
        seen.decided = d.decided;
        return [d.draft(meta)];
      });
      const decided = seen.decided;
      if (!decided || results.length === 0 || results.every((r) => r.duplicate)) return;
      if (decided.kind === 'rendered') rendered.add(1, { step: decided.step });
      else declined.add(1, { reason: decided.reason });
    },
  };
}

type Meta = Omit<EventDraft, 'type' | 'payload'>;

async function decide(deps: RenderRetentionDeps, event: StoredEvent, planned: RetentionPlanned): Promise<{ decided: Decided; draft: (meta: Meta) => EventDraft }> {
  const { db } = deps;
  const userId = event.userId;
  const slot = planned.slot ?? event.occurredAt;

  // §14.4 first: nothing is rendered for a plan the user's controls have since stopped.
  const profile = await db
    .selectFrom('profiles')
    .select(['user_state', 'proactive_messages_enabled', 'mute_until', 'suppressed_topics', 'ai_friend_id'])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  const chatted = await db
    .selectFrom('dialogue')
    .select('assistant_message_id')
    .where('user_id', '=', userId)
    .where('source', '=', 'chat')
    .where('created_at', '>=', slot)
    .limit(1)
    .executeTakeFirst();
  const reason = declineReason({
    controls: profile && { userState: profile.user_state, proactiveMessagesEnabled: profile.proactive_messages_enabled, muteUntil: profile.mute_until },
    now: deps.clock.now(),
    chattedSinceSlot: chatted !== undefined,
  });
  if (reason) {
    const routing: orchestrator.RetentionDeclined['routing'] = { ...RETENTION_ROUTING, memoryReadPolicy: 'NONE', retentionPolicy: 'SKIP', notes: `declined: ${reason}` };
    return {
      decided: { kind: 'declined', reason },
      draft: (meta) => draft(Events.RetentionDeclined, { retentionId: planned.retentionId, conversationId: planned.conversationId, reason, routing }, meta),
    };
  }

  const personaRow = await db.selectFrom('personas').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const relRow = await db.selectFrom('relationships').select('stage').where('user_id', '=', userId).executeTakeFirst();
  const history = await db
    .selectFrom('dialogue')
    .selectAll()
    .where('conversation_id', '=', planned.conversationId)
    .where('user_id', '=', userId)
    .orderBy('event_seq', 'desc')
    .limit(GATES.recentAssistantMessages)
    .execute();
  // §14.5 anti-repetition: the openers of this user's last 10 proactive messages, in any conversation.
  const openers = await db
    .selectFrom('dialogue')
    .select('opener_norm')
    .where('user_id', '=', userId)
    .where('source', '=', 'retention')
    .orderBy('event_seq', 'desc')
    .limit(RETENTION.recentOpeners)
    .execute();
  const template = PERSONA_LIBRARY.find((t) => t.template_id === personaRow?.template_id);
  const style = (personaRow?.stable_style_params as StableStyle | undefined) ?? NEUTRAL_STYLE;
  const suppressed = profile?.suppressed_topics ?? [];
  // The stage the retention service measured eligibility at; the orchestrator's own if it named none.
  const stage: Stage = isStage(planned.eligibility?.stage) ? planned.eligibility.stage : isStage(relRow?.stage) ? relRow.stage : 'STRANGER';
  const aiFriendId = planned.aiFriendId || profile?.ai_friend_id || '';
  const last = history[0];
  const input = {
    retentionId: planned.retentionId,
    personaSeed: Number(personaRow?.persona_seed ?? 0),
    slot,
    stage,
    localTime: planned.eligibility?.localTime ?? '',
    persona: {
      hintTokens: template?.lexicon_bias.hint_tokens ?? [],
      tabooSoftBounds: template?.taboo_soft_bounds ?? [],
      lexiconBias: style.lexicon_bias,
      punctuationQuirks: style.punctuation_quirks,
    },
    suppressedTopics: suppressed,
    lastAssistant: last ? { source: last.source, text: last.assistant_text, createdAt: last.created_at } : null,
    recentOpeners: openers.map((o) => o.opener_norm),
  };

  // §14.5 step 2 needs memories; asked only when step 1 does not apply and the stage allows a nudge.
  let retrieval: { status: 'ok' | 'unavailable' | 'skipped'; memories: Awaited<ReturnType<MemoryPort['find']>>['memories']; error: string } = { status: 'skipped', memories: [], error: '' };
  if (RETENTION.nudgeStages.includes(stage) && !('question' in followUpOf(input))) {
    retrieval = await deps.memory.find({ userId, aiFriendId, readPolicy: RETENTION.memoryReadPolicy, limit: RETENTION.memoryLimit, afterMessageId: last?.user_message_id ?? '', queryText: '' });
  }
  // Issue 17, uncertainty-engine.md Context 3: before a nudge names a memory, uncertainty
  // says whether it is reliable (the facts a nudge could name, asked once); without its
  // answer memory's own projection of it decides. Either one's doubt leaves it unnamed.
  const nameable = retrieval.memories.filter((m) => m.type === 'FACT' && RETENTION_FACT_ALLOWLIST.includes(m.memoryKey)).map((m) => m.memoryId);
  const checked: Omit<ReliabilityLookup, 'status'> & { status: ReliabilityLookup['status'] | 'skipped' } =
    nameable.length > 0 ? await deps.uncertainty!.reliability({ userId, memoryIds: nameable }) : { status: 'skipped', reliability: [], error: '' };
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
  if (verdicts.some((v) => !v.pass)) {
    deps.logger?.warn({ retentionId: planned.retentionId, failed: verdicts.filter((v) => !v.pass).map((v) => v.gate) }, 'proactive message sent with a failing gate (the neutral fallback)');
  }
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
    previousAskedQuestion: last?.asked_question ?? false,
  });
  const completed: orchestrator.TurnCompleted = {
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
    aiFriendId,
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
  return { decided: { kind: 'rendered', step: r.step }, draft: (meta) => draft(Events.TurnCompleted, completed, meta) };
}
