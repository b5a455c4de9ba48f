import { normalizeUserText } from '@hearth/text';
import { REPLY_LEXICON, replySignal, updateConfidence } from './updater.js';

describe('updateConfidence (BC §5)', () => {
  it.each([
    [0.4, 'reinforced', 0.45, 0.05],
    [0.4, 'questioned', 0.35, -0.05],
    [0.4, 'contradicted', 0.3, -0.1],
    [0.5, 'reinforced', 0.55, 0.05],
  ] as const)('given %p and %s, then %p (delta %p)', (current, signal, confidence, delta) => {
    expect(updateConfidence(current, signal)).toEqual({ confidence, delta });
  });

  it.each([
    [0.8, 'reinforced', 0.8, 0],
    [0.78, 'reinforced', 0.8, 0.02],
    [0.1, 'contradicted', 0.1, 0],
    [0.15, 'contradicted', 0.1, -0.05],
    [0.12, 'questioned', 0.1, -0.02],
  ] as const)('given %p and %s at a bound, then it stays in [0.1, 0.8]: %p (delta %p)', (current, signal, confidence, delta) => {
    expect(updateConfidence(current, signal)).toEqual({ confidence, delta });
  });

  it('given a confidence outside the bounds, then it is brought into them', () => {
    expect(updateConfidence(0.95, 'reinforced')).toEqual({ confidence: 0.8, delta: -0.15 });
    expect(updateConfidence(0, 'questioned')).toEqual({ confidence: 0.1, delta: 0.1 });
  });

  it('given a confidence that is not a number, then the floor is used', () => {
    expect(updateConfidence(Number.NaN, 'reinforced')).toEqual({ confidence: 0.15, delta: 0.05 });
  });

  it('given twenty reinforcements, then it never becomes a fact; twenty contradictions never reach zero', () => {
    let up = 0.5;
    let down = 0.5;
    for (let i = 0; i < 20; i++) {
      up = updateConfidence(up, 'reinforced').confidence;
      down = updateConfidence(down, 'contradicted').confidence;
    }

    expect([up, down]).toEqual([0.8, 0.1]);
  });

  it('given reinforced then questioned, then it is back where it was', () => {
    expect(updateConfidence(updateConfidence(0.4, 'reinforced').confidence, 'questioned').confidence).toBe(0.4);
  });
});

describe('replySignal (what the user says after a challenge)', () => {
  const family = { canonicalText: 'my family disrespects me for not working with my hands', polarity: 'affirm' as const };

  it.each([
    ["It's always true.", 'reinforced'],
    ['yes they do', 'reinforced'],
    ['Every time I visit, trust me.', 'reinforced'],
    ['my family disrespects me, that is how it is with them', 'reinforced'],
    ['They keep disrespecting me for not working with my hands', 'reinforced'],
    ['Maybe not always', 'questioned'],
    ['I guess sometimes it is different', 'questioned'],
    ["I'm not sure, to be honest", 'questioned'],
    ['Hm, you might be right', 'questioned'],
    ["it's not always true", 'questioned'],
    ['Actually they were proud of me at the wedding', 'contradicted'],
    ["No, that's not true anymore", 'contradicted'],
    ['they do respect me, in their way', 'contradicted'],
    ["my family doesn't disrespect me", 'contradicted'],
  ] as const)('given %p, then %s', (reply, signal) => {
    expect(replySignal(reply, family)).toBe(signal);
  });

  it.each([
    ['small talk', 'what should I cook tonight'],
    ['a negated counter', "I don't think they were proud of me"],
    ['one shared word only', 'my hands are cold'],
    ['empty', ''],
  ])('given %s (%p), then null', (_case, reply) => {
    expect(replySignal(reply, family)).toBeNull();
  });

  it('given a deny belief (canonical text affirmative), then a negated restatement reinforces it and a plain one contradicts it', () => {
    const notCreative = { canonicalText: 'i am creative', polarity: 'deny' as const };

    expect(replySignal("I'm just not creative, I know", notCreative)).toBe('reinforced');
    expect(replySignal('I am creative sometimes, in the kitchen creative', notCreative)).toBe('contradicted');
  });

  it('given the reply lexicons, then every phrase is in normalized form', () => {
    const phrases = Object.values(REPLY_LEXICON).flat();

    expect(phrases.filter((p) => normalizeUserText(p).normNoPunct !== p)).toEqual([]);
  });
});
