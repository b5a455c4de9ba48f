import { GATES, RECIPE, SURFACING } from '../config.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { styleOf } from '../personas/assign.js';
import { personaConstraints, type ConstraintInput } from './constraints.js';
import { chooseMemories, contradictedBy, isBareGreeting, planResponse, type PlanInput, type PlannedMemory } from './plan.js';
import { vectorTriggers } from './triggers.js';

// PT01: taboo_soft_bounds POLITICS and RELIGION; medium, no emoji, clean, low follow-up rate.
const PT01 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;

function constraints(over: Partial<ConstraintInput> = {}) {
  return personaConstraints({
    style: styleOf(PT01),
    template: PT01,
    stage: 'STRANGER',
    suppressedTopics: [],
    initiatedNow: [],
    initiatedRecent: [],
    previousAskedQuestion: false,
    ...over,
  });
}

function plan(over: Partial<PlanInput> = {}) {
  const c = over.constraints ?? constraints();
  return planResponse({
    pipeline: 'FRIEND_CHAT',
    source: 'chat',
    isQuestion: false,
    emotion: { valence: 0, intensity: 0, tags: [] },
    constraints: c,
    initiatedNow: [],
    initiatedRecent: [],
    suppressedTopics: [],
    userTokens: [],
    memories: [],
    recallAsked: false,
    directness: 'soft',
    ...over,
  });
}

describe('PersonaConstraintEngine (§8.2)', () => {
  it('turns the persona into the §10 bands', () => {
    expect(constraints()).toMatchObject({
      emojiFreq: 'none',
      emojiMin: 0,
      emojiMax: 0,
      msgLengthPref: 'medium',
      sentencesMin: 2,
      sentencesMax: 5,
      avgWordsMin: 10,
      avgWordsMax: 22,
      lexiconBias: 'clean',
      allowedQuirks: [],
    });
  });

  it('caps intimacy by stage', () => {
    expect(constraints({ stage: 'STRANGER' })).toMatchObject({ warmAllowed: false, intimateAllowed: false });
    expect(constraints({ stage: 'FRIEND' })).toMatchObject({ warmAllowed: true, intimateAllowed: false });
    expect(constraints({ stage: 'CLOSE_FRIEND' })).toMatchObject({ warmAllowed: true, intimateAllowed: true });
  });

  it('caps follow-up questions at every other reply for a low rate', () => {
    expect(constraints({ previousAskedQuestion: false }).maxFollowupQuestions).toBe(1);
    expect(constraints({ previousAskedQuestion: true }).maxFollowupQuestions).toBe(0);
  });
});

describe("the planner's taboo guard (§2.8, §8.1)", () => {
  it('guards the template taboo_soft_bounds and the suppressed topics while the user has not raised them', () => {
    const p = plan({ constraints: constraints({ suppressedTopics: ['FAMILY'] }), suppressedTopics: ['FAMILY'] });
    expect(p.tabooGuard).toEqual(['FAMILY', 'POLITICS', 'RELIGION']);
    expect(p.respondOnlyTopics).toEqual([]);
  });

  it('lifts a soft bound the user raised in this or the previous 2 messages, not earlier', () => {
    expect(constraints({ initiatedNow: [], initiatedRecent: ['POLITICS'] }).tabooTopics).toEqual(['RELIGION']);
    expect(constraints({ initiatedNow: [], initiatedRecent: [] }).tabooTopics).toEqual(['POLITICS', 'RELIGION']);
  });

  it('lifts a suppressed topic only in the message that raises it, and then answers only what was asked, without a follow-up', () => {
    // Raised two messages ago: still guarded.
    expect(constraints({ suppressedTopics: ['FAMILY'], initiatedRecent: ['FAMILY'] }).tabooTopics).toContain('FAMILY');
    const c = constraints({ suppressedTopics: ['FAMILY'], initiatedNow: ['FAMILY'], initiatedRecent: ['FAMILY'] });
    expect(c.tabooTopics).not.toContain('FAMILY');
    const p = plan({ constraints: c, suppressedTopics: ['FAMILY'], initiatedNow: ['FAMILY'], initiatedRecent: ['FAMILY'] });
    expect(p.respondOnlyTopics).toEqual(['FAMILY']);
    expect(p.followupQuestion).toBe('');
    expect(p.outline.map((o) => o.kind)).toContain('respond_only');
    // The reply does not talk about the topic beyond the answer: the outline names no family.
    expect(p.outline.find((o) => o.kind === 'react')!.detail).toBe('react to what you shared');
  });

  it('never picks a taboo topic as what the reply is about', () => {
    const p = plan({ initiatedNow: ['POLITICS'], initiatedRecent: ['POLITICS'], constraints: constraints() });
    // POLITICS stays taboo here because the constraints were built without it being initiated.
    expect(p.outline.find((o) => o.kind === 'react')!.detail).not.toMatch(/politic/i);
  });
});

describe('the plan', () => {
  it('supports, without a question when the rate cap says no', () => {
    const p = plan({ pipeline: 'EMOTIONAL_SUPPORT', emotion: { valence: -0.8, intensity: 0.8, tags: ['strong_negative'] } });
    expect(p.emotionalTone).toBe('supportive');
    expect(p.outline.map((o) => o.kind)).toEqual(['validate', 'presence']);
    expect(p.followupQuestion).toBe('ask gently what would help right now');
    const capped = plan({ pipeline: 'EMOTIONAL_SUPPORT', constraints: constraints({ previousAskedQuestion: true }) });
    expect(capped.followupQuestion).toBe('');
  });

  it('keeps the tone inside the persona: a humourless persona is never playful', () => {
    expect(plan({ emotion: { valence: 0.8, intensity: 0.8, tags: ['strong_positive'] } }).emotionalTone).toBe('calm');
    const playful = PERSONA_LIBRARY.find((t) => t.humor_mode === 'frequent_jokes')!;
    const c = personaConstraints({ style: styleOf(playful), template: playful, stage: 'STRANGER', suppressedTopics: [], initiatedNow: [], initiatedRecent: [], previousAskedQuestion: false });
    expect(plan({ constraints: c, emotion: { valence: 0.8, intensity: 0.8, tags: [] } }).emotionalTone).toBe('playful');
  });

  it('answers a bare greeting with a greeting and a how-are-you, no acknowledgement', () => {
    const p = plan({ userTokens: ['hey', 'there'] });
    expect(p).toMatchObject({ ackStyle: 'none', followupQuestion: 'ask how they are doing' });
    expect(p.outline.map((o) => o.kind)).toEqual(['greet']);
    // A greeting with more in it is an ordinary message; so is a greeting in another pipeline or a retention turn.
    expect(plan({ userTokens: ['hi', 'work', 'was', 'long'] }).outline.map((o) => o.kind)).toEqual(['react', 'share']);
    expect(plan({ userTokens: ['hi'], pipeline: 'EMOTIONAL_SUPPORT' }).outline.map((o) => o.kind)).toEqual(['validate', 'presence']);
    expect(plan({ userTokens: ['hi'], source: 'retention' }).outline.map((o) => o.kind)).toEqual(['react', 'share']);
  });

  it('tells a bare greeting from a message that starts with one', () => {
    for (const g of [['hi'], ['hey', 'there'], ['good', 'morning'], ['hello', 'again'], ['hiya']]) expect(isBareGreeting(g)).toBe(true);
    for (const m of [[], ['good'], ['there'], ['hi', 'i', 'need', 'help'], ['hey', 'how', 'are', 'you']]) expect(isBareGreeting(m)).toBe(false);
  });
});

describe('choosing memories (§10.1, §13, §14.6; issue 15: only what the message is about)', () => {
  const m = (id: string, relevance: number, over: Partial<PlannedMemory> = {}): PlannedMemory => ({
    memoryId: id,
    type: 'FACT',
    key: `fact:${id}`,
    value: id,
    confidence: 0.7,
    topicIds: [],
    relevance,
    occurredOn: '',
    occurredPrecision: '',
    sensitive: false,
    ...over,
  });

  it('surfaces a relevant memory and not an unrelated one ("I had pasta for lunch")', () => {
    // given: what memory answered for the message, with its relevance to it
    const pasta = m('pasta', 0.59, { type: 'PREFERENCE', key: 'pref:food:pasta', value: 'like|pasta' });
    const dancing = m('dancing', 0, { type: 'PREFERENCE', key: 'pref:hobby:dancing', value: 'like|dancing' });

    // when
    const chosen = chooseMemories({ memories: [dancing, pasta], recallAsked: false, source: 'chat' });

    // then
    expect(chosen.map((x) => x.memoryId)).toEqual(['pasta']);
  });

  it('surfaces nothing just because it exists: below the threshold is not about the message', () => {
    expect(chooseMemories({ memories: [m('a', 0), m('b', SURFACING.relevanceThreshold - 0.01)], recallAsked: false, source: 'chat' })).toEqual([]);
    expect(chooseMemories({ memories: [m('a', SURFACING.relevanceThreshold)], recallAsked: false, source: 'chat' }).map((x) => x.memoryId)).toEqual(['a']);
  });

  it('takes the most relevant first, at most 2, never a sensitive one', () => {
    // given
    const memories = [m('low', 0.45), m('asthma', 0.95, { sensitive: true }), m('high', 0.9), m('mid', 0.6)];

    // when
    const chosen = chooseMemories({ memories, recallAsked: false, source: 'chat' });

    // then
    expect(chosen.map((x) => x.memoryId)).toEqual(['high', 'mid']);
    expect(chosen).toHaveLength(GATES.personalFacts.chat);
  });

  it('keeps the retrieved order between equally relevant memories', () => {
    expect(chooseMemories({ memories: [m('first', 0.5), m('second', 0.5), m('third', 0.5)], recallAsked: false, source: 'chat' }).map((x) => x.memoryId)).toEqual(['first', 'second']);
  });

  it('on a recall question, surfaces from the lower recall threshold up, best first, up to topK', () => {
    // given: relevance between the two thresholds, and an unrelated memory
    const between = (SURFACING.recallThreshold + SURFACING.relevanceThreshold) / 2;
    const memories = [m('unrelated', 0), m('b', between), m('a', 0.8), m('c', between), m('d', between), m('e', between)];

    // when
    const recalled = chooseMemories({ memories, recallAsked: true, source: 'chat' });
    const ordinary = chooseMemories({ memories, recallAsked: false, source: 'chat' });

    // then
    expect(recalled.map((x) => x.memoryId)).toEqual(['a', 'b', 'c', 'd']);
    expect(recalled).toHaveLength(RECIPE.vectorTopK);
    expect(ordinary.map((x) => x.memoryId)).toEqual(['a']);
  });

  it('on a recall question about nothing it holds, surfaces nothing', () => {
    expect(chooseMemories({ memories: [m('a', 0), m('b', 0)], recallAsked: true, source: 'chat' })).toEqual([]);
  });

  it('uses at most 1 in retention', () => {
    expect(chooseMemories({ memories: [m('a', 0.9), m('b', 0.8)], recallAsked: false, source: 'retention' })).toHaveLength(1);
  });

  it('puts only the chosen memories in the plan\'s callbacks', () => {
    // given
    const pasta = m('pasta', 0.59, { type: 'PREFERENCE', key: 'pref:food:pasta', value: 'like|pasta' });
    const dancing = m('dancing', 0, { type: 'PREFERENCE', key: 'pref:hobby:dancing', value: 'like|dancing' });

    // when
    const p = plan({ userTokens: ['i', 'had', 'pasta', 'for', 'lunch'], memories: [dancing, pasta] });

    // then
    expect(p.memoryIds).toEqual(['pasta']);
    expect(p.outline.filter((o) => o.kind === 'callback').map((o) => o.memoryId)).toEqual(['pasta']);
  });
});

describe('vector retrieval triggers (§7.1 step 3)', () => {
  const base = { normNoPunct: 'hello', isQuestion: false, recallAsked: false, topicsNow: [], topicsBefore: [], hasRecentTurns: false };

  it('fires on each of the three triggers and on nothing else', () => {
    expect(vectorTriggers(base)).toEqual([]);
    expect(vectorTriggers({ ...base, recallAsked: true })).toEqual(['recall_reference']);
    expect(vectorTriggers({ ...base, normNoPunct: 'so how did it go', isQuestion: true })).toEqual(['followup_needs_context']);
    expect(vectorTriggers({ ...base, normNoPunct: 'so how did it go', isQuestion: false })).toEqual([]);
    expect(vectorTriggers({ ...base, topicsNow: ['TRAVEL'], topicsBefore: ['WORK_SCHOOL'], hasRecentTurns: true })).toEqual(['low_topic_continuity']);
    expect(vectorTriggers({ ...base, topicsNow: ['TRAVEL'], topicsBefore: ['TRAVEL'], hasRecentTurns: true })).toEqual([]);
    expect(vectorTriggers({ ...base, topicsNow: ['TRAVEL'], topicsBefore: [], hasRecentTurns: false })).toEqual([]);
  });
});

describe('a reply never asserts a memory the message it answers changes or denies', () => {
  const tokens = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}' ]+/gu, ' ').split(/\s+/).filter(Boolean);
  const like = { type: 'PREFERENCE', value: 'like|sushi' };
  const city = { type: 'FACT', value: 'seoul' };
  it.each([
    ['I hate sushi', like, true],
    ["Honestly I can't stand sushi", like, true],
    ['I had sushi for lunch, so good', like, false],
    ['I love sushi now', { type: 'PREFERENCE', value: 'dislike|sushi' }, true],
    ['Actually I live in Busan, not Seoul', city, true],
    ['I moved out of Seoul last month', city, true],
    ['Seoul was lovely in the rain today', city, false],
    ['I went to the sushi festival yesterday', { type: 'RELATIONSHIP_EVENT', value: 'i went to a sushi class' }, false],
  ] as const)('%s', (message, memory, contradicted) => {
    expect(contradictedBy(tokens(message), memory)).toBe(contradicted);
  });

  it('leaves such a memory out of the plan even when it is the most relevant', () => {
    const memories = [{ memoryId: 'm1', type: 'PREFERENCE', key: 'pref:food:sushi', value: 'like|sushi', confidence: 0.75, topicIds: [], relevance: 1, occurredOn: '', occurredPrecision: '', sensitive: false }];
    expect(chooseMemories({ memories, recallAsked: false, source: 'chat', userTokens: tokens('I hate sushi') })).toEqual([]);
    expect(chooseMemories({ memories, recallAsked: false, source: 'chat', userTokens: tokens('Sushi with my sister tonight') })).toHaveLength(1);
  });
});

describe('a friend does not repeat itself', () => {
  const memory = { memoryId: 'm1', type: 'RELATIONSHIP_EVENT', key: 'event:other:2023_05:pottery', value: 'i went to a pottery class', confidence: 0.6, topicIds: [], relevance: 0.9, occurredOn: '', occurredPrecision: '', sensitive: false };
  it('does not say back in an ordinary turn what a recent reply already said, but may when asked to recall', () => {
    expect(chooseMemories({ memories: [memory], recallAsked: false, source: 'chat', recentlySurfaced: ['m1'] })).toEqual([]);
    expect(chooseMemories({ memories: [memory], recallAsked: false, source: 'chat', recentlySurfaced: ['m9'] })).toHaveLength(1);
    expect(chooseMemories({ memories: [memory], recallAsked: true, source: 'chat', recentlySurfaced: ['m1'] })).toHaveLength(1);
  });
});
