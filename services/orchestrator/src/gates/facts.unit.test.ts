import { normalizeUserText } from '@hearth/text';
import { personalFactsGate, recallAsked } from './facts.js';

const asked = (text: string) => recallAsked(normalizeUserText(text).normNoPunct);

describe('recallAsked (turn-pipeline §10.1)', () => {
  it.each([
    'Do you remember what my exam was about?',
    'You said I should try jazz.',
    'Like last time, I need advice.',
    'Do you recall my sister’s name?',
    '지난번에 말한 거 기억해?',
    '저번에 얘기했잖아.',
    '네가 말했잖아!',
  ])('is true for %p', (text) => {
    expect(asked(text)).toBe(true);
  });

  it.each(['How are you today?', 'I finally remembered my keys.', 'It was the last timer on the stove.', '오늘 날씨 좋다.'])('is false for %p', (text) => {
    expect(asked(text)).toBe(false);
  });
});

describe('personalFactsGate (turn-pipeline §10.1)', () => {
  it.each([
    ['chat', false, ['m1', 'm2'], true],
    ['chat', false, ['m1', 'm2', 'm3'], false],
    ['chat', true, ['m1', 'm2', 'm3'], true],
    ['retention', false, ['m1'], true],
    ['retention', false, ['m1', 'm2'], false],
    ['retention', true, ['m1', 'm2'], false],
    ['chat', false, ['m1', 'm1', 'm2', 'm2'], true],
    ['chat', false, ['m1', 'm1', 'm2', 'm3'], false],
    ['retention', false, ['m1', 'm1'], true],
  ] as const)('given %s, recall asked %p and ids %j, then pass is %p', (source, recall, ids, pass) => {
    expect(personalFactsGate(ids, { source, recallAsked: recall }).pass).toBe(pass);
  });

  it('counts distinct ids and reports the limit', () => {
    expect(personalFactsGate(['a', 'b', 'a', 'c'], { source: 'chat', recallAsked: false })).toMatchObject({
      pass: false,
      detail: 'personal_fact_count 3, limit 2 (chat)',
      measured: { personal_fact_count: 3, limit: 2 },
    });
  });
});
