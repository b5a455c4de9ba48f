import { PERSONA_LIBRARY } from '../personas/library.js';
import { styleOf } from '../personas/assign.js';
import { personaConstraints } from './constraints.js';
import { planResponse } from './plan.js';
import { buildPrompt } from './prompt.js';

const PT01 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;

function planOf(previousAskedQuestion: boolean) {
  const constraints = personaConstraints({ style: styleOf(PT01), template: PT01, stage: 'FRIEND', suppressedTopics: [], initiatedNow: [], initiatedRecent: [], previousAskedQuestion });
  return planResponse({
    pipeline: 'FRIEND_CHAT',
    source: 'chat',
    isQuestion: false,
    emotion: { valence: 0, intensity: 0, tags: [] },
    constraints,
    initiatedNow: [],
    initiatedRecent: [],
    suppressedTopics: [],
    userTokens: ['long', 'week'],
    memories: [],
    recallAsked: false,
    directness: 'soft',
  });
}

const BASE = {
  persona: { coreArchetype: 'Calm Listener', humorMode: 'none', directness: 'soft', hintTokens: [], emotionalExpression: 'restrained' },
  preferredName: 'Mina',
  pipeline: 'FRIEND_CHAT',
  memories: [],
  recent: [],
  userText: 'it has been a long week',
};

describe('the §9 prompt', () => {
  it('quotes a proactive message of the conversation as an assistant turn, with no empty user turn before it', () => {
    // given: a chat exchange, then a retention message (user_text ''), then the user's answer
    const constraints = personaConstraints({ style: styleOf(PT01), template: PT01, stage: 'FRIEND', suppressedTopics: [], initiatedNow: [], initiatedRecent: [], previousAskedQuestion: true });
    const plan = planResponse({
      pipeline: 'FRIEND_CHAT',
      source: 'chat',
      isQuestion: false,
      emotion: { valence: 0, intensity: 0, tags: [] },
      constraints,
      initiatedNow: [],
      initiatedRecent: [],
      suppressedTopics: [],
      userTokens: [],
      memories: [],
      recallAsked: false,
      directness: 'soft',
    });

    // when
    const messages = buildPrompt({
      plan,
      persona: { coreArchetype: 'Calm Listener', humorMode: 'none', directness: 'soft', hintTokens: [], emotionalExpression: 'restrained' },
      preferredName: 'Mina',
      pipeline: 'FRIEND_CHAT',
      memories: [],
      recent: [
        { user: 'I started a new game', assistant: "Nice. What's next for you with the game?" },
        { user: '', assistant: "No rush, but I'm still curious: what's next for you with the game?" },
      ],
      userText: 'ranked mode this weekend',
    });

    // then
    expect(messages.slice(1).map((m) => [m.role, m.content])).toEqual([
      ['user', 'I started a new game'],
      ['assistant', "Nice. What's next for you with the game?"],
      ['assistant', "No rush, but I'm still curious: what's next for you with the game?"],
      ['user', 'ranked mode this weekend'],
    ]);
  });
});

describe('the prompt and the belief graph (issue 16)', () => {
  it('gives the core companion beliefs as constraints, a denied one as such', () => {
    // when
    const [system] = buildPrompt({
      ...BASE,
      plan: planOf(false),
      coreBeliefs: [
        { text: 'i like quiet mornings', polarity: 'affirm' },
        { text: 'i like loud parties', polarity: 'deny' },
      ],
    });

    // then
    expect(system!.content).toContain('Stay consistent with what you have said about yourself:\n- "i like quiet mornings"\n- not "i like loud parties"\nNever say the opposite of one of these');
  });

  it('offers a challenge as optional exploration, the one question when the plan asks one', () => {
    const prompt = 'Can I ask something, just to understand better? Does it feel true every single time?';
    const plan = planOf(false);
    expect(plan.followupQuestion).not.toBe('');

    const [system] = buildPrompt({ ...BASE, plan, challenge: prompt });

    expect(system!.content).toContain(`**OPTIONAL BELIEF EXPLORATION**: ${prompt}\nUse it only if the conversation naturally allows it`);
    expect(system!.content).toContain('If you use it, it is your one question, instead of the one above.');
    // after the plan, before the answer format
    expect(system!.content.indexOf('OPTIONAL BELIEF EXPLORATION')).toBeGreaterThan(system!.content.indexOf('End with exactly one question'));
    expect(system!.content.trimEnd().endsWith(`Answer with only this JSON object: {"text": string, "surfaced_memory_ids": string[]}.`)).toBe(true);
  });

  it('says nothing of beliefs or exploration when the graph gave none', () => {
    const [system] = buildPrompt({ ...BASE, plan: planOf(false), coreBeliefs: [], challenge: '' });
    expect(system!.content).not.toMatch(/Stay consistent|OPTIONAL BELIEF EXPLORATION/);
    expect(buildPrompt({ ...BASE, plan: planOf(false) })).toEqual(buildPrompt({ ...BASE, plan: planOf(false), coreBeliefs: [], challenge: '' }));
  });
});

describe('the prompt and the uncertainty engine (issue 17)', () => {
  const contradiction = { reason: 'contradiction', held: 'you loved sushi', stated: "you're not into sushi", question: 'I thought you loved sushi — what changed?' };

  it('tells the model the message contradicts what it remembered, not to assert either version, and to ask gently', () => {
    const plan = planOf(false);
    const [system] = buildPrompt({ ...BASE, plan, uncertainty: contradiction });
    expect(system!.content).toContain("**UNCERTAIN MEMORY**: The user's message contradicts what you remembered: you loved sushi. Now it sounds like you're not into sushi.");
    expect(system!.content).toContain('Do not assert either version as a fact. Ask about it gently, once, in your own words, woven into your reply, for example: "I thought you loved sushi — what changed?"');
    expect(system!.content).toContain('It is your one question, instead of the one above.');
    expect(system!.content.indexOf('UNCERTAIN MEMORY')).toBeGreaterThan(system!.content.indexOf('End with exactly one question'));
  });

  it('names both notes of an older uncertainty the conversation touches', () => {
    const [system] = buildPrompt({ ...BASE, plan: planOf(true), uncertainty: { reason: 'surfacing', held: 'you live in Seoul', stated: 'you live in Busan', question: 'Quick check, so I get it right: you live in Seoul, or you live in Busan?' } });
    expect(system!.content).toContain('**UNCERTAIN MEMORY**: Two things you remember about the user do not agree: you live in Seoul, and you live in Busan.');
    expect(system!.content).toContain('It is the only question in your reply.');
  });

  it('says nothing of it when there is none', () => {
    expect(buildPrompt({ ...BASE, plan: planOf(false) })[0]!.content).not.toContain('UNCERTAIN MEMORY');
  });
});
