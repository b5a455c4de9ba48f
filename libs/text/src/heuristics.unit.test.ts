import { HEURISTIC_TRIGGERS, heuristicFlags, normalizeUserText, preprocess, type HeuristicFlag } from './index.js';

const flagsOf = (raw: string) => heuristicFlags(normalizeUserText(raw).normNoPunct);
const only = (flag: HeuristicFlag) => ({ preference: false, fact: false, event: false, correction: false, [flag]: true });

describe('heuristicFlags (§5 regex triggers)', () => {
  it.each([
    ['preference', 'I like pizza'],
    ['preference', 'I LOVE rainy days'],
    ['preference', 'i hate mondays'],
    ['preference', 'My favorite band is…'],
    ['preference', 'my favourite colour'],
    ['fact', 'I’m from Busan'],
    ['fact', "i'm from seoul"],
    ['fact', 'im from seoul'],
    ['fact', 'I live in Berlin'],
    ['fact', 'my job is boring'],
    ['fact', 'I’m a nurse'],
    ['event', 'I broke up with him'],
    ['event', 'my exam went badly'],
    ['event', 'I’m traveling next week'],
    ['event', 'had an INTERVIEW'],
    ['correction', 'That’s not true!'],
    ['correction', 'thats not true'],
    ['correction', 'Please don’t remember that.'],
    ['correction', 'dont remember that'],
    ['correction', 'Don’t bring this topic up again'],
  ] as const)('given a %s trigger in %p, when flagged, then only that flag is set', (flag, raw) => {
    expect(flagsOf(raw)).toEqual(only(flag));
  });

  it.each([
    ['ordinary chat', 'what a nice day'],
    ['"i like" split by other words', 'i really like it'],
    ['a longer word', 'i liked it'],
    ['"i\'m a" not as whole words', 'i maybe'],
    ['"interview" inside a longer word', 'the interviewer was late'],
    ['"my exam" without "my"', 'the exam'],
    ['"that\'s not true" reordered', "not true that's"],
    ['empty text', ''],
  ])('given %s (%p), when flagged, then no flag is set', (_case, raw) => {
    expect(flagsOf(raw)).toEqual({ preference: false, fact: false, event: false, correction: false });
  });

  it('given several triggers, when flagged, then each is set', () => {
    expect(flagsOf('I’m a student, I love it, but my exam… that’s not true')).toEqual({
      preference: true,
      fact: true,
      event: true,
      correction: true,
    });
  });

  it('given the trigger lists, then every phrase is in normalized form', () => {
    const phrases = Object.values(HEURISTIC_TRIGGERS).flat();

    expect(phrases.filter((p) => normalizeUserText(p).normNoPunct !== p)).toEqual([]);
  });
});

describe('preprocess (§5 Stage A)', () => {
  it('given a raw message, when preprocessed, then all Stage A outputs are filled', () => {
    const result = preprocess('  I’m SO stressed… my EXAM, my interview\u200B and my boss!  ');

    expect(result).toEqual({
      userTextNorm: 'i’m so stressed... my exam, my interview and my boss!', // NFKC: … → ...
      normNoPunct: "i'm so stressed my exam my interview and my boss",
      tokenEstimate: 16,
      heuristicFlags: { preference: false, fact: false, event: true, correction: false },
      topicMatches: [{ topicId: 'WORK_SCHOOL', confidence: 0.8, hits: 3, keywords: ['exam', 'interview', 'boss'] }],
    });
  });

  it('given an empty message, when preprocessed, then everything is empty', () => {
    expect(preprocess('')).toEqual({
      userTextNorm: '',
      normNoPunct: '',
      tokenEstimate: 0,
      heuristicFlags: { preference: false, fact: false, event: false, correction: false },
      topicMatches: [],
    });
  });
});
