import { segmentSentences, sentenceGate, sentenceStats } from './sentences.js';

/** One sentence of exactly n words, ending in a period. */
const sentence = (n: number) => `${Array.from({ length: n }, (_, i) => `w${i}`).join(' ')}.`;
const text = (...lengths: number[]) => lengths.map(sentence).join(' ');

describe('segmentSentences (turn-pipeline §10.5)', () => {
  it.each([
    ['consecutive delimiters are one', 'Wait... what?!', ['Wait', 'what']],
    ['… is a delimiter', 'Hmm… okay', ['Hmm', 'okay']],
    ['a trailing emoji segment is empty', 'Great job! \u{1F642}', ['Great job']],
    ['a trailing tilde segment is empty', 'See you soon!~', ['See you soon']],
    ['Korean ? and .', '오늘 어땠어? 나는 좋았어.', ['오늘 어땠어', '나는 좋았어']],
    ['CJK full stops and full-width marks', '今日は楽しかった。明日も頑張ろう！本当？', ['今日は楽しかった', '明日も頑張ろう', '本当']],
    ['halfwidth ｡ and full-width ．', '좋아｡ 그래． 응', ['좋아', '그래', '응']],
    ['mixed English and Korean', 'I had 김밥 today. 너무 맛있었어! What about you?', ['I had 김밥 today', '너무 맛있었어', 'What about you']],
    ['a decimal point does not end a sentence', 'It took 3.5 hours. Then I slept.', ['It took 3.5 hours', 'Then I slept']],
    ['a number at the end of a sentence still ends it', 'It was 2026. Wow.', ['It was 2026', 'Wow']],
    ['no delimiter at all is one sentence', 'just chilling', ['just chilling']],
    ['only punctuation and emoji is no sentence', '... \u{1F642} !!', []],
    ['empty text', '', []],
  ])('%s', (_name, input, expected) => {
    expect(segmentSentences(input)).toEqual(expected);
  });
});

describe('sentenceStats (turn-pipeline §10.5)', () => {
  it('averages whitespace words over sentences', () => {
    expect(sentenceStats('오늘 어땠어? 나는 정말 좋았어.')).toEqual({ sentenceCount: 2, wordCount: 5, avgWordsPerSentence: 2.5 });
  });

  it('does not count an emoji or a dash as a word', () => {
    expect(sentenceStats('I went \u{1F642} - it was fine.')).toEqual({ sentenceCount: 1, wordCount: 5, avgWordsPerSentence: 5 });
  });

  it('gives avg 0 for no sentence', () => {
    expect(sentenceStats('\u{1F642}')).toEqual({ sentenceCount: 0, wordCount: 0, avgWordsPerSentence: 0 });
  });
});

describe('sentenceGate (turn-pipeline §10.5 bands, inclusive)', () => {
  it.each([
    ['short', [14], true],
    ['short', [15], false],
    ['short', [5, 5, 5], true],
    ['short', [3, 3, 3, 3], false],
    ['short', [14, 14, 14], true],
    ['short', [14, 15], false],
    ['medium', [10, 10], true],
    ['medium', [22, 22], true],
    ['medium', [9, 10], false],
    ['medium', [22, 23], false],
    ['medium', [15], false],
    ['medium', [12, 12, 12, 12, 12], true],
    ['medium', [12, 12, 12, 12, 12, 12], false],
    ['long', [15, 15, 15], true],
    ['long', [15, 15, 14], false],
    ['long', [30, 30], false],
    ['long', [20, 20, 20, 20, 20, 20, 20, 20], true],
    ['long', [20, 20, 20, 20, 20, 20, 20, 20, 20], false],
  ])('given %s and sentences of %j words, then pass is %p', (pref, lengths, pass) => {
    expect(sentenceGate(text(...lengths), pref).pass).toBe(pass);
  });

  it('reports a medium average of 9.5 as out of band', () => {
    const verdict = sentenceGate(text(9, 10), 'medium');
    expect(verdict.detail).toBe('avg_words_per_sentence 9.5 not in [10,22] (medium)');
    expect(verdict.measured).toMatchObject({ sentence_count: 2, avg_words_per_sentence: 9.5 });
  });

  it('fails a reply with no sentence in every band', () => {
    for (const pref of ['short', 'medium', 'long']) expect(sentenceGate('\u{1F642}', pref).pass).toBe(false);
  });

  it('counts Korean sentences the same way: two short ones pass short and fail long', () => {
    expect(sentenceGate('오늘 어땠어? 나는 좋았어.', 'short').pass).toBe(true);
    expect(sentenceGate('오늘 어땠어? 나는 좋았어.', 'long').pass).toBe(false);
  });

  it('fails closed on an unknown msg_length_pref', () => {
    expect(sentenceGate(text(5), 'tiny').pass).toBe(false);
  });
});
