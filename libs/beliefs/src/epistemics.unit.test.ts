import { BELIEF_CONFIG } from './config.js';
import { epistemicsOf } from './epistemics.js';

const c = BELIEF_CONFIG.epistemics.confidence;
const d = BELIEF_CONFIG.epistemics.degree;

describe('epistemicsOf (§4.7)', () => {
  it('sets deny on a negation cue', () => {
    const r = epistemicsOf("I'm not patient");
    expect(r.detectedPolarity).toBe('deny');
    expect(r.signals).toContain('negation:not');
  });

  it('treats "never" as negation AND habitual', () => {
    const r = epistemicsOf('I never finish my projects');
    expect(r.detectedPolarity).toBe('deny');
    expect(r.frame.temporalScope).toBe('habitual');
    expect(r.signals).toEqual(expect.arrayContaining(['negation:never', 'temporal:habitual:never']));
  });

  it.each([
    ['Maybe I am lazy', 'possible'],
    ['I think I am lazy', 'likely'],
    ["I'm not sure I am lazy", 'unsure'],
    ['I am lazy', 'certain'],
  ])('modality of %j is %s', (text, modality) => {
    expect(epistemicsOf(text).frame.modality).toBe(modality);
  });

  it('does not read the "not" of "not sure" as a negation', () => {
    expect(epistemicsOf("I'm not sure I am lazy").detectedPolarity).toBe('affirm');
  });

  it('lets the least certain modality cap certainty', () => {
    expect(epistemicsOf('I think maybe I am lazy').frame.modality).toBe('possible');
  });

  it.each([
    ['I used to be shy', 'past'],
    ['Lately I am becoming calmer', 'transitional'],
    ['I always overthink', 'habitual'],
    ['I usually cook at home', 'habitual'],
    ['I still love painting', 'ongoing'],
    ['I am sad right now', 'state'],
    ['I am a teacher', 'unknown'],
  ])('temporal scope of %j is %s', (text, scope) => {
    expect(epistemicsOf(text).frame.temporalScope).toBe(scope);
  });

  it('resolves competing temporal cues by specificity first', () => {
    // past (6) beats state (2) whatever their order
    expect(epistemicsOf('Right now I no longer care').frame.temporalScope).toBe('past');
    expect(epistemicsOf('I used to worry but today I am calm').frame.temporalScope).toBe('past');
  });

  it('resolves equal specificity by the rightmost cue', () => {
    const r = epistemicsOf('I always, usually, tend to say yes');
    expect(r.frame.temporalScope).toBe('habitual');
    expect(r.confidence).toBe(c.base);
    const s = epistemicsOf('Today, at the moment, I am calm');
    expect(s.frame.temporalScope).toBe('state');
  });

  it('raises the degree for intensifiers and lowers it for softeners', () => {
    expect(epistemicsOf('I am patient').frame.degree).toBeCloseTo(d.base, 6);
    expect(epistemicsOf('I am really very patient').frame.degree).toBeCloseTo(d.base + 2 * d.up, 6);
    expect(epistemicsOf('I am a bit patient').frame.degree).toBeCloseTo(d.base - d.down, 6);
  });

  it('extracts the condition', () => {
    expect(epistemicsOf('I get quiet when I am tired').frame.conditional).toBe('when i am tired');
    expect(epistemicsOf('If I fail I am worthless').frame.conditional).toBe('if i fail');
    expect(epistemicsOf('I am calm').frame.conditional).toBe('');
  });

  it('is confident on clean cues', () => {
    const r = epistemicsOf('I always overthink', 'META_BELIEF');
    expect(r.confidence).toBe(c.base);
    expect(r.needsLlmFallback).toBe(false);
  });

  it('is slightly less confident with no cue at all, but above the fallback threshold for a trait', () => {
    const r = epistemicsOf('I am a teacher', 'TRAIT');
    expect(r.confidence).toBeCloseTo(c.base - c.noCue, 6);
    expect(r.needsLlmFallback).toBe(false);
  });

  it('asks for the LLM fallback for a feeling with no temporal cue', () => {
    const r = epistemicsOf('I feel lonely', 'FEELING_STATE');
    expect(r.confidence).toBeLessThan(BELIEF_CONFIG.epistemics.llmFallbackThreshold);
    expect(r.needsLlmFallback).toBe(true);
    expect(epistemicsOf('I feel lonely right now', 'FEELING_STATE').needsLlmFallback).toBe(false);
  });

  it('asks for the LLM fallback when temporal cues of different scopes compete', () => {
    const r = epistemicsOf('I used to be shy but lately I am always loud');
    expect(r.confidence).toBeCloseTo(c.base - c.mixedTemporal, 6);
    expect(r.needsLlmFallback).toBe(true);
  });

  it('asks for the LLM fallback when modalities compete', () => {
    expect(epistemicsOf("I think I might be lazy, I'm not sure").needsLlmFallback).toBe(true);
  });
});
