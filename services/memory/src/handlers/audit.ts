import { payloadOf, type StoredEvent } from '@hearth/bus';
import { deriveId, Events, type MemoriesInvalidated, type MemoryConfirmed, type MemoryRecorded, type TurnCompleted, type TurnMemoryWritten } from '@hearth/events';
import { parseJsonReply } from '@hearth/llm';
import { detectTopics, exchangeTopics, normalizeUserText, parseCorrection } from '@hearth/text';
import { REPLY as EXTRACTION_REPLY } from '../adapters/llm-extractor.js';
import { OFFLINE_EXTRACTOR } from '../config.js';
import { decideCorrection } from '../domain/corrections.js';
import { decideWrites } from '../domain/dedup.js';
import { embeddingText, topicsOfMemory } from '../domain/describe.js';
import { extractHeuristic, keysForTarget } from '../domain/extract/index.js';
import { llmReasons } from '../domain/gate.js';
import { acceptLlmCandidates, type RawCandidate } from '../domain/llm-candidates.js';
import type { Candidate, MemoryRow, MemoryType } from '../domain/types.js';
import { CORRECTS_FACT } from './writeback.js';

/** One recorded field that today's write-back decides differently. */
export interface WritebackChange {
  field: string;
  before: unknown;
  after: unknown;
}

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
  /** Every record of the user, any status and companion. */
  records: ReadonlyMap<string, StoredMemory>;
  suppressedKeys: ReadonlySet<string>;
  /** The conversation's previous write-back: what that reply surfaced, and its topics. */
  previous: { surfacedMemoryIds: readonly string[]; topicIds: readonly string[] } | null;
}

/** The events of one write-back, embeddings aside (recorded, never recomputed). */
export interface WritebackDecision {
  invalidated: MemoriesInvalidated[];
  recorded: Omit<MemoryRecorded, 'embedding' | 'embeddingModel'>[];
  confirmed: MemoryConfirmed[];
  written: Omit<TurnMemoryWritten, 'exchanges' | 'turnAt'>;
  /** §12.2's gate fires today but the log holds no extractor output for the turn: candidates, records and confirmations are unknown. */
  extractionMissing: boolean;
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
    // The offline rules' candidates were used as they are, however many.
    const items = (JSON.parse(ok.output) as { memories?: RawCandidate[] }).memories ?? [];
    return items.map((m) => ({ type: m.type as MemoryType, key: m.memory_key, value: m.memory_value, extractor: 'offline' }));
  }
  const read = parseJsonReply(ok.output, EXTRACTION_REPLY);
  return read.ok ? acceptLlmCandidates(read.value.memories).accepted : [];
}

/**
 * Memory's write-back for one turn (§12.2–§12.4) as writeback.ts decides it,
 * over state given rather than loaded: a correction acts on the previous reply's
 * surfaced memories (or "forget X"'s key); otherwise, for a SELECTIVE chat turn,
 * the heuristic extractor, the §12.2 gate for the LLM one (whose output is
 * `extracted`, the recorded one), and dedup. `turnEventId` is the TurnCompleted's
 * event id, from which every record's id derives. Pure.
 */
export function decideWriteback(turnEventId: string, turn: WritebackTurn, at: Date, state: WritebackState, extracted: Candidate[] | null): WritebackDecision {
  const rows = [...state.records.values()];
  const source = turn.source === 'retention' ? 'retention' : 'chat';
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
    extractionMissing: false,
  };
  const w = out.written;
  const touched: string[] = [];
  const command = source === 'chat' ? parseCorrection(turn.userText) : null;

  if (command) {
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
  } else if (source === 'retention') {
    w.skipped = 'retention';
  } else if (turn.memoryWritePolicy !== 'SELECTIVE') {
    w.skipped = 'write_policy_none';
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
  const topics = new Set<string>(exchangeTopics(turn.userText, turn.assistantText));
  for (const id of turn.surfacedMemoryIds) for (const t of state.records.get(id)?.topicIds ?? []) topics.add(t);
  w.topicIds = [...topics].sort();
  return out;
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
