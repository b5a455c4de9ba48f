import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events, isUuid } from '@hearth/events';
import { lockUser, type Projection } from '@hearth/store';
import { RELIABILITY_STATES, type Reliability } from '@hearth/uncertainty';
import { sql, type Transaction } from 'kysely';
import type { MemoryDb } from '../db.js';

// jsonb columns take JSON text; kysely's types say string[].
const json = (v: readonly string[]) => JSON.stringify(v) as unknown as string[];

/**
 * The memory service's read model, folded from its own events only: records
 * with their status history, suppressed keys, and each turn's write-back. The
 * embedded vector index and every query read it. An INVALID record (the user
 * deleted it, or a correction did) keeps its key, status, ids and times but no
 * longer its value, embedding or stated time; a SUPERSEDED one keeps them all.
 * A confirmation keeps the first stated time.
 *
 * Besides, each record's reliability state (uncertainty-engine.md), which the
 * uncertainty service owns: its ReliabilityChanged about a memory sets it. That
 * fold commutes with memory's own events (status, confidence, times, sequence
 * are never touched by it, and a record written after its state takes it from
 * `memory_reliability`), so replay equals live whatever the streams' interleaving.
 */
export const memoriesProjection: Projection<MemoryDb> = {
  name: 'memories',
  sources: ['memory', 'uncertainty'],
  tables: ['memories', 'suppressed_keys', 'memory_turns', 'memory_reliability'],
  types: [Events.MemoryRecorded.name, Events.MemoryConfirmed.name, Events.MemoriesInvalidated.name, Events.TurnMemoryWritten.name, Events.ReliabilityChanged.name],
  async apply(trx, e) {
    if (e.type === Events.MemoryRecorded.name) await applyRecorded(trx, e);
    else if (e.type === Events.MemoryConfirmed.name) await applyConfirmed(trx, e);
    else if (e.type === Events.MemoriesInvalidated.name) await applyInvalidated(trx, e);
    else if (e.type === Events.TurnMemoryWritten.name) await applyTurn(trx, e);
    else if (e.type === Events.ReliabilityChanged.name) await applyReliability(trx, e);
  },
  async erase(trx, userId) {
    await trx.deleteFrom('memory_reliability').where('user_id', '=', userId).execute();
    await trx.deleteFrom('memories').where('user_id', '=', userId).execute();
    await trx.deleteFrom('suppressed_keys').where('user_id', '=', userId).execute();
    await trx.deleteFrom('memory_turns').where('user_id', '=', userId).execute();
  },
};

async function applyRecorded(trx: Transaction<MemoryDb>, e: StoredEvent): Promise<void> {
  const p = payloadOf(e, Events.MemoryRecorded);
  if (p.supersedes) {
    await trx
      .updateTable('memories')
      .set({ status: 'SUPERSEDED', superseded_by: p.memoryId, status_reason: 'superseded', updated_at: e.occurredAt, updated_seq: e.seq })
      .where('memory_id', '=', p.supersedes)
      .where('status', '=', 'ACTIVE')
      .execute();
  }
  // A state the uncertainty chain gave this id before memory applied the record (its
  // consumer may be applying it right now: the two are serialized per user).
  await lockUser(trx, 'memories', e.userId);
  const known = await trx.selectFrom('memory_reliability').select('reliability').where('user_id', '=', e.userId).where('memory_id', '=', p.memoryId).executeTakeFirst();
  await trx
    .insertInto('memories')
    .values({
      memory_id: p.memoryId,
      user_id: e.userId,
      ai_friend_id: p.aiFriendId,
      type: p.type,
      memory_key: p.memoryKey,
      memory_value: p.memoryValue,
      confidence: p.confidence,
      status: 'ACTIVE',
      superseded_by: null,
      source_message_ids: json([p.sourceMessageId]),
      extractor: p.extractor,
      topic_ids: json(p.topicIds),
      embedding: p.embedding,
      embedding_model: p.embeddingModel,
      occurred_on: p.occurredOn || null,
      occurred_precision: p.occurredPrecision || null,
      occurred_text: p.occurredText || null,
      reliability: known?.reliability ?? 'reliable',
      created_at: e.occurredAt,
      last_confirmed_at: e.occurredAt,
      status_reason: '',
      updated_at: e.occurredAt,
      updated_seq: e.seq,
    })
    .onConflict((oc) => oc.column('memory_id').doNothing())
    .execute();
}

async function applyConfirmed(trx: Transaction<MemoryDb>, e: StoredEvent): Promise<void> {
  const p = payloadOf(e, Events.MemoryConfirmed);
  await trx
    .updateTable('memories')
    .set({
      confidence: p.confidence,
      last_confirmed_at: e.occurredAt,
      updated_at: e.occurredAt,
      updated_seq: e.seq,
      // Sources merge (§12.3): each message once, in order.
      source_message_ids: sql<string[]>`case when source_message_ids ? ${p.sourceMessageId} then source_message_ids else source_message_ids || ${json([p.sourceMessageId])}::jsonb end`,
    })
    .where('memory_id', '=', p.memoryId)
    .execute();
}

async function applyInvalidated(trx: Transaction<MemoryDb>, e: StoredEvent): Promise<void> {
  const p = payloadOf(e, Events.MemoriesInvalidated);
  if (p.memoryIds.length > 0) {
    await trx
      .updateTable('memories')
      // The user asked for it gone: the value, the embedding made from it and the time
      // it told of go with the status. Replay records and then empties it the same way.
      .set({
        status: 'INVALID',
        status_reason: p.reason,
        memory_value: '',
        embedding: [],
        occurred_on: null,
        occurred_precision: null,
        occurred_text: null,
        updated_at: e.occurredAt,
        updated_seq: e.seq,
      })
      .where('memory_id', 'in', p.memoryIds)
      .where('user_id', '=', e.userId)
      .execute();
  }
  if (p.suppressedKey) {
    await trx
      .insertInto('suppressed_keys')
      .values({ user_id: e.userId, memory_key: p.suppressedKey, suppressed_at: e.occurredAt })
      .onConflict((oc) => oc.columns(['user_id', 'memory_key']).doNothing())
      .execute();
  }
}

async function applyTurn(trx: Transaction<MemoryDb>, e: StoredEvent): Promise<void> {
  const p = payloadOf(e, Events.TurnMemoryWritten);
  await trx
    .insertInto('memory_turns')
    .values({
      assistant_message_id: p.assistantMessageId,
      user_id: e.userId,
      conversation_id: p.conversationId,
      message_id: p.messageId,
      source: p.source,
      surfaced_memory_ids: json(p.surfacedMemoryIds),
      candidate_ids: json(p.extractedMemoryCandidateIds),
      topic_ids: json(p.topicIds),
      correction: p.correction,
      created_at: p.turnAt ?? e.occurredAt,
      event_seq: e.seq,
    })
    .onConflict((oc) => oc.column('assistant_message_id').doNothing())
    .execute();
}

const STATES: ReadonlySet<string> = new Set(RELIABILITY_STATES);

/**
 * ReliabilityChanged about a memory (subject kind memory, id set): the state is
 * kept for the user's id and set on the record if memory has it. Only the
 * event's user's record: the id is looked up under that user, so another user's
 * chain can never change it. A side not written yet (id "") and a state this
 * projection does not know are passed over.
 */
async function applyReliability(trx: Transaction<MemoryDb>, e: StoredEvent): Promise<void> {
  const p = payloadOf(e, Events.ReliabilityChanged);
  if (p.subject?.kind !== 'memory' || !isUuid(p.subject.id) || !STATES.has(p.to)) return;
  const memoryId = p.subject.id.toLowerCase();
  const reliability = p.to as Reliability;
  await lockUser(trx, 'memories', e.userId);
  await trx
    .insertInto('memory_reliability')
    .values({ user_id: e.userId, memory_id: memoryId, reliability, changed_at: e.occurredAt })
    .onConflict((oc) => oc.columns(['user_id', 'memory_id']).doUpdateSet({ reliability, changed_at: e.occurredAt }))
    .execute();
  // Neither updated_at nor updated_seq: they tell the memory stream's last change (the indexes read by them).
  await trx.updateTable('memories').set({ reliability }).where('memory_id', '=', memoryId).where('user_id', '=', e.userId).execute();
}
