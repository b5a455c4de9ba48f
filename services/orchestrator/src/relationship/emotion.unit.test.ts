import { normalizeUserText } from '@hearth/text';
import { analyzeEmotion } from './emotion.js';
import { MODERATE_NEGATIVE, MODERATE_POSITIVE, STRONG_NEGATIVE, STRONG_POSITIVE } from './lexicon.js';

const read = (raw: string) => analyzeEmotion(normalizeUserText(raw).normNoPunct);

describe('analyzeEmotion: strong vs moderate (turn-pipeline §11.2)', () => {
  it.each([
    ['I am devastated', -0.8, ['strong_negative', 'negative', 'emotion:devastated']],
    ["I can't stop crying.", -0.8, ['strong_negative', 'negative', "emotion:can't stop crying"]],
    ['I am sad', -0.4, ['negative', 'emotion:sad']],
    ['so thrilled!!', 0.9, ['strong_positive', 'positive', 'emotion:thrilled']],
    ['Best day ever', 0.8, ['strong_positive', 'positive', 'emotion:best day ever']],
    ['glad to hear', 0.4, ['positive', 'emotion:glad']],
  ])('given %p, when analyzed, then valence is %p with tags %p', (raw, valence, tags) => {
    const reading = read(raw);

    expect(reading).toEqual({ valence, intensity: Math.abs(valence), tags });
  });

  it.each(STRONG_NEGATIVE.map((t) => [t]))('given the strong negative term %p alone, then valence ≤ −0.6 and strong_negative is tagged', (term) => {
    const reading = analyzeEmotion(term);

    expect(reading.valence).toBeLessThanOrEqual(-0.6);
    expect(reading.tags).toContain('strong_negative');
  });

  it.each(STRONG_POSITIVE.map((t) => [t]))('given the strong positive term %p alone, then valence ≥ 0.6 and strong_positive is tagged', (term) => {
    const reading = analyzeEmotion(term);

    expect(reading.valence).toBeGreaterThanOrEqual(0.6);
    expect(reading.tags).toContain('strong_positive');
  });

  it.each([...MODERATE_NEGATIVE, ...MODERATE_POSITIVE].map((t) => [t]))(
    'given the moderate term %p alone or once intensified, then |valence| < 0.6 and no strong tag',
    (term) => {
      for (const text of [term, `really ${term}`, `정말 ${term}`]) {
        const reading = analyzeEmotion(text);

        expect(Math.abs(reading.valence)).toBeGreaterThan(0);
        expect(Math.abs(reading.valence)).toBeLessThan(0.6);
        expect(reading.tags.filter((t) => t.startsWith('strong_'))).toEqual([]);
      }
    },
  );

  it('given a strong and a moderate term of opposite sign, then the strong one sets the valence and both signs are tagged', () => {
    expect(read("I'm thrilled but a bit sad")).toEqual({
      valence: 0.8,
      intensity: 0.8,
      tags: ['strong_positive', 'negative', 'positive', 'emotion:sad', 'emotion:thrilled'],
    });
  });

  it('given strong terms of both signs at equal magnitude, then the negative one wins the tie', () => {
    expect(read('thrilled but terrified').valence).toBe(-0.8);
  });

  it('given several moderate terms, then they do not add up past the strongest', () => {
    expect(read('sad and tired and stressed and lonely').valence).toBe(-0.4);
  });
});

describe('analyzeEmotion: intensifiers', () => {
  it.each([
    ['sad', -0.4],
    ['really sad', -0.5],
    ['really really sad', -0.6],
    ['so so so sad', -0.6],
    ['very happy', 0.5],
    ['extremely devastated', -0.9],
    ['really really devastated', -1],
    ['so so so so devastated', -1],
  ])('given %p, then valence is %p', (raw, valence) => {
    expect(read(raw).valence).toBe(valence);
  });

  it('given an intensifier that does not stand directly before the term, then it does not count', () => {
    expect(read('really, i guess i am sad').valence).toBe(-0.4);
  });
});

describe('analyzeEmotion: negation', () => {
  it.each([
    ['not happy', -0.2, ['negative', 'emotion:happy']],
    ["I'm not really happy", -0.2, ['negative', 'emotion:happy']],
    ["I'm not thrilled about it", -0.4, ['negative', 'emotion:thrilled']],
    ['not sad', 0, []],
    ["I'm not depressed, just bored", 0, []],
    ["it isn't so bad, i'm never really sad", 0, []],
  ])('given %p, then valence is %p with tags %p', (raw, valence, tags) => {
    expect(read(raw)).toEqual({ valence, intensity: Math.abs(valence), tags });
  });

  it('given a negated strong positive term, then it is never tagged strong', () => {
    expect(read('not thrilled').tags).not.toContain('strong_positive');
    expect(read('not thrilled').tags).not.toContain('strong_negative');
  });
});

describe('analyzeEmotion: Korean', () => {
  it.each([
    ['너무 힘들어', -0.8, 'strong_negative'],
    ['요즘 우울해요', -0.8, 'strong_negative'],
    ['진짜 죽을 것 같아', -0.9, 'strong_negative'],
    ['오늘 최고의 하루였어', 0.8, 'strong_positive'],
    ['정말 슬퍼요', -0.5, 'negative'],
    ['좀 피곤해', -0.4, 'negative'],
    ['오늘 너무 행복해', 0.8, 'strong_positive'],
    ['기뻐', 0.4, 'positive'],
    ['정말 정말 외로워', -0.6, 'negative'],
  ])('given %p, then valence is %p and %p is tagged', (raw, valence, tag) => {
    const reading = read(raw);

    expect(reading.valence).toBe(valence);
    expect(reading.tags).toContain(tag);
  });

  it('given 안 before a negative term, then it is cancelled', () => {
    expect(read('나 안 슬퍼')).toEqual({ valence: 0, intensity: 0, tags: [] });
  });
});

describe('analyzeEmotion: neutral text', () => {
  it.each([['what time is it?'], ['the sadness of gladiators'], [''], ['오늘 점심 뭐 먹지']])('given %p, then valence and intensity are 0 with no tags', (raw) => {
    const reading = read(raw);

    expect(reading).toEqual({ valence: 0, intensity: 0, tags: [] });
    expect(Object.is(reading.valence, 0)).toBe(true);
  });
});
