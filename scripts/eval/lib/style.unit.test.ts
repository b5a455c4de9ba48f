import { checkStyle, emojiCount, measureSentences } from './style.js';
import { blockedReasons } from './summary.js';

describe('emojiCount (turn-pipeline §10.4: emoji code points)', () => {
  it.each([
    ['no emoji', 'Nice one. 3 cats #1 *', 0],
    ['one', 'Nice \u{1F642}', 1],
    ['two in a row', '\u{1F642}\u{1F33F} hi', 2],
    ['a ZWJ family counts its pictographs', '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}', 3],
    ['a heart with VS16', '\u2764\uFE0F', 1],
  ])('%s', (_name, text, n) => {
    expect(emojiCount(text)).toBe(n);
  });
});

describe('measureSentences (turn-pipeline §10.5)', () => {
  it('splits on . ! ? … and the full-width forms, a run of them as one', () => {
    expect(measureSentences('Wait... what?! Okay… fine。 Yes！ Really？').sentenceCount).toBe(6);
  });

  it('averages whitespace words over the sentences', () => {
    expect(measureSentences('one two three. four five!')).toEqual({ sentenceCount: 2, avgWordsPerSentence: 2.5 });
  });

  it('reads a trailing emoji as no sentence and no word; the strict reading counts both', () => {
    expect(measureSentences('Great job! \u{1F642}')).toEqual({ sentenceCount: 1, avgWordsPerSentence: 2 });
    expect(measureSentences('Great job! \u{1F642}', true)).toEqual({ sentenceCount: 2, avgWordsPerSentence: 1.5 });
  });
});

describe('checkStyle', () => {
  it('holds a reply against the emoji_freq and msg_length_pref bands, bounds inclusive', () => {
    const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    const fourteen = `${words(14)}.`;
    expect(checkStyle(fourteen, { emoji_freq: 'none', msg_length_pref: 'short' })).toMatchObject({ emojiOk: true, sentencesOk: true });
    expect(checkStyle(`${words(15)}.`, { emoji_freq: 'none', msg_length_pref: 'short' }).sentencesOk).toBe(false);
    expect(checkStyle(fourteen, { emoji_freq: 'frequent', msg_length_pref: 'short' }).emojiOk).toBe(false);
    expect(checkStyle(fourteen, { emoji_freq: 'light', msg_length_pref: 'medium' }).sentencesOk).toBe(false);
  });

  it('fits nothing with an unknown band value', () => {
    expect(checkStyle('Hi there.', { emoji_freq: 'lots', msg_length_pref: 'tiny' })).toMatchObject({ emojiOk: false, sentencesOk: false });
  });
});

describe('blockedReasons', () => {
  it("drops the turn's own numbers so turns can be counted by condition", () => {
    expect(blockedReasons('rapport 31 < 40; sessions 2 < 3; cooldown')).toEqual(['rapport < 40', 'sessions < 3', 'cooldown']);
    expect(blockedReasons('')).toEqual([]);
  });
});
