import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events, styleParamsToJson } from '@hearth/events';
import { parseJsonReply } from '@hearth/llm';
import type { orchestrator } from '@hearth/proto';
import { normalizeUserText } from '@hearth/text';
import { GATES, isStage, OFFLINE_PROVIDER } from '../config.js';
import type { ExemptGate } from '../gates/index.js';
import { NEUTRAL_STYLE, type StableStyle } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { replySchema } from '../responder/responders.js';
import { planToProto } from '../turn/plan.js';
import { planTurn, type RecordedReply, type ReplyCandidate } from '../turn/recipe.js';
import { verdictToProto } from './mapping.js';
import { FOLLOW_UP_EXEMPT, RETENTION_EXEMPT } from '../turn/retention-decision.js';
import { FIXED_REPLY_EXEMPT } from '../turn/respond-decision.js';

export type { RecordedReply } from '../turn/recipe.js';

/** One recorded field that today's deciders decide differently. */
export interface TurnChange {
  field: string;
  before: unknown;
  after: unknown;
}

/** A recorded turn re-decided: the persona constraints (§8.2), the plan (§8.1, with its emotion reading) and the §10 gates. */
export interface TurnChanges {
  constraints: TurnChange[];
  /** Empty for a retention turn: its plan is the renderer's record, not §8.1's. */
  plan: TurnChange[];
  gates: TurnChange[];
}

/** The persona the user's PersonaAssigned recorded. */
export interface RecordedPersona {
  templateId: string;
  style: StableStyle;
}

/** What a turn was decided from besides its TurnCompleted, folded from the log. */
export interface TurnReplayContext {
  /** null when no PersonaAssigned preceded the turn (the recipe then used the neutral style). */
  persona: RecordedPersona | null;
  /** The user's suppressed topics for the turn (ingress's controls). */
  suppressedTopics: readonly string[];
  /** Earlier replies of the conversation, newest first, at most GATES.recentAssistantMessages. */
  history: readonly RecordedReply[];
}

/** A TurnCompleted as `dialogue` keeps it (projections/turns.ts), for the turns after it. */
export function recordedReplyOf(t: orchestrator.TurnCompleted): RecordedReply {
  return {
    source: t.source || 'chat',
    assistantText: t.assistantText,
    openerNorm: t.openerNorm,
    askedQuestion: t.assistantText.includes('?'),
    userInitiatedTopics: t.plan?.userInitiatedTopics ?? [],
    surfacedMemoryIds: t.surfacedMemoryIds,
  };
}

const PASSES = ['draft', 'rewrite', 'fallback'] as const;
const FIXED_OUTCOMES: readonly string[] = ['refusal', 'crisis_safe', 'correction'];

/** JSON with object keys sorted, so a map decoded from the wire compares equal to the one built today. */
function canonical(v: unknown): string | undefined {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

function differ(changes: TurnChange[], field: string, before: unknown, after: unknown): void {
  if (canonical(before) !== canonical(after)) changes.push({ field, before, after });
}

/**
 * The candidate a pass judged, from the record: the reply itself for the pass
 * that became it; an earlier one from its exchange — the offline render's text
 * (which surfaces every memory the plan chose), or the model's JSON read as the
 * responder read it (ids outside the plan dropped). null when not recorded.
 */
function candidateOf(t: orchestrator.TurnCompleted, pass: number): ReplyCandidate | null {
  const final = { text: t.assistantText, surfacedMemoryIds: t.surfacedMemoryIds };
  const fixed = t.source === 'retention' || FIXED_OUTCOMES.includes(t.outcome);
  const finalPass = fixed ? 0 : (PASSES as readonly string[]).indexOf(t.outcome);
  if (pass === finalPass) return final;
  if (fixed || finalPass < 0 || pass > finalPass) return null;
  const exchange = t.exchanges.filter((x) => x.purpose === (pass === 0 ? 'reply' : 'rewrite') && x.error === '').at(-1);
  if (!exchange) return null;
  const planned = t.plan?.memoryIds ?? [];
  if (exchange.provider === OFFLINE_PROVIDER.provider) return { text: exchange.output, surfacedMemoryIds: [...planned] };
  const read = parseJsonReply(exchange.output, replySchema);
  if (!read.ok) return null;
  return { text: read.value.text.trim(), surfacedMemoryIds: [...new Set(read.value.surfaced_memory_ids)].filter((id) => planned.includes(id)) };
}

/**
 * Re-decides a recorded turn with today's PersonaConstraintEngine, planner and
 * §10 gates, over the recorded inputs: the persona, the stage the reply was
 * written for, the user's controls, the conversation's earlier replies, the
 * memories retrieved, the topics the user initiated (the router's, as the plan
 * recorded them), and each recorded candidate reply (LLM output or offline
 * render — no LLM is asked). Names every recorded field that would differ,
 * and the outcome the gates would lead to. Pure.
 */
export function reRespond(recorded: orchestrator.TurnCompleted, ctx: TurnReplayContext): TurnChanges {
  const out: TurnChanges = { constraints: [], plan: [], gates: [] };
  const stage = recorded.relationshipStage;
  if (!isStage(stage)) {
    const missing = [{ field: 'relationshipStage', before: stage, after: 'a recorded relationship stage is needed' }];
    return { constraints: missing, plan: [], gates: missing };
  }
  const retention = recorded.source === 'retention';
  const normalized = normalizeUserText(recorded.userText);
  // Issue 17: what the turn withheld is recorded (uncertainty is never asked again):
  // out of the plan, and what the uncertain_assertion gate judged by.
  const withheldIds = new Set(recorded.uncertainty?.withheldMemoryIds ?? []);
  const retrieved = recorded.retrieval?.memories ?? [];
  // The recipe's deciders over the recorded inputs; a retention turn as the renderer judged it.
  const turn = planTurn({
    pipeline: recorded.routing?.pipeline ?? 'FRIEND_CHAT',
    source: retention ? 'retention' : 'chat',
    proactive: retention,
    normalized,
    style: ctx.persona?.style ?? NEUTRAL_STYLE,
    template: PERSONA_LIBRARY.find((t) => t.template_id === ctx.persona?.templateId),
    stage,
    suppressedTopics: ctx.suppressedTopics,
    // §2.8 as the recipe reads it: initiated now (the router's, as the plan recorded them).
    initiatedNow: recorded.plan?.userInitiatedTopics ?? [],
    history: ctx.history,
    retrieved: retrieved.filter((m) => !withheldIds.has(m.memoryId)),
    withheld: retrieved.filter((m) => withheldIds.has(m.memoryId)).map((m) => ({ key: m.memoryKey, value: m.memoryValue })),
  });

  for (const [key, after] of Object.entries(turn.constraints)) {
    differ(out.constraints, `constraints.${key}`, recorded.plan?.constraints?.[key as keyof orchestrator.PersonaConstraints], after);
  }
  if (!retention) {
    differ(out.plan, 'emotion.valence', recorded.emotion?.valence, turn.emotion.valence);
    differ(out.plan, 'emotion.intensity', recorded.emotion?.intensity, turn.emotion.intensity);
    differ(out.plan, 'emotion.tags', recorded.emotion?.tags, turn.emotion.tags);
    for (const [key, after] of Object.entries(planToProto(turn.plan))) {
      if (key !== 'constraints') differ(out.plan, `plan.${key}`, recorded.plan?.[key as keyof orchestrator.ResponsePlan], after);
    }
  }

  const exempt: readonly ExemptGate[] = retention
    ? recorded.retentionStep === 'follow_up'
      ? FOLLOW_UP_EXEMPT
      : RETENTION_EXEMPT
    : FIXED_OUTCOMES.includes(recorded.outcome)
      ? FIXED_REPLY_EXEMPT
      : [];
  // self_consistency is taken as recorded: its inputs (the core beliefs' hash,
  // polarity and vectors) are the belief graph's, and TurnCompleted.beliefs
  // records only their ids and texts. So is an uncertain_assertion verdict that
  // judged by a surface (measured surface 1): its sides and phrasings are
  // uncertainty's answer, and TurnCompleted.uncertainty records only its id and
  // the phrasing the reply carried; without one the gate is re-decided over the
  // recorded withheld memories.
  const recordedGate = (pass: number, gate: string) => recorded.gates.find((g) => g.passNumber === pass && g.gate === gate);
  const asRecorded = (pass: number, gate: string) => {
    const was = recordedGate(pass, gate);
    if (gate === 'self_consistency') return was;
    return gate === 'uncertain_assertion' && was?.measured.surface === '1' ? was : undefined;
  };
  const judge = (c: ReplyCandidate, pass: number): orchestrator.GateVerdict[] =>
    turn.evaluate(c, exempt).map((v) => asRecorded(pass, v.gate) ?? verdictToProto({ ...v, passNumber: pass }));

  const passed = new Map<number, boolean>();
  for (const pass of [...new Set(recorded.gates.map((g) => g.passNumber))].sort((a, b) => a - b)) {
    const name = PASSES[pass] ?? `pass_${pass}`;
    const was = recorded.gates.filter((g) => g.passNumber === pass);
    const candidate = candidateOf(recorded, pass);
    if (!candidate) {
      out.gates.push({ field: `gates.${name}`, before: was.map((g) => `${g.gate}: ${g.pass ? 'pass' : 'fail'}`), after: 'the candidate is not recorded' });
      continue;
    }
    const now = judge(candidate, pass);
    passed.set(pass, now.every((v) => v.pass));
    for (const gate of [...new Set([...now.map((v) => v.gate), ...was.map((v) => v.gate)])]) {
      const b = was.find((v) => v.gate === gate);
      const a = now.find((v) => v.gate === gate);
      differ(out.gates, `gates.${name}.${gate}.pass`, b?.pass, a?.pass);
      differ(out.gates, `gates.${name}.${gate}.detail`, b?.detail, a?.detail);
      differ(out.gates, `gates.${name}.${gate}.measured`, b?.measured, a?.measured);
    }
  }
  // §10's path over the recorded candidates: the first that passes every gate is the reply.
  if (!retention && !FIXED_OUTCOMES.includes(recorded.outcome)) {
    let outcome: string;
    if (!passed.has(0)) outcome = 'fallback';
    else if (passed.get(0)) outcome = 'draft';
    else if (!passed.has(1)) outcome = recorded.outcome === 'draft' ? 'rewrite (not recorded: the responder would be asked)' : 'fallback';
    else outcome = passed.get(1) ? 'rewrite' : 'fallback';
    differ(out.gates, 'outcome', recorded.outcome, outcome);
  }
  return out;
}

/** One re-decided TurnCompleted. */
export interface ReplayedTurn {
  messageId: string;
  /** A proactive turn: its plan is the renderer's record, so `changes.plan` is always empty. */
  retention: boolean;
  changes: TurnChanges;
}

/**
 * Replays the orchestrator's turns in log order: folds what each turn was
 * decided from (personas and earlier replies from the orchestrator's log, the
 * user's controls from ingress's) and re-decides each TurnCompleted with
 * {@link reRespond}. Feed every ingress event first, then the orchestrator's.
 */
export interface TurnReplay {
  ingress(e: StoredEvent): void;
  /** A TurnCompleted is re-decided (when `decide`) before it joins the conversation's history. */
  orchestrator(e: StoredEvent, decide: boolean): ReplayedTurn | null;
}

export function createTurnReplay(): TurnReplay {
  const controls = new Map<string, { at: Date; topics: string[] }[]>();
  const atReceipt = new Map<string, readonly string[]>();
  const personas = new Map<string, RecordedPersona>();
  const dialogue = new Map<string, RecordedReply[]>();
  const setControls = (e: StoredEvent, topics: string[]) => controls.set(e.userId, [...(controls.get(e.userId) ?? []), { at: e.occurredAt, topics }]);
  const controlsAt = (userId: string, at: Date) => (controls.get(userId) ?? []).findLast((c) => c.at <= at)?.topics ?? [];
  return {
    ingress(e) {
      if (e.erased) return;
      switch (e.type) {
        case Events.OnboardingAnswered.name:
          setControls(e, payloadOf(e, Events.OnboardingAnswered).answers?.suppressedTopics ?? []);
          return;
        case Events.ControlsUpdated.name:
          setControls(e, payloadOf(e, Events.ControlsUpdated).suppressedTopics);
          return;
        case Events.TurnReceived.name:
          atReceipt.set(`${e.userId}/${payloadOf(e, Events.TurnReceived).messageId}`, controls.get(e.userId)?.at(-1)?.topics ?? []);
          return;
        default:
          return;
      }
    },
    orchestrator(e, decide) {
      if (e.erased) return null;
      if (e.type === Events.PersonaAssigned.name) {
        // The first assignment stands, as in the personas projection.
        if (!personas.has(e.userId)) {
          const p = payloadOf(e, Events.PersonaAssigned);
          personas.set(e.userId, { templateId: p.templateId, style: styleParamsToJson(p.stableStyleParams) as unknown as StableStyle });
        }
        return null;
      }
      if (e.type !== Events.TurnCompleted.name) return null;
      const t = payloadOf(e, Events.TurnCompleted);
      const key = `${e.userId}/${t.conversationId}`;
      const history = dialogue.get(key) ?? [];
      let replayed: ReplayedTurn | null = null;
      if (decide) {
        // Not recorded with the turn: the controls the profiles projection held when
        // it was decided. A chat turn takes them as of its TurnReceived on ingress's
        // log, a proactive one as of its (planned) time.
        const suppressedTopics = atReceipt.get(`${e.userId}/${t.messageId}`) ?? controlsAt(e.userId, e.occurredAt);
        replayed = { messageId: t.messageId, retention: t.source === 'retention', changes: reRespond(t, { persona: personas.get(e.userId) ?? null, suppressedTopics, history }) };
      }
      dialogue.set(key, [recordedReplyOf(t), ...history].slice(0, GATES.recentAssistantMessages));
      return replayed;
    },
  };
}
