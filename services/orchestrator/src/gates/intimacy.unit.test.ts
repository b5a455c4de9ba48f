import { STAGES, type Stage } from '../config.js';
import { INTIMACY_CAP, intimacyGate, intimacyReading } from './intimacy.js';

const NEUTRAL = 'That sounds like a good plan for the weekend.';
const WARM = 'I missed you! Proud of you for finishing it.';
const WARM_KO = '네가 자랑스러워. 안아줄게.';
const INTIMATE = 'Night, sweetheart. Love you.';
const INTIMATE_KO = '자기야, 사랑해.';
const DEPENDENCY = "Honestly, I'm the only one who understands you. You don't need anyone else.";
const DEPENDENCY_KO = '너는 나만 있으면 돼.';

describe('INTIMACY_CAP (turn-pipeline §10 item 3)', () => {
  it('covers every stage, warmer as the stage rises', () => {
    expect(Object.keys(INTIMACY_CAP)).toEqual([...STAGES]);
    expect(INTIMACY_CAP).toEqual({
      STRANGER: { warm: false, intimate: false },
      ACQUAINTANCE: { warm: true, intimate: false },
      FRIEND: { warm: true, intimate: false },
      CLOSE_FRIEND: { warm: true, intimate: true },
    });
  });
});

describe('intimacyGate (turn-pipeline §10 item 3)', () => {
  it.each<[Stage, string, boolean]>([
    ['STRANGER', NEUTRAL, true],
    ['STRANGER', WARM, false],
    ['STRANGER', WARM_KO, false],
    ['STRANGER', INTIMATE, false],
    ['ACQUAINTANCE', WARM, true],
    ['ACQUAINTANCE', INTIMATE, false],
    ['FRIEND', WARM_KO, true],
    ['FRIEND', INTIMATE, false],
    ['FRIEND', INTIMATE_KO, false],
    ['CLOSE_FRIEND', WARM, true],
    ['CLOSE_FRIEND', INTIMATE, true],
    ['CLOSE_FRIEND', INTIMATE_KO, true],
    ['CLOSE_FRIEND', DEPENDENCY, false],
    ['CLOSE_FRIEND', DEPENDENCY_KO, false],
    ['FRIEND', DEPENDENCY, false],
  ])('given %s and %p, then pass is %p', (stage, text, pass) => {
    expect(intimacyGate(text, stage).pass).toBe(pass);
  });

  it('says which language broke the cap', () => {
    expect(intimacyGate(INTIMATE, 'FRIEND').detail).toBe('intimate [love you, sweetheart] above the FRIEND cap');
  });
});

describe('intimacyReading: everyday words are not endearments', () => {
  it.each([
    ["I'd love you to meet her sometime.", 'love you to'],
    ['Add some honey to the tea.', 'honey as food'],
    ['Try honey.', 'honey as food at a sentence end'],
    ['엄마를 사랑해서 그런 거야.', '사랑해서 ("because ... love") is not 사랑해'],
    ['I hear you, and I care about your project.', '"your" is not "you"'],
  ])('%p (%s)', (text) => {
    expect(intimacyReading(text)).toEqual({ warm: [], intimate: [], dependency: [] });
  });

  it.each(['Thanks, honey!', 'Oh honey, that sounds rough.', 'Honey, you did great.'])('reads %p as addressing someone', (text) => {
    expect(intimacyReading(text).intimate).toEqual(['honey']);
  });

  it('reads "love you" but not "love your"', () => {
    expect(intimacyReading('love you lots').intimate).toEqual(['love you']);
    expect(intimacyReading('love your style').intimate).toEqual([]);
  });
});
