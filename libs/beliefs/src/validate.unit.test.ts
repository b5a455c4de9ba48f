import type { RawAtom } from './types.js';
import { rejectionOf, validateAtoms } from './validate.js';

const raw = (atomText: string, extra: Partial<RawAtom> = {}): RawAtom => ({ atomText, beliefType: 'TRAIT', polarity: 'affirm', confidence: 0.8, sourceIdx: 0, ...extra });

describe('validateAtoms (§4.4)', () => {
  it.each([
    ['You are kind', 'not_first_person'],
    ['Always be honest', 'imperative'],
    ['Be kind to strangers', 'imperative'],
    ['I am', 'too_short'],
    ['Am I happy?', 'question'],
    ['do i matter', 'question'],
    ['I am {name}', 'template_junk'],
    ['I am <persona_trait>', 'template_junk'],
    ['People are kind', 'generic'],
    ['Life is hard sometimes', 'generic'],
    ['She is very tall', 'not_first_person'],
  ])('%j → %s', (text, reason) => {
    expect(rejectionOf(raw(text))).toBe(reason);
  });

  it.each(['i am patient', "I'm not good enough", 'my family disrespects me', 'nobody likes me', 'everyone leaves me eventually', 'people ignore me'])('%j is first person and valid', (text) => {
    expect(rejectionOf(raw(text))).toBeNull();
  });

  it('rejects an unknown belief type or polarity from an LLM as invalid_type', () => {
    expect(rejectionOf(raw('i am patient', { beliefType: 'MOOD' as never }))).toBe('invalid_type');
    expect(rejectionOf(raw('i am patient', { polarity: 'maybe' as never }))).toBe('invalid_type');
  });

  it('splits a batch into valid and invalid, keeping order and the atom', () => {
    const atoms = [raw('i am kind'), raw('You are kind'), raw('i like tea')];
    const { valid, invalid } = validateAtoms(atoms);
    expect(valid.map((a) => a.atomText)).toEqual(['i am kind', 'i like tea']);
    expect(invalid).toEqual([{ atom: atoms[1], reason: 'not_first_person' }]);
  });
});
