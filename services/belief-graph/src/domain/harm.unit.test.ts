import { isHarmfulSelfBelief } from './harm.js';

describe('isHarmfulSelfBelief', () => {
  it.each([
    ['i am good enough', 'deny', 'BELIEF_ABOUT_SELF'],
    ['i am a failure', 'affirm', 'BELIEF_ABOUT_SELF'],
    ['my family disrespects me for not working with my hands', 'affirm', 'RELATIONAL'],
    ['nobody likes me', 'affirm', 'RELATIONAL'],
    ['i am a burden to my friends', 'affirm', 'TRAIT'],
  ] as const)('"%s" (%s) is one a challenge may address', (canonicalText, polarity, beliefType) => {
    expect(isHarmfulSelfBelief({ canonicalText, polarity, beliefType })).toBe(true);
  });

  it.each([
    ['i like hiking', 'affirm', 'PREFERENCE'],
    ['i am a nurse', 'affirm', 'TRAIT'],
    ['my friends support me', 'affirm', 'RELATIONAL'],
    ['i am a failure', 'deny', 'BELIEF_ABOUT_SELF'],
    ['i like horror films', 'deny', 'PREFERENCE'],
    ['i am good enough', 'affirm', 'BELIEF_ABOUT_SELF'],
  ] as const)('"%s" (%s) is never challenged', (canonicalText, polarity, beliefType) => {
    expect(isHarmfulSelfBelief({ canonicalText, polarity, beliefType })).toBe(false);
  });
});
