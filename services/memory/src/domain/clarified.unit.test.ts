import { randomUUID } from 'node:crypto';
import { clarifiedSides, decideClarified, type ResolvedSide } from './clarified.js';

const FRIEND = randomUUID();

function side(over: Partial<ResolvedSide>): ResolvedSide {
  return {
    memoryId: randomUUID(),
    aiFriendId: FRIEND,
    type: 'FACT',
    key: 'fact:current_city',
    value: 'seoul',
    confidence: 0.75,
    status: 'SUPERSEDED',
    topicIds: [],
    occurredOn: null,
    occurredPrecision: null,
    occurredText: null,
    ...over,
  };
}

const none = new Set<string>();
const resolution = { sourceMessageId: randomUUID() };

describe('clarifiedSides', () => {
  it('takes the two memory ids of a user_clarified or evidence_resolved resolution only', () => {
    const [a, b] = [randomUUID(), randomUUID()];
    expect(clarifiedSides({ strategy: 'user_clarified', winnerId: a, loserId: b })).toEqual({ winnerId: a, loserId: b });
    expect(clarifiedSides({ strategy: 'evidence_resolved', winnerId: a.toUpperCase(), loserId: b })).toEqual({ winnerId: a, loserId: b });
    expect(clarifiedSides({ strategy: 'temporal_supersede', winnerId: a, loserId: b })).toBeNull();
    expect(clarifiedSides({ strategy: 'confidence_dominance', winnerId: a, loserId: b })).toBeNull();
    expect(clarifiedSides({ strategy: 'user_clarified', winnerId: '', loserId: b })).toBeNull();
    expect(clarifiedSides({ strategy: 'user_clarified', winnerId: a, loserId: 'not-an-id' })).toBeNull();
    expect(clarifiedSides({ strategy: 'user_clarified', winnerId: a, loserId: a })).toBeNull();
  });
});

describe('decideClarified (Conversational Clarification: the winner holds, the loser is superseded)', () => {
  it('records a superseded winner again over the ACTIVE loser of its key, as it was', () => {
    const winner = side({ topicIds: ['WORK_SCHOOL'], occurredOn: '2026-05-01', occurredPrecision: 'month', occurredText: 'last may' });
    const loser = side({ value: 'busan', status: 'ACTIVE', confidence: 0.6 });
    expect(decideClarified(resolution, 'new-id', winner, loser, none)).toEqual({
      memoryId: 'new-id',
      aiFriendId: FRIEND,
      type: 'FACT',
      memoryKey: 'fact:current_city',
      memoryValue: 'seoul',
      confidence: 0.75,
      extractor: 'clarified',
      sourceMessageId: resolution.sourceMessageId,
      supersedes: loser.memoryId,
      topicIds: ['WORK_SCHOOL'],
      embeddingText: 'current city lives in: seoul',
      occurredOn: '2026-05-01',
      occurredPrecision: 'month',
      occurredText: 'last may',
    });
  });

  it('records nothing when the winner is ACTIVE already, or the sides are not one key of one companion, or the key is suppressed', () => {
    const loser = side({ value: 'busan', status: 'ACTIVE' });
    expect(decideClarified(resolution, 'x', side({ status: 'ACTIVE' }), loser, none)).toBeNull();
    expect(decideClarified(resolution, 'x', side({ status: 'INVALID', value: '' }), loser, none)).toBeNull();
    expect(decideClarified(resolution, 'x', side({}), side({ status: 'SUPERSEDED' }), none)).toBeNull();
    expect(decideClarified(resolution, 'x', side({ key: 'fact:home_city' }), loser, none)).toBeNull();
    expect(decideClarified(resolution, 'x', side({ aiFriendId: randomUUID() }), loser, none)).toBeNull();
    expect(decideClarified(resolution, 'x', undefined, loser, none)).toBeNull();
    expect(decideClarified(resolution, 'x', side({}), undefined, none)).toBeNull();
    expect(decideClarified(resolution, 'x', side({}), loser, new Set(['fact:current_city']))).toBeNull();
  });
});
