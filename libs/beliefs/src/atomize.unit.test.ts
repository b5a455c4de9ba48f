import { atomizeClause, atomizeRules, RULE_CONFIDENCE, thirdPerson } from './atomize.js';
import { canonicalize } from './canonicalize.js';
import { segment } from './segment.js';

const a = (text: string) => atomizeClause(text);

describe('atomizeRules (§4.3 offline)', () => {
  it.each([
    ["I'm not good enough", 'i am good enough', 'BELIEF_ABOUT_SELF', 'deny'],
    ["I don't like horror films", 'i like horror films', 'PREFERENCE', 'deny'],
    ['my family disrespects me for not working with my hands', 'my family disrespects me for not working with my hands', 'RELATIONAL', 'affirm'],
    ['I am patient', 'i am patient', 'TRAIT', 'affirm'],
    ["I'm really patient", 'i am patient', 'TRAIT', 'affirm'],
    ['I am not patient at all', 'i am patient', 'TRAIT', 'deny'],
    ['i am a nurse', 'i am a nurse', 'TRAIT', 'affirm'],
    ['I am worthless', 'i am worthless', 'BELIEF_ABOUT_SELF', 'affirm'],
    ['I feel like a failure', 'i am a failure', 'BELIEF_ABOUT_SELF', 'affirm'],
    ['I think I am worthless', 'i am worthless', 'BELIEF_ABOUT_SELF', 'affirm'],
    ['i feel lonely', 'i feel lonely', 'FEELING_STATE', 'affirm'],
    ["I'm so anxious lately", 'i feel anxious', 'FEELING_STATE', 'affirm'],
    ["I'm feeling down", 'i feel down', 'FEELING_STATE', 'affirm'],
    ['i love hiking', 'i like hiking', 'PREFERENCE', 'affirm'],
    ['I enjoy rainy days', 'i like rainy days', 'PREFERENCE', 'affirm'],
    ['I hate mornings', 'i like mornings', 'PREFERENCE', 'deny'],
    ["I can't stand loud music", 'i like loud music', 'PREFERENCE', 'deny'],
    ["I'm not a fan of jazz", 'i like jazz', 'PREFERENCE', 'deny'],
    ['I prefer tea over coffee', 'i prefer tea over coffee', 'PREFERENCE', 'affirm'],
    ['I value honesty', 'i value honesty', 'VALUE', 'affirm'],
    ['I believe in second chances', 'i believe in second chances', 'VALUE', 'affirm'],
    ["I don't care about money", 'i care about money', 'VALUE', 'deny'],
    ['honesty matters to me', 'i value honesty', 'VALUE', 'affirm'],
    ["I can't swim", 'i can swim', 'CAPABILITY_LIMIT', 'deny'],
    ['I am unable to focus', 'i can focus', 'CAPABILITY_LIMIT', 'deny'],
    ['I am bad at math', 'i am good at math', 'CAPABILITY_LIMIT', 'deny'],
    ["I'm great at cooking", 'i am good at cooking', 'CAPABILITY_LIMIT', 'affirm'],
    ['I always second-guess myself', 'i second-guess myself', 'META_BELIEF', 'affirm'],
    ['i always second-guess', 'i always second-guess', 'META_BELIEF', 'affirm'],
    ['I overthink everything', 'i overthink everything', 'META_BELIEF', 'affirm'],
    ['I doubt myself a lot', 'i doubt myself a lot', 'META_BELIEF', 'affirm'],
    ['I do not trust myself', 'i trust myself', 'META_BELIEF', 'deny'],
    ['nobody likes me', 'nobody likes me', 'RELATIONAL', 'affirm'],
    ['everyone judges me', 'everyone judges me', 'RELATIONAL', 'affirm'],
    ["my parents don't understand me", 'my parents understand me', 'RELATIONAL', 'deny'],
    ["my sister doesn't respect me", 'my sister respects me', 'RELATIONAL', 'deny'],
    ['my boss never listens to me', 'my boss listens to me', 'RELATIONAL', 'deny'],
    ['i have two cats', 'i have cats', 'BELIEF_ABOUT_SELF', 'affirm'],
    ["i don't have any cats", 'i have cats', 'BELIEF_ABOUT_SELF', 'deny'],
    ['i have no friends', 'i have friends', 'BELIEF_ABOUT_SELF', 'deny'],
    ['i have a dog named rex', 'i have a dog named rex', 'BELIEF_ABOUT_SELF', 'affirm'],
    ['i do not eat meat', 'i eat meat', 'BELIEF_ABOUT_SELF', 'deny'],
    ['i live in ohio', 'i live in ohio', 'BELIEF_ABOUT_SELF', 'affirm'],
    ['i work as a teacher', 'i work as a teacher', 'BELIEF_ABOUT_SELF', 'affirm'],
    ["I'm from canada", 'i am from canada', 'BELIEF_ABOUT_SELF', 'affirm'],
    ['i have never been to france', 'i have been to france', 'BELIEF_ABOUT_SELF', 'deny'],
    ['my favorite color is blue', 'my favorite color is blue', 'PREFERENCE', 'affirm'],
    ['Well, honestly I am a shy person.', 'i am a shy person', 'TRAIT', 'affirm'],
    ["To be fair, I'm not a patient person at all.", 'i am a patient person', 'TRAIT', 'deny'],
    ['im tired of everything', 'i feel tired of everything', 'FEELING_STATE', 'affirm'],
  ])('%j → %j %s %s', (text, atomText, beliefType, polarity) => {
    expect(a(text)).toEqual(expect.objectContaining({ atomText, beliefType, polarity }));
  });

  it.each([
    'Are you ok?',
    'Am I happy',
    'I went to the park yesterday',
    'I remember you like sushi',
    'I love that you called',
    'I hear you',
    'I see',
    'I get it',
    "I'm sorry",
    "I'm so sorry about that",
    "I'm glad it worked out",
    "I'm here for you",
    'I think so',
    'I know',
    "I don't know",
    "I'm not sure about that",
    "I'm going to the store",
    'I am reading a book',
    'I bought a new phone',
    'I overthink',
    'The weather is nice',
    "I don't hate mornings",
    'I would love to travel',
    'I want a pizza',
  ])('skips %j', (text) => {
    expect(a(text)).toBeNull();
  });

  it('gives every rule a confidence in [0.6, 0.9]', () => {
    for (const c of Object.values(RULE_CONFIDENCE)) {
      expect(c).toBeGreaterThanOrEqual(0.6);
      expect(c).toBeLessThanOrEqual(0.9);
    }
    expect(a('I am worthless')!.confidence).toBe(RULE_CONFIDENCE.selfEvaluation);
    expect(a('i live in ohio')!.confidence).toBe(RULE_CONFIDENCE.habit);
  });

  it('makes the affirmed and negated possession forms canonicalise the same, and keeps "a"', () => {
    const hash = (t: string) => canonicalize(a(t)!.atomText).canonicalHash;
    expect(hash('i have two cats')).toBe(hash("i don't have any cats"));
    expect(hash('i have 3 kids')).not.toBe(hash('i have no kids')); // digits are not counting words here
    expect(hash('i have a dog')).toBe(hash("i don't have a dog"));
    expect(hash('i have two cats')).toBe(hash('i have three cats')); // the count is lost, by design
  });

  it('keeps a courtesy answer for a user but not for the companion', () => {
    expect(atomizeClause("I'm fine today", 'user')).toEqual(expect.objectContaining({ atomText: 'i feel fine', beliefType: 'FEELING_STATE' }));
    expect(atomizeClause("I'm fine today", 'companion')).toBeNull();
    expect(atomizeClause('I am good, thanks', 'companion')).toBeNull();
    expect(atomizeClause('I am good, thanks', 'user')).toEqual(expect.objectContaining({ atomText: 'i feel good' }));
    expect(atomizeClause('I am doing fine', 'user')).toBeNull(); // progressive
  });

  it('maps candidates to atoms with their source index', () => {
    const candidates = segment("I'm patient but I snap in traffic. Are you ok? I love tea.");
    expect(atomizeRules(candidates, 'user')).toEqual([
      expect.objectContaining({ atomText: 'i am patient', sourceIdx: 0 }),
      expect.objectContaining({ atomText: 'i snap in traffic', sourceIdx: 1 }),
      expect.objectContaining({ atomText: 'i like tea', sourceIdx: 3 }),
    ]);
  });

  it('conjugates the third person of an affirmative form', () => {
    expect(['respect', 'watch', 'try', 'have', 'go', 'play'].map(thirdPerson)).toEqual(['respects', 'watches', 'tries', 'has', 'goes', 'plays']);
  });
});

describe('coordinated objects and generic possessions (§4.3: one belief per atom)', () => {
  const texts = (text: string) => atomizeRules([{ text, span: { start: 0, end: text.length } }], 'companion').map((a) => [a.atomText, a.polarity]);

  it('splits "i have a dog and a cat" into two atoms, each in the generic plural', () => {
    expect(texts('I have two dogs and a cat.')).toEqual([
      ['i have dogs', 'affirm'],
      ['i have cats', 'affirm'],
    ]);
  });

  it('gives "a dog", "two dogs" and "any dogs" one form, so the negation hashes the same', () => {
    expect(texts("I don't have a dog.")).toEqual([['i have dogs', 'deny']]);
    expect(texts('I have a puppy.')).toEqual([['i have puppies', 'affirm']]);
    expect(texts('I have an older sister.')).toEqual([['i have older sisters', 'affirm']]);
  });

  it('leaves a long object and a clause after "and" whole', () => {
    expect(texts('I have a dog named rex.')).toEqual([['i have a dog named rex', 'affirm']]);
    expect(texts('I like to read and hang out with my old school friends.')).toHaveLength(1);
  });

  it('splits coordinated likes', () => {
    expect(texts('I like jazz and blues.').map(([t]) => t)).toEqual(['i like jazz', 'i like blues']);
  });
});
