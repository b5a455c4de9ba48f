import { PERSONA_LIBRARY } from '../personas/library.js';
import { styleOf } from '../personas/assign.js';
import { personaConstraints } from './constraints.js';
import { planResponse } from './plan.js';
import { buildPrompt } from './prompt.js';

const PT01 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT01')!;

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
