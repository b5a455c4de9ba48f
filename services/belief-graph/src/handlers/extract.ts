import {
  BELIEF_CONFIG,
  decompose,
  orderedPair,
  resolveAtom,
  stepGraph,
  type Decomposition,
  type EpistemicsResult,
  type Holder,
  type NodeView,
  type PreparedAtom,
  type SourceMode,
} from '@hearth/beliefs';
import { draft, type EventDraft } from '@hearth/bus';
import { deriveId, llmExchangeToProto } from '@hearth/events';
import { Events } from '@hearth/events';
import type { Embedder, LlmExchange } from '@hearth/llm';
import { counter, type Logger } from '@hearth/telemetry';
import type { Kysely } from 'kysely';
import type { BeliefLlm } from '../adapters/llm.js';
import type { BeliefDb } from '../db.js';
import { nodeViews } from '../adapters/node-views.js';

/** One text the decomposer reads: a user message, an assistant reply, or the persona's seed. */
export interface BeliefSource {
  /** The event it came from: every id of the decision derives from it. */
  eventId: string;
  userId: string;
  holder: Holder;
  sourceKind: 'user_message' | 'assistant_reply' | 'persona_seed';
  sourceMessageId: string;
  /** The user message of the turn it belongs to (the admin turn trail lists it), or '' for a persona seed. */
  correlationId: string;
  conversationId: string;
  aiFriendId: string;
  text: string;
  at: Date;
  mode?: SourceMode;
}

export interface ExtractDeps {
  db: Kysely<BeliefDb>;
  embedder: Embedder;
  /** The configured LLM, or null for the rules (the offline path). */
  llm: BeliefLlm | null;
  /** §6: the hash of prompts, cue lists, models and thresholds. */
  extractorVersion: string;
  logger?: Logger;
}

const extracted = counter('hearth_beliefs_extracted_total', 'Belief atoms extracted, by holder and resolution (match, no_match, uncertain)');
const conflictsFound = counter('hearth_belief_conflicts_total', 'Conflict edges found, by holder and type (contradiction, tension)');

/** A uint32 seed for the LLM, from the source (so a retry asks the same). */
function seedOf(id: string): number {
  return Number.parseInt(deriveId('belief-graph', 'seed', id).slice(0, 8), 16) >>> 0;
}

/** Whether this source was already decomposed under this extractor version. */
export async function processed(db: Kysely<BeliefDb>, src: Pick<BeliefSource, 'userId' | 'sourceMessageId' | 'holder'>, version: string): Promise<boolean> {
  const row = await db
    .selectFrom('sources')
    .select('atoms')
    .where('user_id', '=', src.userId)
    .where('source_message_id', '=', src.sourceMessageId)
    .where('holder', '=', src.holder)
    .where('extractor_version', '=', version)
    .executeTakeFirst();
  return row !== undefined;
}

/** Phases 1–6 of a source by the rules (pure). */
export function decomposeSource(src: BeliefSource): Decomposition {
  return decompose({ text: src.text, conversationId: src.conversationId, holder: src.holder, ...(src.mode ? { mode: src.mode } : {}) });
}

/** The id of a source's BeliefsExtracted: the same in the live reactor and the backfill. */
export function extractedId(src: Pick<BeliefSource, 'eventId' | 'holder'>, version: string): string {
  return deriveId('belief-graph', 'extracted', src.eventId, src.holder, version);
}

/**
 * The whole pipeline of §2 for one source: phases 1–6 (the LLM atomizer and
 * epistemics fallback when configured), embeddings, resolution against the
 * holder's nodes (with the verifier in its band), tentative links and
 * conflicts — one BeliefsExtracted that records all of it. Called on the
 * user's belief chain after the projection caught up, so `nodes` is the graph
 * as the chain has it; a replica that appended first makes appendDecided run
 * this again on the newer graph (§5.4 unique_canonical_hash_retry).
 */
export async function decideExtraction(deps: ExtractDeps, src: BeliefSource, rules: Decomposition = decomposeSource(src)): Promise<EventDraft> {
  const seed = seedOf(src.eventId);
  const exchanges: LlmExchange[] = [];
  let atomizer: 'rules' | 'llm' = 'rules';
  let decomposition = rules;
  if (deps.llm && decomposition.segments.length > 0) {
    const res = await deps.llm.atomize(decomposition.segments, seed);
    exchanges.push(...res.exchanges);
    if (res.atoms) {
      atomizer = 'llm';
      decomposition = decompose({ text: src.text, conversationId: src.conversationId, holder: src.holder, rawAtoms: res.atoms, ...(src.mode ? { mode: src.mode } : {}) });
    } else {
      deps.logger?.warn({ sourceMessageId: src.sourceMessageId, error: res.error }, 'LLM atomizer gave no answer: the rule-based atomizer stands');
    }
  }
  const { atoms, sources } = await withEpistemicsFallback(deps, decomposition.atoms, seed, exchanges);
  const { vectors, model } = await embed(deps, atoms);
  const all = await nodeViews(deps.db, src.userId, src.holder);
  // Vectors of another model are not comparable: those nodes are matched by hash only.
  const nodes: NodeView[] = all.map((n) => (n.embeddingModel === model ? n : { ...n, vector: [] }));
  const verdicts = new Map<number, 'same' | 'different' | 'failed'>();
  if (deps.llm) {
    for (const [i, atom] of atoms.entries()) {
      const r = resolveAtom({ canonicalHash: atom.canonicalHash, polarity: atom.polarity, vector: vectors[i]! }, nodes);
      if (!r.inVerifierBand || !r.matchedId) continue;
      const other = nodes.find((n) => n.beliefId === r.matchedId)!;
      const v = await deps.llm.verify(atom.canonicalText, other.canonicalText, seed + i);
      exchanges.push(...v.exchanges);
      verdicts.set(i, v.same === null ? 'failed' : v.same ? 'same' : 'different');
    }
  }
  const links = await pendingLinks(deps.db, src.userId);
  const step = stepGraph({
    atoms,
    vectors,
    nodes,
    verdicts,
    links,
    newId: (i) => deriveId('belief-graph', src.eventId, src.holder, deps.extractorVersion, 'node', String(i)),
  });
  for (const a of step.atoms) extracted.add(1, { holder: src.holder, resolution: a.resolution.outcome });
  for (const c of step.conflicts) conflictsFound.add(1, { holder: src.holder, type: c.conflictType });
  const occurrenceIds = step.atoms.map((_, i) => deriveId('belief-graph', src.eventId, src.holder, deps.extractorVersion, 'occurrence', String(i)));
  const occurrenceOf = new Map(step.atoms.map((a, i) => [a.beliefId, occurrenceIds[i]!]));
  const payload = {
    holder: src.holder,
    sourceMessageId: src.sourceMessageId,
    conversationId: src.conversationId,
    aiFriendId: src.aiFriendId,
    sourceKind: src.sourceKind,
    mode: decomposition.context.mode,
    sourceWeight: decomposition.context.sourceWeight,
    contextId: decomposition.context.contextId,
    segments: decomposition.segments.length,
    atoms: step.atoms.map((d, i) => ({
      occurrenceId: occurrenceIds[i]!,
      atomText: d.atom.rawText || d.atom.atomText,
      canonicalText: d.atom.canonicalText,
      canonicalHash: d.atom.canonicalHash,
      beliefType: d.atom.beliefType,
      polarity: d.atom.polarity,
      atomConfidence: d.atom.atomConfidence,
      spans: d.atom.spans,
      frame: d.atom.epistemics.frame,
      epistemicConfidence: d.atom.epistemics.confidence,
      epistemicsSource: sources[i] ?? 'rules',
      embedding: d.vector,
      embeddingText: d.atom.embeddingText,
      resolution: d.resolution.outcome,
      beliefId: d.beliefId,
      created: d.created,
      matchConfidence: d.resolution.matchConfidence,
      candidateIds: d.resolution.candidateIds,
      verifier: d.verifier,
      primaryStream: d.atom.stream.primary,
      secondaryStream: d.atom.stream.secondary,
      streamConfidence: d.atom.stream.confidence,
    })),
    rejected: decomposition.rejected.map((r) => ({ atomText: r.atom.atomText, reason: r.reason })),
    duplicatesRemoved: decomposition.duplicatesRemoved,
    links: step.links.map((l) => {
      const [from, to] = orderedPair(l.fromBeliefId, l.toBeliefId);
      return { linkId: deriveId('belief-graph', 'link', from, to), fromBeliefId: from, toBeliefId: to, support: l.support, similarity: l.similarity, reason: l.reason };
    }),
    conflicts: step.conflicts.map((c) => ({
      conflictId: deriveId('belief-graph', 'conflict', c.nodeAId, c.nodeBId),
      nodeAId: c.nodeAId,
      nodeBId: c.nodeBId,
      conflictType: c.conflictType,
      detectionMethod: c.detectionMethod,
      similarity: c.similarity,
      occurrenceIds: [occurrenceOf.get(c.nodeAId), occurrenceOf.get(c.nodeBId)].filter((x): x is string => x !== undefined),
    })),
    extractorVersion: deps.extractorVersion,
    atomizer,
    exchanges: exchanges.map(llmExchangeToProto),
    embeddingModel: model,
  };
  return draft(Events.BeliefsExtracted, payload, { userId: src.userId, causationId: src.eventId, correlationId: src.correlationId, id: extractedId(src, deps.extractorVersion), occurredAt: src.at });
}

/** §4.8: atoms whose rules confidence is under the threshold are re-read by the LLM, when one is configured. */
async function withEpistemicsFallback(
  deps: ExtractDeps,
  atoms: PreparedAtom[],
  seed: number,
  exchanges: LlmExchange[],
): Promise<{ atoms: PreparedAtom[]; sources: ('rules' | 'llm')[] }> {
  const sources = atoms.map((): 'rules' | 'llm' => 'rules');
  if (!deps.llm) return { atoms, sources };
  const out: PreparedAtom[] = [];
  for (const [i, atom] of atoms.entries()) {
    if (!atom.epistemics.needsLlmFallback) {
      out.push(atom);
      continue;
    }
    const res = await deps.llm.epistemics(atom.rawText || atom.atomText, seed + 1000 + i);
    exchanges.push(...res.exchanges);
    const result: EpistemicsResult | null = res.result;
    if (result) sources[i] = 'llm';
    out.push(result ? { ...atom, epistemics: result } : atom);
  }
  return { atoms: out, sources };
}

/** Phase 7 (§4.9): one batch per source; an endpoint failure leaves vectors empty (hash matches only). */
async function embed(deps: ExtractDeps, atoms: readonly PreparedAtom[]): Promise<{ vectors: number[][]; model: string }> {
  if (atoms.length === 0) return { vectors: [], model: deps.embedder.model };
  try {
    const vectors: number[][] = [];
    const texts = atoms.map((a) => a.embeddingText);
    for (let i = 0; i < texts.length; i += BELIEF_CONFIG.embeddings.batchSize) vectors.push(...(await deps.embedder.embed(texts.slice(i, i + BELIEF_CONFIG.embeddings.batchSize))));
    return { vectors, model: deps.embedder.model };
  } catch (err) {
    deps.logger?.warn({ err, provider: deps.embedder.provider }, 'belief embeddings failed: atoms resolved by canonical hash only');
    return { vectors: atoms.map(() => []), model: '' };
  }
}

async function pendingLinks(db: Kysely<BeliefDb>, userId: string): Promise<{ fromBeliefId: string; toBeliefId: string }[]> {
  const rows = await db.selectFrom('links').select(['from_belief_id', 'to_belief_id']).where('user_id', '=', userId).where('state', '=', 'pending').execute();
  return rows.map((r) => ({ fromBeliefId: r.from_belief_id, toBeliefId: r.to_belief_id }));
}
