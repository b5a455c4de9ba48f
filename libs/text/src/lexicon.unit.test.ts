import { TOPIC_IDS, TOPIC_LEXICON, TopicLexiconError, normalizeUserText, parseTopicLexicon } from './index.js';

// A minimal valid lexicon: one entry per topic.
function validRaw(): { version: string; topics: Record<string, unknown[]> } {
  return { version: 'v-test', topics: Object.fromEntries(TOPIC_IDS.map((t) => [t, [t.toLowerCase().replaceAll('_', ' ')]])) };
}

function rejection(raw: unknown): TopicLexiconError {
  try {
    parseTopicLexicon(raw);
  } catch (error) {
    if (error instanceof TopicLexiconError) return error;
    throw error;
  }
  throw new Error('expected parseTopicLexicon to throw');
}

describe('the shipped topic-keywords.json', () => {
  it('given the module loaded, then it parsed as version v0.1 with all 19 topics in TOPIC_IDS order', () => {
    expect(TOPIC_LEXICON.version).toBe('v0.1');
    expect(Object.keys(TOPIC_LEXICON.topics)).toEqual([...TOPIC_IDS]);
  });

  it('given every variant, then it is already normalized', () => {
    const variants = Object.values(TOPIC_LEXICON.topics).flat(2);

    expect(variants.filter((v) => normalizeUserText(v).normNoPunct !== v)).toEqual([]);
  });

  it('given the parsed lexicon, then it is frozen', () => {
    expect(Object.isFrozen(TOPIC_LEXICON)).toBe(true);
    expect(Object.isFrozen(TOPIC_LEXICON.topics)).toBe(true);
    expect(Object.isFrozen(TOPIC_LEXICON.topics.POLITICS)).toBe(true);
    expect(Object.isFrozen(TOPIC_LEXICON.topics.POLITICS[0])).toBe(true);
  });
});

describe('parseTopicLexicon', () => {
  it('given strings and variant arrays, when parsed, then every entry is a variant list, first canonical', () => {
    const raw = validRaw();
    raw.topics.TRAVEL = ['trip', ['flight', 'flights']];

    expect(parseTopicLexicon(raw).topics.TRAVEL).toEqual([['trip'], ['flight', 'flights']]);
  });

  it('given topics in another order, when parsed, then they come out in TOPIC_IDS order', () => {
    const raw = validRaw();
    const reversed = { version: raw.version, topics: Object.fromEntries(Object.entries(raw.topics).reverse()) };

    expect(Object.keys(parseTopicLexicon(reversed).topics)).toEqual([...TOPIC_IDS]);
  });

  it('given a missing topic, when parsed, then it is named', () => {
    const raw = validRaw();
    delete raw.topics.TRAVEL;

    const error = rejection(raw);
    expect(error.code).toBe('TOPIC_LEXICON_INVALID');
    expect(error.name).toBe('TopicLexiconError');
    expect(error.problems).toEqual([{ path: 'topics.TRAVEL', problem: 'missing' }]);
    expect(error.message).toContain('topics.TRAVEL: missing');
  });

  it('given an unknown topic, when parsed, then it is named', () => {
    const raw = validRaw();
    raw.topics.SPORTS = ['football'];

    expect(rejection(raw).problems).toEqual([{ path: 'topics.SPORTS', problem: expect.stringContaining('unknown TopicID') }]);
  });

  it('given an unnormalized keyword, when parsed, then it is named with its normalized form', () => {
    const raw = validRaw();
    raw.topics.POLITICS = ['politics', ['election', 'Election']];

    const error = rejection(raw);
    expect(error.problems).toEqual([
      { path: 'topics.POLITICS[1][1]', problem: '"Election" is not in normalized form (expected "election")' },
    ]);
    expect(error.message).toContain('topics.POLITICS[1][1]: "Election" is not in normalized form');
  });

  it.each([['self-harm'], [' padded'], ['two  spaces'], ['don’t']])('given the unnormalized keyword %p, when parsed, then it is rejected', (keyword) => {
    const raw = validRaw();
    raw.topics.SELF_HARM = [keyword];

    expect(rejection(raw).problems).toEqual([{ path: 'topics.SELF_HARM[0]', problem: expect.stringContaining('not in normalized form') }]);
  });

  it('given a keyword repeated in one topic, across entries or within one, when parsed, then each repeat is named', () => {
    const raw = validRaw();
    raw.topics.FAMILY = ['mom', ['mother', 'mom'], ['dad', 'dad']];

    expect(rejection(raw).problems).toEqual([
      { path: 'topics.FAMILY[1][1]', problem: '"mom" appears more than once in FAMILY' },
      { path: 'topics.FAMILY[2][1]', problem: '"dad" appears more than once in FAMILY' },
    ]);
  });

  it('given the same keyword in two topics, when parsed, then it is allowed', () => {
    const raw = validRaw();
    raw.topics.TRAVEL = ['trip'];
    raw.topics.ENTERTAINMENT = ['trip'];

    expect(() => parseTopicLexicon(raw)).not.toThrow();
  });

  it('given several problems, when parsed, then all are named at once', () => {
    const raw = validRaw();
    delete raw.topics.TRAVEL;
    raw.topics.SPORTS = ['football'];
    raw.topics.POLITICS = ['Election', 'election'];

    expect(rejection(raw).problems.map((p) => p.path)).toEqual([
      'topics.TRAVEL',
      'topics.POLITICS[0]',
      'topics.SPORTS',
    ]);
  });

  it.each([
    ['not an object', 'nope', '<root>'],
    ['no version', { topics: validRaw().topics }, 'version'],
    ['an empty variant', { ...validRaw(), topics: { ...validRaw().topics, TRAVEL: [''] } }, 'topics.TRAVEL[0]'],
    ['an empty variant list', { ...validRaw(), topics: { ...validRaw().topics, TRAVEL: [[]] } }, 'topics.TRAVEL[0]'],
    ['a topic without entries', { ...validRaw(), topics: { ...validRaw().topics, TRAVEL: [] } }, 'topics.TRAVEL'],
    ['a number keyword', { ...validRaw(), topics: { ...validRaw().topics, TRAVEL: [42] } }, 'topics.TRAVEL[0]'],
    ['an unknown top-level key', { ...validRaw(), extra: true }, '<root>'],
  ])('given %s, when parsed, then it is rejected at %p', (_case, raw, path) => {
    const error = rejection(raw);

    expect(error.problems.map((p) => p.path)).toContain(path);
    expect(error.message).toMatch(/^Invalid topic lexicon \(\d+ problem\(s\)\):/);
  });
});
