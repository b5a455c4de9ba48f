import { orchestrator } from '@hearth/proto';
import type { Candidate } from './types.js';
import { deriveId } from '@hearth/events';
import { decideWriteback, statedFields, writebackEvents, writebackReads, writebackTurnOf, type StoredMemory, type WritebackState, type WritebackTurn } from './writeback.js';

const AT = new Date('2026-11-22T10:00:00Z');
const MONTH_AGO = new Date(AT.getTime() - 30 * 24 * 3600 * 1000);

function record(memoryId: string, key: string, value: string, over: Partial<StoredMemory> = {}): StoredMemory {
  const type = key.startsWith('fact:') ? 'FACT' : 'PREFERENCE';
  return { memoryId, aiFriendId: 'f1', type, key, value, confidence: 0.6, status: 'ACTIVE', createdAt: MONTH_AGO, lastConfirmedAt: MONTH_AGO, topicIds: [], ...over };
}

// Every record of the user: the companion's, another companion's, superseded ones, and some no turn names.
const RECORDS = [
  record('city', 'fact:current_city', 'busan', { topicIds: ['TRAVEL'] }),
  record('old-city', 'fact:current_city', 'seoul', { status: 'SUPERSEDED' }),
  record('sushi', 'pref:food:sushi', 'like|sushi', { topicIds: ['FOOD'] }),
  record('sushi-f2', 'pref:food:sushi', 'like|sushi', { aiFriendId: 'f2' }),
  record('ramen', 'pref:food:ramen', 'like|ramen'),
  record('jazz', 'pref:music:jazz', 'like|jazz', { topicIds: ['ENTERTAINMENT'] }),
];

/** A TurnCompleted as the write-back reads it. */
function turn(userText: string, over: Partial<orchestrator.TurnCompleted> = {}, memoryWritePolicy = 'SELECTIVE'): WritebackTurn {
  const base = { messageId: 'm1', conversationId: 'c1', assistantMessageId: 'a1', aiFriendId: 'f1', source: 'chat', assistantText: 'Okay.', routing: { memoryWritePolicy } };
  return writebackTurnOf(orchestrator.TurnCompleted.fromPartial({ ...base, userText, ...over }));
}

const LONG = `i love sushi. ${'we talked for a long time about food and places and everything else that came up on the way home. '.repeat(2)}`;

describe('writebackReads: the records the live write-back loads are all the decision reads', () => {
  const cases: { name: string; turn: WritebackTurn; previous?: WritebackState['previous']; extracted?: Candidate[] }[] = [
    { name: 'a heuristic confirmation, topics from what the reply surfaced', turn: turn('i live in busan', { surfacedMemoryIds: ['jazz'] }) },
    { name: '"not true" of what the previous reply surfaced', turn: turn("that's not true"), previous: { surfacedMemoryIds: ['sushi'], topicIds: [] } },
    { name: '"forget X" by key, this companion only', turn: turn('forget that i like sushi'), previous: { surfacedMemoryIds: ['jazz'], topicIds: [] } },
    { name: '"don\'t bring this topic up again"', turn: turn("don't bring this topic up again"), previous: { surfacedMemoryIds: [], topicIds: ['FOOD'] } },
    { name: 'a retention turn', turn: turn('', { source: 'retention', surfacedMemoryIds: ['sushi'] }) },
    { name: 'write policy NONE', turn: turn('i live in busan', {}, 'NONE') },
    {
      name: "the LLM extractor's candidates, whose keys are loaded after it answered",
      turn: turn(LONG),
      extracted: [{ type: 'PREFERENCE', key: 'pref:food:ramen', value: 'like|ramen', extractor: 'llm' }],
    },
  ];

  it.each(cases)('$name', ({ turn: t, previous = null, extracted = [] }) => {
    const full: WritebackState = { records: new Map(RECORDS.map((r) => [r.memoryId, r])), suppressedKeys: new Set(), previous };
    const reads = writebackReads(t, AT, previous);
    const loaded = (keys: readonly string[]): WritebackState => ({
      ...full,
      records: new Map(RECORDS.filter((r) => reads.ids.includes(r.memoryId) || keys.includes(r.key)).map((r) => [r.memoryId, r])),
    });

    // As the shell does it: decide, ask the extractor if the gate fires, load its keys too, decide again.
    let state = loaded(reads.keys);
    let decision = decideWriteback('turn-1', t, AT, state, null);
    if (decision.extractionMissing) {
      state = loaded([...reads.keys, ...extracted.map((c) => c.key)]);
      decision = decideWriteback('turn-1', t, AT, state, extracted);
    }

    expect(state.records.size).toBeLessThan(full.records.size);
    expect(decision).toEqual(decideWriteback('turn-1', t, AT, full, decision.written.llmRan ? extracted : null));
  });

  it('decides something in each case, so the comparison above compares something', () => {
    const full: WritebackState = { records: new Map(RECORDS.map((r) => [r.memoryId, r])), suppressedKeys: new Set(), previous: null };
    const surfaced = (ids: string[]) => ({ ...full, previous: { surfacedMemoryIds: ids, topicIds: [] } });
    expect(decideWriteback('t', turn('i live in busan', { surfacedMemoryIds: ['jazz'] }), AT, full, null).written).toMatchObject({
      candidates: [expect.objectContaining({ outcome: 'confirmed', memoryId: 'city' })],
      topicIds: expect.arrayContaining(['ENTERTAINMENT']),
    });
    expect(decideWriteback('t', turn("that's not true"), AT, surfaced(['sushi']), null).written.invalidatedMemoryIds).toEqual(['sushi']);
    expect(decideWriteback('t', turn('forget that i like sushi'), AT, surfaced(['jazz']), null).written.invalidatedMemoryIds).toEqual(['sushi']);
    const llm = decideWriteback('t', turn(LONG), AT, full, [{ type: 'PREFERENCE', key: 'pref:food:ramen', value: 'like|ramen', extractor: 'llm' }]);
    expect(llm.confirmed.map((c) => c.memoryId)).toEqual(['sushi', 'ramen']);
  });
});

describe('decideWriteback: the time the user stated goes with the record', () => {
  const key = 'event:family:2026_11:visited_grandma';
  const dated: Candidate = {
    type: 'RELATIONSHIP_EVENT',
    key,
    value: 'visited grandma',
    extractor: 'offline',
    occurred: { on: '2026-11-21', precision: 'day', text: 'yesterday' },
  };

  it('records occurred_on, _precision and _text from the candidate, "" for a candidate without one', () => {
    // given
    const empty: WritebackState = { records: new Map(), suppressedKeys: new Set(), previous: null };

    // when: the gate asked the extractor, which dated the event
    const d = decideWriteback('turn-1', turn(LONG), AT, empty, [dated]);

    // then
    const byKey = new Map(d.recorded.map((r) => [r.memoryKey, r]));
    expect(byKey.get(key)).toMatchObject({ type: 'RELATIONSHIP_EVENT', memoryValue: 'visited grandma', occurredOn: '2026-11-21', occurredPrecision: 'day', occurredText: 'yesterday' });
    expect(byKey.get('pref:food:sushi')).toMatchObject({ occurredOn: '', occurredPrecision: '', occurredText: '' });
    expect(statedFields(undefined)).toEqual({ occurredOn: '', occurredPrecision: '', occurredText: '' });
  });

  it('confirms a dated record without a time: the record keeps the first one', () => {
    // given the event recorded, undated or not, and told again with another time
    const recorded = record('grandma', key, 'visited grandma', { type: 'RELATIONSHIP_EVENT' });
    const state: WritebackState = { records: new Map([[recorded.memoryId, recorded]]), suppressedKeys: new Set(), previous: null };

    // when
    const d = decideWriteback('turn-2', turn(LONG), AT, state, [{ ...dated, occurred: { on: '2026-11-01', precision: 'month', text: 'this month' } }]);

    // then
    expect(d.recorded.map((r) => r.memoryKey)).not.toContain(key);
    expect(d.confirmed).toContainEqual({ memoryId: 'grandma', sourceMessageId: 'm1', confidence: 0.75, extractor: 'offline' });
  });
});

describe('write-back: given the memory state, when a turn completed, then these events', () => {
  const NONE = { vectors: new Map<string, number[]>(), embeddingModel: 'stub-embed', exchanges: [] };
  const state = (over: Partial<WritebackState> = {}): WritebackState => ({ records: new Map(RECORDS.map((r) => [r.memoryId, r])), suppressedKeys: new Set(), previous: null, ...over });
  /** The shell's path without the extractor: decide, then the events. */
  const eventsOf = (t: WritebackTurn, s: WritebackState, computed = NONE) => writebackEvents('turn-1', 'written-1', AT, decideWriteback('turn-1', t, AT, s, null), computed);

  it('confirms a fact told again: MemoryConfirmed under an id from the turn and key, then TurnMemoryWritten', () => {
    const events = eventsOf(turn('i live in busan'), state());
    expect(events.map((e) => [e.type, e.id])).toEqual([
      ['MemoryConfirmed', deriveId('memory', 'turn-1', 'confirm', 'fact:current_city')],
      ['TurnMemoryWritten', 'written-1'],
    ]);
    expect(events[0]!.payload).toMatchObject({ memoryId: 'city', sourceMessageId: 'm1' });
    expect(events[1]!.payload).toMatchObject({ turnAt: AT, exchanges: [], candidates: [expect.objectContaining({ outcome: 'confirmed', memoryId: 'city' })] });
  });

  it('records a new fact with its vector when the embedder answered, and without one when it did not', () => {
    const id = deriveId('memory', 'turn-1', 'record', 'pref:music:kpop');
    const withVector = eventsOf(turn('i love kpop'), state(), { ...NONE, vectors: new Map([['pref:music:kpop', [0.1, 0.2]]]) });
    expect(withVector.map((e) => [e.type, e.id])).toEqual([['MemoryRecorded', id], ['TurnMemoryWritten', 'written-1']]);
    expect(withVector[0]!.payload).toMatchObject({ memoryId: id, memoryKey: 'pref:music:kpop', embedding: [0.1, 0.2], embeddingModel: 'stub-embed' });
    expect(eventsOf(turn('i love kpop'), state())[0]!.payload).toMatchObject({ embedding: [], embeddingModel: '' });
  });

  it('supersedes a fact told with a new value: the new record names the old one', () => {
    const events = eventsOf(turn('i live in daegu'), state());
    expect(events.map((e) => e.type)).toEqual(['MemoryRecorded', 'TurnMemoryWritten']);
    expect(events[0]!.payload).toMatchObject({ memoryKey: 'fact:current_city', memoryValue: 'daegu', supersedes: 'city' });
  });

  it('"that\'s not true" of what the previous reply surfaced: MemoriesInvalidated, nothing extracted', () => {
    const events = eventsOf(turn("that's not true"), state({ previous: { surfacedMemoryIds: ['sushi'], topicIds: [] } }));
    expect(events.map((e) => e.type)).toEqual(['MemoriesInvalidated', 'TurnMemoryWritten']);
    expect(events[0]).toMatchObject({ id: deriveId('memory', 'turn-1', 'invalidate', 'pref:food:sushi'), payload: { memoryIds: ['sushi'], sourceMessageId: 'm1' } });
    expect(events[1]!.payload).toMatchObject({ invalidatedMemoryIds: ['sushi'], heuristicRan: false });
  });

  it('a suppressed key is neither recorded nor confirmed; the turn is still closed', () => {
    const events = eventsOf(turn('i love kpop'), state({ suppressedKeys: new Set(['pref:music:kpop']) }));
    expect(events.map((e) => e.type)).toEqual(['TurnMemoryWritten']);
    expect(events[0]!.payload).toMatchObject({ candidates: [expect.objectContaining({ memoryKey: 'pref:music:kpop', outcome: 'suppressed', memoryId: '' })] });
  });

  it('a retention turn writes nothing but closes the turn with what it surfaced', () => {
    const events = eventsOf(turn('', { source: 'retention', surfacedMemoryIds: ['sushi'] }), state());
    expect(events.map((e) => e.type)).toEqual(['TurnMemoryWritten']);
    expect(events[0]!.payload).toMatchObject({ skipped: 'retention', surfacedMemoryIds: ['sushi'], topicIds: ['FOOD'] });
  });

  it('keeps the extractor\'s exchanges in TurnMemoryWritten, so replay asks nothing', () => {
    const exchange = { provider: 'stub', model: 'm', purpose: 'memory_extraction', attempt: 1, messages: [], output: '[]', error: '', latencyMs: 3, seed: 7 };
    const decision = decideWriteback('turn-1', turn(LONG), AT, state(), []);
    const events = writebackEvents('turn-1', 'written-1', AT, decision, { ...NONE, exchanges: [exchange as never] });
    expect(events.at(-1)!.payload).toMatchObject({ llmRan: true, exchanges: [expect.objectContaining({ purpose: 'memory_extraction', output: '[]' })] });
  });
});
