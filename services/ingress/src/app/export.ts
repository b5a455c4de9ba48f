import type { Bus } from '@hearth/bus';
import { Events } from '@hearth/events';
import { sql, type Kysely, type Selectable } from 'kysely';
import type { IngressDb, TurnsTable } from '../db.js';
import { adminAccessView, type AdminAccessView } from './admin-access.js';
import type { ExportBeliefsView } from './beliefs-view.js';
import { historyMessages, type HistoryMessage, type HistoryRow } from './history.js';
import type { TrustView } from './trust-view.js';
import type { UncertaintiesView } from './uncertainties-view.js';
import { StreamedArray, StreamedObject, type StreamedJson } from './json-stream.js';

/**
 * Rows read from the turns table (or events from the stream) per page while an
 * export is written: memory stays flat however long the history. Not a spec number.
 */
export const EXPORT_PAGE_ROWS = 500;

/**
 * A message of the export: as the history shows it, plus the turns the history
 * leaves out (a CREATED user's refused message and its refusal), marked `refused`.
 */
export interface ExportMessage extends HistoryMessage {
  refused?: true;
}

/** The turn-row columns the export reads. */
export type ExportRow = HistoryRow & Pick<Selectable<TurnsTable>, 'refused'>;

/** The messages of turn rows (already oldest first). */
export function exportMessages(rows: readonly ExportRow[]): ExportMessage[] {
  return rows.flatMap((r) => {
    const messages = historyMessages([r]);
    return r.refused ? messages.map((m): ExportMessage => ({ ...m, refused: true })) : messages;
  });
}

/** What the export holds besides the conversations and the access trail, read before the first byte is sent. */
export interface ExportHead {
  exported_at: string;
  user: unknown;
  controls: unknown;
  relationship: unknown;
  memories: unknown[];
  /** The user's own beliefs (holder user), from the belief graph. */
  beliefs: ExportBeliefsView;
  /** The user's uncertainties and tolerance, as GET /v1/admin/users/{user_id}/uncertainties shows them. */
  uncertainties: UncertaintiesView;
  /** The companion's learned trust, outcomes and tags for the user, as GET /v1/admin/users/{user_id}/trust shows them. */
  trust: TrustView;
  retention: unknown;
}

/**
 * GET /v1/me/export as one streamed document, keys in API.md order. The
 * conversations (`{conversation_id, messages}`, by conversation id, messages
 * oldest first) and the admin accesses arrive in pages.
 */
export function exportDocument(
  head: ExportHead,
  conversations: AsyncIterable<readonly StreamedJson[]>,
  adminAccess: AsyncIterable<readonly AdminAccessView[]>,
): StreamedObject {
  return new StreamedObject([
    ['exported_at', head.exported_at],
    ['user', head.user],
    ['controls', head.controls],
    ['relationship', head.relationship],
    ['conversations', new StreamedArray(conversations)],
    ['memories', head.memories],
    ['beliefs', head.beliefs],
    ['uncertainties', head.uncertainties],
    ['trust', head.trust],
    ['retention', head.retention],
    ['admin_access', new StreamedArray(adminAccess)],
  ]);
}

const MESSAGE_COLUMNS = ['message_id', 'source', 'text', 'received_at', 'assistant_message_id', 'assistant_text', 'surfaced_memory_ids', 'completed_at', 'refused'] as const;

/**
 * The user's conversations from the ingress turns table, a page of conversations
 * at a time, each with its messages paged on (received_at, message_id): keyset
 * pages on the (conversation_id, user_id, received_at) index, never an offset.
 */
export async function* conversationPages(db: Kysely<IngressDb>, userId: string, pageRows = EXPORT_PAGE_ROWS): AsyncGenerator<StreamedObject[]> {
  let after: string | undefined;
  for (;;) {
    let q = db.selectFrom('turns').select('conversation_id').where('user_id', '=', userId);
    if (after !== undefined) q = q.where('conversation_id', '>', after);
    const page = await q.groupBy('conversation_id').orderBy('conversation_id').limit(pageRows).execute();
    if (page.length > 0) {
      yield page.map(
        ({ conversation_id: id }) =>
          new StreamedObject([
            ['conversation_id', id],
            ['messages', new StreamedArray(messagePages(db, userId, id, pageRows))],
          ]),
      );
    }
    if (page.length < pageRows) return;
    after = page.at(-1)!.conversation_id;
  }
}

async function* messagePages(db: Kysely<IngressDb>, userId: string, conversationId: string, pageRows: number): AsyncGenerator<ExportMessage[]> {
  const turns = () => db.selectFrom('turns').select(MESSAGE_COLUMNS).where('conversation_id', '=', conversationId).where('user_id', '=', userId);
  // The cursor is the timestamp's text, so the next page starts exactly after it (microseconds included).
  let after: { at: string; messageId: string } | undefined;
  for (;;) {
    let q = turns().select(sql<string>`received_at::text`.as('received_key')).where('received_at', 'is not', null);
    if (after) {
      const { at, messageId } = after;
      q = q.where(({ eb, refTuple, tuple }) => eb(refTuple('received_at', 'message_id'), '>', tuple(sql<Date>`${at}::timestamptz`, messageId)));
    }
    const rows = await q.orderBy('received_at').orderBy('message_id').limit(pageRows).execute();
    if (rows.length > 0) yield exportMessages(rows);
    if (rows.length < pageRows) break;
    const last = rows.at(-1)!;
    after = { at: last.received_key, messageId: last.message_id };
  }
  // A reply whose user message is not applied yet (the two sides come from two streams): last.
  let afterId: string | undefined;
  for (;;) {
    let q = turns().where('received_at', 'is', null);
    if (afterId !== undefined) q = q.where('message_id', '>', afterId);
    const rows = await q.orderBy('message_id').limit(pageRows).execute();
    if (rows.length > 0) yield exportMessages(rows);
    if (rows.length < pageRows) return;
    afterId = rows.at(-1)!.message_id;
  }
}

/**
 * Every admin read of the user's data still readable (an erased one is not), in
 * order, from the AdminAccessed events on the user's ingress subject.
 */
export async function* adminAccessPages(bus: Bus, userId: string, pageRows = EXPORT_PAGE_ROWS): AsyncGenerator<AdminAccessView[]> {
  let page: AdminAccessView[] = [];
  for await (const e of bus.read('ingress', { key: userId })) {
    if (e.type !== Events.AdminAccessed.name || e.erased) continue;
    page.push(adminAccessView(e));
    if (page.length >= pageRows) {
      yield page;
      page = [];
    }
  }
  if (page.length > 0) yield page;
}
