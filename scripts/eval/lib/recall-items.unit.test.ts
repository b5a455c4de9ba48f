import { normalizeEvidence, parseConversationList, selectItems, sessionDateOf, sessionOf } from './recall-items.js';

const sample = {
  sample_id: 'conv-x',
  conversation: {
    speaker_a: 'Ann',
    speaker_b: 'Bo',
    session_1_date_time: '4:18 pm on 11 June, 2023',
    session_1: [
      { speaker: 'Ann', dia_id: 'D1:1', text: 'I went to a beekeeping workshop yesterday' },
      { speaker: 'Bo', dia_id: 'D1:2', text: 'Did you get stung?' },
      { speaker: 'Ann', dia_id: 'D1:3', text: 'Twice.' },
    ],
    session_2_date_time: '2:05 pm on 28 June, 2023',
    session_2: [{ speaker: 'Ann', dia_id: 'D2:1', text: 'I am saving up for a cello' }],
  },
  qa: [
    { question: 'When did Ann go to the beekeeping workshop?', answer: '10 June 2023', evidence: ['D1:1'], category: 2 },
    { question: 'What did Bo ask?', answer: 'Whether Ann got stung', evidence: ['D1:2'], category: 4 },
    { question: 'What is Ann saving up for?', answer: 'A cello', evidence: ['D2:1'], category: 1 },
    { question: 'What did Ann say about her bike?', adversarial_answer: 'nothing', evidence: ['D1:3'], category: 5 },
    { question: 'How many times did Ann get stung?', answer: 'Twice', evidence: [], category: 4 },
    { question: 'Which year?', answer: 2022, evidence: ['D1:1; D1:3'], category: 2 },
  ],
};

describe('selectItems', () => {
  it("asks only non-adversarial items whose evidence is all the user's turns, and none the audit found wrong", () => {
    const { items, skipped } = selectItems(sample, 3, new Set(['locomo_3_qa2']));
    expect(items.map((i) => i.id)).toEqual(['locomo_3_qa0', 'locomo_3_qa5']);
    expect(skipped).toEqual({ adversarial: 1, noEvidence: 1, notUsersTurns: 1, audited: 1 });
  });

  it('reads numeric answers as text and splits joined evidence', () => {
    const { items } = selectItems(sample, 0, new Set());
    expect(items.find((i) => i.id === 'locomo_0_qa5')).toMatchObject({ answer: '2022', evidence: ['D1:1', 'D1:3'] });
  });
});

describe('normalizeEvidence', () => {
  it('splits and repairs the dataset’s evidence ids', () => {
    expect(normalizeEvidence(['D8:6; D9:17'])).toEqual(['D8:6', 'D9:17']);
    expect(normalizeEvidence(['D9:1 D4:4 D4:6'])).toEqual(['D9:1', 'D4:4', 'D4:6']);
    expect(normalizeEvidence(['D:11:26', 'D30:05', 'D30:5'])).toEqual(['D11:26', 'D30:5']);
    expect(normalizeEvidence(['D'])).toEqual(['D']);
  });
});

describe('sessions of dia_ids', () => {
  it('finds the session and its date', () => {
    expect(sessionOf('D12:3')).toBe(12);
    expect(sessionOf('D')).toBeUndefined();
    expect(sessionDateOf(sample, 'D2:1')).toBe(Date.UTC(2023, 5, 28, 14, 5));
    expect(sessionDateOf(sample, 'D7:1')).toBeUndefined();
  });
});

describe('parseConversationList', () => {
  it.each([
    ['1-5', [1, 2, 3, 4, 5]],
    ['6-10', [6, 7, 8, 9, 10]],
    ['3', [3]],
    ['7, 1,3', [1, 3, 7]],
    ['1-2,2-3', [1, 2, 3]],
  ])('%s', (text, numbers) => {
    expect(parseConversationList(text, 10)).toEqual(numbers);
  });

  it.each(['0', '11', '5-3', 'all', ''])('rejects %s', (text) => {
    expect(() => parseConversationList(text, 10)).toThrow();
  });
});
