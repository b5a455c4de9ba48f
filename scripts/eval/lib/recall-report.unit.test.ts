import { evaluateConversation, totals } from './recall-metrics.js';
import { renderRecallReport, summaryLine, typesText, type RecallConversationReport, type RecallReport } from './recall-report.js';

const recall = evaluateConversation({
  sampleId: 'conv-x',
  user: 'Ann',
  turns: [{ diaId: 'D1:1', text: 'I went to a beekeeping workshop', surfaced: [{ memoryId: 'm1', value: 'went to a beekeeping workshop' }] }],
  kept: [{ memory_id: 'm1', type: 'RELATIONSHIP_EVENT', memory_key: 'k', memory_value: 'went to a beekeeping workshop', status: 'ACTIVE', source_message_ids: ['msg-1'] }],
  all: [],
  statedDates: new Map(),
  asked: [
    {
      item: { id: 'locomo_0_qa0', category: 2, question: 'When did Ann go to the beekeeping workshop?', answer: '10 June 2023', evidence: ['D1:1'] },
      question: 'Do you remember: when did I go to the beekeeping workshop?',
      evidenceMessageIds: ['msg-1'],
      refMs: Date.UTC(2023, 5, 11),
      ok: true,
      reply: 'You went to the beekeeping workshop!',
      surfacedMemoryIds: ['m1'],
      retrievedMemoryIds: ['m1'],
    },
  ],
});
const conversation: RecallConversationReport = {
  ...recall,
  plannedTurns: 1,
  turnsOk: 1,
  skipped: { adversarial: 0, noEvidence: 0, notUsersTurns: 0, audited: 0, notReplayed: 0 },
  datesFrom: 'memories',
  shift: { years: 4, days: 1461 },
  turns: [],
};
const report: RecallReport = {
  startedAt: '2026-11-26T00:00:00.000Z',
  target: { mode: 'external', url: 'http://127.0.0.1:8080' },
  data: { file: 'locomo10.json', conversations: [1], maxTurns: 40, lineGapSeconds: 30, questionGapSeconds: 30 },
  wallMs: 1000,
  interrupted: false,
  conversations: [conversation],
  totals: totals([conversation]),
  http: { requests: 10, errors: 0, rateLimited: 0, byKind: {} },
};

describe('renderRecallReport', () => {
  const text = renderRecallReport(report);

  it('has a row per conversation, the total and the categories', () => {
    expect(text).toMatch(/^conv-x\s+Ann\s+1\s+1\s+1\s+100\.0 % \(1\/1\)\s+100\.0 % \(1\/1\)/m);
    expect(text).toMatch(/^total\s+1\s+1\s+1\s+100\.0 % \(1\/1\)/m);
    expect(text).toMatch(/^temporal\s+1\s+100\.0 % \(1\/1\)/m);
  });

  it('ends with the summary line', () => {
    expect(text.split('\n').at(-1)).toBe(summaryLine(report));
    expect(summaryLine(report)).toBe(
      'eval:recall conversations 1: extraction coverage 100.0 %, surfaced recall 100.0 % of 1 questions; surfaced precision 100.0 % of 1 surfaced in 1 turns; ' +
        'temporal dates 0.0 % of 1; answer presence 0.0 %; 1 memories kept',
    );
  });
});

describe('typesText', () => {
  it('lists the spec’s types first', () => {
    expect(typesText({ OTHER: 1, PREFERENCE: 2, FACT: 3 })).toBe('FACT 3, PREFERENCE 2, OTHER 1');
    expect(typesText({})).toBe('—');
  });
});
