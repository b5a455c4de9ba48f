import { CRISIS_SAFE_TEXT, onboardingIncompleteText, REFUSAL_TEXT } from './fixed.js';

describe('fixed replies', () => {
  it('keeps a refusal door open, firm for hard and soft for soft refusals (§6.2)', () => {
    expect(REFUSAL_TEXT.HARD_REFUSE).toMatch(/not something I can talk about/);
    expect(REFUSAL_TEXT.SOFT_REFUSE).toMatch(/rather not go there/);
  });

  it('points self-harm intent to immediate human help, with a place for the name', () => {
    expect(CRISIS_SAFE_TEXT).toContain('{name}');
    expect(CRISIS_SAFE_TEXT).toMatch(/emergency number/);
    expect(CRISIS_SAFE_TEXT).toMatch(/crisis line/);
  });

  it('says what is missing when onboarding cannot complete (§4.1.2 step 5)', () => {
    expect(onboardingIncompleteText(['persona'])).toMatch(/getting ready to meet you; send your message again/);
    const answers = onboardingIncompleteText(['age_band', 'persona']);
    expect(answers).toContain('missing age_band (PUT /v1/me/onboarding)');
    expect(answers).toMatch(/getting ready/);
    expect(onboardingIncompleteText(['age_band'])).not.toMatch(/getting ready/);
  });
});
