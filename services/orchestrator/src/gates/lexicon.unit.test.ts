import { lexiconGate, lexiconLevel } from './lexicon.js';

describe('lexiconLevel (turn-pipeline §10 lexicon level)', () => {
  it.each([
    ['That sounds like a lovely plan.', 'clean'],
    ["I'm gonna say that was a great call.", 'slang'],
    ['Lowkey the best vibes, dude.', 'slang'],
    ['Yeah nah, that movie was mid.', 'slang'],
    ['그 영화 진짜 꿀잼이었어.', 'slang'],
    ['lol same', 'internet_shorthand'],
    ['OMG, that is amazing!', 'internet_shorthand'],
    ['tbh ngl that was wild', 'internet_shorthand'],
    ['see u later', 'internet_shorthand'],
    ['진짜 웃기다ㅋㅋㅋ', 'internet_shorthand'],
    ['힘들었겠다ㅠㅠ', 'internet_shorthand'],
    ['gonna be fine lol', 'internet_shorthand'],
  ])('reads %p as %s', (text, level) => {
    expect(lexiconLevel(text).level).toBe(level);
  });

  it.each([
    ['whole words only: "bronze" is not "bro", "lolly" is not "lol"', 'I won a bronze medal and a lolly.'],
    ['uppercase abbreviations are not shorthand', 'The U.S. and FR teams met in the RN lounge.'],
    ['a lone Korean jamo is not shorthand', '그랬구나 ㅋ 알겠어.'],
    ['"vibrant" is not "vibe"', 'What a vibrant city.'],
  ])('stays clean: %s', (_name, text) => {
    expect(lexiconLevel(text)).toEqual({ level: 'clean', slang: [], shorthand: [] });
  });

  it('names what it found', () => {
    expect(lexiconLevel('dude, idk rn')).toEqual({ level: 'internet_shorthand', slang: ['dude'], shorthand: ['idk', 'rn'] });
  });
});

describe('lexiconGate (turn-pipeline §10: within lexicon_bias)', () => {
  const CLEAN = 'That sounds like a lovely plan.';
  const SLANG = "Honestly that's kinda wild, dude.";
  const SHORTHAND = 'lol that is wild';
  it.each([
    ['clean', CLEAN, true],
    ['clean', SLANG, false],
    ['clean', SHORTHAND, false],
    ['slang', CLEAN, true],
    ['slang', SLANG, true],
    ['slang', SHORTHAND, false],
    ['internet_shorthand', CLEAN, true],
    ['internet_shorthand', SLANG, true],
    ['internet_shorthand', SHORTHAND, true],
  ])('given bias %s and %p, then pass is %p', (bias, text, pass) => {
    expect(lexiconGate(text, bias).pass).toBe(pass);
  });

  it('names the disallowed words', () => {
    expect(lexiconGate('kinda lol', 'slang').detail).toBe('level internet_shorthand above slang (lol)');
    expect(lexiconGate('kinda lol', 'clean').detail).toBe('level internet_shorthand above clean (kinda, lol)');
  });

  it('fails closed on an unknown lexicon_bias', () => {
    expect(lexiconGate('Hello there.', 'formal').pass).toBe(false);
  });
});
