import { decideCorrection, type CorrectionInput } from './corrections.js';
import type { MemoryRow } from './types.js';

const AT = new Date('2026-11-01T10:00:00Z');
const mem = (memoryId: string, key: string, status: MemoryRow['status'] = 'ACTIVE'): MemoryRow => ({
  memoryId,
  key,
  value: 'v',
  type: 'FACT',
  confidence: 0.6,
  status,
  createdAt: AT,
  lastConfirmedAt: AT,
});
const records = new Map(
  [mem('a', 'fact:current_city'), mem('b', 'pref:food:sushi'), mem('c', 'fact:occupation'), mem('d', 'fact:school', 'INVALID'), mem('e', 'fact:major')].map((m) => [m.memoryId, m]),
);
const input = (over: Partial<CorrectionInput>): CorrectionInput => ({
  command: { command: 'forget_that' },
  surfaced: [],
  records,
  targetKeys: [],
  namedTopics: [],
  previousTopics: [],
  ...over,
});

describe('decideCorrection (turn-pipeline §12.4)', () => {
  it('"that\'s not true" invalidates the LAST surfaced memory and suppresses its key', () => {
    const d = decideCorrection(input({ command: { command: 'not_true' }, surfaced: ['a', 'b'] }));
    expect(d).toEqual({
      correction: 'not_true',
      invalidations: [{ memoryIds: ['b'], key: 'pref:food:sushi', reason: 'not_true' }],
      clarificationNeeded: false,
      suppressTopicIds: [],
    });
  });

  it('"that\'s not true" with nothing surfaced invalidates nothing and asks which part is wrong', () => {
    const d = decideCorrection(input({ command: { command: 'not_true' }, surfaced: [] }));
    expect(d).toMatchObject({ invalidations: [], clarificationNeeded: true });
  });

  it('"forget that" invalidates the last surfaced memory, never the last extracted one', () => {
    // the last extracted memory (e) was not surfaced: the surfaced one (c) is the target
    const d = decideCorrection(input({ command: { command: 'forget_that' }, surfaced: ['c'] }));
    expect(d.invalidations).toEqual([{ memoryIds: ['c'], key: 'fact:occupation', reason: 'forget_that' }]);
    expect(d.clarificationNeeded).toBe(false);
  });

  it('"forget that" with nothing surfaced, or an already INVALID one, changes nothing', () => {
    expect(decideCorrection(input({ surfaced: [] })).invalidations).toEqual([]);
    expect(decideCorrection(input({ surfaced: ['d'] })).invalidations).toEqual([]);
  });

  it('"forget X" invalidates every ACTIVE memory of X\'s key', () => {
    const d = decideCorrection(input({ command: { command: 'forget_target', target: 'where i live' }, surfaced: ['b'], targetKeys: ['fact:current_city'] }));
    expect(d).toMatchObject({ correction: 'forget_key', invalidations: [{ memoryIds: ['a'], key: 'fact:current_city', reason: 'forget_key' }] });
  });

  it('"forget X" with no ACTIVE memory of that key falls back to the last surfaced one', () => {
    const d = decideCorrection(input({ command: { command: 'forget_target', target: 'my school' }, surfaced: ['b'], targetKeys: ['fact:school'] }));
    expect(d).toMatchObject({ correction: 'forget_that', invalidations: [{ memoryIds: ['b'], key: 'pref:food:sushi', reason: 'forget_that' }] });
  });

  it('"don\'t bring this topic up again" names the topics of the previous exchange, or the ones it names', () => {
    expect(decideCorrection(input({ command: { command: 'suppress_topic', target: '' }, previousTopics: ['WORK_SCHOOL', 'FAMILY', 'WORK_SCHOOL'] }))).toEqual({
      correction: 'suppress_topic',
      invalidations: [],
      clarificationNeeded: false,
      suppressTopicIds: ['FAMILY', 'WORK_SCHOOL'],
    });
    expect(
      decideCorrection(input({ command: { command: 'suppress_topic', target: 'politics' }, namedTopics: ['POLITICS'], previousTopics: ['FAMILY'] })).suppressTopicIds,
    ).toEqual(['POLITICS']);
  });
});
