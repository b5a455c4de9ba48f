import type { RetentionPlanned } from '@hearth/events';
import type { memory } from '@hearth/proto';
import {
  gateRetention,
  nameableMemoryIds,
  renderPlannedRetention,
  SKIPPED_RELIABILITY,
  SKIPPED_RETRIEVAL,
  type PlannedRetention,
  type RetentionPlan,
  type RetentionState,
} from './retention-decision.js';

const HOUR = 3_600_000;
const SLOT = new Date('2026-11-22T15:00:00Z');
const NOW = new Date(SLOT.getTime() + 5 * 60_000);

const planned: RetentionPlanned = {
  retentionId: '00000000-0000-4000-8000-000000000001',
  notificationId: '00000000-0000-4000-8000-000000000002',
  conversationId: '00000000-0000-4000-8000-000000000003',
  aiFriendId: 'friend-1',
  slot: SLOT,
  eligibility: undefined,
};
const given = (over: Partial<RetentionPlanned> = {}): PlannedRetention => ({ userId: 'u1', planned: { ...planned, ...over }, slot: SLOT });

function state(over: Partial<RetentionState> = {}): RetentionState {
  return {
    profile: { userState: 'ACTIVE', proactiveMessagesEnabled: true, muteUntil: null, suppressedTopics: [], aiFriendId: 'friend-1' },
    chattedSinceSlot: false,
    persona: undefined,
    relationshipStage: 'FRIEND',
    history: [],
    recentOpeners: [],
    ...over,
  };
}

function fact(key: string, value: string, over: Partial<memory.MemorySnippet> = {}): memory.MemorySnippet {
  return {
    memoryId: `m-${key}`,
    type: 'FACT',
    memoryKey: key,
    memoryValue: value,
    confidence: 0.8,
    topicIds: ['WORK_SCHOOL'],
    createdAt: undefined,
    lastConfirmedAt: new Date('2026-11-20T00:00:00Z'),
    score: 0,
    occurredOn: '',
    occurredPrecision: '',
    relevance: 0,
    reliability: 'reliable',
    ...over,
  } as memory.MemorySnippet;
}

function rendering(s: RetentionState, g = given()): RetentionPlan {
  const gate = gateRetention(g, s, NOW);
  if (gate.kind !== 'render') throw new Error(`expected a render, got ${gate.kind}`);
  return gate.plan;
}

describe('retention decision (§14.4 controls, §14.5 ladder)', () => {
  it.each([
    ['proactive_disabled', state({ profile: { ...state().profile!, proactiveMessagesEnabled: false } })],
    ['muted', state({ profile: { ...state().profile!, muteUntil: new Date(NOW.getTime() + HOUR) } })],
    ['not_active', state({ profile: { ...state().profile!, userState: 'DELETED' } })],
    ['user_interacted', state({ chattedSinceSlot: true })],
  ])('given controls that stopped the plan, declines it as %s with retention_policy SKIP', (reason, s) => {
    // when
    const gate = gateRetention(given(), s, NOW);

    // then
    expect(gate).toMatchObject({
      kind: 'declined',
      reason,
      event: { retentionId: planned.retentionId, conversationId: planned.conversationId, reason, routing: { retentionPolicy: 'SKIP', memoryReadPolicy: 'NONE', notes: `declined: ${reason}` } },
    });
  });

  it('given a mute that has passed, renders', () => {
    expect(gateRetention(given(), state({ profile: { ...state().profile!, muteUntil: new Date(NOW.getTime() - 1) } }), NOW).kind).toBe('render');
  });

  it('given a FRIEND and no question to follow up, asks memory for a LIGHT read after the last message', () => {
    // given
    const s = state({ history: [{ source: 'chat', assistant_text: 'Nice, enjoy it.', opener_norm: 'nice', asked_question: false, user_message_id: 'msg-9', created_at: new Date(SLOT.getTime() - 30 * HOUR) }] });

    // when
    const plan = rendering(s);

    // then
    expect(plan.memoryRequest).toEqual({ userId: 'u1', aiFriendId: 'friend-1', readPolicy: 'LIGHT', limit: 50, afterMessageId: 'msg-9', queryText: '' });
    expect(plan.stage).toBe('FRIEND');
  });

  it('given a STRANGER, asks memory nothing and renders a check-in', () => {
    // given
    const plan = rendering(state({ relationshipStage: 'STRANGER' }));

    // when
    const out = renderPlannedRetention(plan, SKIPPED_RETRIEVAL, SKIPPED_RELIABILITY);

    // then
    expect(plan.memoryRequest).toBeNull();
    expect(out).toMatchObject({ kind: 'rendered', step: 'check_in', failedGates: [] });
    expect(out.event).toMatchObject({
      messageId: planned.retentionId,
      assistantMessageId: planned.notificationId,
      conversationId: planned.conversationId,
      source: 'retention',
      retentionId: planned.retentionId,
      retentionStep: 'check_in',
      relationshipStage: 'STRANGER',
      aiFriendId: 'friend-1',
      surfacedMemoryIds: [],
      retrieval: { status: 'skipped', memories: [] },
      uncertainty: { status: 'skipped', withheldMemoryIds: [] },
    });
    expect(out.event.llm).toMatchObject({ purpose: 'retention', output: out.event.assistantText });
  });

  it('given the stage the retention service measured, uses it over the orchestrator\'s own', () => {
    expect(rendering(state({ relationshipStage: 'STRANGER' }), given({ eligibility: { stage: 'FRIEND' } as RetentionPlanned['eligibility'] })).stage).toBe('FRIEND');
  });

  it('given an unanswered question 25 h old, follows it up without asking memory', () => {
    // given
    const s = state({
      history: [{ source: 'chat', assistant_text: "That's a real update on the game. What's next for you with the game?", opener_norm: 'thats', asked_question: true, user_message_id: 'msg-1', created_at: new Date(SLOT.getTime() - 25 * HOUR) }],
    });

    // when
    const plan = rendering(s);
    const out = renderPlannedRetention(plan, SKIPPED_RETRIEVAL, SKIPPED_RELIABILITY);

    // then
    expect(plan.memoryRequest).toBeNull();
    expect(out.step).toBe('follow_up');
    expect(out.event.assistantText).toMatch(/what's next for you with the game\?$/);
  });

  it('given memories, names the allowlisted fact and never one uncertainty or the snippet doubts', () => {
    // given
    const school = fact('fact:school', 'Hanbit University', { lastConfirmedAt: new Date('2026-11-21T00:00:00Z') });
    const major = fact('fact:major', 'marine biology');
    const city = fact('fact:current_city', 'Seoul', { topicIds: [], lastConfirmedAt: new Date('2026-11-22T00:00:00Z') });
    const retrieval = { status: 'ok' as const, memories: [school, major, city], error: '' };
    const plan = rendering(state());

    // when
    const ask = nameableMemoryIds(retrieval.memories);
    const out = renderPlannedRetention(plan, retrieval, { status: 'ok', reliability: [{ memoryId: school.memoryId, reliability: 'contradicted' } as never], error: '' });

    // then: only the allowlisted facts are asked about; the contradicted one is withheld
    expect(ask).toEqual([school.memoryId, major.memoryId]);
    expect(out).toMatchObject({ step: 'context_nudge', event: { surfacedMemoryIds: [major.memoryId], uncertainty: { status: 'ok', withheldMemoryIds: [school.memoryId] } } });
    expect(out.event.assistantText).toContain('marine biology');
    expect(out.event.assistantText).not.toContain('Hanbit');
    expect(out.event.assistantText).not.toContain('Seoul');

    // and when uncertainty did not answer, memory's snippet decides
    const down = renderPlannedRetention(plan, { ...retrieval, memories: [school, { ...major, reliability: 'superseded' }, city] }, { status: 'unavailable', reliability: [], error: 'restarting' });
    expect(down).toMatchObject({ event: { surfacedMemoryIds: [school.memoryId], uncertainty: { status: 'unavailable', error: 'restarting', withheldMemoryIds: [major.memoryId] } } });
  });

  it('never repeats the opener of a recent proactive message', () => {
    // given
    const plan = rendering(state({ relationshipStage: 'STRANGER' }));
    const first = renderPlannedRetention(plan, SKIPPED_RETRIEVAL, SKIPPED_RELIABILITY);

    // when
    const again = renderPlannedRetention({ ...plan, input: { ...plan.input, recentOpeners: [first.event.openerNorm] } }, SKIPPED_RETRIEVAL, SKIPPED_RELIABILITY);

    // then
    expect(again.event.openerNorm).not.toBe(first.event.openerNorm);
  });
});
