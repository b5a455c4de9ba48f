import type { EventType, StoredEvent } from '@hearth/bus';
import { deriveId, Events } from '@hearth/events';
import { memory, orchestrator } from '@hearth/proto';
import { storedEvent } from '@hearth/testing';
import { offlineOutput } from '../adapters/llm-extractor.js';
import { CONFIDENCE, LLM_EXTRACTION_GATE, OFFLINE_EXTRACTOR } from '../config.js';
import { extractOffline } from '@hearth/memory-rules';
import type { Candidate } from '../domain/types.js';
import { createWritebackReplay, decideWriteback, reWriteBack, type RecordedWriteback, type WritebackDecision, type WritebackState, type WritebackTurn } from './audit.js';

const AT = new Date('2026-11-22T10:00:00Z');
const EMPTY: WritebackState = { records: new Map(), suppressedKeys: new Set(), previous: null };

function turn(userText: string, over: Partial<WritebackTurn> = {}): WritebackTurn {
  return {
    messageId: 'm1',
    conversationId: 'c1',
    assistantMessageId: 'a1',
    aiFriendId: 'f1',
    source: 'chat',
    userText,
    assistantText: 'Okay.',
    surfacedMemoryIds: [],
    memoryWritePolicy: 'SELECTIVE',
    valence: 0,
    tags: [],
    ...over,
  };
}

/** A decision as the write-back appends it (an embedding on each record, the exchanges), through the wire format. */
function recordedOf(d: WritebackDecision, exchanges: orchestrator.LlmExchange[] = []): RecordedWriteback {
  const wire = <T>(type: { encode(v: T): Uint8Array; decode(b: Uint8Array): T }, v: T) => type.decode(type.encode(v));
  return {
    invalidated: d.invalidated.map((i) => wire(Events.MemoriesInvalidated, i)),
    recorded: d.recorded.map((r) => wire(Events.MemoryRecorded, { ...r, embedding: [0.5, 0.25], embeddingModel: 'hearth-hash-v1' })),
    confirmed: d.confirmed.map((c) => wire(Events.MemoryConfirmed, c)),
    written: wire(Events.TurnMemoryWritten, memory.TurnMemoryWritten.fromPartial({ ...d.written, exchanges, turnAt: AT })),
  };
}

const RECORD_ID = deriveId('memory', 'turn-1', 'record', 'fact:current_city');

describe("reWriteBack: a recorded write-back under today's §12 rules", () => {
  it('finds nothing to change in a write-back decided today, and names each field a changed confidence rule changes', () => {
    const t = turn('i live in busan');
    const today = decideWriteback('turn-1', t, AT, EMPTY, null);
    expect(today.recorded).toEqual([expect.objectContaining({ memoryId: RECORD_ID, memoryKey: 'fact:current_city', memoryValue: 'busan', confidence: 0.6, extractor: 'heuristic', supersedes: '' })]);
    expect(today.written).toMatchObject({ heuristicRan: true, llmRan: false, extractedMemoryCandidateIds: [RECORD_ID], candidates: [expect.objectContaining({ outcome: 'recorded' })] });
    const recorded = recordedOf(today);
    expect(reWriteBack('turn-1', t, AT, EMPTY, recorded)).toEqual([]);

    const heuristic = CONFIDENCE.heuristic;
    (CONFIDENCE as { heuristic: number }).heuristic = 0.5;
    try {
      const changes = reWriteBack('turn-1', t, AT, EMPTY, recorded);
      expect(changes.map((c) => c.field)).toEqual(['records']);
      expect(changes[0]!.before).toEqual([expect.objectContaining({ confidence: 0.6 })]);
      expect(changes[0]!.after).toEqual([expect.objectContaining({ confidence: 0.5 })]);
    } finally {
      (CONFIDENCE as { heuristic: number }).heuristic = heuristic;
    }
  });

  it("reads the recorded LLM extraction (fenced JSON, today's §12.3.1 acceptance) and never asks for one it does not have", () => {
    const t = turn(`i love sushi. ${'the weather was grey and the streets were quiet for most of the long afternoon outside the station. '.repeat(2)}`);
    const output = '```json\n{"memories":[{"type":"PREFERENCE","memory_key":"pref:food:ramen","memory_value":"like|ramen"},{"type":"FACT","memory_key":"pref:bad","memory_value":"x"}]}\n```';
    const exchange = orchestrator.LlmExchange.fromPartial({ provider: 'openai-compatible', purpose: 'memory-extraction', attempt: 1, output, error: '' });
    const extracted: Candidate[] = [{ type: 'PREFERENCE', key: 'pref:food:ramen', value: 'like|ramen', extractor: 'llm' }];
    const today = decideWriteback('turn-1', t, AT, EMPTY, extracted);
    expect(today.written).toMatchObject({ llmRan: true, llmReasons: ['length'] });
    expect(today.recorded.map((r) => [r.memoryKey, r.extractor, r.confidence])).toEqual([
      ['pref:food:sushi', 'heuristic', 0.6],
      ['pref:food:ramen', 'llm', 0.75],
    ]);
    expect(reWriteBack('turn-1', t, AT, EMPTY, recordedOf(today, [exchange]))).toEqual([]);

    // A message the gate let through to the heuristic alone, under a gate that would now ask the LLM.
    const short = turn('i live in busan');
    const recorded = recordedOf(decideWriteback('turn-1', short, AT, EMPTY, null));
    const minChars = LLM_EXTRACTION_GATE.minChars;
    (LLM_EXTRACTION_GATE as { minChars: number }).minChars = 5;
    try {
      expect(reWriteBack('turn-1', short, AT, EMPTY, recorded)).toEqual([
        { field: 'llmRan', before: false, after: true },
        { field: 'llmReasons', before: [], after: ['length'] },
        { field: 'candidates', before: recorded.written.candidates, after: 'the LLM extractor would be asked (no recorded output)' },
      ]);
    } finally {
      (LLM_EXTRACTION_GATE as { minChars: number }).minChars = minChars;
    }
  });
});

describe('reWriteBack: stated times', () => {
  it("re-reads the time the offline rules stated from their recorded output, and names a record whose time today's rules would not state", () => {
    // given a long message the gate sends to the offline rules, which (here) dated an event
    const t = turn(`we went out. ${'the weather was grey and the streets were quiet for most of the long afternoon outside the station. '.repeat(2)}`);
    const dated: Candidate = { type: 'RELATIONSHIP_EVENT', key: 'event:family:2026_11:visited_grandma', value: 'visited my grandma', extractor: 'offline', occurred: { on: '2026-11-21', precision: 'day', text: 'yesterday' } };
    const exchange = (candidates: Candidate[]) => orchestrator.LlmExchange.fromPartial({ ...OFFLINE_EXTRACTOR, purpose: 'memory-extraction', attempt: 1, output: offlineOutput(candidates), error: '' });
    const today = decideWriteback('turn-1', t, AT, EMPTY, [dated]);
    expect(today.recorded).toContainEqual(expect.objectContaining({ memoryKey: dated.key, occurredOn: '2026-11-21', occurredPrecision: 'day', occurredText: 'yesterday' }));

    // when / then: through the wire, the same decision again
    expect(reWriteBack('turn-1', t, AT, EMPTY, recordedOf(today, [exchange([dated])]))).toEqual([]);

    // and a record whose stated time the recorded output no longer gives differs in its records
    const undated = reWriteBack('turn-1', t, AT, EMPTY, recordedOf(today, [exchange([{ ...dated, occurred: undefined }])]));
    expect(undated.map((c) => c.field)).toEqual(['records']);
    expect(undated[0]!.after).toContainEqual(expect.objectContaining({ memoryKey: dated.key, occurredOn: '', occurredText: '' }));
  });
});

describe("createWritebackReplay: memory's state folded as the projection folds it", () => {
  let seq = 0;
  const stored = <T>(type: EventType<T>, value: T, over: Partial<StoredEvent> = {}): StoredEvent =>
    storedEvent(type, value, { id: `e${++seq}`, seq, userId: 'u1', occurredAt: AT, ...over });
  const completed = (t: WritebackTurn, id: string, occurredAt = AT) =>
    stored(
      Events.TurnCompleted,
      orchestrator.TurnCompleted.fromPartial({ ...t, routing: { memoryWritePolicy: t.memoryWritePolicy }, emotion: { valence: t.valence, tags: t.tags } }),
      { id, occurredAt },
    );
  /** The memory events of a write-back as the reactor appends them, caused by the turn's event. */
  function appended(d: WritebackDecision, turnEventId: string, exchanges: orchestrator.LlmExchange[] = [], occurredAt = AT): StoredEvent[] {
    const r = recordedOf(d, exchanges);
    const meta = { causationId: turnEventId, occurredAt };
    return [
      ...r.invalidated.map((p) => stored(Events.MemoriesInvalidated, p, meta)),
      ...r.recorded.map((p) => stored(Events.MemoryRecorded, p, meta)),
      ...r.confirmed.map((p) => stored(Events.MemoryConfirmed, p, meta)),
      stored(Events.TurnMemoryWritten, r.written, meta),
    ];
  }

  it('replays a record, its confirmation and a correction of it with nothing to change, and shows a write-back that no longer fits', () => {
    const replay = createWritebackReplay();
    const first = turn('i live in busan', { messageId: 'm1', assistantMessageId: 'a1' });
    const again = turn('i live in busan', { messageId: 'm2', assistantMessageId: 'a2', surfacedMemoryIds: [deriveId('memory', 't1', 'record', 'fact:current_city')] });
    const notTrue = turn("that's not true", { messageId: 'm3', assistantMessageId: 'a3' });
    const turns = [completed(first, 't1'), completed(again, 't2'), completed(notTrue, 't3')];
    for (const e of turns) replay.turn(e);

    // What the live write-back decided, turn by turn, on the state before each.
    const d1 = decideWriteback('t1', first, AT, EMPTY, null);
    const id = d1.recorded[0]!.memoryId;
    const afterFirst: WritebackState = {
      records: new Map([[id, { memoryId: id, aiFriendId: 'f1', type: 'FACT', key: 'fact:current_city', value: 'busan', confidence: 0.6, status: 'ACTIVE', createdAt: AT, lastConfirmedAt: AT, topicIds: [] }]]),
      suppressedKeys: new Set(),
      previous: { surfacedMemoryIds: [], topicIds: d1.written.topicIds },
    };
    // The key again within 7 days: §12.2 asks the extractor (here the offline rules) too.
    const offline = extractOffline(again.userText, AT);
    const exchange = orchestrator.LlmExchange.fromPartial({
      ...OFFLINE_EXTRACTOR,
      purpose: 'memory-extraction',
      output: offlineOutput(offline),
    });
    const d2 = decideWriteback('t2', again, AT, afterFirst, offline);
    expect(d2.written.llmReasons).toEqual(['repeat_key']);
    expect(d2.confirmed).toEqual([{ memoryId: id, sourceMessageId: 'm2', confidence: 0.75, extractor: 'heuristic' }]);
    const d3 = decideWriteback('t3', notTrue, AT, { ...afterFirst, previous: { surfacedMemoryIds: [id], topicIds: d2.written.topicIds } }, null);
    expect(d3.invalidated).toEqual([{ memoryIds: [id], suppressedKey: 'fact:current_city', reason: 'not_true', sourceMessageId: 'm3' }]);

    const decided = [...appended(d1, 't1'), ...appended(d2, 't2', [exchange]), ...appended(d3, 't3')].map((e) => replay.memory(e, true)).filter((r) => r !== null);
    expect(decided).toEqual([
      { messageId: 'm1', changes: [] },
      { messageId: 'm2', changes: [] },
      { messageId: 'm3', changes: [] },
    ]);

    // The same message a week later, now that the key is suppressed: recorded as a new memory, it would be suppressed today.
    const later = new Date(AT.getTime() + 8 * 24 * 3600 * 1000);
    const fourth = turn('i live in busan', { messageId: 'm4', assistantMessageId: 'a4' });
    replay.turn(completed(fourth, 't4', later));
    const [changes] = appended(decideWriteback('t4', fourth, later, EMPTY, null), 't4', [], later)
      .map((e) => replay.memory(e, true))
      .filter((r) => r !== null);
    expect(changes!.changes.map((c) => c.field)).toEqual(['candidates', 'extractedMemoryCandidateIds', 'records']);
    expect(changes!.changes[0]!.after).toEqual([expect.objectContaining({ memoryKey: 'fact:current_city', outcome: 'suppressed' })]);
  });
});
