import { appendDecided, draft, payloadOf, type Bus, type EventDraft, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, type TurnCompleted } from '@hearth/events';
import type { Embedder, LlmExchange } from '@hearth/llm';
import { requirePosition, type Reactor } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import type { LlmExtractor } from '../adapters/llm-extractor.js';
import { WRITEBACK } from '../config.js';
import type { MemoryDb } from '../db.js';
import type { MemoryStatus, MemoryType } from '../domain/types.js';
import { decideWriteback, writebackEvents, writebackReads, writebackTurnOf, type StoredMemory, type WritebackEvent, type WritebackState } from '../domain/writeback.js';
import { memoriesProjection } from '../projections/memories.js';

export interface WritebackDeps {
  bus: Bus;
  db: Kysely<MemoryDb>;
  clock: Clock;
  logger?: Logger;
  /** The gated extractor: the LLM, or its offline provider. */
  extractor: LlmExtractor;
  embedder: Embedder;
}

const writes = counter('hearth_memory_writes_total', 'Memory candidates by what dedup made of them (recorded, confirmed, superseded, suppressed) and extractor');
const corrections = counter('hearth_memory_corrections_total', 'Correction commands (§12.4) by command and whether they changed anything');

/** The user's records with any of these ids or keys, any status and companion. */
async function loadRecords(db: Kysely<MemoryDb>, userId: string, where: { ids?: readonly string[]; keys?: readonly string[] }): Promise<Map<string, StoredMemory>> {
  const { ids = [], keys = [] } = where;
  if (ids.length === 0 && keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('memories')
    .select(['memory_id', 'ai_friend_id', 'type', 'memory_key', 'memory_value', 'confidence', 'status', 'created_at', 'last_confirmed_at', 'topic_ids'])
    .where('user_id', '=', userId)
    .where((eb) => {
      const ors = [];
      if (ids.length > 0) ors.push(eb('memory_id', 'in', ids));
      if (keys.length > 0) ors.push(eb('memory_key', 'in', keys));
      return eb.or(ors);
    })
    .execute();
  return new Map(
    rows.map((r) => [
      r.memory_id,
      {
        memoryId: r.memory_id,
        aiFriendId: r.ai_friend_id,
        type: r.type as MemoryType,
        key: r.memory_key,
        value: r.memory_value,
        confidence: r.confidence,
        status: r.status as MemoryStatus,
        createdAt: r.created_at,
        lastConfirmedAt: r.last_confirmed_at,
        topicIds: r.topic_ids,
      },
    ]),
  );
}

/** A uint32 seed for the LLM extractor, from the turn (so a retry asks the same). */
function seedOf(messageId: string): number {
  return Number.parseInt(deriveId('memory', 'seed', messageId).slice(0, 8), 16) >>> 0;
}

/**
 * TurnCompleted → memory's write-back for the turn (§12.2–§12.4), in one
 * decision on the user's memory chain:
 * - a correction command acts on the previous assistant message's
 *   surfaced_memory_ids (or, for "forget X", X's key) and extracts nothing;
 * - otherwise, when memory_write_policy is SELECTIVE, the heuristic extractor
 *   runs, the LLM one too when §12.2's gate fires, and dedup records, confirms
 *   or supersedes (§12.3);
 * - TurnMemoryWritten closes every turn, retention ones included, so the next
 *   correction finds what this reply surfaced in memory's own log.
 * Embeddings and LLM exchanges are in the events: replay computes nothing.
 */
export function createWritebackReactor(deps: WritebackDeps): Reactor {
  const { bus, db } = deps;
  return {
    name: 'writeback',
    sources: ['orchestrator'],
    types: [Events.TurnCompleted.name],
    async react(event: StoredEvent) {
      if (event.type !== Events.TurnCompleted.name) return;
      const turn = payloadOf(event, Events.TurnCompleted);
      const writtenId = deriveId('memory', 'written', event.id);
      await appendDecided(bus, 'memory', event.userId, async (last) => {
        if (last?.id === writtenId) return [];
        await requirePosition(db, memoriesProjection.name, last, { timeoutMs: WRITEBACK.projectionWaitMs });
        // Written before, past the dedup window: nothing new to decide.
        const done = await db.selectFrom('memory_turns').select('assistant_message_id').where('assistant_message_id', '=', turn.assistantMessageId).executeTakeFirst();
        if (done) return [];
        return decide(deps, event, turn, writtenId);
      });
    },
  };
}

/**
 * The shell around {@link decideWriteback}: loads the records the turn names,
 * asks the extractor when §12.2's gate fires, embeds the new records, and
 * turns the decision into events.
 */
async function decide(deps: WritebackDeps, event: StoredEvent, completed: TurnCompleted, writtenId: string): Promise<EventDraft[]> {
  const { db } = deps;
  const userId = event.userId;
  const at = event.occurredAt;
  const meta = { userId, causationId: event.id, correlationId: event.correlationId || completed.messageId };
  const turn = writebackTurnOf(completed);

  const last = await db
    .selectFrom('memory_turns')
    .select(['surfaced_memory_ids', 'topic_ids'])
    .where('user_id', '=', userId)
    .where('conversation_id', '=', turn.conversationId)
    .orderBy('event_seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const previous = last ? { surfacedMemoryIds: last.surfaced_memory_ids, topicIds: last.topic_ids } : null;
  const suppressedKeys = new Set(
    (await db.selectFrom('suppressed_keys').select('memory_key').where('user_id', '=', userId).execute()).map((r) => r.memory_key),
  );
  const records = await loadRecords(db, userId, writebackReads(turn, at, previous));
  const state: WritebackState = { records, suppressedKeys, previous };
  let decision = decideWriteback(event.id, turn, at, state, null);
  let exchanges: LlmExchange[] = [];
  if (decision.extractionMissing) {
    // §12.2's gate fired: ask the extractor, then decide again with its candidates and their keys' records.
    const res = await deps.extractor.extract({ text: turn.userText, at, seed: seedOf(turn.messageId) });
    exchanges = res.exchanges;
    if (res.error) deps.logger?.warn({ messageId: turn.messageId, err: res.error }, 'LLM memory extraction failed: the heuristic candidates stand alone');
    for (const [id, r] of await loadRecords(db, userId, { keys: res.candidates.map((c) => c.key) })) records.set(id, r);
    decision = decideWriteback(event.id, turn, at, state, res.candidates);
  }
  const { invalidated, written } = decision;
  if (decision.command) {
    corrections.add(1, { command: decision.command, changed: String(invalidated.length > 0 || written.suppressTopicIds.length > 0) });
  }
  for (const c of written.candidates) writes.add(1, { outcome: c.outcome, extractor: c.extractor });
  const vectors = await embedRecords(deps, decision.recorded);
  const events = writebackEvents(event.id, writtenId, at, decision, { vectors, embeddingModel: deps.embedder.model, exchanges });
  return events.map((e) => draftOf(e, { ...meta, id: e.id, occurredAt: at }));
}

function draftOf(e: WritebackEvent, meta: Omit<EventDraft, 'type' | 'payload'>): EventDraft {
  switch (e.type) {
    case 'MemoriesInvalidated':
      return draft(Events.MemoriesInvalidated, e.payload, meta);
    case 'MemoryConfirmed':
      return draft(Events.MemoryConfirmed, e.payload, meta);
    case 'MemoryRecorded':
      return draft(Events.MemoryRecorded, e.payload, meta);
    case 'TurnMemoryWritten':
      return draft(Events.TurnMemoryWritten, e.payload, meta);
    default: {
      const never: never = e;
      return never;
    }
  }
}

/** Vectors of the records about to be written, by key; none when the endpoint fails (also the clarified reactor's). */
export async function embedRecords(deps: Pick<WritebackDeps, 'embedder' | 'logger'>, records: readonly { memoryKey: string; embeddingText: string }[]): Promise<Map<string, number[]>> {
  if (records.length === 0) return new Map();
  try {
    const vectors = await deps.embedder.embed(records.map((r) => r.embeddingText));
    return new Map(records.map((r, i) => [r.memoryKey, vectors[i]!]));
  } catch (err) {
    // The memory is still worth keeping: structured loads find it, only vector search will not.
    deps.logger?.warn({ err, provider: deps.embedder.provider }, 'embedding failed: memories recorded without a vector');
    return new Map();
  }
}
