import type { TurnRouted } from '@hearth/events';
import type { router } from '@hearth/proto';
import { detectTopics, normalizeUserText } from '@hearth/text';
import { emptyBeliefContext } from '../adapters/beliefs.js';
import { emptyCheck } from '../adapters/uncertainty.js';
import { styleOf } from '../personas/assign.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { CORRECTION_TEXT, CRISIS_SAFE_TEXT, FINISH_ONBOARDING_TEXT, onboardingIncompleteText, REFUSAL_TEXT } from '../responder/fixed.js';
import { offlineResponder } from '../responder/responders.js';
import { composeReply } from './compose.js';
import { completeTurn, FIXED_REPLY_EXEMPT, gateText, planReply, prepareTurn, type Gathered, type RetrievedSet, type TurnState } from './respond-decision.js';

const AT = new Date('2026-11-22T10:00:00Z');
const TEMPLATE = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;

function decision(over: Partial<router.RoutingDecision> = {}): router.RoutingDecision {
  return {
    pipeline: 'FRIEND_CHAT',
    safetyPolicy: 'ALLOW',
    memoryReadPolicy: 'FULL',
    vectorSearchPolicy: 'ON_DEMAND',
    memoryWritePolicy: 'SELECTIVE',
    relationshipUpdatePolicy: 'ON',
    retentionPolicy: '',
    retrievalQueryText: '',
    notes: '',
    safetyReason: '',
    crisisSafe: false,
    ...over,
  };
}

function routed(text: string, over: { decision?: Partial<router.RoutingDecision>; source?: string } = {}): TurnRouted {
  const n = normalizeUserText(text);
  return {
    messageId: 'msg-1',
    conversationId: 'conv-1',
    decision: decision(over.decision),
    flags: [],
    topicMatches: detectTopics(n.normNoPunct).map((m) => ({ topicId: m.topicId, confidence: m.confidence, keywords: [...m.keywords] })),
    userState: 'ACTIVE',
    text,
    aiFriendId: 'friend-1',
    source: over.source ?? 'chat',
    userTextNorm: n.userTextNorm,
    normNoPunct: n.normNoPunct,
    tokenEstimate: 1,
    heuristicFlags: [],
    ageBand: '25-34',
    activatesUser: false,
    missingOnboarding: [],
  } as TurnRouted;
}

const STATE: TurnState = {
  profile: { preferredName: 'Mina', suppressedTopics: [], aiFriendId: 'friend-1' },
  persona: { template_id: TEMPLATE.template_id, stable_style_params: styleOf(TEMPLATE) },
  relationship: undefined,
  history: [],
};

function earlierReply(surfaced: string[], over: Partial<TurnState['history'][number]> = {}): TurnState['history'][number] {
  return {
    assistant_message_id: 'a-0',
    user_id: 'u1',
    conversation_id: 'conv-1',
    user_message_id: 'msg-0',
    source: 'chat',
    user_text: 'I love sushi so much',
    assistant_text: 'Sushi sounds great.',
    opener_norm: 'sushi sounds great',
    asked_question: false,
    surfaced_memory_ids: surfaced,
    user_initiated_topics: [],
    challenge_id: '',
    surfaced_uncertainty_id: '',
    created_at: new Date(AT.getTime() - 60_000),
    event_seq: 1,
    ...over,
  };
}

const sushi = { memoryId: 'm-sushi', type: 'PREFERENCE', memoryKey: 'pref:food:sushi', memoryValue: 'like|sushi', confidence: 0.75, topicIds: ['FOOD'], relevance: 0.8, occurredOn: '', occurredPrecision: '', reliability: 'reliable', via: 'structured' as const };

function gathered(memories: RetrievedSet['memories'] = []): Gathered {
  return {
    retrieval: { status: memories.length > 0 ? 'ok' : 'skipped', memories, vectorSearched: false, queryText: '', error: '' },
    asked: { status: 'skipped', lookup: { status: 'ok', context: emptyBeliefContext(), error: '' }, signals: { shame: false, isolation: false, dependencyFear: false, relationalStrain: false, cues: [] }, offered: null, skipped: 'not_chat' },
    checked: { status: 'skipped', response: emptyCheck(), error: '' },
  };
}

/** The recipe with the offline responder: the pure steps around the composition, as the shell runs them. */
async function decide(r: TurnRouted, state: TurnState, g: Gathered) {
  const t = prepareTurn(r, AT, state);
  const p = planReply(t, g);
  const composed =
    p.composedFixed ??
    (await composeReply({ plan: p.planned.plan, seed: t.seed, responder: offlineResponder(p.context!, (c) => p.planned.evaluate(c)), evaluate: (c) => p.planned.evaluate(c) }));
  return { t, p, ...completeTurn(t, g, p, composed) };
}

describe('the respond recipe, decided (turn-pipeline §7.1)', () => {
  it('refuses a CREATED user, and an ONBOARDING one whose message does not activate, with the gate text', () => {
    expect(gateText('CREATED', false, [])).toBe(FINISH_ONBOARDING_TEXT);
    expect(gateText('ONBOARDING', false, ['persona'])).toBe(onboardingIncompleteText(['persona']));
    expect(gateText('ONBOARDING', true, [])).toBeNull();
    expect(gateText('ACTIVE', false, [])).toBeNull();
  });

  it('asks memory by the read policy, with vectors only ON_DEMAND on a trigger', () => {
    const recall = prepareTurn(routed('Do you remember what I told you last time?'), AT, STATE);
    expect(recall).toMatchObject({ readPolicy: 'FULL', aiFriendId: 'friend-1', fixed: null, queryText: 'Do you remember what I told you last time?' });
    expect(recall.triggers).toContain('recall_reference');
    expect(prepareTurn(routed('Do you remember what I told you last time?', { decision: { vectorSearchPolicy: 'OFF' } }), AT, STATE).triggers).toEqual([]);
    // Memory answers after the previous turn is written back; the router's query text wins.
    expect(prepareTurn(routed('hi', { decision: { retrievalQueryText: 'sushi' } }), AT, { ...STATE, history: [earlierReply([])] })).toMatchObject({ afterMessageId: 'msg-0', queryText: 'sushi' });
  });

  it('given a reply that surfaced a memory, answers "not true" with the fixed correction, surfaces nothing, asks no LLM', async () => {
    // given
    const state = { ...STATE, history: [earlierReply(['m-sushi'])] };

    // when
    const { t, p, completed } = await decide(routed("No, that's not true"), state, gathered([sushi]));

    // then
    expect(t.fixed).toEqual({ text: CORRECTION_TEXT.notTrue, outcome: 'correction' });
    expect(p.context).toBeNull();
    expect(completed).toMatchObject({ outcome: 'correction', assistantText: CORRECTION_TEXT.notTrue, surfacedMemoryIds: [], llm: { provider: 'offline-template', purpose: 'correction' } });
    // and with nothing surfaced before, it asks which part
    expect(prepareTurn(routed("No, that's not true"), AT, STATE).fixed).toEqual({ text: CORRECTION_TEXT.whichPart, outcome: 'correction' });
  });

  it('answers a hard refusal and a crisis with their fixed words: persona bands exempt, gates recorded, no relationship', async () => {
    // when
    const refusal = await decide(routed('x', { decision: { pipeline: 'REFUSAL', safetyPolicy: 'HARD_REFUSE', relationshipUpdatePolicy: 'OFF' } }), STATE, gathered());
    const crisis = await decide(routed('x', { decision: { pipeline: 'EMOTIONAL_SUPPORT', crisisSafe: true } }), STATE, gathered());

    // then
    expect(refusal.completed).toMatchObject({ outcome: 'refusal', assistantText: REFUSAL_TEXT.HARD_REFUSE });
    expect(refusal.relationship).toBeNull();
    for (const gate of FIXED_REPLY_EXEMPT) expect(refusal.completed.gates.find((g) => g.gate === gate)).toMatchObject({ pass: true, detail: 'exempt' });
    expect(refusal.completed.gates.find((g) => g.gate === 'safety')).toMatchObject({ pass: true });
    expect(crisis.completed).toMatchObject({ outcome: 'crisis_safe', assistantText: CRISIS_SAFE_TEXT.replace('{name}', 'Mina') });
  });

  it('given memories the message is about, plans and surfaces them, and writes the relationship (§11)', async () => {
    // when
    const { completed, relationship } = await decide(routed('I love sushi and my work has been so busy lately, honestly'), STATE, gathered([sushi]));

    // then
    expect(completed).toMatchObject({ outcome: 'draft', surfacedMemoryIds: ['m-sushi'], relationshipStage: 'STRANGER', retrieval: { memoryReadPolicy: 'FULL', status: 'ok' } });
    expect(completed.assistantText).toMatch(/sushi/);
    expect(completed.gates.filter((g) => g.passNumber === 0 && !g.pass)).toEqual([]);
    expect(relationship).toMatchObject({ sessionStarted: true, next: { stage: 'STRANGER', sessionsCount: 1 } });
  });

  it('writes no relationship when the router says OFF, nor for a retention turn', async () => {
    expect((await decide(routed('hello there', { decision: { relationshipUpdatePolicy: 'OFF' } }), STATE, gathered())).relationship).toBeNull();
    expect((await decide(routed('hello there', { source: 'retention' }), STATE, gathered())).relationship).toBeNull();
  });

  it('given memories uncertainty says the message contradicts, withholds them from the plan and records it (issue 17)', async () => {
    // given
    const g = gathered([sushi]);
    g.checked = { status: 'ok', response: { ...emptyCheck(), verdict: 'contradicts', contradictedMemoryIds: ['m-sushi'] }, error: '' };

    // when
    const { completed } = await decide(routed('I love sushi'), STATE, g);

    // then
    expect(completed.surfacedMemoryIds).toEqual([]);
    expect(completed.uncertainty).toMatchObject({ status: 'ok', verdict: 'contradicts', withheldMemoryIds: ['m-sushi'] });
  });
});
