import { appendDecided, draft, payloadOf, type Bus, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, type TurnRouted } from '@hearth/events';
import type { ChatClient } from '@hearth/llm';
import { requirePosition, type Reactor } from '@hearth/store';
import { counter, histogram, type Logger } from '@hearth/telemetry';
import { mergeSafetySignals, safetySignals, signalsFromFlags, type SafetySignals } from '@hearth/text';
import type { Kysely } from 'kysely';
import { createLlmHealth, type LlmHealth } from '../adapters/llm-health.js';
import { createBeliefClient, emptyBeliefContext, type BeliefLookup, type BeliefPort } from '../adapters/beliefs.js';
import type { MemoryPort } from '../adapters/memory.js';
import { createUncertaintyClient, emptyCheck, type UncertaintyPort } from '../adapters/uncertainty.js';
import { BELIEFS, GATES, LLM_FAILOVER, OFFLINE_PROVIDER, RECIPE, UNCERTAINTY } from '../config.js';
import type { OrchestratorDb } from '../db.js';
import { turnsProjection } from '../projections/turns.js';
import { CIRCUIT_OPEN_ERROR, failoverResponder } from '../responder/failover.js';
import { llmResponder, offlineResponder } from '../responder/responders.js';
import { composeReply, type Composed } from '../turn/compose.js';
import {
  completeTurn,
  gateText,
  planReply,
  prepareTurn,
  type AskedBeliefs,
  type AskedCheck,
  type PlannedReply,
  type PreparedTurn,
  type RecipeResult,
  type RetrievedSet,
  type TurnState,
} from '../turn/respond-decision.js';

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
    types: [Events.TurnRouted.name],
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
        await requirePosition(db, turnsProjection.name, last, { timeoutMs: RECIPE.projectionWaitMs });
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

/** §7.1 step 1: profile + controls, persona, relationship and the conversation's recent messages — the orchestrator's own projections. */
async function loadTurnState(db: Kysely<OrchestratorDb>, userId: string, conversationId: string): Promise<TurnState> {
  const profile = await db.selectFrom('profiles').select(['preferred_name', 'suppressed_topics', 'ai_friend_id']).where('user_id', '=', userId).executeTakeFirst();
  const persona = await db.selectFrom('personas').select(['template_id', 'stable_style_params']).where('user_id', '=', userId).executeTakeFirst();
  const relationship = await db.selectFrom('relationships').selectAll().where('user_id', '=', userId).executeTakeFirst();
  const history = await db
    .selectFrom('dialogue')
    .selectAll()
    .where('conversation_id', '=', conversationId)
    .where('user_id', '=', userId)
    .orderBy('event_seq', 'desc')
    .limit(GATES.recentAssistantMessages)
    .execute();
  return {
    profile: profile && { preferredName: profile.preferred_name, suppressedTopics: profile.suppressed_topics, aiFriendId: profile.ai_friend_id },
    persona,
    relationship,
    history,
  };
}

/**
 * The recipe's shell: reads, asks memory, the belief graph and uncertainty
 * (side by side), composes with the responder, and records what it cost. The
 * decisions are turn/respond-decision.ts's.
 */
async function runRecipe(deps: RespondDeps, event: StoredEvent, routed: TurnRouted): Promise<RecipeResult> {
  const state = await loadTurnState(deps.db, event.userId, routed.conversationId);
  const t = prepareTurn(routed, event.occurredAt, state);
  // Issue 16, before planning and beside the memory queries: the companion's core
  // beliefs and, at most once per conversation, a challenge the lock allows
  // (belief-challenge.md Integration). Issue 17 beside them too (uncertainty-engine.md
  // Context 1, "a parallel subprocess … races the response pipeline"): what this
  // message contradicts, and an uncertainty to ask about.
  const [retrieval, asked, checked] = await Promise.all([
    retrieve(deps, event.userId, t),
    askBeliefs(deps, event.userId, t),
    askUncertainty(deps, event.userId, t),
  ]);
  const gathered = { retrieval, asked, checked };
  const p = planReply(t, gathered);
  const composed = p.composedFixed ?? (await compose(deps, t, p));
  const turn = completeTurn(t, gathered, p, composed);
  outcomes.add(1, { outcome: turn.completed.outcome, provider: composed.final?.provider ?? (deps.chat ? 'openai-compatible' : OFFLINE_PROVIDER.provider) });
  for (const v of composed.verdicts) if (!v.pass && v.passNumber < 2) gateFailures.add(1, { gate: v.gate, pass: String(v.passNumber) });
  // Calls the open breaker skipped took no time and say nothing of the provider's latency.
  for (const x of composed.exchanges) if (x.provider !== OFFLINE_PROVIDER.provider && x.error !== CIRCUIT_OPEN_ERROR) llmLatency.record(x.latencyMs / 1000, { purpose: x.purpose, failed: String(x.error !== '') });
  return turn;
}

/** §9–§10: the LLM (behind its breaker) or the offline responder, one rewrite, then the fallback. */
async function compose(deps: RespondDeps, t: PreparedTurn, p: PlannedReply): Promise<Composed> {
  const ctx = p.context!;
  const { evaluate, plan } = p.planned;
  const messageId = t.routed.messageId;
  const offline = offlineResponder(ctx, (c) => evaluate(c));
  // A provider failure answers this turn as the offline provider would (the same
  // plan, the same gates); the fixed safe fallback stays for failed gates.
  const responder =
    deps.chat && deps.llmHealth
      ? failoverResponder(llmResponder(deps.chat, ctx), offline, deps.llmHealth, (err, kind, stage) =>
          deps.logger?.warn({ err, kind, stage, messageId }, 'LLM call failed; the offline responder answers this turn'),
        )
      : offline;
  return composeReply({
    plan,
    seed: t.seed,
    responder,
    evaluate: (c) => evaluate(c),
    onError: (err, stage) => deps.logger?.warn({ err, stage, messageId }, 'responder failed; the turn goes on to the next pass'),
  });
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
async function askBeliefs(deps: RespondDeps, userId: string, t: PreparedTurn): Promise<AskedBeliefs> {
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
        .where('user_id', '=', userId)
        .where('challenge_id', '!=', '')
        .limit(1)
        .executeTakeFirst()) !== undefined);
  const lookup = await deps.beliefs!.context({
    userId,
    aiFriendId: t.aiFriendId,
    conversationId: t.routed.conversationId,
    signals: { shame: signals.shame, isolation: signals.isolation, dependencyFear: signals.dependencyFear, relationalStrain: signals.relationalStrain },
    at: t.at,
    challengeWanted: !had,
  });
  const proposed = lookup.context.challenge;
  // The graph is asked for none once the conversation had one; should it offer one anyway, it is not used.
  const offered = proposed && proposed.prompt && !had ? { challengeId: proposed.challengeId, beliefId: proposed.beliefId, style: proposed.style, prompt: proposed.prompt } : null;
  return { status: lookup.status, lookup, signals, offered, skipped: proposed && had ? 'conversation_had_one' : '' };
}

/**
 * Issue 17 before planning (uncertainty-engine.md Context 1): a chat turn of the
 * friend's pipelines (UNCERTAINTY.pipelines; not onboarding, not a fixed reply)
 * asks uncertainty to check the message against what memory holds, within the
 * 600 ms time box, naming the uncertainty the previous reply asked about.
 */
async function askUncertainty(deps: RespondDeps, userId: string, t: PreparedTurn): Promise<AskedCheck> {
  if (t.source !== 'chat' || !UNCERTAINTY.pipelines.includes(t.pipeline) || t.fixed) return { status: 'skipped', response: emptyCheck(), error: '' };
  return deps.uncertainty!.check({
    userId,
    messageId: t.routed.messageId,
    conversationId: t.routed.conversationId,
    text: t.routed.text,
    afterMessageId: t.afterMessageId,
    memoryIds: [],
    topicIds: t.routed.topicMatches.map((m) => m.topicId),
    at: t.at,
    answersUncertaintyId: t.answersUncertaintyId,
  });
}

/**
 * §7.1 steps 2–3 through the memory service, both asked with the user's message
 * so each memory comes with its relevance to it (issue 15): the structured load
 * first, then the search's hits not already there. A memory both found keeps
 * the higher relevance (the search's may weigh meaning too).
 */
async function retrieve(deps: RespondDeps, userId: string, t: PreparedTurn): Promise<RetrievedSet> {
  const { aiFriendId, readPolicy: policy, triggers, queryText, afterMessageId } = t;
  const limit = RECIPE.memoryLimit[policy] ?? 0;
  const query = queryText.slice(0, RECIPE.queryTextMaxChars);
  const out: RetrievedSet = { status: 'skipped', memories: [], vectorSearched: false, queryText: query, error: '' };
  const add = (found: readonly Omit<RetrievedSet['memories'][number], 'via'>[], via: 'structured' | 'vector') => {
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

