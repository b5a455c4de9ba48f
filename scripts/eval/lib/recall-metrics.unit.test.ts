import { evaluateConversation, headline, totals, type AskedItem, type ConversationInput, type MemoryView } from './recall-metrics.js';
import type { RecallItem } from './recall-items.js';

const REF = Date.UTC(2023, 5, 11, 16, 18);

function memory(id: string, value: string, sources: string[], extra: Partial<MemoryView> = {}): MemoryView {
  return { memory_id: id, type: 'FACT', memory_key: `fact:${id}`, memory_value: value, status: 'ACTIVE', source_message_ids: sources, ...extra };
}

function item(id: string, category: number, answer: string, evidence: string[]): RecallItem {
  return { id, category, question: `Q ${id}?`, answer, evidence };
}

function asked(it: RecallItem, evidenceMessageIds: string[], reply: string | undefined, surfaced: string[] = [], retrieved: string[] = surfaced): AskedItem {
  return {
    item: it,
    question: `Do you remember: ${it.question}`,
    evidenceMessageIds,
    refMs: REF,
    ok: reply !== undefined,
    ...(reply !== undefined ? { reply } : {}),
    surfacedMemoryIds: surfaced,
    retrievedMemoryIds: retrieved,
    relevanceOf: Object.fromEntries(retrieved.map((id, i) => [id, 0.5 - i / 10])),
  };
}

describe('evaluateConversation', () => {
  // Given a replay that kept two memories: m1 (from turn msg-1, dated 10 June) and m2 (from msg-2, no date).
  const m1 = memory('m1', 'went to a beekeeping workshop', ['msg-1'], { type: 'RELATIONSHIP_EVENT', occurred_on: '2023-06-10', occurred_precision: 'day' });
  const m2 = memory('m2', 'saving up for a cello', ['msg-2'], { type: 'FACT' });
  const superseded = memory('m0', 'old value', ['msg-3'], { status: 'SUPERSEDED' });
  const input: ConversationInput = {
    sampleId: 'conv-x',
    user: 'Ann',
    turns: [
      { diaId: 'D1:1', text: 'I went to a beekeeping workshop yesterday', surfaced: [] },
      { diaId: 'D1:2', text: 'Thinking about cello teachers', surfaced: [{ memoryId: 'm2', value: 'saving up for a cello' }] },
      {
        diaId: 'D1:3',
        text: 'How was your weekend?',
        surfaced: [
          { memoryId: 'm1', value: 'went to a beekeeping workshop' },
          { memoryId: 'mx', value: null },
        ],
      },
    ],
    kept: [m1, m2],
    all: [m1, m2, superseded],
    statedDates: new Map(),
    asked: [
      // covered, surfaced, answer in the reply, date right
      asked(item('q0', 2, '10 June 2023', ['D1:1']), ['msg-1'], 'You went to the beekeeping workshop on 10 June 2023!', ['m1']),
      // covered (m2), retrieved but not surfaced, answer not in the reply
      asked(item('q1', 1, 'Cello lessons', ['D1:2']), ['msg-2'], 'Hmm, tell me more.', [], ['m2']),
      // not covered: only a superseded memory cites msg-3, but surfacing it counts as surfaced recall
      asked(item('q2', 4, 'Calligraphy', ['D1:3']), ['msg-3'], 'You love calligraphy', ['m0']),
      // covered temporal item with a duration answer: not datable
      asked(item('q3', 2, '6 years', ['D1:1']), ['msg-1'], undefined),
      // covered temporal item, its memory carries no date
      asked(item('q4', 2, 'The week before 30 June 2023', ['D1:2']), ['msg-2'], 'Not sure'),
    ],
  };

  const r = evaluateConversation(input);

  it('counts the memories kept, by type', () => {
    expect(r.memories).toEqual({ active: 2, byType: { RELATIONSHIP_EVENT: 1, FACT: 1 } });
  });

  it('extraction coverage and surfaced recall over every asked item', () => {
    expect(r.total).toEqual({ items: 5, covered: 4, answered: 4, surfacedCiting: 2, retrievedCiting: 3, answerChecked: 4, answerPresent: 2 });
    expect(r.items.map((i) => [i.id, i.covered, i.surfacedCiting, i.retrievedCiting])).toEqual([
      ['q0', true, true, true],
      ['q1', true, false, true],
      ['q2', false, true, true],
      ['q3', true, false, false],
      ['q4', true, false, false],
    ]);
    expect(r.items.map((i) => i.citingRelevance)).toEqual([0.5, 0.5, 0.5, undefined, undefined]);
  });

  it('tallies each category apart', () => {
    expect(r.byCategory['temporal']).toMatchObject({ items: 3, covered: 3, surfacedCiting: 1 });
    expect(r.byCategory['multi-hop']).toMatchObject({ items: 1, covered: 1, surfacedCiting: 0, answerPresent: 0, answerChecked: 1 });
    expect(r.byCategory['single-hop']).toMatchObject({ items: 1, covered: 0, surfacedCiting: 1, answerPresent: 1 });
  });

  it('temporal dates over covered, datable items only', () => {
    expect(r.temporal).toEqual({ covered: 3, notDatable: 1, datable: 2, match: 1, coarser: 0, wrong: 0, undated: 1 });
    expect(r.items.find((i) => i.id === 'q3')?.temporal).toBe('not datable');
  });

  it('surfaced precision in ordinary turns: values sharing a content word, unknown values apart', () => {
    expect(r.precision).toEqual({ turns: 3, turnsSurfacing: 2, surfaced: 3, sharing: 1, unknownValue: 1 });
    expect(r.offTopic).toEqual([{ diaId: 'D1:3', text: 'How was your weekend?', memory: 'went to a beekeeping workshop' }]);
    expect(headline(r).surfacedPrecision).toBe(0.5);
  });

  it('takes the stated date from the timeline map when the memory list has none', () => {
    const dated = evaluateConversation({ ...input, statedDates: new Map([['m2', { on: '2023-06-26', precision: 'week' as const }]]) });
    expect(dated.temporal).toMatchObject({ datable: 2, match: 2, undated: 0 });
  });

  it('compares a stated date on the replay’s calendar moved back to the dataset’s, and as stored', () => {
    const ahead = memory('m1', 'went to a beekeeping workshop', ['msg-1'], { occurred_on: '2027-06-10', occurred_precision: 'day' });
    const shifted = evaluateConversation({ ...input, kept: [ahead, m2], shift: { years: 4, days: 1461 } });
    expect(shifted.items.find((i) => i.id === 'q0')).toMatchObject({ temporal: 'match', datasetDates: [{ on: '2023-06-10', precision: 'day' }] });
    expect(evaluateConversation({ ...input, kept: [ahead, m2] }).items.find((i) => i.id === 'q0')?.temporal).toBe('wrong');
    // As stored still counts: an absolute date the user stated needs no shift.
    expect(evaluateConversation({ ...input, shift: { years: 4, days: 1461 } }).temporal.match).toBe(1);
  });

  it('sums conversations into totals and computes shares from the sums', () => {
    const t = totals([r, r]);
    expect(t.conversations).toBe(2);
    expect(t.total.items).toBe(10);
    expect(t.byCategory['temporal']?.items).toBe(6);
    expect(t.memories).toEqual({ active: 4, byType: { RELATIONSHIP_EVENT: 2, FACT: 2 } });
    expect(headline(t)).toEqual({ coverage: 0.8, surfacedRecall: 0.4, surfacedPrecision: 0.5, temporalDates: 0.5, answerPresence: 0.5 });
  });

  it('has no share for an empty denominator', () => {
    const empty = evaluateConversation({ ...input, turns: [], asked: [] });
    expect(headline(empty)).toEqual({ coverage: undefined, surfacedRecall: undefined, surfacedPrecision: undefined, temporalDates: undefined, answerPresence: undefined });
  });
});
