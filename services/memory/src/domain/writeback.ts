import { deriveId, llmExchangeToProto, type MemoriesInvalidated, type MemoryConfirmed, type MemoryRecorded, type TurnCompleted, type TurnMemoryWritten } from '@hearth/events';
import type { LlmExchange } from '@hearth/llm';
import { detectTopics, exchangeTopics, normalizeUserText, parseCorrection, type CorrectionCommand } from '@hearth/text';
import { decideCorrection } from './corrections.js';
import { decideWrites } from './dedup.js';
import { embeddingText, topicsOfMemory } from './describe.js';
import { extractHeuristic, keysForTarget } from '@hearth/memory-rules';
import { llmReasons } from './gate.js';
import type { Candidate, MemoryRow, StatedTime } from './types.js';

// "Actually X" / "X, not Y": a FACT correction (§12.4), told apart only for the record.
export const CORRECTS_FACT = /^(?:no\s+|well\s+)?actually\b|,?\s+not\s+\S+\s*$/;

/** What the write-back reads of a TurnCompleted. */
export type WritebackTurn = Pick<
  TurnCompleted,
  'messageId' | 'conversationId' | 'assistantMessageId' | 'aiFriendId' | 'source' | 'userText' | 'assistantText' | 'surfacedMemoryIds'
> & { memoryWritePolicy: string; valence: number; tags: string[] };

export function writebackTurnOf(t: TurnCompleted): WritebackTurn {
  return {
    messageId: t.messageId,
    conversationId: t.conversationId,
    assistantMessageId: t.assistantMessageId,
    aiFriendId: t.aiFriendId,
    source: t.source,
    userText: t.userText,
    assistantText: t.assistantText,
    surfacedMemoryIds: t.surfacedMemoryIds,
    memoryWritePolicy: t.routing?.memoryWritePolicy ?? '',
    valence: t.emotion?.valence ?? 0,
    tags: t.emotion?.tags ?? [],
  };
}

/** A record as the `memories` projection holds it, for the write-back's decisions. */
export interface StoredMemory extends MemoryRow {
  aiFriendId: string;
  topicIds: string[];
}

/** The user's memory state before the write-back, as the projection had it. */
export interface WritebackState {
  /**
   * The user's records, any status and companion: all of them, or at least
   * those {@link writebackReads} names and those of the extracted candidates' keys.
   */
  records: ReadonlyMap<string, StoredMemory>;
  suppressedKeys: ReadonlySet<string>;
  /** The conversation's previous write-back: what that reply surfaced, and its topics. */
  previous: { surfacedMemoryIds: readonly string[]; topicIds: readonly string[] } | null;
}

/** The events of one write-back, embeddings aside (recorded, never recomputed). */
export interface WritebackDecision {
  invalidated: MemoriesInvalidated[];
  /** In dedup's order, as `written.candidates` lists them with the confirmations. */
  recorded: Omit<MemoryRecorded, 'embedding' | 'embeddingModel'>[];
  confirmed: MemoryConfirmed[];
  written: Omit<TurnMemoryWritten, 'exchanges' | 'turnAt'>;
  /** The §12.4 command the user's message is, if any. */
  command: CorrectionCommand['command'] | null;
  /** §12.2's gate fires but `extracted` is null: the LLM extractor must be asked; candidates, records and confirmations are unknown. */
  extractionMissing: boolean;
}

/** A candidate's stated time as MemoryRecorded carries it: "" in each field when the text stated none. */
export function statedFields(t: StatedTime | undefined): Pick<MemoryRecorded, 'occurredOn' | 'occurredPrecision' | 'occurredText'> {
  return { occurredOn: t?.on ?? '', occurredPrecision: t?.precision ?? '', occurredText: t?.text ?? '' };
}

type Branch = { kind: 'correction'; command: CorrectionCommand } | { kind: 'skip'; skipped: 'retention' | 'write_policy_none' } | { kind: 'extract' };

/** Which part of §12.2–§12.4 a turn takes: a correction, no extraction, or extraction. */
function branchOf(turn: WritebackTurn): Branch {
  const command = turn.source === 'retention' ? null : parseCorrection(turn.userText);
  if (command) return { kind: 'correction', command };
  if (turn.source === 'retention') return { kind: 'skip', skipped: 'retention' };
  if (turn.memoryWritePolicy !== 'SELECTIVE') return { kind: 'skip', skipped: 'write_policy_none' };
  return { kind: 'extract' };
}

/**
 * The records {@link decideWriteback} reads before any LLM extraction, by id
 * (the previous reply's surfaced memories for a correction, this reply's for
 * its topics) and by key ("forget X"'s keys, the heuristic candidates'). Pure.
 */
export function writebackReads(turn: WritebackTurn, at: Date, previous: WritebackState['previous']): { ids: string[]; keys: string[] } {
  const branch = branchOf(turn);
  switch (branch.kind) {
    case 'correction':
      return {
        ids: [...(previous?.surfacedMemoryIds ?? []), ...turn.surfacedMemoryIds],
        keys: branch.command.command === 'forget_target' ? keysForTarget(branch.command.target, at) : [],
      };
    case 'skip':
      return { ids: [...turn.surfacedMemoryIds], keys: [] };
    case 'extract':
      return { ids: [...turn.surfacedMemoryIds], keys: extractHeuristic(turn.userText, at).map((c) => c.key) };
    default: {
      const never: never = branch;
      return never;
    }
  }
}

/**
 * Memory's write-back for one turn (§12.2–§12.4), over state given rather than
 * loaded: a correction acts on the previous reply's surfaced memories (or
 * "forget X"'s key); otherwise, for a SELECTIVE chat turn, the heuristic
 * extractor, the §12.2 gate for the LLM one (whose output is `extracted`: null
 * when not asked yet, [] when it failed), and dedup. `turnEventId` is the
 * TurnCompleted's event id, from which every record's id derives. Pure.
 */
export function decideWriteback(turnEventId: string, turn: WritebackTurn, at: Date, state: WritebackState, extracted: Candidate[] | null): WritebackDecision {
  const rows = [...state.records.values()];
  const source = turn.source === 'retention' ? 'retention' : 'chat';
  const branch = branchOf(turn);
  const out: WritebackDecision = {
    invalidated: [],
    recorded: [],
    confirmed: [],
    written: {
      messageId: turn.messageId,
      conversationId: turn.conversationId,
      assistantMessageId: turn.assistantMessageId,
      aiFriendId: turn.aiFriendId,
      source,
      surfacedMemoryIds: turn.surfacedMemoryIds,
      extractedMemoryCandidateIds: [],
      candidates: [],
      correction: '',
      invalidatedMemoryIds: [],
      clarificationNeeded: false,
      suppressTopicIds: [],
      heuristicRan: false,
      llmRan: false,
      llmReasons: [],
      skipped: '',
      topicIds: [],
    },
    command: branch.kind === 'correction' ? branch.command.command : null,
    extractionMissing: false,
  };
  const w = out.written;
  const touched: string[] = [];

  if (branch.kind === 'correction') {
    const { command } = branch;
    const surfaced = state.previous?.surfacedMemoryIds ?? [];
    const targetKeys = command.command === 'forget_target' ? keysForTarget(command.target, at) : [];
    const named = command.command === 'suppress_topic' && command.target ? detectTopics(normalizeUserText(command.target).normNoPunct).map((m) => m.topicId) : [];
    const decision = decideCorrection({
      command,
      surfaced,
      records: new Map(
        rows
          .filter((r) => (surfaced.includes(r.memoryId) || targetKeys.includes(r.key)) && (r.aiFriendId === turn.aiFriendId || !turn.aiFriendId))
          .map((r) => [r.memoryId, r]),
      ),
      targetKeys,
      namedTopics: named,
      previousTopics: state.previous?.topicIds ?? [],
    });
    w.correction = decision.correction;
    w.invalidatedMemoryIds = decision.invalidations.flatMap((i) => i.memoryIds);
    w.clarificationNeeded = decision.clarificationNeeded;
    w.suppressTopicIds = decision.suppressTopicIds;
    out.invalidated = decision.invalidations.map((i) => ({ memoryIds: i.memoryIds, suppressedKey: i.key, reason: i.reason, sourceMessageId: turn.messageId }));
  } else if (branch.kind === 'skip') {
    w.skipped = branch.skipped;
  } else {
    w.heuristicRan = true;
    const heuristic = extractHeuristic(turn.userText, at);
    const keys = heuristic.map((c) => c.key);
    const lastSeen = new Map<string, Date>();
    for (const r of rows) {
      if (!keys.includes(r.key)) continue;
      const prev = lastSeen.get(r.key);
      if (!prev || prev < r.lastConfirmedAt) lastSeen.set(r.key, r.lastConfirmedAt);
    }
    w.llmReasons = llmReasons({ text: turn.userText, valence: turn.valence, tags: turn.tags, heuristicKeys: keys, lastSeen, at });
    w.llmRan = w.llmReasons.length > 0;
    if (w.llmRan && extracted === null) {
      out.extractionMissing = true;
    } else {
      const candidates = [...heuristic, ...(w.llmRan ? (extracted ?? []) : [])];
      const candidateKeys = new Set(candidates.map((c) => c.key));
      const active = new Map(rows.filter((r) => candidateKeys.has(r.key) && r.status === 'ACTIVE' && r.aiFriendId === turn.aiFriendId).map((r) => [r.key, r]));
      for (const op of decideWrites(candidates, active, state.suppressedKeys)) {
        const c = op.candidate;
        const candidate = { type: c.type, memoryKey: c.key, memoryValue: c.value, extractor: c.extractor };
        if (op.op === 'suppressed') {
          w.candidates.push({ ...candidate, outcome: 'suppressed', memoryId: '' });
        } else if (op.op === 'confirm') {
          out.confirmed.push({ memoryId: op.memory.memoryId, sourceMessageId: turn.messageId, confidence: op.confidence, extractor: c.extractor });
          touched.push(op.memory.memoryId);
          w.candidates.push({ ...candidate, outcome: 'confirmed', memoryId: op.memory.memoryId });
        } else {
          const memoryId = deriveId('memory', turnEventId, 'record', c.key);
          out.recorded.push({
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
            embeddingText: embeddingText(c.key, c.value),
            ...statedFields(c.occurred),
          });
          touched.push(memoryId);
          if (op.supersedes) touched.push(op.supersedes.memoryId);
          w.candidates.push({ ...candidate, outcome: op.supersedes ? 'superseded' : 'recorded', memoryId });
          if (op.supersedes && c.type === 'FACT' && CORRECTS_FACT.test(normalizeUserText(turn.userText).userTextNorm)) w.correction = 'correct_fact';
        }
      }
    }
  }
  w.extractedMemoryCandidateIds = [...new Set(touched)];
  // "This topic" for the next turn: this exchange's words and the memories it surfaced.
  const topics = new Set<string>(exchangeTopics(turn.userText, turn.assistantText));
  for (const id of turn.surfacedMemoryIds) for (const t of state.records.get(id)?.topicIds ?? []) topics.add(t);
  w.topicIds = [...topics].sort();
  return out;
}

/** One event of a write-back, with its id (every id derives from the turn's event, so a redelivery appends nothing twice). */
export type WritebackEvent =
  | { type: 'MemoriesInvalidated'; id: string; payload: MemoriesInvalidated }
  | { type: 'MemoryConfirmed'; id: string; payload: MemoryConfirmed }
  | { type: 'MemoryRecorded'; id: string; payload: MemoryRecorded }
  | { type: 'TurnMemoryWritten'; id: string; payload: TurnMemoryWritten };

/** What the shell computed outside the decision: the records' vectors (by key) and the extractor's exchanges. */
export interface WritebackComputed {
  /** Vectors of `decision.recorded` by memory key; a key without one is recorded without a vector. */
  vectors: ReadonlyMap<string, number[]>;
  embeddingModel: string;
  /** The LLM extractor's exchanges, [] when it was not asked. */
  exchanges: readonly LlmExchange[];
}

/** A memory as MemoryRecorded carries it: with its vector and the model that made it, or neither. */
export function withVector<R extends object>(record: R, vector: number[] | undefined, model: string): R & { embedding: number[]; embeddingModel: string } {
  return { ...record, embedding: vector ?? [], embeddingModel: vector ? model : '' };
}

/**
 * The events of a decided write-back, in the order they are appended: the
 * invalidations, then each candidate's confirmation or record in dedup's order
 * (a suppressed one has neither), then TurnMemoryWritten, which closes every turn
 * under `writtenId`. Embeddings and LLM exchanges go into the events, so replay
 * computes nothing. Pure.
 */
export function writebackEvents(turnEventId: string, writtenId: string, at: Date, decision: WritebackDecision, computed: WritebackComputed): WritebackEvent[] {
  const events: WritebackEvent[] = decision.invalidated.map((inv) => ({
    type: 'MemoriesInvalidated',
    id: deriveId('memory', turnEventId, 'invalidate', inv.suppressedKey),
    payload: inv,
  }));
  const confirmed = new Map(decision.confirmed.map((c) => [c.memoryId, c]));
  const recorded = new Map(decision.recorded.map((r) => [r.memoryId, r]));
  for (const c of decision.written.candidates) {
    const confirm = confirmed.get(c.memoryId);
    if (confirm) events.push({ type: 'MemoryConfirmed', id: deriveId('memory', turnEventId, 'confirm', c.memoryKey), payload: confirm });
    const record = recorded.get(c.memoryId);
    if (record) {
      const vector = computed.vectors.get(record.memoryKey);
      events.push({ type: 'MemoryRecorded', id: record.memoryId, payload: withVector(record, vector, computed.embeddingModel) });
    }
  }
  events.push({ type: 'TurnMemoryWritten', id: writtenId, payload: { ...decision.written, exchanges: computed.exchanges.map(llmExchangeToProto), turnAt: at } });
  return events;
}
