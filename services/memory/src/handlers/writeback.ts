import { appendDecided, draft, payloadOf, type Bus, type EventDraft, type StoredEvent } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import { deriveId, Events, llmExchangeToProto, type TurnCompleted } from '@hearth/events';
import type { Embedder, LlmExchange } from '@hearth/llm';
import { waitForPosition, type Reactor } from '@hearth/store';
import { counter, type Logger } from '@hearth/telemetry';
import { detectTopics, exchangeTopics, normalizeUserText, parseCorrection } from '@hearth/text';
import type { Kysely } from 'kysely';
import type { LlmExtractor } from '../adapters/llm-extractor.js';
import { WRITEBACK } from '../config.js';
import type { MemoryDb } from '../db.js';
import { decideCorrection, type CorrectionDecision } from '../domain/corrections.js';
import { decideWrites, type WriteOp } from '../domain/dedup.js';
import { embeddingText, topicsOfMemory } from '../domain/describe.js';
import { extractHeuristic, keysForTarget } from '../domain/extract/index.js';
import { llmReasons } from '../domain/gate.js';
import type { Candidate, MemoryRow, MemoryStatus, MemoryType } from '../domain/types.js';
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

// "Actually X" / "X, not Y": a FACT correction (§12.4), told apart only for the record.
export const CORRECTS_FACT = /^(?:no\s+|well\s+)?actually\b|,?\s+not\s+\S+\s*$/;

type MemoryRowDb = Awaited<ReturnType<typeof loadRows>>[number];

async function loadRows(db: Kysely<MemoryDb>, userId: string, where: { ids?: readonly string[]; keys?: readonly string[] }) {
  const { ids = [], keys = [] } = where;
  if (ids.length === 0 && keys.length === 0) return [];
  return db
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
}

function toRow(r: MemoryRowDb): MemoryRow {
  return {
    memoryId: r.memory_id,
    type: r.type as MemoryType,
    key: r.memory_key,
    value: r.memory_value,
    confidence: r.confidence,
    status: r.status as MemoryStatus,
    createdAt: r.created_at,
    lastConfirmedAt: r.last_confirmed_at,
  };
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
    async react(event: StoredEvent) {
      if (event.type !== Events.TurnCompleted.name) return;
      const turn = payloadOf(event, Events.TurnCompleted);
      const writtenId = deriveId('memory', 'written', event.id);
      await appendDecided(bus, 'memory', event.userId, async (last) => {
        if (last?.id === writtenId) return [];
        if (last && !(await waitForPosition(db, memoriesProjection.name, last.subject, last.seq, { timeoutMs: WRITEBACK.projectionWaitMs }))) {
          throw new Error(`projection ${memoriesProjection.name} has not caught up with ${last.subject}#${last.seq}`);
        }
        // Written before, past the dedup window: nothing new to decide.
        const done = await db.selectFrom('memory_turns').select('assistant_message_id').where('assistant_message_id', '=', turn.assistantMessageId).executeTakeFirst();
        if (done) return [];
        return decide(deps, event, turn, writtenId);
      });
    },
  };
}

async function decide(deps: WritebackDeps, event: StoredEvent, turn: TurnCompleted, writtenId: string): Promise<EventDraft[]> {
  const { db } = deps;
  const userId = event.userId;
  const at = event.occurredAt;
  const source = turn.source === 'retention' ? 'retention' : 'chat';
  const meta = { userId, causationId: event.id, correlationId: event.correlationId || turn.messageId };
  const drafts: EventDraft[] = [];
  const candidatesOut: { type: string; memoryKey: string; memoryValue: string; extractor: string; outcome: string; memoryId: string }[] = [];
  const touched: string[] = [];
  let correction = '';
  let decision: CorrectionDecision | null = null;
  let llmRan = false;
  let reasons: string[] = [];
  let exchanges: LlmExchange[] = [];
  let skipped = '';

  const previous = await db
    .selectFrom('memory_turns')
    .select(['surfaced_memory_ids', 'topic_ids'])
    .where('user_id', '=', userId)
    .where('conversation_id', '=', turn.conversationId)
    .orderBy('event_seq', 'desc')
    .limit(1)
    .executeTakeFirst();
  const suppressed = new Set(
    (await db.selectFrom('suppressed_keys').select('memory_key').where('user_id', '=', userId).execute()).map((r) => r.memory_key),
  );
  const command = source === 'chat' ? parseCorrection(turn.userText) : null;

  if (command) {
    const surfaced = previous?.surfaced_memory_ids ?? [];
    const targetKeys = command.command === 'forget_target' ? keysForTarget(command.target, at) : [];
    const rows = await loadRows(db, userId, { ids: surfaced, keys: targetKeys });
    const namedTopics = command.command === 'suppress_topic' && command.target ? detectTopics(normalizeUserText(command.target).normNoPunct).map((m) => m.topicId) : [];
    decision = decideCorrection({
      command,
      surfaced,
      records: new Map(rows.filter((r) => r.ai_friend_id === turn.aiFriendId || !turn.aiFriendId).map((r) => [r.memory_id, toRow(r)])),
      targetKeys,
      namedTopics,
      previousTopics: previous?.topic_ids ?? [],
    });
    correction = decision.correction;
    for (const inv of decision.invalidations) {
      drafts.push(
        draft(
          Events.MemoriesInvalidated,
          { memoryIds: inv.memoryIds, suppressedKey: inv.key, reason: inv.reason, sourceMessageId: turn.messageId },
          { ...meta, id: deriveId('memory', event.id, 'invalidate', inv.key), occurredAt: at },
        ),
      );
    }
    corrections.add(1, { command: command.command, changed: String(decision.invalidations.length > 0 || decision.suppressTopicIds.length > 0) });
  } else if (source === 'retention') {
    skipped = 'retention';
  } else if (turn.routing?.memoryWritePolicy !== 'SELECTIVE') {
    skipped = 'write_policy_none';
  } else {
    const heuristic = extractHeuristic(turn.userText, at);
    const seenRows = await loadRows(db, userId, { keys: heuristic.map((c) => c.key) });
    const lastSeen = new Map<string, Date>();
    for (const r of seenRows) {
      const prev = lastSeen.get(r.memory_key);
      if (!prev || prev < r.last_confirmed_at) lastSeen.set(r.memory_key, r.last_confirmed_at);
    }
    reasons = llmReasons({
      text: turn.userText,
      valence: turn.emotion?.valence ?? 0,
      tags: turn.emotion?.tags ?? [],
      heuristicKeys: heuristic.map((c) => c.key),
      lastSeen,
      at,
    });
    let extra: Candidate[] = [];
    if (reasons.length > 0) {
      llmRan = true;
      const res = await deps.extractor.extract({ text: turn.userText, at, seed: seedOf(turn.messageId) });
      extra = res.candidates;
      exchanges = res.exchanges;
      if (res.error) deps.logger?.warn({ messageId: turn.messageId, err: res.error }, 'LLM memory extraction failed: the heuristic candidates stand alone');
    }
    const candidates = [...heuristic, ...extra];
    const activeRows = (await loadRows(db, userId, { keys: candidates.map((c) => c.key) })).filter(
      (r) => r.status === 'ACTIVE' && r.ai_friend_id === turn.aiFriendId,
    );
    const ops = decideWrites(candidates, new Map(activeRows.map((r) => [r.memory_key, toRow(r)])), suppressed);
    const vectors = await embedRecords(deps, ops);
    for (const op of ops) {
      const c = op.candidate;
      if (op.op === 'suppressed') {
        candidatesOut.push({ type: c.type, memoryKey: c.key, memoryValue: c.value, extractor: c.extractor, outcome: 'suppressed', memoryId: '' });
      } else if (op.op === 'confirm') {
        drafts.push(
          draft(
            Events.MemoryConfirmed,
            { memoryId: op.memory.memoryId, sourceMessageId: turn.messageId, confidence: op.confidence, extractor: c.extractor },
            { ...meta, id: deriveId('memory', event.id, 'confirm', c.key), occurredAt: at },
          ),
        );
        touched.push(op.memory.memoryId);
        candidatesOut.push({ type: c.type, memoryKey: c.key, memoryValue: c.value, extractor: c.extractor, outcome: 'confirmed', memoryId: op.memory.memoryId });
      } else {
        const memoryId = deriveId('memory', event.id, 'record', c.key);
        const text = embeddingText(c.key, c.value);
        const vector = vectors.get(c.key);
        drafts.push(
          draft(
            Events.MemoryRecorded,
            {
              memoryId,
              aiFriendId: turn.aiFriendId,
              type: c.type,
              memoryKey: c.key,
              memoryValue: c.value,
              confidence: op.confidence,
              extractor: c.extractor,
              sourceMessageId: turn.messageId,
              supersedes: op.supersedes?.memoryId ?? '',
              topicIds: topicsOfMemory(c.key, c.value),
              embedding: vector ?? [],
              embeddingModel: vector ? deps.embedder.model : '',
              embeddingText: text,
            },
            { ...meta, id: deriveId('memory', event.id, 'record', c.key), occurredAt: at },
          ),
        );
        touched.push(memoryId);
        if (op.supersedes) touched.push(op.supersedes.memoryId);
        candidatesOut.push({ type: c.type, memoryKey: c.key, memoryValue: c.value, extractor: c.extractor, outcome: op.supersedes ? 'superseded' : 'recorded', memoryId });
        if (op.supersedes && c.type === 'FACT' && CORRECTS_FACT.test(normalizeUserText(turn.userText).userTextNorm)) correction = 'correct_fact';
      }
    }
    for (const c of candidatesOut) writes.add(1, { outcome: c.outcome, extractor: c.extractor });
  }

  // "This topic" for the next turn: this exchange's words and the memories it surfaced.
  const surfacedRows = await loadRows(db, userId, { ids: turn.surfacedMemoryIds });
  const topics = new Set<string>(exchangeTopics(turn.userText, turn.assistantText));
  for (const r of surfacedRows) for (const t of r.topic_ids) topics.add(t);

  drafts.push(
    draft(
      Events.TurnMemoryWritten,
      {
        messageId: turn.messageId,
        conversationId: turn.conversationId,
        assistantMessageId: turn.assistantMessageId,
        aiFriendId: turn.aiFriendId,
        source,
        surfacedMemoryIds: turn.surfacedMemoryIds,
        extractedMemoryCandidateIds: [...new Set(touched)],
        candidates: candidatesOut,
        correction,
        invalidatedMemoryIds: decision?.invalidations.flatMap((i) => i.memoryIds) ?? [],
        clarificationNeeded: decision?.clarificationNeeded ?? false,
        suppressTopicIds: decision?.suppressTopicIds ?? [],
        heuristicRan: skipped === '' && !command,
        llmRan,
        llmReasons: reasons,
        exchanges: exchanges.map(llmExchangeToProto),
        skipped,
        turnAt: at,
        topicIds: [...topics].sort(),
      },
      { ...meta, id: writtenId, occurredAt: at },
    ),
  );
  return drafts;
}

/** Vectors of the records about to be written, by key; none when the endpoint fails. */
async function embedRecords(deps: WritebackDeps, ops: readonly WriteOp[]): Promise<Map<string, number[]>> {
  const records = ops.filter((o) => o.op === 'record');
  if (records.length === 0) return new Map();
  try {
    const vectors = await deps.embedder.embed(records.map((o) => embeddingText(o.candidate.key, o.candidate.value)));
    return new Map(records.map((o, i) => [o.candidate.key, vectors[i]!]));
  } catch (err) {
    // The memory is still worth keeping: structured loads find it, only vector search will not.
    deps.logger?.warn({ err, provider: deps.embedder.provider }, 'embedding failed: memories recorded without a vector');
    return new Map();
  }
}
