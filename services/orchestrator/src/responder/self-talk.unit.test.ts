import { normalizeUserText } from '@hearth/text';
import { BELIEFS } from '../config.js';
import { PERSONA_LIBRARY } from '../personas/library.js';
import { asksAboutFriend, selfStatementFor } from './self-talk.js';

const norm = (s: string) => normalizeUserText(s).normNoPunct;
const PT04 = PERSONA_LIBRARY.find((t) => t.template_id === 'PT04')!.self_statements;
// A seed that is not the one-in-N turn, and one that is.
const QUIET = BELIEFS.selfTalkEveryTurns + 1;
const TALKS = BELIEFS.selfTalkEveryTurns * 7;

describe('asksAboutFriend', () => {
  it.each(['what about you?', 'How about you', 'hi, how are you?', 'Do you like rainy days?', "what's your favorite season?", 'tell me about yourself'])('finds the friend asked about in %p', (text) => {
    expect(asksAboutFriend(norm(text))).toBe(true);
  });

  it.each(['I had a long day at work', 'my sister likes rainy days', 'thank you so much'])('finds no such question in %p', (text) => {
    expect(asksAboutFriend(norm(text))).toBe(false);
  });
});

describe('selfStatementFor (issue 16: a companion graph grows without an LLM)', () => {
  it('speaks about itself when asked, on any turn', () => {
    const said = selfStatementFor({ statements: PT04, normNoPunct: norm('enough about me, what about you?'), seed: QUIET });
    expect(PT04).toContain(said);
  });

  it('otherwise only on one turn in BELIEFS.selfTalkEveryTurns, by the seed', () => {
    expect(selfStatementFor({ statements: PT04, normNoPunct: norm('I finally cleaned the kitchen'), seed: QUIET })).toBe('');
    expect(PT04).toContain(selfStatementFor({ statements: PT04, normNoPunct: norm('I finally cleaned the kitchen'), seed: TALKS }));
    const talking = Array.from({ length: 100 }, (_, seed) => selfStatementFor({ statements: PT04, normNoPunct: norm('I finally cleaned the kitchen'), seed })).filter(Boolean);
    expect(talking).toHaveLength(100 / BELIEFS.selfTalkEveryTurns);
  });

  it('is deterministic', () => {
    const input = { statements: PT04, normNoPunct: norm('and you?'), seed: 12345 };
    expect(selfStatementFor(input)).toBe(selfStatementFor({ ...input }));
  });

  it('answers what was asked with the statement about it', () => {
    for (let seed = 0; seed < 20; seed++) {
      expect(selfStatementFor({ statements: PT04, normNoPunct: norm('do you like rainy afternoons?'), seed })).toBe('I like rainy afternoons.');
    }
  });

  it('never says a statement about what the message takes a stance against or changes', () => {
    for (let seed = 0; seed < 50; seed++) {
      for (const text of ['I hate rainy afternoons, what about you?', "you don't like rainy afternoons, do you?", 'I used to like rainy afternoons']) {
        expect(selfStatementFor({ statements: PT04, normNoPunct: norm(text), seed })).not.toBe('I like rainy afternoons.');
      }
    }
  });

  it('says nothing when the persona has no statement left to say', () => {
    expect(selfStatementFor({ statements: [], normNoPunct: norm('what about you?'), seed: TALKS })).toBe('');
    expect(selfStatementFor({ statements: ['I like rainy afternoons.'], normNoPunct: norm('I hate rainy afternoons'), seed: TALKS })).toBe('');
  });
});
