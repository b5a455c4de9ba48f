import { renderOfflineReply } from './offline.js';

const style = {
  msg_length_pref: 'short',
  emoji_freq: 'none',
  humor_mode: 'none',
  directness_level: 'soft' as const,
  followup_question_rate: 'low' as const,
  lexicon_bias: 'clean',
  punctuation_quirks: [],
};

describe('offline template responder', () => {
  it('is a pure function of its inputs', () => {
    const input = { pipeline: 'FRIEND_CHAT', userText: 'hi', preferredName: 'Mina', style, seed: 42 };
    expect(renderOfflineReply(input)).toBe(renderOfflineReply({ ...input }));
  });

  it('greets an onboarding user by name', () => {
    const text = renderOfflineReply({ pipeline: 'ONBOARDING_CHAT', userText: 'hello', preferredName: 'Mina', style, seed: 1 });
    expect(text).toContain('Mina');
  });

  it('uses no emoji for a persona without emoji and some for a frequent one', () => {
    const none = renderOfflineReply({ pipeline: 'FRIEND_CHAT', userText: 'x', preferredName: 'A', style, seed: 7 });
    expect(none).not.toMatch(/\p{Extended_Pictographic}/u);
    const lots = renderOfflineReply({ pipeline: 'FRIEND_CHAT', userText: 'x', preferredName: 'A', style: { ...style, emoji_freq: 'frequent' }, seed: 7 });
    expect(lots).toMatch(/\p{Extended_Pictographic}/u);
  });
});
