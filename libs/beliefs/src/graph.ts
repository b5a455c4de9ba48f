import { createLocalEmbedder } from '@hearth/llm';
import { LOCAL_BELIEF_EMBEDDING, type Holder } from './config.js';
import { decompose } from './decompose.js';
import { linkConfidence, linkStateOf, orderedPair } from './links.js';
import { nodeViewOf, stepGraph } from './step.js';
import type { Conflict, Decomposition, GraphStep, NodeView, OccurrenceView } from './types.js';

export interface GraphOccurrence extends OccurrenceView {
  beliefId: string;
  sourceId: string;
  rawText: string;
}

export interface GraphLink {
  fromBeliefId: string;
  toBeliefId: string;
  supportBoth: number;
  supportOne: number;
  createdAt: Date;
}

/**
 * An in-memory belief graph per holder (no persistence) for the DECODE
 * evaluation and the benchmark: the whole offline pipeline (rules atomizer,
 * local hashing embedder, no verifier) with one occurrence per (belief, source)
 * (§9.2), tentative links with their support, and every conflict once.
 */
export class InMemoryBeliefGraph {
  private readonly embedder = createLocalEmbedder(LOCAL_BELIEF_EMBEDDING);
  private readonly nodes = new Map<Holder, NodeView[]>();
  private readonly occurrences = new Map<string, GraphOccurrence[]>();
  private readonly conflicts = new Map<Holder, Map<string, Conflict>>();
  private readonly links = new Map<string, GraphLink>();
  private seq = 0;

  add(input: { text: string; holder: Holder; conversationId: string; at: Date; sourceId: string }): { decomposition: Decomposition; step: GraphStep } {
    const decomposition = decompose({ text: input.text, conversationId: input.conversationId, holder: input.holder });
    const nodes = this.nodesOf(input.holder);
    const vectors = decomposition.atoms.map((a) => this.embedder.embedSync(a.embeddingText));
    const pending = [...this.links.values()].filter((l) => linkStateOf(linkConfidence(l.supportBoth, l.supportOne, 0)) === 'pending');
    const step = stepGraph({ atoms: decomposition.atoms, vectors, nodes, links: pending, newId: () => `${input.holder}-${String(++this.seq).padStart(8, '0')}` });
    this.apply(input, decomposition, step);
    return { decomposition, step };
  }

  private apply(input: { holder: Holder; at: Date; sourceId: string }, decomposition: Decomposition, step: GraphStep): void {
    const nodes = this.nodes.get(input.holder) ?? [];
    this.nodes.set(input.holder, nodes);
    for (const d of step.atoms) {
      if (d.created) nodes.push(nodeViewOf(d.atom, d.vector, d.beliefId));
      const occ = this.occurrences.get(d.beliefId) ?? [];
      this.occurrences.set(d.beliefId, occ);
      if (occ.some((o) => o.sourceId === input.sourceId)) continue;
      occ.push({ beliefId: d.beliefId, sourceId: input.sourceId, rawText: d.atom.rawText, at: input.at, sourceWeight: decomposition.context.sourceWeight, atomConfidence: d.atom.atomConfidence, contextId: decomposition.context.contextId });
    }
    const conflicts = this.conflicts.get(input.holder) ?? new Map<string, Conflict>();
    this.conflicts.set(input.holder, conflicts);
    for (const c of step.conflicts) if (!conflicts.has(`${c.nodeAId}|${c.nodeBId}`)) conflicts.set(`${c.nodeAId}|${c.nodeBId}`, c);
    for (const l of step.links) {
      const [from, to] = orderedPair(l.fromBeliefId, l.toBeliefId);
      const key = `${from}|${to}`;
      const link = this.links.get(key) ?? { fromBeliefId: from, toBeliefId: to, supportBoth: 0, supportOne: 0, createdAt: input.at };
      if (l.support === 'both') link.supportBoth++;
      else link.supportOne++;
      this.links.set(key, link);
    }
  }

  nodesOf(holder: Holder): readonly NodeView[] {
    return this.nodes.get(holder) ?? [];
  }

  occurrencesOf(beliefId: string): readonly GraphOccurrence[] {
    return this.occurrences.get(beliefId) ?? [];
  }

  conflictsOf(holder: Holder): Conflict[] {
    return [...(this.conflicts.get(holder)?.values() ?? [])];
  }

  linksOf(): GraphLink[] {
    return [...this.links.values()].map((l) => ({ ...l }));
  }
}
