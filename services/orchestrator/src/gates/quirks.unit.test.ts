import { detectQuirks, quirksGate } from './quirks.js';

describe('detectQuirks (turn-pipeline §10 punctuation quirks)', () => {
  it.each([
    ['That sounds nice.', []],
    ['That sounds nice!', []],
    ['See you soon~', ['~']],
    ['See you soon～', ['~']],
    ['It takes ~5 minutes.', []],
    ['Well... maybe.', ['...']],
    ['Well… maybe.', ['...']],
    ['Wow!! Amazing.', ['!!', '!']],
    ['Wow! Amazing! Great.', ['!']],
    ['That was great (honestly, the best part).', ['()']],
    ['Pick option (2) or (3).', []],
    ['Aww :) That is sweet.', []],
    ['that sounds really nice', ['lowercase']],
    ['ok cool', []],
    ['오늘 어땠어? 나는 좋았어.', []],
    ['omg wait!! this is so good~', ['~', '!!', '!', 'lowercase']],
  ])('finds in %p: %j', (text, expected) => {
    expect(detectQuirks(text)).toEqual(expected);
  });
});

describe('quirksGate (turn-pipeline §10: quirks limited to the allowed ones)', () => {
  it.each([
    [[], 'That sounds nice.', true],
    [[], 'See you soon~', false],
    [['~'], 'See you soon~', true],
    [['~'], 'See you soon...', false],
    [['...'], 'Hmm… maybe.', true],
    [['!'], 'Yes! So good! Love it.', true],
    [['!'], 'Yes!! So good.', false],
    [['!!'], 'Yes!! So good! Love it.', true],
    [['!!', 'lowercase'], 'yes!! so good', true],
    [['!'], 'yes! so good', false],
    [['lowercase'], 'yes! so good', true],
    [['()'], 'I read it (twice, actually).', true],
    [[], 'I read it (twice, actually).', false],
  ])('given allowed %j and %p, then pass is %p', (allowed, text, pass) => {
    expect(quirksGate(text, allowed).pass).toBe(pass);
  });

  it('names the disallowed quirks', () => {
    expect(quirksGate('wow!! nice~', ['~'])).toMatchObject({ pass: false, measured: { detected: '~,!!,!', disallowed: '!!,!' } });
  });
});
