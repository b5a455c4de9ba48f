import { estimateTokens, normalizeUserText, tokenize } from './index.js';

describe('normalizeUserText (§2.8)', () => {
  it.each([
    ['full-width letters fold to ASCII and lowercase', 'ＨＥＬＬＯ', 'hello'],
    ['the ﬁ ligature decomposes', 'ﬁnal ﬂight', 'final flight'],
    ['zero-width chars vanish without leaving a space', 'elec\u200Btion go\u200Cv\u200Dern\u2060ment \uFEFFvote', 'election government vote'],
    ['tabs, newlines, NBSP and ideographic spaces collapse to one space', ' a\t\tb\n\r\nc\u00A0d\u3000e\u2003f\u0085g  ', 'a b c d e f g'],
    ['only ASCII A–Z is lowercased', 'ÉCOLE Über ÄRGER ПРИВЕТ ΑΘΗΝΑ İstanbul', 'École Über Ärger ПРИВЕТ ΑΘΗΝΑ İstanbul'],
    ['Hangul is untouched', '  정치는   싫어  ', '정치는 싫어'],
    ['punctuation and curly quotes are kept', 'Don’t — SAY “that”!', 'don’t — say “that”!'],
    ['the soft hyphen is not zero-width and stays', 'elec\u00ADtion', 'elec\u00ADtion'],
  ])('given %s, when normalized, then userTextNorm is as expected', (_case, raw, expected) => {
    expect(normalizeUserText(raw).userTextNorm).toBe(expected);
  });

  it.each([
    ['hyphens split words', 'Self-Harm', 'self harm'],
    ['an ellipsis is a word break', 'kill... myself', 'kill myself'],
    ['quotes and ! go, the apostrophe stays', '"That\'s what she said!"', "that's what she said"],
    ['curly and modifier apostrophes fold to ASCII', 'don’t i‘m it‛s can\u02BCt ＇quote＇', "don't i'm it's can't 'quote'"],
    ['every Unicode punctuation class becomes a space', 'a¿b¡c«d»e—f_g(h)i[j]k{l}m、n。o・p', 'a b c d e f g h i j k l m n o p'],
    ['symbols and emoji are not punctuation', 'exam😭 $100 c++ 1+1=2 #kpop @boss', 'exam😭 $100 c++ 1+1=2 kpop boss'],
    ['spaces left by removed punctuation collapse and trim', ' ...wait ,, what?! ', 'wait what'],
    ['Korean punctuation goes, Hangul stays', '정치는… 싫어!!', '정치는 싫어'],
    ['empty input stays empty', '', ''],
    ['only punctuation becomes empty', '?!…', ''],
  ])('given %s, when normalized, then normNoPunct is as expected', (_case, raw, expected) => {
    expect(normalizeUserText(raw).normNoPunct).toBe(expected);
  });

  it('given an already normalized text, when normalized again, then it is unchanged', () => {
    const once = normalizeUserText('ＨＥＬＬＯ,\u200B  “World”… it’s 정치!');
    const twice = normalizeUserText(once.userTextNorm);

    expect(twice).toEqual(once);
    expect(normalizeUserText(once.normNoPunct).normNoPunct).toBe(once.normNoPunct);
  });
});

describe('tokenize', () => {
  it('given normNoPunct, when tokenized, then it splits on single spaces', () => {
    expect(tokenize("i'm so 정치는 exam😭")).toEqual(["i'm", 'so', '정치는', 'exam😭']);
  });

  it('given stray spaces or nothing, when tokenized, then no empty tokens appear', () => {
    expect(tokenize(' a  b ')).toEqual(['a', 'b']);
    expect(tokenize('')).toEqual([]);
  });
});

describe('estimateTokens', () => {
  it.each([
    ['', 0],
    ['   ', 0],
    ['a', 1],
    ['hello', 2],
    ['hi there', 3],
    ['안녕하세요', 5],
    ['hello 안녕하세요', 7],
    ['정치는', 3],
    ['exam시험', 3],
    ['😭', 1],
    ['ok!', 1],
    ['internationalization', 5],
    ['漢字 かな カナ', 6],
  ])('given %p, when estimated, then it is %p', (text, expected) => {
    expect(estimateTokens(text)).toBe(expected);
  });

  it('given the same text twice, when estimated, then the answer is the same', () => {
    const text = 'I’m traveling to 서울 next week!!';
    expect(estimateTokens(text)).toBe(estimateTokens(text));
  });
});
