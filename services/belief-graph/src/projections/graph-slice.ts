import { activationOf, BELIEF_CONFIG, coreScoreOf, linkConfidence, linkStateOf, migrationOf, updateConfidence, type OccurrenceView, type Stream } from '@hearth/beliefs';
import type { BeliefsExtracted } from '@hearth/events';
import type { Selectable } from 'kysely';
import { SERVICE } from '../config.js';
import type { ConflictsTable, LinksTable, NodesTable, OccurrencesTable, SourcesTable } from '../db.js';

const DAY_MS = 86_400_000;

/**
 * The part of the belief graph a run of BeliefsExtracted reads, as it stood
 * before the run. The projection loads it in one statement, folds the events
 * over it here (pure) and writes what changed in one more. The fold takes the
 * steps of the row-by-row projection in the same order (self-belief-decomposer.md
 * §3, §4.12, §4.14, §4.16, §4.17; belief-challenge.md §5), each event seeing
 * what the ones before it wrote, so it writes the same rows.
 */
export interface GraphSlice {
  /** The nodes of the events' belief ids (ids are unique across users). */
  nodes: ReadonlyMap<string, SliceNode>;
  /** Their live occurrences. */
  occurrences: ReadonlyMap<string, readonly SliceOccurrence[]>;
  /** Of the atoms' (belief, source, version) keys ({@link occurrenceKey}), those with an occurrence already, live or deleted (§9.2). */
  sourced: ReadonlySet<string>;
  /** The state the uncertainty chain gave a created atom's id before its node (issue 17), by {@link pairKey}(user, belief). */
  reliability: ReadonlyMap<string, string>;
  /** The links of the events' pairs, by {@link pairKey}. */
  links: ReadonlyMap<string, SliceLink>;
  /** Of the events' conflict pairs, those already recorded, by {@link pairKey}. */
  conflictPairs: ReadonlySet<string>;
  /** Active conflicts of the nodes, created from {@link conflictWindowStart} of the earliest event on (§4.17). */
  recentConflicts: readonly SliceConflict[];
}

export interface SliceNode {
  confidence: number;
  createdAt: Date;
  deletedAt: Date | null;
  stream: string;
  migrationHistory: unknown;
}

export interface SliceOccurrence {
  sourceMessageId: string;
  createdAt: Date;
  sourceWeight: number;
  atomConfidence: number;
  contextId: string;
}

export interface SliceLink {
  linkId: string;
  supportBoth: number;
  supportOne: number;
  state: string;
  createdAt: Date;
}

export interface SliceConflict {
  nodeAId: string;
  nodeBId: string;
  createdAt: Date;
}

/** One BeliefsExtracted as the fold takes it. */
export interface ExtractedEvent {
  x: BeliefsExtracted;
  userId: string;
  at: Date;
}

/** Scores and stream of a live node at one time (§4.16, §4.17, §4.14). */
export interface Scores {
  activation: number;
  coreScore: number;
  status: string;
  /** When the node migrates now. */
  migration?: { from: string; to: string; at: Date; history: unknown[] };
}

/** An existing node's columns the events changed; absent ones stay as they are. */
export interface NodeChange {
  beliefId: string;
  confidence?: number;
  lastReinforcedAt?: Date;
  rawText?: string;
  /** Added to conflict_count. */
  conflictsAdded: number;
  activation?: number;
  coreScore?: number;
  status?: string;
  stream?: string;
  migratedFrom?: string;
  migratedAt?: Date;
  /** As JSON text. */
  migrationHistory?: string;
}

/** A node as a run creates it: the table's row, its JSON as text, never deleted or merged yet. */
export type NewNode = Omit<Selectable<NodesTable>, 'gardener_level' | 'migration_history' | 'deleted_at' | 'merged_into'> & {
  migration_history: string;
  deleted_at: null;
  merged_into: null;
};

export type NewOccurrence = Omit<Selectable<OccurrencesTable>, 'raw_span' | 'epistemic_frame' | 'deleted_at'> & {
  raw_span: string;
  epistemic_frame: string;
  deleted_at: null;
};

/** A link as the events leave it; an existing one keeps its id, user, version and creation, and appends `signals`. */
export type LinkWrite = Omit<Selectable<LinksTable>, 'signals'> & {
  /** The events' signals about the pair, in order, as a JSON array. */
  signals: string;
};

export type NewConflict = Omit<Selectable<ConflictsTable>, 'status' | 'evidence' | 'resolved_at' | 'resolution_reason'> & {
  evidence: string;
  resolved_at: null;
  resolution_reason: null;
};

export type NewSource = Selectable<SourcesTable>;

/** What a run of BeliefsExtracted writes: each row once, as the last event left it. */
export interface ExtractedWrites {
  newNodes: NewNode[];
  nodeChanges: NodeChange[];
  occurrences: NewOccurrence[];
  links: LinkWrite[];
  conflicts: NewConflict[];
  sources: NewSource[];
}

/** A pair's key in the slice's maps. */
export const pairKey = (a: string, b: string): string => `${a}|${b}`;

/** An occurrence's key in {@link GraphSlice.sourced} (§9.2). */
export const occurrenceKey = (beliefId: string, sourceMessageId: string, extractorVersion: string): string => `${beliefId}|${sourceMessageId}|${extractorVersion}`;

/** The start of the window of conflicts that count against a node's core score at `at` (§4.17). */
export const conflictWindowStart = (at: Date): Date => new Date(at.getTime() - BELIEF_CONFIG.coreScore.conflictWindowDays * DAY_MS);

/** Whether a BeliefsExtracted changes anything besides its `sources` row. */
export const hasGraphChanges = (x: BeliefsExtracted): boolean => x.atoms.length + x.links.length + x.conflicts.length > 0;

/** What to read for a run of BeliefsExtracted (see {@link GraphSlice}). */
export interface SliceQuery {
  beliefIds: string[];
  /** (user, belief) of the created atoms. */
  created: (readonly [string, string])[];
  /** (belief, source, version) of the atoms. */
  occurrenceKeys: (readonly [string, string, string])[];
  linkPairs: (readonly [string, string])[];
  conflictPairs: (readonly [string, string])[];
  /** Conflicts created from here on count (the earliest event's window). */
  conflictsSince: Date;
}

export function sliceQueryOf(events: readonly ExtractedEvent[]): SliceQuery {
  const unique = <T extends readonly string[]>(items: T[]): T[] => [...new Map(items.map((i) => [i.join('|'), i])).values()];
  return {
    beliefIds: [...new Set(events.flatMap(({ x }) => [...x.atoms.map((a) => a.beliefId), ...x.conflicts.flatMap((c) => [c.nodeAId, c.nodeBId])]))],
    created: unique(events.flatMap(({ x, userId }) => x.atoms.filter((a) => a.created).map((a) => [userId, a.beliefId] as const))),
    occurrenceKeys: unique(events.flatMap(({ x }) => x.atoms.map((a) => [a.beliefId, x.sourceMessageId, x.extractorVersion] as const))),
    linkPairs: unique(events.flatMap(({ x }) => x.links.map((l) => [l.fromBeliefId, l.toBeliefId] as const))),
    conflictPairs: unique(events.flatMap(({ x }) => x.conflicts.map((c) => [c.nodeAId, c.nodeBId] as const))),
    conflictsSince: conflictWindowStart(new Date(Math.min(...events.map((e) => e.at.getTime())))),
  };
}

/** A node as the fold carries it: its state, and what the events did to it. */
interface Working {
  node: SliceNode;
  /** The row to insert, for a node the run creates; else the change to an existing one. */
  created?: NewNode;
  change?: NodeChange;
}

type NodeSet = Omit<NodeChange, 'beliefId' | 'conflictsAdded'>;

/** Sets node columns, on the new row or as a change to the existing one. */
function update(w: Working, beliefId: string, set: NodeSet): void {
  if (!w.created) {
    w.change = { ...(w.change ?? { beliefId, conflictsAdded: 0 }), ...set };
    return;
  }
  const r = w.created;
  if (set.confidence !== undefined) r.confidence = set.confidence;
  if (set.lastReinforcedAt !== undefined) r.last_reinforced_at = set.lastReinforcedAt;
  if (set.rawText !== undefined) r.raw_text = set.rawText;
  if (set.activation !== undefined) r.activation = set.activation;
  if (set.coreScore !== undefined) r.core_score = set.coreScore;
  if (set.status !== undefined) r.status = set.status;
  if (set.stream !== undefined) r.stream = set.stream;
  if (set.migratedFrom !== undefined) r.migrated_from = set.migratedFrom;
  if (set.migratedAt !== undefined) r.migrated_at = set.migratedAt;
  if (set.migrationHistory !== undefined) r.migration_history = set.migrationHistory;
}

function addConflict(w: Working, beliefId: string): void {
  if (w.created) {
    w.created.conflict_count++;
    return;
  }
  const change = w.change ?? { beliefId, conflictsAdded: 0 };
  w.change = { ...change, conflictsAdded: change.conflictsAdded + 1 };
}

/** The columns scores set. */
function scoreSet(s: Scores): NodeSet {
  return {
    activation: s.activation,
    coreScore: s.coreScore,
    status: s.status,
    ...(s.migration ? { stream: s.migration.to, migratedFrom: s.migration.from, migratedAt: s.migration.at, migrationHistory: JSON.stringify(s.migration.history) } : {}),
  };
}

/** A node's scores as a change to its row. */
export const scoreChange = (beliefId: string, s: Scores): NodeChange => ({ beliefId, conflictsAdded: 0, ...scoreSet(s) });

/**
 * A run of BeliefsExtracted folded over the slice it touches. Each event in
 * turn: its atoms (new nodes, reinforcements, occurrences), its link
 * evidence, its conflicts, then the scores of every node it touched at its
 * time, and its `sources` row.
 */
export function foldExtracted(slice: GraphSlice, events: readonly ExtractedEvent[]): ExtractedWrites {
  const nodes = new Map<string, Working>([...slice.nodes].map(([id, node]) => [id, { node }]));
  const live = new Map<string, SliceOccurrence[]>([...slice.occurrences].map(([id, occ]) => [id, [...occ]]));
  const sourced = new Set(slice.sourced);
  const links = new Map<string, { row: LinkWrite; signals: unknown[] }>();
  const conflictPairs = new Set(slice.conflictPairs);
  const conflicts: SliceConflict[] = [...slice.recentConflicts];
  const sources = new Set<string>();
  const out: ExtractedWrites = { newNodes: [], nodeChanges: [], occurrences: [], links: [], conflicts: [], sources: [] };

  for (const { x, userId, at } of events) {
    const touched = new Set<string>();
    for (const a of x.atoms) {
      const w = nodes.get(a.beliefId);
      if (a.created) {
        // An id already in the graph keeps its node as it is.
        if (!w) {
          const row: NewNode = {
            belief_id: a.beliefId,
            user_id: userId,
            holder: x.holder,
            canonical_text: a.canonicalText,
            canonical_hash: a.canonicalHash,
            belief_type: a.beliefType,
            polarity: a.polarity,
            temporal_scope: a.frame?.temporalScope ?? 'unknown',
            embedding: a.embedding,
            embedding_model: x.embeddingModel,
            embedding_text: a.embeddingText,
            raw_text: a.atomText,
            activation: 0,
            core_score: 0,
            status: 'surface',
            confidence: SERVICE.initialConfidence(a.atomConfidence, x.sourceWeight),
            conflict_count: 0,
            stream: a.primaryStream,
            secondary_stream: a.secondaryStream,
            stream_confidence: a.streamConfidence,
            migrated_from: null,
            migrated_at: null,
            migration_history: '[]',
            seeded: x.sourceKind === 'persona_seed',
            created_at: at,
            last_reinforced_at: at,
            deleted_at: null,
            merged_into: null,
            reliability: slice.reliability.get(pairKey(userId, a.beliefId)) ?? 'reliable',
          };
          nodes.set(a.beliefId, { node: { confidence: row.confidence, createdAt: at, deletedAt: null, stream: row.stream, migrationHistory: [] }, created: row });
          out.newNodes.push(row);
        }
      } else if (w) {
        // belief-challenge.md §5: new evidence for the belief reinforces it, in a small bounded step.
        w.node = { ...w.node, confidence: updateConfidence(w.node.confidence, 'reinforced').confidence };
        update(w, a.beliefId, { confidence: w.node.confidence, lastReinforcedAt: at, rawText: a.atomText });
      }
      // §9.2: one occurrence per (belief, source, version).
      const key = occurrenceKey(a.beliefId, x.sourceMessageId, x.extractorVersion);
      if (!sourced.has(key)) {
        sourced.add(key);
        out.occurrences.push({
          occurrence_id: a.occurrenceId,
          belief_id: a.beliefId,
          user_id: userId,
          source_message_id: x.sourceMessageId,
          extractor_version: x.extractorVersion,
          raw_text: a.atomText,
          raw_span: JSON.stringify(a.spans),
          source_weight: x.sourceWeight,
          atom_confidence: a.atomConfidence,
          epistemic_frame: JSON.stringify(a.frame ?? {}),
          epistemic_confidence: a.epistemicConfidence,
          match_confidence: a.matchConfidence,
          context_id: x.contextId,
          created_at: at,
          deleted_at: null,
        });
        live.set(a.beliefId, [...(live.get(a.beliefId) ?? []), { sourceMessageId: x.sourceMessageId, createdAt: at, sourceWeight: x.sourceWeight, atomConfidence: a.atomConfidence, contextId: x.contextId }]);
      }
      touched.add(a.beliefId);
    }

    for (const l of x.links) foldLink(links, slice.links, l, x.extractorVersion, userId, at);

    for (const c of x.conflicts) {
      const key = pairKey(c.nodeAId, c.nodeBId);
      if (conflictPairs.has(key)) continue;
      conflictPairs.add(key);
      out.conflicts.push({
        conflict_id: c.conflictId,
        user_id: userId,
        node_a_id: c.nodeAId,
        node_b_id: c.nodeBId,
        conflict_type: c.conflictType,
        detection_method: c.detectionMethod,
        evidence: JSON.stringify({ similarity: c.similarity, occurrence_ids: c.occurrenceIds }),
        source_message_ids: sourcesOf([...(live.get(c.nodeAId) ?? []), ...(live.get(c.nodeBId) ?? [])], x.sourceMessageId),
        created_at: at,
        resolved_at: null,
        resolution_reason: null,
      });
      conflicts.push({ nodeAId: c.nodeAId, nodeBId: c.nodeBId, createdAt: at });
      for (const id of new Set([c.nodeAId, c.nodeBId])) {
        const w = nodes.get(id);
        if (!w) continue;
        addConflict(w, id);
        // belief-challenge.md §5: the earlier belief is contradicted by the new evidence.
        if (w.node.createdAt.getTime() < at.getTime()) {
          w.node = { ...w.node, confidence: updateConfidence(w.node.confidence, 'contradicted').confidence };
          update(w, id, { confidence: w.node.confidence });
        }
      }
      touched.add(c.nodeAId);
      touched.add(c.nodeBId);
    }

    const since = conflictWindowStart(at).getTime();
    for (const id of touched) {
      const w = nodes.get(id);
      if (!w || w.node.deletedAt) continue;
      const recent = conflicts.filter((c) => (c.nodeAId === id || c.nodeBId === id) && c.createdAt.getTime() >= since).length;
      const s = scoresOf(w.node, live.get(id) ?? [], recent, at);
      update(w, id, scoreSet(s));
      if (s.migration) w.node = { ...w.node, stream: s.migration.to, migrationHistory: s.migration.history };
    }
    // The first of a source's rows stands, as a conflict leaves the one already there.
    const source = [userId, x.sourceMessageId, x.holder, x.extractorVersion].join('|');
    if (!sources.has(source)) {
      sources.add(source);
      out.sources.push({ user_id: userId, source_message_id: x.sourceMessageId, holder: x.holder, extractor_version: x.extractorVersion, atoms: x.atoms.length, processed_at: at });
    }
  }
  for (const [, w] of nodes) if (w.change) out.nodeChanges.push(w.change);
  out.links = [...links.values()].map((l) => l.row);
  return out;
}

/**
 * §4.16, §4.17, §4.14: a live node's activation, core score and status at
 * `at`, from its live occurrences and its recent conflicts, and the state →
 * identity migration when it is due (with the node's history as it becomes).
 */
export function scoresOf(node: Pick<SliceNode, 'stream' | 'migrationHistory'>, occurrences: readonly SliceOccurrence[], recentConflicts: number, at: Date): Scores {
  const views: OccurrenceView[] = occurrences.map((o) => ({ at: o.createdAt, sourceWeight: o.sourceWeight, atomConfidence: o.atomConfidence, contextId: o.contextId }));
  const stream = node.stream as Stream;
  const activation = activationOf(views, stream, at);
  const score = coreScoreOf(views, recentConflicts, at);
  const migration = migrationOf({ stream, spread: score.spread, diversity: score.diversity, activation });
  const scores: Scores = { activation, coreScore: score.coreScore, status: score.status };
  if (!migration.migrate) return scores;
  const history: unknown[] = Array.isArray(node.migrationHistory) ? (node.migrationHistory as unknown[]) : [];
  return { ...scores, migration: { from: migration.from, to: migration.to, at, history: [...history, { from: migration.from, to: migration.to, at: at.toISOString(), reason: migration.reason }] } };
}

/**
 * §3.3, §4.12: one link evidence, on the link as the evidence before it left
 * it (earlier in the run, or as read).
 */
function foldLink(
  links: Map<string, { row: LinkWrite; signals: unknown[] }>,
  existing: ReadonlyMap<string, SliceLink>,
  l: BeliefsExtracted['links'][number],
  version: string,
  userId: string,
  at: Date,
): void {
  const key = pairKey(l.fromBeliefId, l.toBeliefId);
  const before = links.get(key);
  const old = existing.get(key);
  const base = before ? { supportBoth: before.row.support_both, supportOne: before.row.support_one, state: before.row.state, createdAt: before.row.created_at } : old;
  const both = (base?.supportBoth ?? 0) + (l.support === 'both' ? 1 : 0);
  const one = (base?.supportOne ?? 0) + (l.support === 'one' ? 1 : 0);
  const createdAt = base?.createdAt ?? at;
  // §3.3: the age term counts from the link's creation to this evidence.
  const confidence = linkConfidence(both, one, (at.getTime() - createdAt.getTime()) / DAY_MS);
  // §4.12: auto-accept or auto-reject a pending link; accepted never merges by itself (§9.4).
  const state = base && base.state !== 'pending' ? base.state : linkStateOf(confidence);
  const signals = [...(before?.signals ?? []), { at: at.toISOString(), support: l.support, similarity: l.similarity, reason: l.reason }];
  links.set(key, {
    signals,
    row: {
      link_id: before?.row.link_id ?? old?.linkId ?? l.linkId,
      user_id: before?.row.user_id ?? userId,
      from_belief_id: l.fromBeliefId,
      to_belief_id: l.toBeliefId,
      confidence,
      state,
      support_both: both,
      support_one: one,
      last_support_at: at,
      signals: JSON.stringify(signals),
      extractor_version: before?.row.extractor_version ?? version,
      created_at: createdAt,
      updated_at: at,
    },
  });
}

/** The source messages of the nodes' live occurrences, oldest first, and the one that raised the conflict. */
function sourcesOf(occurrences: readonly SliceOccurrence[], current: string): string[] {
  const ordered = [...occurrences].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.sourceMessageId < b.sourceMessageId ? -1 : a.sourceMessageId > b.sourceMessageId ? 1 : 0));
  return [...new Set([...ordered.map((o) => o.sourceMessageId), current])];
}
