import { Events, llmExchangeToProto, type TurnRouted } from '@hearth/events';
import { normalizeUserText, parseCorrection, TOPIC_DETECTION, type CorrectionCommand, type SafetySignals } from '@hearth/text';
import type { Selectable } from 'kysely';
import type { BeliefLookup } from '../adapters/beliefs.js';
import type { UncertaintyCheck } from '../adapters/uncertainty.js';
import { OFFLINE_PROVIDER, RECIPE, RELATIONSHIP, type Stage } from '../config.js';
import type { DialogueTable, PersonasTable, RelationshipsTable } from '../db.js';
import { coreBeliefViews, openerNorm, recallAsked, selfConsistencyGate, type AskedUncertainty, type ExemptGate } from '../gates/index.js';
import { relationshipFromRow, relationshipUpdatedOf, retrievedToProto, verdictToProto } from '../handlers/mapping.js';
import { NEUTRAL_STYLE, seedFromId, type StableStyle } from '../personas/assign.js';
import { PERSONA_LIBRARY, type PersonaTemplate } from '../personas/library.js';
import { detectEvidence, initialRelationship, updateRelationship, viewAt, type RelationshipState } from '../relationship/index.js';
import { CORRECTION_TEXT, CRISIS_SAFE_TEXT, FINISH_ONBOARDING_TEXT, onboardingIncompleteText, REFUSAL_TEXT } from '../responder/fixed.js';
import { challengeSentences } from '../responder/offline.js';
import type { TurnContext } from '../responder/responders.js';
import { asksAboutFriend, selfStatementFor } from '../responder/self-talk.js';
import type { Composed, PassVerdict } from './compose.js';
import { planToProto } from './plan.js';
import { initiatedBefore, planTurn, type PlannedTurn, type RecordedReply } from './recipe.js';
import { carriedQuestion, questionsFor, surfaceSides, uncertaintyPromptOf } from './surface.js';
import { vectorTriggers } from './triggers.js';
import { withhold, type Withholding } from './withhold.js';

// The pure steps of the respond recipe (turn-pipeline §7.1): what to ask from
// what was read, the plan from what was gathered, and the events from the
// outcome. handlers/respond.ts reads, asks, calls the responder and appends.

/** The text of a user-state gate (ChatRefused, §6.1.1 and §4.1.2 step 5), or null when the turn gets a reply. */
export function gateText(userState: string, activatesUser: boolean, missing: readonly string[]): string | null {
  if (userState === 'CREATED') return FINISH_ONBOARDING_TEXT;
  if (userState === 'ONBOARDING' && !activatesUser) return onboardingIncompleteText(missing);
  return null;
}

// A refusal or crisis reply has fixed words: the persona bands do not apply to it,
// nor does the persona's own consistency (issue 16): the words are not the persona's.
export const FIXED_REPLY_EXEMPT: ExemptGate[] = ['emoji_band', 'sentence_band', 'lexicon', 'punctuation_quirks', 'repeated_opener', 'similarity', 'self_consistency'];

/** What the recipe decides: the TurnCompleted (its assistant id aside) and Stage G's RelationshipUpdated, if any. */
export interface RecipeResult {
  completed: Omit<Parameters<typeof Events.TurnCompleted.encode>[0], 'assistantMessageId'>;
  relationship: Parameters<typeof Events.RelationshipUpdated.encode>[0] | null;
}

/** §7.1 step 1: what the shell reads from the orchestrator's own projections. */
export interface TurnState {
  profile: { preferredName: string | null; suppressedTopics: string[]; aiFriendId: string | null } | undefined;
  persona: Pick<Selectable<PersonasTable>, 'template_id' | 'stable_style_params'> | undefined;
  relationship: Selectable<RelationshipsTable> | undefined;
  /** The conversation's last GATES.recentAssistantMessages messages, newest first. */
  history: readonly Selectable<DialogueTable>[];
}

export type FixedReply = { text: string; outcome: 'refusal' | 'crisis_safe' | 'correction' };

/** A turn prepared from its routing and state: what to ask memory, the graph and uncertainty, and how to plan. */
export interface PreparedTurn {
  routed: TurnRouted;
  at: Date;
  pipeline: string;
  source: 'chat' | 'retention';
  normalized: { normNoPunct: string; userTextNorm: string };
  aiFriendId: string;
  preferredName: string;
  suppressedTopics: string[];
  template: PersonaTemplate | undefined;
  style: StableStyle;
  relationship: RelationshipState | null;
  stage: Stage;
  history: readonly Selectable<DialogueTable>[];
  earlier: RecordedReply[];
  initiatedNow: string[];
  /** §7.1 steps 2–3: the read policy, and the vector triggers (ON_DEMAND only). */
  readPolicy: string;
  triggers: string[];
  queryText: string;
  /** Memory answers after writing back the previous turn, so a correction there already holds. */
  afterMessageId: string;
  /** The uncertainty the previous reply of the conversation asked about: this message may answer it. */
  answersUncertaintyId: string;
  /** Refusals, the crisis-safe reply and §12.4 corrections have fixed words. */
  fixed: FixedReply | null;
  seed: number;
}

/** Given the routed message and the state read: the turn prepared (no I/O). */
export function prepareTurn(routed: TurnRouted, at: Date, state: TurnState): PreparedTurn {
  const routing = routed.decision;
  const pipeline = routing?.pipeline ?? 'FRIEND_CHAT';
  const source: 'chat' | 'retention' = routed.source === 'retention' ? 'retention' : 'chat';
  // Stage A's forms come with the routing; an event without them is normalized here.
  const normalized = routed.normNoPunct ? { normNoPunct: routed.normNoPunct, userTextNorm: routed.userTextNorm } : normalizeUserText(routed.text);
  const { normNoPunct } = normalized;
  const { history, profile } = state;
  const relationship = state.relationship ? relationshipFromRow(state.relationship) : null;
  const earlier: RecordedReply[] = history.map((h) => ({
    source: h.source,
    assistantText: h.assistant_text,
    openerNorm: h.opener_norm,
    askedQuestion: h.asked_question,
    userInitiatedTopics: h.user_initiated_topics,
    surfacedMemoryIds: h.surfaced_memory_ids,
  }));
  const chatHistory = history.filter((h) => h.source === 'chat');
  const triggers =
    routing?.vectorSearchPolicy === 'ON_DEMAND'
      ? vectorTriggers({
          normNoPunct,
          isQuestion: normalized.userTextNorm.includes('?'),
          recallAsked: recallAsked(normNoPunct),
          topicsNow: routed.topicMatches.map((m) => m.topicId),
          topicsBefore: initiatedBefore(earlier),
          hasRecentTurns: chatHistory.some((h) => at.getTime() - h.created_at.getTime() <= RELATIONSHIP.sessionGapMs),
        })
      : [];
  // §12.4: a correction acts on what the previous reply surfaced (memory does the acting).
  const correction = source === 'chat' ? parseCorrection(routed.text) : null;
  const fixed =
    fixedReply(pipeline, routing?.safetyPolicy, routing?.crisisSafe ?? false, profile?.preferredName ?? '') ??
    (correction ? correctionReply(correction, history[0]?.surfaced_memory_ids ?? []) : null);
  return {
    routed,
    at,
    pipeline,
    source,
    normalized,
    aiFriendId: profile?.aiFriendId ?? routed.aiFriendId,
    preferredName: profile?.preferredName ?? '',
    suppressedTopics: profile?.suppressedTopics ?? [],
    template: PERSONA_LIBRARY.find((t) => t.template_id === state.persona?.template_id),
    style: (state.persona?.stable_style_params as StableStyle | undefined) ?? NEUTRAL_STYLE,
    relationship,
    stage: (relationship ? viewAt(relationship, at) : initialRelationship()).stage,
    history,
    earlier,
    // §2.8: topics the user initiated now.
    initiatedNow: routed.topicMatches.filter((m) => m.confidence >= TOPIC_DETECTION.userInitiatedAt).map((m) => m.topicId),
    readPolicy: routing?.memoryReadPolicy ?? 'NONE',
    triggers,
    queryText: routing?.retrievalQueryText || routed.text,
    afterMessageId: history[0]?.user_message_id ?? '',
    answersUncertaintyId: source === 'chat' ? (history[0]?.surfaced_uncertainty_id ?? '') : '',
    fixed,
    seed: seedFromId(routed.messageId),
  };
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

/** §7.1 steps 2–3: what memory's structured load and search found, each memory once. */
export interface RetrievedSet {
  status: 'ok' | 'unavailable' | 'skipped';
  memories: (Found & { via: 'structured' | 'vector' })[];
  vectorSearched: boolean;
  queryText: string;
  error: string;
}

/** Issue 16: what the belief graph was asked and answered for the turn. */
export interface AskedBeliefs {
  /** ok | unavailable | skipped (not asked) */
  status: 'ok' | 'unavailable' | 'skipped';
  lookup: BeliefLookup;
  signals: SafetySignals;
  /** The challenge the reply is given, when the graph proposed one and the conversation had none. */
  offered: { challengeId: string; beliefId: string; style: string; prompt: string } | null;
  /** Why a turn carries no challenge it could have had: not_chat | fixed_reply | conversation_had_one, or ''. */
  skipped: string;
}

/** Issue 17: uncertainty's Context 1 check, or 'skipped' when not asked. */
export type AskedCheck = Omit<UncertaintyCheck, 'status'> & { status: UncertaintyCheck['status'] | 'skipped' };

/** What the turn gathered from memory, the belief graph and uncertainty. */
export interface Gathered {
  retrieval: RetrievedSet;
  asked: AskedBeliefs;
  checked: AskedCheck;
}

/** The plan of one reply, and either its fixed words or the context a responder composes from. */
export interface PlannedReply {
  planned: PlannedTurn;
  surface: NonNullable<AskedCheck['response']['surface']> | null;
  questions: ReturnType<typeof questionsFor>;
  held: Withholding<RetrievedSet['memories'][number]>;
  offered: AskedBeliefs['offered'];
  /** A fixed reply, composed already (no LLM; gates recorded); null when a responder composes. */
  composedFixed: Composed | null;
  /** What a responder composes from; null for a fixed reply. */
  context: TurnContext | null;
}

/**
 * Given the prepared turn and what was gathered: §7.1 steps 4–6 (emotion,
 * constraints, plan and gates), with what must not be asserted left out
 * (issue 17) and one question a reply (a surface displaces a challenge).
 */
export function planReply(t: PreparedTurn, g: Gathered): PlannedReply {
  const { fixed, seed, template, style, routed } = t;
  const coreViews = coreBeliefViews(g.asked.lookup.context.coreBeliefs);
  // Issue 17, never assert: what the message contradicts (uncertainty's answer and the
  // turn's own guard, whatever uncertainty answered) and what is not reliable stays out
  // of the plan; a surface is asked about, in place of a challenge (one question a reply).
  const surface = fixed ? null : (g.checked.response.surface ?? null);
  const questions = surface ? questionsFor(surface, seed) : [];
  const held = withhold({ retrieved: g.retrieval.memories, contradictedIds: g.checked.response.contradictedMemoryIds, askedKeys: surface ? [surface.memoryKey] : [], text: routed.text, at: t.at });
  const askedAbout: AskedUncertainty | null = surface ? { sides: surfaceSides(surface), questions: questions.map((q) => q.text) } : null;
  const offered = surface ? null : g.asked.offered;
  const planned = planTurn({
    pipeline: t.pipeline,
    source: t.source,
    proactive: false,
    normalized: t.normalized,
    style,
    template,
    stage: t.stage,
    suppressedTopics: t.suppressedTopics,
    initiatedNow: t.initiatedNow,
    history: t.earlier,
    retrieved: held.kept,
    coreBeliefs: coreViews,
    withheld: held.withheld.map((w) => ({ key: w.memory.memoryKey, value: w.memory.memoryValue })),
    uncertainty: askedAbout,
  });
  const base = { planned, surface, questions, held, offered };
  if (fixed) {
    // Refusals and the crisis-safe reply have fixed words: no LLM, gates still recorded.
    const verdicts: PassVerdict[] = planned.evaluate({ text: fixed.text, surfacedMemoryIds: [] }, FIXED_REPLY_EXEMPT).map((v) => ({ ...v, passNumber: 0 }));
    const exchange = { ...OFFLINE_PROVIDER, purpose: fixed.outcome, attempt: 1, messages: [], output: fixed.text, error: '', latencyMs: 0, seed };
    return { ...base, composedFixed: { text: fixed.text, surfacedMemoryIds: [], outcome: 'draft', verdicts, exchanges: [exchange], final: exchange }, context: null };
  }
  const { normNoPunct } = t.normalized;
  const context: TurnContext = {
    preferredName: t.preferredName,
    memories: planned.memories.filter((m) => planned.plan.memoryIds.includes(m.memoryId)),
    hintTokens: template?.lexicon_bias.hint_tokens ?? [],
    prompt: {
      pipeline: t.pipeline,
      persona: {
        coreArchetype: template?.core_archetype ?? 'Calm Listener',
        humorMode: style.humor_mode,
        directness: style.directness_level,
        hintTokens: template?.lexicon_bias.hint_tokens ?? [],
        emotionalExpression: template?.emotional_expression_level ?? 'normal',
      },
      recent: [...t.history]
        .slice(0, RECIPE.promptRecentTurns)
        .reverse()
        .map((h) => ({ user: h.user_text, assistant: h.assistant_text })),
      userText: routed.text,
      coreBeliefs: g.asked.lookup.context.coreBeliefs.map((b) => ({ text: b.canonicalText, polarity: b.polarity })),
      challenge: offered?.prompt ?? '',
      ...(surface && questions[0] ? { uncertainty: uncertaintyPromptOf(surface, questions[0]) } : {}),
    },
    // The persona's own words, those no core belief contradicts (issue 16).
    selfStatement: selfStatementFor({ statements: template?.self_statements ?? [], normNoPunct, seed, allowed: (st) => selfConsistencyGate(st, coreViews).pass }),
    aboutFriend: asksAboutFriend(normNoPunct),
    uncertaintyQuestions: questions.map((q) => q.text),
  };
  return { ...base, composedFixed: null, context };
}

/**
 * Given the turn, what was gathered, the plan and the composed reply: the
 * TurnCompleted, and Stage G's RelationshipUpdated (§11) on a user's chat
 * message when the router says ON. Everything the decision used, and every LLM
 * exchange, is in the events, so replay never asks the LLM again.
 */
export function completeTurn(t: PreparedTurn, g: Gathered, p: PlannedReply, composed: Composed): RecipeResult {
  const { routed, fixed, history, source } = t;
  const routing = routed.decision;
  const { retrieval, asked, checked } = g;
  const { emotion, plan } = p.planned;
  const outcome = fixed ? fixed.outcome : composed.outcome;
  const completed: RecipeResult['completed'] = {
    messageId: routed.messageId,
    conversationId: routed.conversationId,
    aiFriendId: t.aiFriendId,
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
      memoryReadPolicy: t.readPolicy,
      status: retrieval.status,
      memories: retrieval.memories.map((m) => retrievedToProto(m, m.via)),
      vectorSearched: retrieval.vectorSearched,
      vectorTriggers: t.triggers,
      // The text the memory queries weighed relevance against, when one was asked.
      queryText: retrieval.status === 'skipped' ? '' : retrieval.queryText,
      error: retrieval.error,
    },
    emotion: { valence: emotion.valence, intensity: emotion.intensity, tags: emotion.tags },
    openerNorm: openerNorm(composed.text),
    relationshipStage: t.stage,
    userText: routed.text,
    retentionId: '',
    retentionStep: '',
    retentionRenders: 0,
    beliefs: beliefContextOf(asked, p.offered && !fixed ? wovenIn(p.offered, composed) : null, source === 'chat' ? (history[0]?.challenge_id ?? '') : '', p.surface !== null),
    uncertainty: {
      status: checked.status,
      error: checked.error,
      verdict: checked.response.verdict || 'none',
      withheldMemoryIds: p.held.withheld.map((w) => w.memory.memoryId),
      ...carriedOf(p.surface, carriedQuestion(p.questions, { text: composed.text, outcome: composed.outcome, provider: composed.final?.provider })),
      answersUncertaintyId: t.answersUncertaintyId,
    },
  };
  // Stage G (§11): only on a user's chat message, and never when the router says OFF.
  const relationship =
    source === 'chat' && routing?.relationshipUpdatePolicy === 'ON'
      ? relationshipEvent({
          messageId: routed.messageId,
          aiFriendId: t.aiFriendId,
          relationship: t.relationship,
          normNoPunct: t.normalized.normNoPunct,
          previousAskedQuestion: history[0]?.asked_question ?? false,
          emotion,
          now: t.at,
        })
      : null;
  return { completed, relationship };
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

/**
 * Whether the reply carries the offered challenge: the offline render closes
 * with its question (its last sentence, in the persona's case); an LLM was
 * given it as optional exploration, and a reply of the responder's stands for
 * it. The safe fallback never carries one: the gates rejected what did.
 */
function wovenIn(offered: NonNullable<AskedBeliefs['offered']>, composed: Composed): boolean {
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

/** TurnCompleted.uncertainty's surfaced_uncertainty_id and phrasing_id: only when the reply carries the question. */
function carriedOf(surface: { uncertaintyId: string } | null, carried: { phrasingId: string } | null): { surfacedUncertaintyId: string; phrasingId: string } {
  return surface && carried ? { surfacedUncertaintyId: surface.uncertaintyId, phrasingId: carried.phrasingId } : { surfacedUncertaintyId: '', phrasingId: '' };
}
