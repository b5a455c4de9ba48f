import { isRepetitive, jaccard, openerGate, openerNorm, similarityGate, trigrams } from './repetition.js';

const words = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

describe('openerNorm (turn-pipeline §10.2)', () => {
  const TWELVE = 'Hey there, how was your day? I was wondering about the trip';

  it('takes the first 12 tokens, lowercased, without punctuation except apostrophes', () => {
    expect(openerNorm(`${TWELVE} today.`)).toBe('hey there how was your day i was wondering about the trip');
    expect(openerNorm("Don't   worry… it's FINE!")).toBe("don't worry it's fine");
  });

  it('strips leading emojis first: "😂😂 Hey there…" equals "Hey there…"', () => {
    expect(openerNorm(`\u{1F602}\u{1F602} ${TWELVE}`)).toBe(openerNorm(TWELVE));
    expect(openerNorm(`\u{1F44D}\u{1F3FD}\u200D \u{1F1F0}\u{1F1F7}  ${TWELVE}`)).toBe(openerNorm(TWELVE));
  });

  it('keeps an emoji after the first word, and non-Latin case', () => {
    expect(openerNorm('Hey \u{1F602} ΟΚ 안녕')).toBe('hey \u{1F602} ΟΚ 안녕');
  });

  it('is empty for an emoji-only message', () => {
    expect(openerNorm('\u{1F602}\u{1F602}')).toBe('');
  });

  describe('openerGate', () => {
    const recent = [openerNorm('Totally different start here.'), openerNorm(`${TWELVE} today.`)];

    it('fails when the 13th token differs but the first 12 match', () => {
      const verdict = openerGate(`${TWELVE} tomorrow.`, recent);
      expect(verdict).toMatchObject({ gate: 'repeated_opener', pass: false, measured: { match_index: 1 } });
    });

    it('fails on the same words after leading emoji, case and punctuation changes', () => {
      expect(openerGate(`\u{1F602}\u{1F602} HEY THERE... how was your day?! I was wondering about the trip!!`, recent).pass).toBe(false);
    });

    it('passes when the 12th token differs', () => {
      expect(openerGate('Hey there, how was your day? I was wondering about the hike today.', recent).pass).toBe(true);
    });

    it('never matches an empty opener, even against an empty one', () => {
      expect(openerGate('\u{1F602}', ['']).pass).toBe(true);
    });
  });
});

describe('trigrams and jaccard (turn-pipeline §10.3)', () => {
  it('builds the set of token 3-grams', () => {
    expect(trigrams('a b c d b c d')).toEqual(new Set(['a b c', 'b c d', 'c d b', 'd b c']));
  });

  it('is empty below 3 tokens', () => {
    expect(trigrams('hi there').size).toBe(0);
    expect(trigrams('').size).toBe(0);
  });

  it('gives |∩| and |∪| as integers', () => {
    expect(jaccard(trigrams('a b c d'), trigrams('b c d e'))).toEqual({ inter: 1, union: 3 });
  });

  it('never calls two empty sets repetitive', () => {
    expect(isRepetitive(jaccard(new Set(), new Set()))).toBe(false);
  });
});

describe('similarityGate (turn-pipeline §10.3)', () => {
  // 9 tokens give 7 trigrams; 3 more tokens add 3: |∩| = 7, |∪| = 10, exactly 0.70.
  const base9 = words('w', 9).join(' ');
  const plus3 = `${base9} ${words('x', 3).join(' ')}`;
  // 11 tokens give 9 trigrams; 4 more add 4: 9/13 ≈ 0.6923.
  const base11 = words('v', 11).join(' ');
  const plus4 = `${base11} ${words('y', 4).join(' ')}`;

  it('fails at exactly 0.70 (7/10)', () => {
    expect(jaccard(trigrams(base9), trigrams(plus3))).toEqual({ inter: 7, union: 10 });
    const verdict = similarityGate(plus3, ['Something else entirely here.', base9]);
    expect(verdict).toMatchObject({ gate: 'similarity', pass: false, measured: { max_similarity: 0.7, max_index: 1 } });
  });

  it('passes just below 0.70 (9/13)', () => {
    expect(jaccard(trigrams(base11), trigrams(plus4))).toEqual({ inter: 9, union: 13 });
    expect(similarityGate(plus4, [base11])).toMatchObject({ pass: true, measured: { max_similarity: 0.6923, max_index: 0 } });
  });

  it('normalizes both sides: case and punctuation do not hide a repeat', () => {
    expect(similarityGate('How was your day, Mina?', ['how was your day mina']).pass).toBe(false);
  });

  it('never calls messages under 3 tokens repetitive', () => {
    expect(similarityGate('Got it.', ['Got it.', 'got it'])).toMatchObject({ pass: true, measured: { max_index: -1, max_similarity: 0 } });
  });

  it('passes with no recent messages', () => {
    expect(similarityGate('How was your day?', []).pass).toBe(true);
  });
});
