import { onboardingIncompleteText, REFUSAL_TEXT, renderOfflineReply } from './offline.js';

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

  it('answers a refusal with the refusal text for its safety policy, whatever the pipeline', () => {
    for (const policy of ['HARD_REFUSE', 'SOFT_REFUSE'] as const) {
      const text = renderOfflineReply({ pipeline: 'REFUSAL', userText: 'x', preferredName: 'A', style, seed: 3, safetyPolicy: policy });
      expect(text).toBe(REFUSAL_TEXT[policy]);
    }
  });

  it('answers self-harm intent with the crisis-safe text: by name, pointing to immediate human help', () => {
    const text = renderOfflineReply({ pipeline: 'EMOTIONAL_SUPPORT', userText: 'x', preferredName: 'Mina', style, seed: 3, safetyPolicy: 'ALLOW', crisisSafe: true });
    expect(text).toContain('Mina');
    expect(text).toMatch(/emergency number/);
    expect(text).toMatch(/crisis line/);
  });

  it('says what is missing when onboarding cannot complete (§4.1.2 step 5)', () => {
    expect(onboardingIncompleteText(['persona'])).toMatch(/getting ready to meet you; send your message again/);
    const answers = onboardingIncompleteText(['age_band', 'persona']);
    expect(answers).toContain('missing age_band (PUT /v1/me/onboarding)');
    expect(answers).toMatch(/getting ready/);
    expect(onboardingIncompleteText(['age_band'])).not.toMatch(/getting ready/);
  });
});
