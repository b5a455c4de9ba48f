import { appendDecided, draft, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, llmExchangeToProto, type TurnRouted } from '@hearth/events';
import type { ChatClient } from '@hearth/llm';
import { requireApplied, type Reactor } from '@hearth/store';
import { counter, histogram, type Logger } from '@hearth/telemetry';
import { mergeSafetySignals, normalizeUserText, parseCorrection, safetySignals, signalsFromFlags, TOPIC_DETECTION, type CorrectionCommand, type SafetySignals } from '@hearth/text';
import type { Kysely } from 'kysely';
import { createLlmHealth, type LlmHealth } from '../adapters/llm-health.js';
import { createBeliefClient, emptyBeliefContext, type BeliefLookup, type BeliefPort } from '../adapters/beliefs.js';
import type { MemoryPort } from '../adapters/memory.js';
import { createUncertaintyClient, emptyCheck, type UncertaintyCheck, type UncertaintyPort } from '../adapters/uncertainty.js';
import { BELIEFS, GATES, LLM_FAILOVER, OFFLINE_PROVIDER, RECIPE, RELATIONSHIP, UNCERTAINTY, type Stage } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import { coreBeliefViews, openerNorm, recallAsked, selfConsistencyGate, type AskedUncertainty, type ExemptGate } from '../gates/index.js';
import { NEUTRAL_STYLE, seedFromId, type StableStyle } from '../personas/assign.js';
import { PERSONA_LIBRARY, type PersonaTemplate } from '../personas/library.js';
import { turnsProjection } from '../projections/turns.js';
import { detectEvidence, initialRelationship, updateRelationship, viewAt, type RelationshipState } from '../relationship/index.js';
import { CIRCUIT_OPEN_ERROR, failoverResponder } from '../responder/failover.js';
import { CORRECTION_TEXT, CRISIS_SAFE_TEXT, FINISH_ONBOARDING_TEXT, onboardingIncompleteText, REFUSAL_TEXT } from '../responder/fixed.js';
import { challengeSentences } from '../responder/offline.js';
import { llmResponder, offlineResponder, type TurnContext } from '../responder/responders.js';
import { asksAboutFriend, selfStatementFor } from '../responder/self-talk.js';
import { composeReply, type Composed, type PassVerdict } from '../turn/compose.js';
import { planToProto } from '../turn/plan.js';
import { initiatedBefore, planTurn, type RecordedReply } from '../turn/recipe.js';
import { carriedQuestion, questionsFor, surfaceSides, uncertaintyPromptOf } from '../turn/surface.js';
import { vectorTriggers } from '../turn/triggers.js';
import { withhold } from '../turn/withhold.js';
import { relationshipFromRow, relationshipUpdatedOf, retrievedToProto, verdictToProto } from './mapping.js';

export interface RespondDeps {
  bus: Bus;
  db: Kysely<OrchestratorDb>;
  clock: Clock;
  logger?: Logger;
  memory: MemoryPort;
  /**
   * The belief graph's GetBeliefContext (issue 16).
   * @default a client over `bus` with BELIEFS.queryTimeoutMs
   */
  beliefs?: BeliefPort;
  /**
   * Uncertainty's CheckMessage (issue 17) and CheckReliability.
   * @default a client over `bus` with UNCERTAINTY.timeoutMs and reliabilityTimeoutMs
   */
  uncertainty?: UncertaintyPort;
  /** The LLM, or null for the offline template responder. */
  chat: ChatClient | null;
  /**
   * The provider's health and circuit breaker, shared by the process's turns
   * (readiness and metrics read it). @default one of this reactor's own, with LLM_FAILOVER
   */
  llmHealth?: LlmHealth;
}

/** The text of a user-state gate, or null when the turn gets a reply. */
function gateText(userState: string, activatesUser: boolean, missing: readonly string[]): string | null {
  if (userState === 'CREATED') return FINISH_ONBOARDING_TEXT;
  if (userState === 'ONBOARDING' && !activatesUser) return onboardingIncompleteText(missing);
  return null;
}

// A refusal or crisis reply has fixed words: the persona bands do not apply to it,
// nor does the persona's own consistency (issue 16): the words are not the persona's.
export const FIXED_REPLY_EXEMPT: ExemptGate[] = ['emoji_band', 'sentence_band', 'lexicon', 'punctuation_quirks', 'repeated_opener', 'similarity', 'self_consistency'];

// What an operator watches: how replies come about, which gates reject drafts, what the LLM costs.
const outcomes = counter('hearth_turn_outcomes_total', 'Replies by how they came about (draft, rewrite, fallback, refusal, crisis_safe) and provider');
const gateFailures = counter('hearth_gate_failures_total', 'Candidate replies a §10 quality gate rejected, by gate and pass (0 draft, 1 rewrite)');
const llmLatency = histogram('hearth_llm_exchange_seconds', 'Time of one LLM exchange, by purpose and whether it failed', 's');

/**
 * TurnRouted → the recipe of turn-pipeline §7.1: load profile, controls, persona
 * and relationship from the orchestrator's own projections; memories by
 * memory_read_policy, and vector retrieval when ON_DEMAND and triggered; the
 * uncertainty check beside them (issue 17: what the reply withholds, and a
 * question to weave in); emotion; plan (§8); prompt and LLM or the offline
 * responder (§9); the §10 gates with one rewrite and the fallback; then
 * RelationshipUpdated (§11) and TurnCompleted in one decision. A user-state gate gives ChatRefused instead (§6.1.1, §4.1.2).
 * Everything the decision used, and every LLM exchange, is in the events, so
 * replay never asks the LLM again.
 */
export function createRespondReactor(input: RespondDeps): Reactor {
  // Wall time for the breaker: an outage runs on real time, not the virtual clock.
  const deps: RespondDeps = {
    ...input,
    llmHealth: input.llmHealth ?? createLlmHealth({ ...LLM_FAILOVER, now: () => Date.now(), ...(input.logger ? { logger: input.logger } : {}) }),
    beliefs: input.beliefs ?? createBeliefClient(input.bus, { timeoutMs: BELIEFS.queryTimeoutMs, ...(input.logger ? { logger: input.logger } : {}) }),
    uncertainty:
      input.uncertainty ??
      createUncertaintyClient(input.bus, { timeoutMs: UNCERTAINTY.timeoutMs, reliabilityTimeoutMs: UNCERTAINTY.reliabilityTimeoutMs, ...(input.logger ? { logger: input.logger } : {}) }),
  };
  const { bus, db, clock } = deps;
  return {
    name: 'respond',
    sources: ['router'],
    async react(event: StoredEvent) {
      if (event.type !== Events.TurnRouted.name) return;
      const routed = payloadOf(event, Events.TurnRouted);
      const routing = routed.decision;
      const meta = {
        userId: event.userId,
        causationId: event.id,
        correlationId: event.correlationId || routed.messageId,
      };
      const assistantMessageId = deriveId('orchestrator', 'assistant', routed.messageId);
      const replyId = deriveId('orchestrator', 'reply', event.id);
      const gate = gateText(routed.userState, routed.activatesUser, routed.missingOnboarding);
      if (gate !== null) {
        // §6.1.1 and §4.1.2 step 5: no friend reply, and the message stays out of
        // the visible history; the only refusals that do.
        await appendDecided(bus, 'orchestrator', event.userId, () => [
          draft(
            Events.ChatRefused,
            { messageId: routed.messageId, conversationId: routed.conversationId, routing, assistantMessageId, text: gate, reason: routing?.notes ?? '' },
            { ...meta, id: replyId, occurredAt: clock.now() },
          ),
        ]);
        return;
      }
      await appendDecided(bus, 'orchestrator', event.userId, async (last) => {
        // Redelivered after the reply was appended (a crash before the ack): decide
        // nothing, and above all ask the LLM nothing.
        if (last?.id === replyId) return [];
        // Decide on projections that have applied every earlier event of this user's chain.
        await requireApplied(db, turnsProjection.name, last, { timeoutMs: RECIPE.projectionWaitMs });
        const turn = await runRecipe(deps, event, routed);
        // The relationship first: once a client has its reply, the turn's writes are on the log.
        const drafts = turn.relationship
          ? [draft(Events.RelationshipUpdated, turn.relationship, { ...meta, id: deriveId('orchestrator', 'relationship', event.id), occurredAt: clock.now() })]
          : [];
        drafts.push(
          draft(
            Events.TurnCompleted,
            { ...turn.completed, assistantMessageId },
            { ...meta, id: replyId, occurredAt: clock.now() },
          ),
        );
        return drafts;
      });
    },
  };
}

interface RecipeResult {
  completed: Omit<Parameters<typeof Events.TurnCompleted.encode>[0], 'assistantMessageId'>;
  relationship: Parameters<typeof Events.RelationshipUpdated.encode>[0] | null;
}

async function runRecipe(deps: RespondDeps, event: StoredEvent, routed: TurnRouted): Promise<RecipeResult> {
  const { db } = deps;
  const routing = routed.decision;
  const pipeline = routing?.pipeline ?? 'FRIEND_CHAT';
  const source: 'chat' | 'retention' = routed.source === 'retention' ? 'retention' : 'chat';
  const now = event.occurredAt;
  // Stage A's forms come with the routing; an event without them is normalized here.
  const normalized = routed.normNoPunct ? { normNoPunct: routed.normNoPunct, userTextNorm: routed.userTextNorm } : normalizeUserText(routed.text);
  const normNoPunct = normalized.normNoPunct;
  const isQuestion = normalized.userTextNorm.includes('?');

  // §7.1 step 1: profile + controls, persona, relationship — the orchestrator's own projections.
  const profile = await db.selectFrom('profiles').select(['preferred_name', 'suppressed_topics', 'ai_friend_id']).where('user_id', '=', event.userId).executeTakeFirst();
  const personaRow = await db.selectFrom('personas').selectAll().where('user_id', '=', event.userId).executeTakeFirst();
  const relRow = await db.selectFrom('relationships').selectAll().where('user_id', '=', event.userId).executeTakeFirst();
  const history = await db
    .selectFrom('dialogue')
    .selectAll()
    .where('conversation_id', '=', routed.conversationId)
    .where('user_id', '=', event.userId)
    .orderBy('event_seq', 'desc')
    .limit(GATES.recentAssistantMessages)
    .execute();
  const template: PersonaTemplate | undefined = PERSONA_LIBRARY.find((t) => t.template_id === personaRow?.template_id);
  const style = (personaRow?.stable_style_params as StableStyle | undefined) ?? NEUTRAL_STYLE;
  const relationship = relRow ? relationshipFromRow(relRow) : null;
  const stage: Stage = (relationship ? viewAt(relationship, now) : initialRelationship()).stage;
  const earlier: RecordedReply[] = history.map((h) => ({
    source: h.source,
    assistantText: h.assistant_text,
    openerNorm: h.opener_norm,
    askedQuestion: h.asked_question,
    userInitiatedTopics: h.user_initiated_topics,
    surfacedMemoryIds: h.surfaced_memory_ids,
  }));

  // §2.8: topics the user initiated now.
  const initiatedNow = routed.topicMatches.filter((m) => m.confidence >= TOPIC_DETECTION.userInitiatedAt).map((m) => m.topicId);
  const chatHistory = history.filter((h) => h.source === 'chat');

  // §7.1 steps 2–3: memories by policy; vector retrieval only ON_DEMAND and triggered.
  const readPolicy = routing?.memoryReadPolicy ?? 'NONE';
  const triggers =
    routing?.vectorSearchPolicy === 'ON_DEMAND'
      ? vectorTriggers({
          normNoPunct,
          isQuestion,
          recallAsked: recallAsked(normNoPunct),
          topicsNow: routed.topicMatches.map((m) => m.topicId),
          topicsBefore: initiatedBefore(earlier),
          hasRecentTurns: chatHistory.some((h) => now.getTime() - h.created_at.getTime() <= RELATIONSHIP.sessionGapMs),
        })
      : [];
  // Refusals, the crisis-safe reply and §12.4 corrections have fixed words.
  // §12.4: a correction acts on what the previous reply surfaced (memory does the acting).
  const correction = source === 'chat' ? parseCorrection(routed.text) : null;
  const fixed =
    fixedReply(pipeline, routing?.safetyPolicy, routing?.crisisSafe ?? false, profile?.preferred_name ?? '') ??
    (correction ? correctionReply(correction, history[0]?.surfaced_memory_ids ?? []) : null);

  // Memory answers after writing back the previous turn, so a correction there already holds.
  const afterMessageId = history[0]?.user_message_id ?? '';
  // The uncertainty the previous reply of the conversation asked about: this message may answer it.
  const answersUncertaintyId = source === 'chat' ? (history[0]?.surfaced_uncertainty_id ?? '') : '';
  // Issue 16, before planning and beside the memory queries: the companion's core
  // beliefs and, at most once per conversation, a challenge the lock allows
  // (belief-challenge.md Integration). Issue 17 beside them too (uncertainty-engine.md
  // Context 1, "a parallel subprocess … races the response pipeline"): what this
  // message contradicts, and an uncertainty to ask about.
  const [retrieval, asked, checked] = await Promise.all([
    retrieve(deps, event.userId, profile?.ai_friend_id ?? routed.aiFriendId, readPolicy, triggers, routing?.retrievalQueryText || routed.text, afterMessageId),
    askBeliefs(deps, { event, routed, pipeline, source, fixed: fixed !== null, aiFriendId: profile?.ai_friend_id ?? routed.aiFriendId, history }),
    askUncertainty(deps, { event, routed, pipeline, source, fixed: fixed !== null, afterMessageId, answersUncertaintyId }),
  ]);
  const coreViews = coreBeliefViews(asked.lookup.context.coreBeliefs);
  const seed = seedFromId(routed.messageId);

  // Issue 17, never assert: what the message contradicts (uncertainty's answer and the
  // turn's own guard, whatever uncertainty answered) and what is not reliable stays out
  // of the plan; a surface is asked about, in place of a challenge (one question a reply).
  const surface = fixed ? null : (checked.response.surface ?? null);
  const questions = surface ? questionsFor(surface, seed) : [];
  const held = withhold({ retrieved: retrieval.memories, contradictedIds: checked.response.contradictedMemoryIds, askedKeys: surface ? [surface.memoryKey] : [], text: routed.text, at: now });
  const askedAbout: AskedUncertainty | null = surface ? { sides: surfaceSides(surface), questions: questions.map((q) => q.text) } : null;
  const offered = surface ? null : asked.offered;

  // §7.1 steps 4–6: emotion (safety came with the routing decision), constraints, plan, and the gates.
  const { emotion, plan, memories, evaluate } = planTurn({
    pipeline,
    source,
    proactive: false,
    normalized,
    style,
    template,
    stage,
    suppressedTopics: profile?.suppressed_topics ?? [],
    initiatedNow,
    history: earlier,
    retrieved: held.kept,
    coreBeliefs: coreViews,
    withheld: held.withheld.map((w) => ({ key: w.memory.memoryKey, value: w.memory.memoryValue })),
    uncertainty: askedAbout,
  });
  const chosen = memories.filter((m) => plan.memoryIds.includes(m.memoryId));

  let composed: Composed;
  if (fixed) {
    // Refusals and the crisis-safe reply have fixed words: no LLM, gates still recorded.
    const verdicts: PassVerdict[] = evaluate({ text: fixed.text, surfacedMemoryIds: [] }, FIXED_REPLY_EXEMPT).map((v) => ({ ...v, passNumber: 0 }));
    const exchange = { ...OFFLINE_PROVIDER, purpose: fixed.outcome, attempt: 1, messages: [], output: fixed.text, error: '', latencyMs: 0, seed };
    composed = { text: fixed.text, surfacedMemoryIds: [], outcome: 'draft', verdicts, exchanges: [exchange], final: exchange };
  } else {
    const ctx: TurnContext = {
      preferredName: profile?.preferred_name ?? '',
      memories: chosen,
      hintTokens: template?.lexicon_bias.hint_tokens ?? [],
      prompt: {
        pipeline,
        persona: {
          coreArchetype: template?.core_archetype ?? 'Calm Listener',
          humorMode: style.humor_mode,
          directness: style.directness_level,
          hintTokens: template?.lexicon_bias.hint_tokens ?? [],
          emotionalExpression: template?.emotional_expression_level ?? 'normal',
        },
        recent: [...history]
          .slice(0, RECIPE.promptRecentTurns)
          .reverse()
          .map((h) => ({ user: h.user_text, assistant: h.assistant_text })),
        userText: routed.text,
        coreBeliefs: asked.lookup.context.coreBeliefs.map((b) => ({ text: b.canonicalText, polarity: b.polarity })),
        challenge: offered?.prompt ?? '',
        ...(surface && questions[0] ? { uncertainty: uncertaintyPromptOf(surface, questions[0]) } : {}),
      },
      // The persona's own words, those no core belief contradicts (issue 16).
      selfStatement: selfStatementFor({ statements: template?.self_statements ?? [], normNoPunct, seed, allowed: (st) => selfConsistencyGate(st, coreViews).pass }),
      aboutFriend: asksAboutFriend(normNoPunct),
      uncertaintyQuestions: questions.map((q) => q.text),
    };
    const offline = offlineResponder(ctx, (c) => evaluate(c));
    // A provider failure answers this turn as the offline provider would (the same
    // plan, the same gates); the fixed safe fallback stays for failed gates.
    const responder =
      deps.chat && deps.llmHealth
        ? failoverResponder(llmResponder(deps.chat, ctx), offline, deps.llmHealth, (err, kind, stage) =>
            deps.logger?.warn({ err, kind, stage, messageId: routed.messageId }, 'LLM call failed; the offline responder answers this turn'),
          )
        : offline;
    composed = await composeReply({
      plan,
      seed,
      responder,
      evaluate: (c) => evaluate(c),
      onError: (err, stage) => deps.logger?.warn({ err, stage, messageId: routed.messageId }, 'responder failed; the turn goes on to the next pass'),
    });
  }
  const outcome = fixed ? fixed.outcome : composed.outcome;
  outcomes.add(1, { outcome, provider: composed.final?.provider ?? (deps.chat ? 'openai-compatible' : OFFLINE_PROVIDER.provider) });
  for (const v of composed.verdicts) if (!v.pass && v.passNumber < 2) gateFailures.add(1, { gate: v.gate, pass: String(v.passNumber) });
  // Calls the open breaker skipped took no time and say nothing of the provider's latency.
  for (const x of composed.exchanges) if (x.provider !== OFFLINE_PROVIDER.provider && x.error !== CIRCUIT_OPEN_ERROR) llmLatency.record(x.latencyMs / 1000, { purpose: x.purpose, failed: String(x.error !== '') });

  const completed: RecipeResult['completed'] = {
    messageId: routed.messageId,
    conversationId: routed.conversationId,
    aiFriendId: profile?.ai_friend_id ?? routed.aiFriendId,
    routing,
    assistantText: composed.text,
    surfacedMemoryIds: composed.surfacedMemoryIds,
    llm: composed.final ? llmExchangeToProto(composed.final) : undefined,
    source,
    exchanges: composed.exchanges.map(llmExchangeToProto),
    plan: planToProto(plan),
    gates: composed.verdicts.map(verdictToProto),
    outcome,
    retrieval: {
      memoryReadPolicy: readPolicy,
      status: retrieval.status,
      memories: retrieval.memories.map((m) => retrievedToProto(m, m.via)),
      vectorSearched: retrieval.vectorSearched,
      vectorTriggers: triggers,
      // The text the memory queries weighed relevance against, when one was asked.
      queryText: retrieval.status === 'skipped' ? '' : retrieval.queryText,
      error: retrieval.error,
    },
    emotion: { valence: emotion.valence, intensity: emotion.intensity, tags: emotion.tags },
    openerNorm: openerNorm(composed.text),
    relationshipStage: stage,
    userText: routed.text,
    retentionId: '',
    retentionStep: '',
    retentionRenders: 0,
    beliefs: beliefContextOf(asked, offered && !fixed ? wovenIn(offered, composed) : null, source === 'chat' ? (history[0]?.challenge_id ?? '') : '', surface !== null),
    uncertainty: {
      status: checked.status,
      error: checked.error,
      verdict: checked.response.verdict || 'none',
      withheldMemoryIds: held.withheld.map((w) => w.memory.memoryId),
      ...carriedOf(surface, carriedQuestion(questions, { text: composed.text, outcome: composed.outcome, provider: composed.final?.provider })),
      answersUncertaintyId,
    },
  };

  // Stage G (§11): only on a user's chat message, and never when the router says OFF.
  const rel =
    source === 'chat' && routing?.relationshipUpdatePolicy === 'ON'
      ? relationshipEvent({
          messageId: routed.messageId,
          aiFriendId: profile?.ai_friend_id ?? routed.aiFriendId,
          relationship,
          normNoPunct,
          previousAskedQuestion: history[0]?.asked_question ?? false,
          emotion,
          now,
        })
      : null;
  return { completed, relationship: rel };
}

/** Stage G (§11) of one user message: the new state and the arithmetic behind it. */
function relationshipEvent(input: {
  messageId: string;
  aiFriendId: string;
  relationship: RelationshipState | null;
  normNoPunct: string;
  previousAskedQuestion: boolean;
  emotion: { valence: number; tags: readonly string[] };
  now: Date;
}): NonNullable<RecipeResult['relationship']> {
  const evidence = detectEvidence({ normNoPunct: input.normNoPunct, previousAssistantAskedQuestion: input.previousAskedQuestion, emotion: input.emotion });
  return relationshipUpdatedOf(input, updateRelationship(input.relationship, { now: input.now, evidence }), evidence);
}

type Offered = NonNullable<Awaited<ReturnType<typeof askBeliefs>>['offered']>;

interface AskedBeliefs {
  /** ok | unavailable | skipped (not asked) */
  status: 'ok' | 'unavailable' | 'skipped';
  lookup: BeliefLookup;
  signals: SafetySignals;
  /** The challenge the reply is given, when the graph proposed one and the conversation had none. */
  offered: { challengeId: string; beliefId: string; style: string; prompt: string } | null;
  /** Why a turn carries no challenge it could have had: not_chat | fixed_reply | conversation_had_one, or ''. */
  skipped: string;
}

const NO_SIGNALS: SafetySignals = { shame: false, isolation: false, dependencyFear: false, relationalStrain: false, cues: [] };
const NOT_ASKED: BeliefLookup = { status: 'ok', context: emptyBeliefContext(), error: '' };

/**
 * Issue 16 before planning: a chat turn of the friend's pipelines (not
 * onboarding, not a fixed reply) asks the belief graph for the companion's
 * core beliefs and, while this conversation has had no challenge yet
 * (belief-challenge.md: one per conversation), for a challenge the hard lock
 * allows. The lock's signals come from the router's flags and the text of this
 * message and the conversation's last BELIEFS.recentUserTexts user messages.
 */
async function askBeliefs(
  deps: RespondDeps,
  t: { event: StoredEvent; routed: TurnRouted; pipeline: string; source: 'chat' | 'retention'; fixed: boolean; aiFriendId: string; history: readonly { source: string; user_text: string; challenge_id: string }[] },
): Promise<AskedBeliefs> {
  if (t.source !== 'chat' || !BELIEFS.pipelines.includes(t.pipeline)) return { status: 'skipped', lookup: NOT_ASKED, signals: NO_SIGNALS, offered: null, skipped: 'not_chat' };
  if (t.fixed) return { status: 'skipped', lookup: NOT_ASKED, signals: NO_SIGNALS, offered: null, skipped: 'fixed_reply' };
  const recent = t.history
    .filter((h) => h.source === 'chat' && h.user_text)
    .slice(0, BELIEFS.recentUserTexts)
    .map((h) => safetySignals(h.user_text));
  const signals = mergeSafetySignals(signalsFromFlags(t.routed.flags), safetySignals(t.routed.text), ...recent);
  // The conversation's recent turns are loaded already; only a longer conversation needs the lookup.
  const had =
    t.history.some((h) => h.challenge_id !== '') ||
    (t.history.length >= GATES.recentAssistantMessages &&
      (await deps.db
        .selectFrom('dialogue')
        .select('challenge_id')
        .where('conversation_id', '=', t.routed.conversationId)
        .where('user_id', '=', t.event.userId)
        .where('challenge_id', '!=', '')
        .limit(1)
        .executeTakeFirst()) !== undefined);
  const lookup = await deps.beliefs!.context({
    userId: t.event.userId,
    aiFriendId: t.aiFriendId,
    conversationId: t.routed.conversationId,
    signals: { shame: signals.shame, isolation: signals.isolation, dependencyFear: signals.dependencyFear, relationalStrain: signals.relationalStrain },
    at: t.event.occurredAt,
    challengeWanted: !had,
  });
  const proposed = lookup.context.challenge;
  // The graph is asked for none once the conversation had one; should it offer one anyway, it is not used.
  const offered = proposed && proposed.prompt && !had ? { challengeId: proposed.challengeId, beliefId: proposed.beliefId, style: proposed.style, prompt: proposed.prompt } : null;
  return { status: lookup.status, lookup, signals, offered, skipped: proposed && had ? 'conversation_had_one' : '' };
}

/**
 * Whether the reply carries the offered challenge: the offline render closes
 * with its question (its last sentence, in the persona's case); an LLM was
 * given it as optional exploration, and a reply of the responder's stands for
 * it. The safe fallback never carries one: the gates rejected what did.
 */
function wovenIn(offered: Offered, composed: Composed): boolean {
  if (composed.outcome === 'fallback') return false;
  if (composed.final?.provider !== OFFLINE_PROVIDER.provider) return true;
  const question = challengeSentences(offered.prompt).at(-1) ?? '';
  return question !== '' && composed.text.toLowerCase().includes(question.toLowerCase());
}

/**
 * TurnCompleted.beliefs: what the turn asked the graph, what it answered, and
 * what the reply did with it. A challenge offered beside an uncertainty to ask
 * about is skipped for it (`uncertainty`): one question a reply.
 */
function beliefContextOf(asked: AskedBeliefs, woven: boolean | null, answersChallengeId: string, displaced: boolean): NonNullable<RecipeResult['completed']['beliefs']> {
  const core = asked.lookup.context.coreBeliefs;
  return {
    status: asked.status,
    error: asked.lookup.error,
    shame: asked.signals.shame,
    isolation: asked.signals.isolation,
    dependencyFear: asked.signals.dependencyFear,
    relationalStrain: asked.signals.relationalStrain,
    coreBeliefIds: core.map((b) => b.beliefId),
    coreBeliefTexts: core.map((b) => b.canonicalText),
    challenge: woven && asked.offered ? { ...asked.offered } : undefined,
    challengeSkipped: asked.offered && displaced ? 'uncertainty' : asked.offered && !woven ? 'gate_failed' : asked.skipped,
    answersChallengeId,
  };
}

type AskedCheck = Omit<UncertaintyCheck, 'status'> & { status: UncertaintyCheck['status'] | 'skipped' };

/**
 * Issue 17 before planning (uncertainty-engine.md Context 1): a chat turn of the
 * friend's pipelines (UNCERTAINTY.pipelines; not onboarding, not a fixed reply)
 * asks uncertainty to check the message against what memory holds, within the
 * 600 ms time box, naming the uncertainty the previous reply asked about.
 */
async function askUncertainty(
  deps: RespondDeps,
  t: { event: StoredEvent; routed: TurnRouted; pipeline: string; source: 'chat' | 'retention'; fixed: boolean; afterMessageId: string; answersUncertaintyId: string },
): Promise<AskedCheck> {
  if (t.source !== 'chat' || !UNCERTAINTY.pipelines.includes(t.pipeline) || t.fixed) return { status: 'skipped', response: emptyCheck(), error: '' };
  return deps.uncertainty!.check({
    userId: t.event.userId,
    messageId: t.routed.messageId,
    conversationId: t.routed.conversationId,
    text: t.routed.text,
    afterMessageId: t.afterMessageId,
    memoryIds: [],
    topicIds: t.routed.topicMatches.map((m) => m.topicId),
    at: t.event.occurredAt,
    answersUncertaintyId: t.answersUncertaintyId,
  });
}

/** TurnCompleted.uncertainty's surfaced_uncertainty_id and phrasing_id: only when the reply carries the question. */
function carriedOf(surface: { uncertaintyId: string } | null, carried: { phrasingId: string } | null): { surfacedUncertaintyId: string; phrasingId: string } {
  return surface && carried ? { surfacedUncertaintyId: surface.uncertaintyId, phrasingId: carried.phrasingId } : { surfacedUncertaintyId: '', phrasingId: '' };
}

/** The reply to a §12.4 command, given what the previous assistant message surfaced. */
function correctionReply(c: CorrectionCommand, previousSurfaced: readonly string[]): { text: string; outcome: 'correction' } {
  const surfaced = previousSurfaced.length > 0;
  switch (c.command) {
    case 'not_true':
      return { text: surfaced ? CORRECTION_TEXT.notTrue : CORRECTION_TEXT.whichPart, outcome: 'correction' };
    case 'forget_that':
      return { text: surfaced ? CORRECTION_TEXT.forget : CORRECTION_TEXT.nothingToForget, outcome: 'correction' };
    case 'forget_target':
      return { text: CORRECTION_TEXT.forget, outcome: 'correction' };
    case 'suppress_topic':
      return { text: CORRECTION_TEXT.suppressTopic, outcome: 'correction' };
  }
}

function fixedReply(pipeline: string, safety: string | undefined, crisisSafe: boolean, name: string): { text: string; outcome: 'refusal' | 'crisis_safe' } | null {
  if (crisisSafe) return { text: CRISIS_SAFE_TEXT.replace('{name}', name || 'friend'), outcome: 'crisis_safe' };
  if (safety === 'HARD_REFUSE' || safety === 'SOFT_REFUSE') return { text: REFUSAL_TEXT[safety], outcome: 'refusal' };
  if (pipeline === 'REFUSAL') return { text: REFUSAL_TEXT.HARD_REFUSE, outcome: 'refusal' };
  return null;
}

type Found = { memoryId: string; type: string; memoryKey: string; memoryValue: string; confidence: number; topicIds: string[]; relevance: number; occurredOn: string; occurredPrecision: string; reliability: string };

interface RetrievedSet {
  status: 'ok' | 'unavailable' | 'skipped';
  memories: (Found & { via: 'structured' | 'vector' })[];
  vectorSearched: boolean;
  queryText: string;
  error: string;
}

/**
 * §7.1 steps 2–3 through the memory service, both asked with the user's message
 * so each memory comes with its relevance to it (issue 15): the structured load
 * first, then the search's hits not already there. A memory both found keeps
 * the higher relevance (the search's may weigh meaning too).
 */
async function retrieve(
  deps: RespondDeps,
  userId: string,
  aiFriendId: string,
  policy: string,
  triggers: readonly string[],
  queryText: string,
  afterMessageId: string,
): Promise<RetrievedSet> {
  const limit = RECIPE.memoryLimit[policy] ?? 0;
  const query = queryText.slice(0, RECIPE.queryTextMaxChars);
  const out: RetrievedSet = { status: 'skipped', memories: [], vectorSearched: false, queryText: query, error: '' };
  const add = (found: readonly Found[], via: 'structured' | 'vector') => {
    for (const m of found) {
      const known = out.memories.find((x) => x.memoryId === m.memoryId);
      if (known) known.relevance = Math.max(known.relevance, m.relevance);
      else out.memories.push({ memoryId: m.memoryId, type: m.type, memoryKey: m.memoryKey, memoryValue: m.memoryValue, confidence: m.confidence, topicIds: m.topicIds, relevance: m.relevance, occurredOn: m.occurredOn, occurredPrecision: m.occurredPrecision, reliability: m.reliability, via });
    }
  };
  if (limit > 0) {
    const r = await deps.memory.find({ userId, aiFriendId, readPolicy: policy, limit, afterMessageId, queryText: query });
    out.status = r.status;
    out.error = r.error;
    add(r.memories, 'structured');
  }
  if (triggers.length > 0 && out.status !== 'unavailable') {
    const r = await deps.memory.search({ userId, aiFriendId, queryText: query, topK: RECIPE.vectorTopK, afterMessageId });
    out.vectorSearched = true;
    out.status = r.status;
    out.error = r.error;
    add(r.memories, 'vector');
  }
  return out;
}

