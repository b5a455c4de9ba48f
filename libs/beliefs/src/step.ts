import { detectConflicts } from './conflict.js';
import { orderedPair } from './links.js';
import { resolveAtom } from './resolve.js';
import type { AtomDecision, Conflict, GraphStep, LinkDecision, NodeView, PreparedAtom, Resolution } from './types.js';

export type Verdict = 'same' | 'different' | 'failed';

export interface StepInput {
  atoms: readonly PreparedAtom[];
  /** One vector per atom (of its embeddingText), in order. */
  vectors: readonly number[][];
  /** The holder's graph before this source. */
  nodes: readonly NodeView[];
  /** Verifier verdicts (§4.11) by atom index, for atoms whose resolution was in the band. */
  verdicts?: ReadonlyMap<number, Verdict>;
  /** Pending tentative links of the graph, so a definite match to one side adds support_one. */
  links?: readonly { fromBeliefId: string; toBeliefId: string }[];
  newId: (atomIndex: number) => string;
}

/**
 * Phases 8–11 of §2 for one source, deterministic. Each atom resolves against
 * the working set (the graph plus the nodes this source already created, so a
 * second atom of one hash joins the first: one node per (hash, polarity)). A
 * verifier verdict settles the band: 'same' → match, 'different' → no_match,
 * 'failed' → uncertain. no_match and uncertain create a node; uncertain also
 * gives a `both` link to its best candidate; a definite match to a node with a
 * pending link gives that link a `one`. Conflicts are checked for new nodes only,
 * against the working set when they are created (an occurrence matched to an
 * existing node adds no new conflict).
 */
/** A prepared atom as the node it would be: what resolution and the conflict engine compare. */
export function nodeViewOf(atom: PreparedAtom, vector: readonly number[], beliefId: string): NodeView {
  return {
    beliefId,
    canonicalText: atom.canonicalText,
    canonicalHash: atom.canonicalHash,
    polarity: atom.polarity,
    beliefType: atom.beliefType,
    temporalScope: atom.epistemics.frame.temporalScope,
    stream: atom.stream.primary,
    vector,
  };
}

export function stepGraph(input: StepInput): GraphStep {
  const working: NodeView[] = [...input.nodes];
  const decisions: AtomDecision[] = [];
  const links: LinkDecision[] = [];
  const conflicts: Conflict[] = [];
  const seenPairs = new Set<string>();

  input.atoms.forEach((atom, i) => {
    const vector = input.vectors[i];
    if (!vector) throw new RangeError(`stepGraph: no vector for atom ${i}`);
    const first = resolveAtom({ canonicalHash: atom.canonicalHash, polarity: atom.polarity, vector }, working);
    const verdict = first.outcome === 'uncertain' ? input.verdicts?.get(i) : undefined;
    const resolution = settle(first, verdict);

    if (resolution.outcome === 'match' && resolution.matchedId) {
      const id = resolution.matchedId;
      for (const l of input.links ?? []) {
        if (l.fromBeliefId !== id && l.toBeliefId !== id) continue;
        const [from, to] = orderedPair(l.fromBeliefId, l.toBeliefId);
        links.push({ fromBeliefId: from, toBeliefId: to, support: 'one', similarity: resolution.matchConfidence, reason: 'definite match to one side' });
      }
      decisions.push({ atom, vector, resolution, verifier: verdict ?? '', beliefId: id, created: false });
      return;
    }

    const beliefId = input.newId(i);
    const node = nodeViewOf(atom, vector, beliefId);
    if (resolution.outcome === 'uncertain' && resolution.matchedId) {
      const [from, to] = orderedPair(beliefId, resolution.matchedId);
      links.push({ fromBeliefId: from, toBeliefId: to, support: 'both', similarity: resolution.matchConfidence, reason: verdict === 'failed' ? 'uncertain match, verifier failed' : 'uncertain match' });
    }
    for (const c of detectConflicts(node, working)) {
      const key = `${c.nodeAId}|${c.nodeBId}`;
      if (seenPairs.has(key)) continue;
      seenPairs.add(key);
      conflicts.push(c);
    }
    working.push(node);
    decisions.push({ atom, vector, resolution, verifier: verdict ?? '', beliefId, created: true });
  });
  return { atoms: decisions, links, conflicts };
}

function settle(r: Resolution, verdict: Verdict | undefined): Resolution {
  if (verdict === 'same') return { ...r, outcome: 'match' };
  if (verdict === 'different') return { ...r, outcome: 'no_match', matchedId: null };
  return r;
}
