import { LocomoFormatError, parseLocomoDate, planConversation, sessionAdvances, truncateMessage, type PlannedSession } from './locomo.js';

const HOUR = 3600;
const DAY = 24 * HOUR;

describe('parseLocomoDate', () => {
  it.each([
    ['3:27 pm on 4 March, 2023', Date.UTC(2023, 2, 4, 15, 27)],
    ['12:41 am on 15 November, 2023', Date.UTC(2023, 10, 15, 0, 41)],
    ['12:30 pm on 1 January, 2022', Date.UTC(2022, 0, 1, 12, 30)],
    ['8:12 AM on 5 April 2023', Date.UTC(2023, 3, 5, 8, 12)],
  ])('reads %s', (text, ms) => {
    expect(parseLocomoDate(text)).toBe(ms);
  });

  it.each(['2023-03-04', '13:10 pm on 4 March, 2023', '3:27 pm on 31 June, 2023', '3:27 pm on 4 Marzo, 2023'])('rejects %s', (text) => {
    expect(() => parseLocomoDate(text)).toThrow(LocomoFormatError);
  });
});

describe('truncateMessage', () => {
  it('keeps a message within the limit as it is', () => {
    expect(truncateMessage('hello', 5)).toEqual({ text: 'hello', truncated: false });
  });

  it('cuts a longer one, never inside a surrogate pair', () => {
    expect(truncateMessage('abcdef', 4)).toEqual({ text: 'abcd', truncated: true });
    expect(truncateMessage('ab\u{1F642}cd', 3)).toEqual({ text: 'ab', truncated: true });
  });
});

describe('planConversation', () => {
  const sample = {
    sample_id: 's-1',
    conversation: {
      speaker_a: 'Ann',
      speaker_b: 'Bo',
      session_1_date_time: '10:00 am on 1 March, 2023',
      session_1: [
        { speaker: 'Ann', dia_id: 'D1:1', text: 'first' },
        { speaker: 'Bo', dia_id: 'D1:2', text: 'reply' },
        { speaker: 'Ann', dia_id: 'D1:3', text: '   ' },
        { speaker: 'Ann', dia_id: 'D1:4', text: 'second' },
      ],
      session_2_date_time: '10:00 am on 8 March, 2023',
      session_2: [{ speaker: 'Ann', dia_id: 'D2:1', text: 'third' }],
      session_10_date_time: '10:00 am on 9 March, 2023',
      session_10: [{ speaker: 'Ann', dia_id: 'D10:1', text: 'fourth' }],
      // A date without its session is no session.
      session_11_date_time: '10:00 am on 10 March, 2023',
    },
  };

  it("takes speaker_a's non-empty lines, sessions in numeric order", () => {
    const plan = planConversation(sample);
    expect(plan.sessions.map((s) => [s.number, s.lines.map((l) => l.diaId)])).toEqual([
      [1, ['D1:1', 'D1:4']],
      [2, ['D2:1']],
      [10, ['D10:1']],
    ]);
    expect(plan).toMatchObject({ user: 'Ann', friend: 'Bo', userTurns: 4, skippedEmpty: 1, truncations: 0 });
  });

  it('stops at the turn limit and leaves out sessions without a line', () => {
    const plan = planConversation(sample, 2);
    expect(plan.sessions.map((s) => s.number)).toEqual([1]);
    expect(plan.userTurns).toBe(2);
  });
});

describe('sessionAdvances', () => {
  const at = (days: number, lines = 1): PlannedSession => ({ number: 0, dateMs: Date.UTC(2023, 0, 1) + days * DAY * 1000, lines: Array.from({ length: lines }, () => ({ diaId: '', text: 'x', truncated: false })) });

  it('starts the first session now and each next one at its date, net of the time spent in the sessions before', () => {
    const { advances, clampedGaps } = sessionAdvances([at(0, 3), at(7), at(9)], (n) => (n - 1) * 30);
    expect(advances).toEqual([0, 7 * DAY - 60, 2 * DAY]);
    expect(clampedGaps).toBe(0);
  });

  it('clamps a session dated before the previous one to a gap of 0, and counts it', () => {
    const { advances, clampedGaps } = sessionAdvances([at(0), at(10), at(4), at(12)], () => 0);
    expect(advances).toEqual([0, 10 * DAY, 0, 2 * DAY]);
    expect(clampedGaps).toBe(1);
  });
});
