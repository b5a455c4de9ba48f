import type { StableStyle } from '../personas/assign.js';
import { evaluateReply, failedGates, type ExemptGate, type ReplyUnderReview } from './evaluate.js';
import type { SurfacedMemory } from './sensitive.js';
import { GATE_NAMES } from './verdict.js';

const STYLE: StableStyle = {
  msg_length_pref: 'short',
  emoji_freq: 'light',
  humor_mode: 'none',
  directness_level: 'balanced',
  followup_question_rate: 'low',
  lexicon_bias: 'clean',
  punctuation_quirks: [],
};
const GOOD = 'That sounds like a really nice day. How did the hike go?';
const mem = (memoryId: string, key = 'fact:occupation', topicIds: string[] = []): SurfacedMemory => ({ memoryId, type: 'FACT', key, value: 'v', topicIds });

const input = (over: Partial<ReplyUnderReview> = {}): ReplyUnderReview => ({
  text: GOOD,
  style: STYLE,
  stage: 'ACQUAINTANCE',
  source: 'chat',
  surfaced: [],
  recallAsked: false,
  userInitiated: [],
  initiatedRecent: [],
  suppressedTopics: [],
  tabooSoftBounds: [],
  recentAssistant: [],
  ...over,
});

describe('evaluateReply (turn-pipeline §10)', () => {
  it('runs every gate once, in the fixed order, safety first', () => {
    const verdicts = evaluateReply(input());
    expect(verdicts.map((v) => v.gate)).toEqual([...GATE_NAMES]);
    expect(verdicts[0]!.gate).toBe('safety');
  });

  it('passes a reply within every constraint', () => {
    expect(failedGates(evaluateReply(input()))).toEqual([]);
  });

  it('lists every failed gate in order', () => {
    const text = 'lol babe!! \u{1F602}\u{1F602}\u{1F602} you should kill yourself, the election is rigged';
    const failed = failedGates(
      evaluateReply(input({ text, stage: 'FRIEND', suppressedTopics: ['POLITICS'], surfaced: [mem('a'), mem('b'), mem('c')], recentAssistant: [text] })),
    );
    expect(failed).toEqual(['safety', 'emoji_band', 'lexicon', 'punctuation_quirks', 'intimacy', 'repeated_opener', 'similarity', 'personal_facts', 'taboo_topics']);
  });

  it('passes the input through to each gate', () => {
    const verdicts = evaluateReply(input({ surfaced: [mem('a'), mem('debt', 'fact:occupation', ['PERSONAL_FINANCE'])], source: 'retention' }));
    expect(failedGates(verdicts)).toEqual(['personal_facts', 'sensitive_memories']);
  });

  it('lets recall lift the chat fact limit', () => {
    const three = [mem('a'), mem('b'), mem('c')];
    expect(failedGates(evaluateReply(input({ surfaced: three })))).toEqual(['personal_facts']);
    expect(failedGates(evaluateReply(input({ surfaced: three, recallAsked: true })))).toEqual([]);
  });

  it('counts surfacedIds when given, else the surfaced memories', () => {
    expect(failedGates(evaluateReply(input({ surfaced: [mem('a')], surfacedIds: ['a', 'b', 'c'] })))).toEqual(['personal_facts']);
  });

  it('compares only the 20 newest assistant messages', () => {
    const others = Array.from({ length: 19 }, (_, i) => `Unrelated message number ${i} about something else.`);
    expect(failedGates(evaluateReply(input({ recentAssistant: [...others, GOOD] })))).toEqual(['repeated_opener', 'similarity']);
    expect(failedGates(evaluateReply(input({ recentAssistant: [...others, 'filler text here', GOOD] })))).toEqual([]);
  });

  it('uses stored openers when given', () => {
    expect(failedGates(evaluateReply(input({ recentOpeners: ['that sounds like a really nice day how did the hike go'] })))).toEqual(['repeated_opener']);
  });

  it('skips exempt gates but records them as passing "exempt"', () => {
    const text = 'I am really glad you told me. Please call a crisis line like 988 right now, or your local emergency number, because you deserve support from someone in person tonight. I am here with you. Are you safe right now?';
    const exempt: ExemptGate[] = ['emoji_band', 'sentence_band', 'lexicon', 'punctuation_quirks', 'repeated_opener', 'similarity'];
    expect(failedGates(evaluateReply(input({ text, style: { ...STYLE, emoji_freq: 'frequent' } })))).toEqual(['emoji_band', 'sentence_band']);
    const verdicts = evaluateReply(input({ text, style: { ...STYLE, emoji_freq: 'frequent' }, exempt }));
    expect(failedGates(verdicts)).toEqual([]);
    expect(verdicts.find((v) => v.gate === 'emoji_band')).toEqual({ gate: 'emoji_band', pass: true, detail: 'exempt', measured: { exempt: 1 } });
  });

  it('never skips safety, even when forced into the exempt list', () => {
    const exempt = ['safety'] as unknown as ExemptGate[];
    expect(failedGates(evaluateReply(input({ text: 'Just kill yourself.', exempt })))).toContain('safety');
  });

  it('is pure: the same input gives the same verdicts', () => {
    const i = input({ surfaced: [mem('a')], recentAssistant: ['Hello there friend, how are you?'] });
    expect(evaluateReply(i)).toEqual(evaluateReply(structuredClone(i)));
  });
});
