import { payloadOf, type StoredEvent } from '@hearth/bus';
import { Events, type MemoriesInvalidated, type MemoryConfirmed, type MemoryRecorded, type TurnMemoryWritten } from '@hearth/events';
import { parseJsonReply } from '@hearth/llm';
import { REPLY as EXTRACTION_REPLY } from '../adapters/llm-extractor.js';
import { OFFLINE_EXTRACTOR } from '../config.js';
import { acceptLlmCandidates, type RawCandidate } from '../domain/llm-candidates.js';
import type { Candidate, MemoryType, StatedTime } from '../domain/types.js';
import { decideWriteback, writebackTurnOf, type StoredMemory, type WritebackState, type WritebackTurn } from '../domain/writeback.js';

// The live write-back decides with the same function; the package exports it from here.
export { decideWriteback, writebackTurnOf, type StoredMemory, type WritebackDecision, type WritebackState, type WritebackTurn } from '../domain/writeback.js';

/** One recorded field that today's write-back decides differently. */
export interface WritebackChange {
  field: string;
  before: unknown;
  after: unknown;
}

/**
 * The candidates an extractor's recorded exchanges gave: the offline rules'
 * output as it was, the model's JSON through today's §12.3.1 acceptance; null
 * when the turn records no extraction. [] when the extractor failed.
 */
export function recordedExtraction(written: Pick<TurnMemoryWritten, 'llmRan' | 'exchanges'>): Candidate[] | null {
  if (!written.llmRan) return null;
  const ok = written.exchanges.filter((x) => x.error === '').at(-1);
  if (!ok) return [];
  if (ok.provider === OFFLINE_EXTRACTOR.provider) {
    // The offline rules' candidates were used as they are, however many, with the times they read.
    const items = (JSON.parse(ok.output) as { memories?: (RawCandidate & { occurred?: StatedTime })[] }).memories ?? [];
    return items.map((m) => ({ type: m.type as MemoryType, key: m.memory_key, value: m.memory_value, extractor: 'offline', ...(m.occurred ? { occurred: m.occurred } : {}) }));
  }
  const read = parseJsonReply(ok.output, EXTRACTION_REPLY);
  return read.ok ? acceptLlmCandidates(read.value.memories).accepted : [];
}

/** The events of one recorded write-back: its TurnMemoryWritten and what preceded it in the same decision. */
export interface RecordedWriteback {
  invalidated: MemoriesInvalidated[];
  recorded: MemoryRecorded[];
  confirmed: MemoryConfirmed[];
  written: TurnMemoryWritten;
}

/** JSON with object keys sorted: a payload decoded from the wire compares equal to the one built today. */
function canonical(v: unknown): string | undefined {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === 'object' && !Array.isArray(x) ? Object.fromEntries(Object.entries(x).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : x,
  );
}

function differ(changes: WritebackChange[], field: string, before: unknown, after: unknown): void {
  if (canonical(before) !== canonical(after)) changes.push({ field, before, after });
}

/**
 * Re-decides a recorded write-back with today's rules, over the state before
 * it and the extractor output it recorded (no LLM is asked), and names every
 * field of its events that would differ. Pure.
 */
export function reWriteBack(turnEventId: string, turn: WritebackTurn, at: Date, state: WritebackState, recorded: RecordedWriteback): WritebackChange[] {
  const today = decideWriteback(turnEventId, turn, at, state, recordedExtraction(recorded.written));
  const changes: WritebackChange[] = [];
  const was = recorded.written;
  for (const key of ['skipped', 'heuristicRan', 'llmRan', 'llmReasons', 'clarificationNeeded', 'suppressTopicIds', 'invalidatedMemoryIds', 'topicIds'] as const) {
    differ(changes, key, was[key], today.written[key]);
  }
  differ(
    changes,
    'invalidations',
    recorded.invalidated.map(({ memoryIds, suppressedKey, reason, sourceMessageId }) => ({ memoryIds, suppressedKey, reason, sourceMessageId })),
    today.invalidated,
  );
  if (today.extractionMissing) {
    changes.push({ field: 'candidates', before: was.candidates, after: 'the LLM extractor would be asked (no recorded output)' });
    return changes;
  }
  differ(changes, 'correction', was.correction, today.written.correction);
  differ(changes, 'candidates', was.candidates, today.written.candidates);
  differ(changes, 'extractedMemoryCandidateIds', was.extractedMemoryCandidateIds, today.written.extractedMemoryCandidateIds);
  differ(
    changes,
    'records',
    recorded.recorded.map(({ embedding: _e, embeddingModel: _m, ...r }) => r),
    today.recorded,
  );
  differ(changes, 'confirmations', recorded.confirmed, today.confirmed);
  return changes;
}

/** One re-decided write-back. */
export interface ReplayedWriteback {
  messageId: string;
  changes: WritebackChange[];
}

/**
 * Replays memory's write-backs in log order: remembers each TurnCompleted of
 * the orchestrator's log (feed those first), folds memory's own events as the
 * `memories` projection does, and at each TurnMemoryWritten re-decides the
 * write-back it closes with {@link reWriteBack}, against the state before it.
 */
export interface WritebackReplay {
  turn(e: StoredEvent): void;
  memory(e: StoredEvent, decide: boolean): ReplayedWriteback | null;
}

interface UserMemory {
  records: Map<string, StoredMemory>;
  suppressedKeys: Set<string>;
  previous: Map<string, { surfacedMemoryIds: string[]; topicIds: string[] }>;
  /** The events of the write-back under way (its TurnMemoryWritten comes last). */
  pending: StoredEvent[];
}

export function createWritebackReplay(): WritebackReplay {
  const turns = new Map<string, { turn: WritebackTurn; at: Date }>();
  const users = new Map<string, UserMemory>();
  const userOf = (id: string): UserMemory => {
    let u = users.get(id);
    if (!u) users.set(id, (u = { records: new Map(), suppressedKeys: new Set(), previous: new Map(), pending: [] }));
    return u;
  };
  const apply = (u: UserMemory, e: StoredEvent): void => {
    switch (e.type) {
      case Events.MemoryRecorded.name: {
        const p = payloadOf(e, Events.MemoryRecorded);
        const old = u.records.get(p.supersedes);
        if (old?.status === 'ACTIVE') old.status = 'SUPERSEDED';
        if (!u.records.has(p.memoryId)) {
          u.records.set(p.memoryId, {
            memoryId: p.memoryId,
            aiFriendId: p.aiFriendId,
            type: p.type as MemoryType,
            key: p.memoryKey,
            value: p.memoryValue,
            confidence: p.confidence,
            status: 'ACTIVE',
            createdAt: e.occurredAt,
            lastConfirmedAt: e.occurredAt,
            topicIds: p.topicIds,
          });
        }
        return;
      }
      case Events.MemoryConfirmed.name: {
        const p = payloadOf(e, Events.MemoryConfirmed);
        const r = u.records.get(p.memoryId);
        if (r) Object.assign(r, { confidence: p.confidence, lastConfirmedAt: e.occurredAt });
        return;
      }
      case Events.MemoriesInvalidated.name: {
        const p = payloadOf(e, Events.MemoriesInvalidated);
        for (const id of p.memoryIds) {
          const r = u.records.get(id);
          if (r) Object.assign(r, { status: 'INVALID', value: '' });
        }
        if (p.suppressedKey) u.suppressedKeys.add(p.suppressedKey);
        return;
      }
      case Events.TurnMemoryWritten.name: {
        const p = payloadOf(e, Events.TurnMemoryWritten);
        u.previous.set(p.conversationId, { surfacedMemoryIds: p.surfacedMemoryIds, topicIds: p.topicIds });
        return;
      }
      default:
        return;
    }
  };
  return {
    turn(e) {
      if (e.erased || e.type !== Events.TurnCompleted.name) return;
      turns.set(e.id, { turn: writebackTurnOf(payloadOf(e, Events.TurnCompleted)), at: e.occurredAt });
    },
    memory(e, decide) {
      if (e.erased) return null;
      const u = userOf(e.userId);
      if (e.type !== Events.TurnMemoryWritten.name) {
        // A write-back's events wait for its TurnMemoryWritten; others (an API deletion) apply now.
        if (turns.has(e.causationId)) u.pending.push(e);
        else apply(u, e);
        return null;
      }
      const group = u.pending.filter((p) => p.causationId === e.causationId);
      u.pending = u.pending.filter((p) => p.causationId !== e.causationId);
      const source = turns.get(e.causationId);
      turns.delete(e.causationId);
      let replayed: ReplayedWriteback | null = null;
      if (decide) {
        const written = payloadOf(e, Events.TurnMemoryWritten);
        if (!source) {
          replayed = { messageId: written.messageId, changes: [{ field: 'turn', before: e.causationId, after: 'its TurnCompleted is not in the log' }] };
        } else {
          const recorded: RecordedWriteback = { invalidated: [], recorded: [], confirmed: [], written };
          for (const g of group) {
            if (g.type === Events.MemoriesInvalidated.name) recorded.invalidated.push(payloadOf(g, Events.MemoriesInvalidated));
            else if (g.type === Events.MemoryRecorded.name) recorded.recorded.push(payloadOf(g, Events.MemoryRecorded));
            else if (g.type === Events.MemoryConfirmed.name) recorded.confirmed.push(payloadOf(g, Events.MemoryConfirmed));
          }
          const state: WritebackState = { records: u.records, suppressedKeys: u.suppressedKeys, previous: u.previous.get(written.conversationId) ?? null };
          replayed = { messageId: written.messageId, changes: reWriteBack(e.causationId, source.turn, source.at, state, recorded) };
        }
      }
      for (const g of group) apply(u, g);
      apply(u, e);
      return replayed;
    },
  };
}
