import { BELIEF_CONFIG } from './config.js';
import { capsRatio, exclaimDensity, hasProfanity, inferMode, sourceContextOf } from './source-context.js';

const w = BELIEF_CONFIG.sourceContext.modeWeights;
const p = BELIEF_CONFIG.sourceContext;

describe('inferMode (§4.1)', () => {
  it.each([
    ['Dear diary, today I felt calm about work.', 'journaling'],
    ['*waves a wooden sword* I am the knight of the lake', 'roleplay'],
    ["Let's pretend I'm a pirate captain", 'roleplay'],
    ['I AM SO DONE WITH EVERYTHING TODAY', 'heated'],
    ['this is such crap, I hate it', 'heated'],
    ['stop it!! now', 'heated'],
    ["I've been thinking about myself and I tend to hide", 'introspection'],
    ['I realize I avoid hard conversations', 'introspection'],
    ["I've noticed I get quiet in groups", 'introspection'],
    ['I like tea with honey', 'normal_chat'],
  ])('%j → %s', (text, mode) => {
    expect(inferMode(text)).toBe(mode);
  });
});

describe('sourceContextOf (§4.1)', () => {
  it('uses the given mode over the inferred one and builds conversation:mode', () => {
    const ctx = sourceContextOf({ text: 'I like tea', conversationId: 'c1', mode: 'journaling' });
    expect(ctx).toEqual({ mode: 'journaling', sourceWeight: w.journaling, contextId: 'c1:journaling' });
  });

  it('gives plain chat its base weight', () => {
    expect(sourceContextOf({ text: 'I like tea.', conversationId: 'c2' })).toEqual({ mode: 'normal_chat', sourceWeight: w.normal_chat, contextId: 'c2:normal_chat' });
  });

  it('takes the caps, profanity and exclamation penalties together', () => {
    const ctx = sourceContextOf({ text: 'I HATE THIS DAMN TRAFFIC!', conversationId: 'c3' });
    expect(ctx.mode).toBe('heated');
    expect(ctx.sourceWeight).toBeCloseTo(w.heated - p.capsPenalty - p.profanityPenalty - p.exclaimPenalty, 6);
  });

  it('takes the exclamation penalty alone in a given mode', () => {
    const ctx = sourceContextOf({ text: 'I love hiking!', conversationId: 'c4', mode: 'normal_chat' });
    expect(ctx.sourceWeight).toBeCloseTo(w.normal_chat - p.exclaimPenalty, 6);
  });

  it('clamps the weight into [0, 1]', () => {
    const ctx = sourceContextOf({ text: 'WHAT THE FUCK IS THIS SHIT!!!', conversationId: 'c5', mode: 'roleplay' });
    expect(ctx.sourceWeight).toBeGreaterThanOrEqual(0);
    expect(ctx.sourceWeight).toBeCloseTo(Math.max(0, w.roleplay - p.capsPenalty - p.profanityPenalty - p.exclaimPenalty), 6);
  });
});

describe('penalty signals', () => {
  it('does not count a lone capital I or a short text as shouting', () => {
    expect(capsRatio('I am OK')).toBe(0);
    expect(capsRatio('I think I am fine with it')).toBe(0);
    expect(capsRatio('THIS IS TOO MUCH FOR ME')).toBe(1);
  });
  it('finds profanity by stem, not inside other words', () => {
    expect(hasProfanity('fucking traffic')).toBe(true);
    expect(hasProfanity('I passed the class')).toBe(false);
  });
  it('measures exclamations among sentence-ending marks', () => {
    expect(exclaimDensity('One. Two. Three!')).toBeCloseTo(1 / 3, 6);
    expect(exclaimDensity('no marks')).toBe(0);
  });
});
