import type { EventType, StoredEvent } from '@hearth/bus';
import { Events, styleParamsFromJson } from '@hearth/events';
import { ingress, orchestrator } from '@hearth/proto';
import { storedEvent } from '@hearth/testing';
import { normalizeUserText, tokenize } from '@hearth/text';
import { GATES, OFFLINE_PROVIDER } from '../config.js';
import { evaluateReply, openerNorm } from '../gates/index.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { analyzeEmotion } from '../relationship/index.js';
import { fallbackReply } from '../responder/offline.js';
import { personaConstraints } from '../turn/constraints.js';
import { planResponse, planToProto } from '../turn/plan.js';
import { createTurnReplay, recordedReplyOf, reRespond, type TurnReplayContext } from './audit-turn.js';
import { verdictToProto } from './mapping.js';

// PT01: medium sentences, no emoji, clean, soft bounds POLITICS and RELIGION.
const PT01 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;
const STYLE = styleOf(PT01);
const USER_TEXT = 'i went hiking with my family on saturday';
const GOOD = 'That sounds like a really good way to spend a quiet weekend with your family. Which trail did you all end up walking together this time?';
const WITH_EMOJI = 'That sounds like a really good way to spend a quiet weekend with your family 🙂🙂. Which trail did you all end up walking on this time?';
const CONTEXT: TurnReplayContext = { persona: { templateId: 'PT01', style: STYLE }, suppressedTopics: [], history: [] };

interface Written {
  text: string;
  provider?: string;
}

/**
 * A chat turn as the recipe records it (§8 plan, §10 gates over each candidate
 * in turn, the fallback when none passes), through the wire format.
 */
function recorded(
  candidates: Written[],
  ctx: TurnReplayContext = CONTEXT,
  messageId = 'm1',
  withheld: { retrieved: orchestrator.RetrievedMemory[]; ids: string[] } = { retrieved: [], ids: [] },
): orchestrator.TurnCompleted {
  const norm = normalizeUserText(USER_TEXT);
  const initiatedNow = ['FAMILY'];
  const initiatedRecent = [...new Set([...initiatedNow, ...ctx.history.filter((h) => h.source === 'chat').slice(0, 2).flatMap((h) => h.userInitiatedTopics)])];
  const constraints = personaConstraints({
    style: STYLE,
    template: PT01,
    stage: 'STRANGER',
    suppressedTopics: ctx.suppressedTopics,
    initiatedNow,
    initiatedRecent,
    previousAskedQuestion: ctx.history[0]?.askedQuestion ?? false,
  });
  const emotion = analyzeEmotion(norm.normNoPunct);
  const plan = planResponse({
    pipeline: 'FRIEND_CHAT',
    source: 'chat',
    isQuestion: false,
    emotion,
    constraints,
    initiatedNow,
    initiatedRecent,
    suppressedTopics: ctx.suppressedTopics,
    userTokens: tokenize(norm.normNoPunct),
    memories: [],
    recallAsked: false,
    directness: STYLE.directness_level,
  });
  const judge = (text: string, passNumber: number) =>
    evaluateReply({
      text,
      style: STYLE,
      stage: 'STRANGER',
      source: 'chat',
      surfaced: [],
      surfacedIds: [],
      recallAsked: false,
      userInitiated: initiatedNow,
      initiatedRecent,
      suppressedTopics: [...ctx.suppressedTopics],
      tabooSoftBounds: PT01.taboo_soft_bounds,
      recentAssistant: ctx.history.map((h) => h.assistantText),
      recentOpeners: ctx.history.map((h) => h.openerNorm),
      withheld: withheld.retrieved.filter((m) => withheld.ids.includes(m.memoryId)).map((m) => ({ key: m.memoryKey, value: m.memoryValue })),
    }).map((v) => ({ ...v, passNumber }));
  const gates = [];
  const exchanges = [];
  let reply: { text: string; outcome: string } | null = null;
  for (const [pass, c] of candidates.entries()) {
    const output = c.provider ? `\`\`\`json\n${JSON.stringify({ text: c.text, surfaced_memory_ids: [] })}\n\`\`\`` : c.text;
    exchanges.push({ provider: c.provider ?? OFFLINE_PROVIDER.provider, model: 'm', purpose: pass === 0 ? 'reply' : 'rewrite', attempt: 1, output, error: '' });
    const verdicts = judge(c.text, pass);
    gates.push(...verdicts);
    if (verdicts.every((v) => v.pass)) {
      reply = { text: c.text, outcome: pass === 0 ? 'draft' : 'rewrite' };
      break;
    }
  }
  if (!reply) {
    reply = { text: fallbackReply(plan).text, outcome: 'fallback' };
    gates.push(...judge(reply.text, 2));
  }
  const event = orchestrator.TurnCompleted.fromPartial({
    messageId,
    conversationId: 'c1',
    routing: { pipeline: 'FRIEND_CHAT', memoryWritePolicy: 'SELECTIVE', relationshipUpdatePolicy: 'ON' },
    assistantText: reply.text,
    surfacedMemoryIds: [],
    source: 'chat',
    exchanges,
    plan: planToProto(plan),
    gates: gates.map(verdictToProto),
    outcome: reply.outcome,
    retrieval: { memoryReadPolicy: 'LIGHT', status: 'ok', memories: withheld.retrieved },
    uncertainty: { status: 'ok', verdict: 'none', withheldMemoryIds: withheld.ids },
    emotion,
    openerNorm: openerNorm(reply.text),
    relationshipStage: 'STRANGER',
    userText: USER_TEXT,
  });
  return Events.TurnCompleted.decode(Events.TurnCompleted.encode(event));
}

const fields = (changes: { field: string }[]) => changes.map((c) => c.field);

describe("reRespond: a recorded turn under today's persona constraints, planner and gates", () => {
  it('takes self_consistency as recorded: the core beliefs it judged by are the belief graph\'s, not in the event (issue 16)', () => {
    // given a turn whose draft failed self_consistency against a core belief, then was rewritten
    const contradicting = 'Honestly, I hate quiet hiking weekends with family, and I always have. Which trail did you all end up walking together this time?';
    const turn = recorded([{ text: contradicting }, { text: GOOD }]);
    const failed = { gate: 'self_consistency', pass: false, detail: 'contradicts core belief "i like quiet hiking weekends with family" (b-1): the reply denies it', passNumber: 0, measured: { core_beliefs: '1', contradictions: '1', tensions: '0' } };
    const draftAt = turn.gates.findIndex((g) => g.gate === 'self_consistency' && g.passNumber === 0);
    turn.gates.splice(draftAt, 1, failed);
    // (built with no core beliefs, the draft passed every gate and became the reply: make the record say what the recipe did)
    const rewritten = orchestrator.TurnCompleted.fromPartial({
      ...turn,
      outcome: 'rewrite',
      assistantText: GOOD,
      openerNorm: openerNorm(GOOD),
      exchanges: [...turn.exchanges, { provider: OFFLINE_PROVIDER.provider, model: 'm', purpose: 'rewrite', attempt: 1, output: GOOD, error: '' }],
      gates: [...turn.gates, ...turn.gates.filter((g) => g.passNumber === 0).map((g) => ({ ...g, passNumber: 1, ...(g.gate === 'self_consistency' ? { pass: true, detail: 'consistent with 1 core beliefs' } : {}) }))],
    });

    // when it is re-decided without the belief graph
    const changes = reRespond(rewritten, CONTEXT);

    // then the recorded verdicts stand, and so does the outcome they led to
    expect(changes.gates.filter((c) => c.field.includes('self_consistency'))).toEqual([]);
    expect(fields(changes.gates)).not.toContain('outcome');
  });

  it('finds nothing to change in turns decided today: a first draft, an LLM draft rewritten offline, a fallback', () => {
    const none = { constraints: [], plan: [], gates: [] };
    expect(reRespond(recorded([{ text: GOOD }]), CONTEXT)).toEqual(none);

    const rewritten = recorded([{ text: WITH_EMOJI, provider: 'openai-compatible' }, { text: GOOD }]);
    expect(rewritten.outcome).toBe('rewrite');
    expect(rewritten.gates.find((g) => g.passNumber === 0 && g.gate === 'emoji_band')?.pass).toBe(false);
    expect(reRespond(rewritten, CONTEXT)).toEqual(none);

    const fellBack = recorded([{ text: WITH_EMOJI }, { text: WITH_EMOJI }]);
    expect(fellBack.outcome).toBe('fallback');
    expect(reRespond(fellBack, CONTEXT)).toEqual(none);
  });

  it('names the constraint, the verdicts and the outcome a changed emoji band changes', () => {
    const rewritten = recorded([{ text: WITH_EMOJI }, { text: GOOD }]);
    const band = GATES.emojiBand.none!;
    GATES.emojiBand.none = [0, 2];
    try {
      const { constraints, plan, gates } = reRespond(rewritten, CONTEXT);
      expect(constraints).toEqual([{ field: 'constraints.emojiMax', before: 0, after: 2 }]);
      expect(plan).toEqual([]);
      expect(gates).toEqual(
        expect.arrayContaining([
          { field: 'gates.draft.emoji_band.pass', before: false, after: true },
          { field: 'outcome', before: 'rewrite', after: 'draft' },
        ]),
      );
      expect(fields(gates).every((f) => f.startsWith('gates.draft.emoji_band.') || f.startsWith('gates.rewrite.emoji_band.') || f === 'outcome')).toBe(true);
    } finally {
      GATES.emojiBand.none = band;
    }
  });

  it('names what the controls change: the taboo topics of the constraints and of the plan', () => {
    const turn = recorded([{ text: GOOD }]);
    const { constraints, plan } = reRespond(turn, { ...CONTEXT, suppressedTopics: ['WORK_SCHOOL'] });
    expect(constraints).toEqual([{ field: 'constraints.tabooTopics', before: ['POLITICS', 'RELIGION'], after: ['POLITICS', 'RELIGION', 'WORK_SCHOOL'] }]);
    expect(plan).toEqual([{ field: 'plan.tabooGuard', before: ['POLITICS', 'RELIGION'], after: ['POLITICS', 'RELIGION', 'WORK_SCHOOL'] }]);
  });

  it('says so when a judged candidate is not in the record, and judges nothing it cannot read', () => {
    const turn = recorded([{ text: WITH_EMOJI }, { text: GOOD }]);
    const { gates } = reRespond({ ...turn, exchanges: [] }, CONTEXT);
    expect(gates).toEqual([expect.objectContaining({ field: 'gates.draft', after: 'the candidate is not recorded' }), { field: 'outcome', before: 'rewrite', after: 'fallback' }]);
  });

  it('re-decides a recorded draft today with the recorded text: a tampered verdict shows', () => {
    const turn = recorded([{ text: GOOD }]);
    const tampered = { ...turn, gates: turn.gates.map((g) => (g.gate === 'similarity' ? { ...g, pass: false } : g)) };
    expect(reRespond(tampered, CONTEXT).gates).toEqual([{ field: 'gates.draft.similarity.pass', before: false, after: true }]);
  });
});

describe('reRespond over recorded relevance (issue 15)', () => {
  const retrieved = (relevance: number): orchestrator.RetrievedMemory => ({
    memoryId: 'mem1',
    type: 'PREFERENCE',
    memoryKey: 'pref:hobby:dancing',
    memoryValue: 'like|dancing',
    confidence: 0.6,
    topicIds: [],
    via: 'structured',
    relevance,
    occurredOn: '',
    occurredPrecision: '',
  });
  const withRetrieved = (t: orchestrator.TurnCompleted, m: orchestrator.RetrievedMemory): orchestrator.TurnCompleted =>
    Events.TurnCompleted.decode(Events.TurnCompleted.encode({ ...t, retrieval: { ...t.retrieval!, memories: [m] } }));

  it('decides the same as the recipe did: an unrelated memory, recorded with relevance 0, stays out of the plan', () => {
    // given: a turn whose plan surfaced nothing, with a memory loaded as unrelated
    const turn = withRetrieved(recorded([{ text: GOOD }]), retrieved(0));

    // then
    expect(reRespond(turn, CONTEXT)).toEqual({ constraints: [], plan: [], gates: [] });
  });

  it('names the plan fields a recorded relevance would change', () => {
    // given: the same turn, but the memory recorded as what the message is about
    const turn = withRetrieved(recorded([{ text: GOOD }]), retrieved(0.9));

    // when
    const changes = reRespond(turn, CONTEXT);

    // then
    expect(fields(changes.plan)).toEqual(['plan.answerOutline', 'plan.memoryIds']);
    expect(changes.plan.find((c) => c.field === 'plan.memoryIds')).toMatchObject({ before: [], after: ['mem1'] });
  });
});

describe('reRespond over what a turn withheld (issue 17)', () => {
  const hiking: orchestrator.RetrievedMemory = {
    memoryId: 'mem-hiking',
    type: 'PREFERENCE',
    memoryKey: 'pref:hobby:hiking',
    memoryValue: 'like|hiking',
    confidence: 0.7,
    topicIds: [],
    via: 'structured',
    relevance: 0.9,
    occurredOn: '',
    occurredPrecision: '',
  };
  const NAMING = 'I remember you love hiking, so that sounds like a really good way to spend a weekend with your family. Which trail did you all end up walking together?';

  it('keeps a recorded withheld memory out of the plan, and judges the gate by it: nothing changes, uncertainty not asked', () => {
    // given: a relevant memory the turn withheld, and a draft that named it
    const turn = recorded([{ text: NAMING }, { text: GOOD }], CONTEXT, 'm1', { retrieved: [hiking], ids: ['mem-hiking'] });
    expect(turn.outcome).toBe('rewrite');
    expect(turn.gates.find((g) => g.passNumber === 0 && g.gate === 'uncertain_assertion')).toMatchObject({ pass: false, measured: { withheld: '1', surface: '0' } });

    // then
    expect(reRespond(turn, CONTEXT)).toEqual({ constraints: [], plan: [], gates: [] });
  });

  it('names what the record would change without it: the memory back in the plan, the draft passing', () => {
    const turn = recorded([{ text: NAMING }, { text: GOOD }], CONTEXT, 'm1', { retrieved: [hiking], ids: ['mem-hiking'] });
    const forgotten = Events.TurnCompleted.decode(Events.TurnCompleted.encode({ ...turn, uncertainty: { ...turn.uncertainty!, withheldMemoryIds: [] } }));
    const changes = reRespond(forgotten, CONTEXT);
    expect(changes.plan.find((c) => c.field === 'plan.memoryIds')).toMatchObject({ before: [], after: ['mem-hiking'] });
    expect(fields(changes.gates)).toContain('gates.draft.uncertain_assertion.pass');
  });

  it("takes a verdict that judged by uncertainty's surface as recorded: its sides and phrasings are not in the event", () => {
    const turn = recorded([{ text: GOOD }]);
    const surfaced = turn.gates.map((g) => (g.gate === 'uncertain_assertion' ? { ...g, detail: 'asserts none of 1 withheld memories; the woven question asks', measured: { ...g.measured, withheld: '1', surface: '1', question: '1' } } : g));
    expect(reRespond({ ...turn, gates: surfaced }, CONTEXT)).toEqual({ constraints: [], plan: [], gates: [] });
    // without the surface it is re-decided, and the difference shows
    const tampered = turn.gates.map((g) => (g.gate === 'uncertain_assertion' ? { ...g, measured: { ...g.measured, withheld: '1' } } : g));
    expect(fields(reRespond({ ...turn, gates: tampered }, CONTEXT).gates)).toEqual(['gates.draft.uncertain_assertion.measured']);
  });
});

describe('createTurnReplay: what each turn was decided from, folded from the log', () => {
  let seq = 0;
  const stored = <T>(type: EventType<T>, value: T, over: Partial<StoredEvent> = {}): StoredEvent =>
    storedEvent(type, value, { id: `e${++seq}`, seq, userId: 'u1', occurredAt: new Date(Date.UTC(2026, 10, 22, 10, seq)), ...over });

  it("replays each turn with the persona, the controls as of its receipt and the conversation's earlier replies", () => {
    const replay = createTurnReplay();
    const suppressed = ['WORK_SCHOOL'];
    replay.ingress(stored(Events.OnboardingAnswered, ingress.OnboardingAnswered.fromPartial({ answers: { suppressedTopics: suppressed } })));
    replay.ingress(stored(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: 'm1', text: USER_TEXT })));
    // Lifted after the first turn was received: the second turn goes by it.
    replay.ingress(stored(Events.ControlsUpdated, ingress.ControlsUpdated.fromPartial({ suppressedTopics: [] })));
    replay.ingress(stored(Events.TurnReceived, ingress.TurnReceived.fromPartial({ messageId: 'm2', text: USER_TEXT })));
    const persona = orchestrator.PersonaAssigned.fromPartial({ templateId: 'PT01', stableStyleParams: styleParamsFromJson(STYLE) });
    expect(replay.orchestrator(stored(Events.PersonaAssigned, persona), true)).toBeNull();

    const first = recorded([{ text: GOOD }], { ...CONTEXT, suppressedTopics: suppressed }, 'm1');
    const second = recorded([{ text: WITH_EMOJI }, { text: `${GOOD} Was it a long one?` }], { ...CONTEXT, history: [recordedReplyOf(first)] }, 'm2');
    const none = { constraints: [], plan: [], gates: [] };
    expect(replay.orchestrator(stored(Events.TurnCompleted, first), true)).toEqual({ messageId: 'm1', retention: false, changes: none });
    expect(replay.orchestrator(stored(Events.TurnCompleted, second), true)).toEqual({ messageId: 'm2', retention: false, changes: none });
  });

  it('passes over erased events and leaves undecided what is outside the window', () => {
    const replay = createTurnReplay();
    expect(replay.orchestrator(stored(Events.TurnCompleted, recorded([{ text: GOOD }]), { erased: true, payload: new Uint8Array() }), true)).toBeNull();
    expect(replay.orchestrator(stored(Events.TurnCompleted, recorded([{ text: GOOD }])), false)).toBeNull();
  });
});
