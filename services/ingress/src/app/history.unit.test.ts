import { historyMessages, type HistoryRow } from './history.js';

const T = (iso: string) => new Date(`2026-11-23T${iso}Z`);

function chat(over: Partial<HistoryRow> = {}): HistoryRow {
  return {
    message_id: '00000000-0000-4000-8000-000000000001',
    source: 'chat',
    text: 'hi there',
    received_at: T('09:00:00'),
    assistant_message_id: '00000000-0000-4000-8000-0000000000a1',
    assistant_text: 'hey! how was your day?',
    surfaced_memory_ids: ['00000000-0000-4000-8000-0000000000f1'],
    completed_at: T('09:00:02'),
    ...over,
  };
}

/** A proactive message's row as the turns projection writes it from its TurnCompleted alone. */
function proactive(over: Partial<HistoryRow> = {}): HistoryRow {
  return {
    message_id: '00000000-0000-4000-8000-0000000000e1',
    source: 'retention',
    text: '',
    received_at: T('12:00:00'),
    assistant_message_id: '00000000-0000-4000-8000-0000000000b1',
    assistant_text: 'how did the interview go?',
    surfaced_memory_ids: [],
    completed_at: T('12:00:00'),
    ...over,
  };
}

describe('historyMessages', () => {
  it('shows a chat turn as the user message and its reply', () => {
    expect(historyMessages([chat()])).toEqual([
      { message_id: chat().message_id, role: 'user', source: 'chat', text: 'hi there', created_at: '2026-11-23T09:00:00.000Z' },
      {
        message_id: chat().assistant_message_id,
        role: 'assistant',
        source: 'chat',
        text: 'hey! how was your day?',
        created_at: '2026-11-23T09:00:02.000Z',
        surfaced_memory_ids: ['00000000-0000-4000-8000-0000000000f1'],
      },
    ]);
  });

  it('shows a proactive message as one assistant message, under its notification id, at the time it was sent', () => {
    expect(historyMessages([proactive()])).toEqual([
      {
        message_id: '00000000-0000-4000-8000-0000000000b1',
        role: 'assistant',
        source: 'retention',
        text: 'how did the interview go?',
        created_at: '2026-11-23T12:00:00.000Z',
        surfaced_memory_ids: [],
      },
    ]);
  });

  it('keeps the order of the rows, proactive messages between chat turns', () => {
    const later = chat({ message_id: '00000000-0000-4000-8000-000000000002', assistant_message_id: '00000000-0000-4000-8000-0000000000a2', received_at: T('13:00:00'), completed_at: T('13:00:01') });

    const messages = historyMessages([chat(), proactive(), later]);

    expect(messages.map((m) => [m.role, m.source, m.created_at])).toEqual([
      ['user', 'chat', '2026-11-23T09:00:00.000Z'],
      ['assistant', 'chat', '2026-11-23T09:00:02.000Z'],
      ['assistant', 'retention', '2026-11-23T12:00:00.000Z'],
      ['user', 'chat', '2026-11-23T13:00:00.000Z'],
      ['assistant', 'chat', '2026-11-23T13:00:01.000Z'],
    ]);
  });

  it('shows a chat turn still waiting for its reply as the user message alone', () => {
    expect(historyMessages([chat({ assistant_message_id: null, assistant_text: null, completed_at: null })]).map((m) => m.role)).toEqual(['user']);
  });

  it('reads a row without a source as chat', () => {
    expect(historyMessages([chat({ source: null })]).map((m) => m.source)).toEqual(['chat', 'chat']);
  });
});
