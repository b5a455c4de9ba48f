import type { Selectable } from 'kysely';
import type { TurnsTable } from '../db.js';
import { RETENTION_SOURCE } from '../projections/turns.js';

/** One message of GET /v1/conversations/{id}/messages (../shared/API.md). */
export interface HistoryMessage {
  message_id: string;
  role: 'user' | 'assistant';
  source: string;
  text: string;
  created_at: string;
  surfaced_memory_ids?: string[];
}

/** The turn-row columns the history reads. */
export type HistoryRow = Pick<
  Selectable<TurnsTable>,
  'message_id' | 'source' | 'text' | 'received_at' | 'assistant_message_id' | 'assistant_text' | 'surfaced_memory_ids' | 'completed_at'
>;

/**
 * The visible messages of turn rows (already oldest first): a chat turn is the
 * user's message and its reply; a proactive message (turn-pipeline §14) was
 * never a user message, so its row is the assistant's message alone.
 */
export function historyMessages(rows: readonly HistoryRow[]): HistoryMessage[] {
  const out: HistoryMessage[] = [];
  for (const r of rows) {
    const source = r.source ?? 'chat';
    if (source !== RETENTION_SOURCE && r.received_at) {
      out.push({ message_id: r.message_id, role: 'user', source, text: r.text ?? '', created_at: r.received_at.toISOString() });
    }
    if (r.assistant_message_id && r.completed_at) {
      out.push({
        message_id: r.assistant_message_id,
        role: 'assistant',
        source,
        text: r.assistant_text ?? '',
        created_at: r.completed_at.toISOString(),
        surfaced_memory_ids: (r.surfaced_memory_ids ?? []) as string[],
      });
    }
  }
  return out;
}
