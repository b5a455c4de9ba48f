import { confirmedConfidence, decideWrites, initialConfidence, mergeCandidates } from './dedup.js';
import type { Candidate, MemoryRow } from './types.js';

const AT = new Date('2026-11-01T10:00:00Z');
const row = (over: Partial<MemoryRow> & Pick<MemoryRow, 'key' | 'value'>): MemoryRow => ({
  memoryId: 'm-1',
  type: 'FACT',
  confidence: 0.6,
  status: 'ACTIVE',
  createdAt: AT,
  lastConfirmedAt: AT,
  ...over,
});
const cand = (over: Partial<Candidate> & Pick<Candidate, 'key' | 'value'>): Candidate => ({ type: 'FACT', extractor: 'heuristic', ...over });

describe('decideWrites (turn-pipeline §12.3, §12.3.1, §12.3.2)', () => {
  it('records a new key at 0.60 when the heuristic found it, 0.75 when the LLM did', () => {
    // when
    const ops = decideWrites(
      [cand({ key: 'fact:current_city', value: 'seoul' }), cand({ key: 'pref:food:sushi', value: 'like|sushi', type: 'PREFERENCE', extractor: 'llm' })],
      new Map(),
      new Set(),
    );

    // then
    expect(ops.map((o) => [o.op, 'confidence' in o ? o.confidence : null])).toEqual([
      ['record', 0.6],
      ['record', 0.75],
    ]);
    expect(initialConfidence(cand({ key: 'k', value: 'v', extractor: 'offline' }))).toBe(0.6);
  });

  it('confirms the same key and value: +0.15, capped at 1.0', () => {
    // given
    const active = new Map([['fact:current_city', row({ key: 'fact:current_city', value: 'seoul', confidence: 0.6 })]]);

    // when
    const [op] = decideWrites([cand({ key: 'fact:current_city', value: 'seoul' })], active, new Set());

    // then
    expect(op).toMatchObject({ op: 'confirm', confidence: 0.75, memory: { memoryId: 'm-1' } });
    expect(confirmedConfidence(0.9)).toBe(1);
    expect(confirmedConfidence(1)).toBe(1);
    expect(confirmedConfidence(0.75)).toBe(0.9);
  });

  it('supersedes a singleton FACT with a new value at the initial confidence', () => {
    // given
    const seoul = row({ key: 'fact:current_city', value: 'seoul', confidence: 0.9 });

    // when
    const [op] = decideWrites([cand({ key: 'fact:current_city', value: 'busan' })], new Map([[seoul.key, seoul]]), new Set());

    // then
    expect(op).toEqual({ op: 'record', candidate: expect.objectContaining({ value: 'busan' }) as unknown, confidence: 0.6, supersedes: seoul });
  });

  it.each([
    ['heuristic', 0.55],
    ['llm', 0.55],
  ] as const)('supersedes an opposite PREFERENCE stance at min(init, 0.55) (%s)', (extractor, confidence) => {
    // given
    const love = row({ type: 'PREFERENCE', key: 'pref:food:sushi', value: 'like|sushi', confidence: 0.75 });

    // when
    const [op] = decideWrites([cand({ type: 'PREFERENCE', key: 'pref:food:sushi', value: 'dislike|sushi', extractor })], new Map([[love.key, love]]), new Set());

    // then
    expect(op).toMatchObject({ op: 'record', confidence, supersedes: love });
  });

  it('supersedes a same-stance preference with another value at the initial confidence', () => {
    const a = row({ type: 'PREFERENCE', key: 'pref:music:jazz', value: 'like|jazz' });
    const [op] = decideWrites([cand({ type: 'PREFERENCE', key: 'pref:music:jazz', value: 'like|jazz ' + 'music' })], new Map([[a.key, a]]), new Set());
    expect(op).toMatchObject({ op: 'record', confidence: 0.6, supersedes: a });
  });

  it('does not store a suppressed key', () => {
    const [op] = decideWrites([cand({ key: 'fact:occupation', value: 'nurse' })], new Map(), new Set(['fact:occupation']));
    expect(op).toMatchObject({ op: 'suppressed' });
  });

  it('keeps one candidate per key, the LLM one over the heuristic one', () => {
    // when
    const merged = mergeCandidates([
      cand({ key: 'fact:current_city', value: 'seoul' }),
      cand({ key: 'fact:current_city', value: 'busan', extractor: 'llm' }),
      cand({ key: 'fact:current_city', value: 'daegu' }),
      cand({ key: 'fact:occupation', value: 'nurse' }),
    ]);

    // then
    expect(merged.map((c) => [c.key, c.value])).toEqual([
      ['fact:current_city', 'busan'],
      ['fact:occupation', 'nurse'],
    ]);
  });

  it("keeps a stated time when the LLM's reading of the key, which states none, wins", () => {
    // given the rules dated the event, the LLM read the same key without a date
    const key = 'event:family:2026_05:visited_grandma';
    const yesterday = { on: '2026-05-09', precision: 'day', text: 'yesterday' } as const;
    const lastWeek = { on: '2026-05-04', precision: 'week', text: 'last week' } as const;

    // when
    const merged = mergeCandidates([
      cand({ type: 'RELATIONSHIP_EVENT', key, value: 'visited grandma', occurred: yesterday }),
      cand({ type: 'RELATIONSHIP_EVENT', key, value: 'visited my grandma', extractor: 'llm' }),
      cand({ type: 'RELATIONSHIP_EVENT', key, value: 'grandma', occurred: lastWeek }),
      cand({ key: 'fact:occupation', value: 'nurse' }),
    ]);

    // then: the LLM's value with the first stated time; an undated key stays undated
    expect(merged).toEqual([
      { type: 'RELATIONSHIP_EVENT', key, value: 'visited my grandma', extractor: 'llm', occurred: yesterday },
      { type: 'FACT', key: 'fact:occupation', value: 'nurse', extractor: 'heuristic' },
    ]);
  });

  it('records a stated time with the candidate; a confirmation leaves the record as it is', () => {
    // given a dated event already recorded
    const key = 'event:family:2026_05:visited_grandma';
    const dated = cand({ type: 'RELATIONSHIP_EVENT', key, value: 'visited grandma', occurred: { on: '2026-05-09', precision: 'day', text: 'yesterday' } });
    const active = new Map([[key, row({ type: 'RELATIONSHIP_EVENT', key, value: 'visited grandma' })]]);

    // when told again, with another time in the same month
    const [first] = decideWrites([dated], new Map(), new Set());
    const [again] = decideWrites([{ ...dated, occurred: { on: '2026-05-01', precision: 'month', text: 'in may' } }], active, new Set());

    // then
    expect(first).toMatchObject({ op: 'record', candidate: { occurred: { on: '2026-05-09', precision: 'day', text: 'yesterday' } } });
    expect(again).toMatchObject({ op: 'confirm', memory: { memoryId: 'm-1' }, confidence: 0.75 });
  });
});
