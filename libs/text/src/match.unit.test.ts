import { containsAny, containsPhrase, normalizeUserText } from './index.js';

const norm = (raw: string) => normalizeUserText(raw).normNoPunct;

describe('containsPhrase (§5.1 whole-word / phrase matching)', () => {
  it.each([
    ['a word', 'the election is soon', 'election'],
    ['a phrase across a hyphen', norm('my credit-card bill'), 'credit card'],
    ['a phrase across an ellipsis', norm('i want to kill... myself'), 'kill myself'],
    ['a phrase with an apostrophe, in quotes, with !', norm('“That’s what she said!”'), "that's what she said"],
    ['a zero-width char inside the keyword', norm('the elec\u200Btion'), 'election'],
    ['a word wrapped in single quotes', norm("the word 'election' again"), 'election'],
    ['a possessive', norm('my mom’s birthday'), 'mom'],
    ['a word with emoji glued on', norm('exam😭😭 tomorrow'), 'exam'],
    ['an English word with a Korean particle', norm('kpop을 좋아해'), 'kpop'],
    ['an unnormalized phrase argument', 'my credit card', 'Credit-Card'],
  ])('given %s, when matched, then it matches', (_case, text, phrase) => {
    expect(containsPhrase(text, phrase)).toBe(true);
  });

  it.each([
    ['ex inside next', 'see you next week', 'ex'],
    ['ex inside example', 'for example', 'ex'],
    ['cut inside cute', 'so cute', 'cut'],
    ['hack inside hacky', 'a hacky fix', 'hack'],
    ['gun inside begun', 'it has begun', 'gun'],
    ['bet inside alphabet', 'the alphabet', 'bet'],
    ['tokens not consecutive', 'kill them not myself', 'kill myself'],
    ['phrase tokens in the wrong order', 'card credit', 'credit card'],
    ['only part of a phrase', 'my credit', 'credit card'],
    ['a plural not listed', 'two exams', 'exam'],
    ['a soft hyphen inside the keyword', norm('elec\u00ADtion'), 'election'],
    ['an empty phrase', 'anything', ''],
    ['an empty text', '', 'election'],
  ])('given %s, when matched, then it does not match', (_case, text, phrase) => {
    expect(containsPhrase(text, phrase)).toBe(false);
  });

  describe('Hangul (Korean attaches particles and endings to the word)', () => {
    it.each([
      ['정치는 싫어', '정치'],
      ['요즘 우울해', '우울'],
      ['진짜 죽고싶어', '죽고싶'],
      ['부모님이 오셨어', '부모'],
      ['술을 마셨어', '술'],
      ['술 마셨어', '술'],
      ['약이 없어', '약'],
      ['약에서', '약'],
      ['롤하고 발로란트', '롤'],
      ['빚이랑 대출', '빚'],
      ['19금 영화', '19금'],
      ['야한 드립을 쳤어', '야한 드립'],
    ])('given %p, when matched against %p, then it matches', (text, phrase) => {
      expect(containsPhrase(text, phrase)).toBe(true);
    });

    it.each([
      ['약속 있어', '약'],
      ['술래잡기', '술'],
      ['술래', '술'],
      ['롤러코스터', '롤'],
      ['빚쟁이', '빚'],
      ['반정치', '정치'],
      ['야한것 드립', '야한 드립'],
      ['야한거 드립', '야한 드립'],
      ['장난 드립', '섹드립'],
    ])('given %p, when matched against %p, then it does not match', (text, phrase) => {
      expect(containsPhrase(text, phrase)).toBe(false);
    });

    it('given a multi-token Hangul phrase, when an earlier token carries a suffix, then it does not match', () => {
      expect(containsPhrase('죽고 싶어요', '죽고 싶어')).toBe(true);
      expect(containsPhrase('죽고는 싶어', '죽고 싶어')).toBe(false);
    });
  });
});

describe('containsAny', () => {
  it('given several phrases, when some match, then those are returned in the given order', () => {
    const text = norm('I love my mom, but my ex… not so much');

    expect(containsAny(text, ['ex', 'next', 'i love', 'mom', 'dad'])).toEqual(['ex', 'i love', 'mom']);
  });

  it('given no phrases, when matched, then nothing is returned', () => {
    expect(containsAny('anything', [])).toEqual([]);
  });
});
