import { cosine } from '@hearth/llm';
import { BELIEF_CONFIG, type Polarity } from './config.js';
import type { NodeView, Resolution } from './types.js';

const cfg = BELIEF_CONFIG.resolution;

/** Nodes by descending similarity to a vector; ties by belief id, so the order is deterministic. */
export function rankBySimilarity(vector: readonly number[], nodes: readonly NodeView[]): { node: NodeView; similarity: number }[] {
  return nodes
    .map((node) => ({ node, similarity: cosine(vector, node.vector) }))
    .sort((a, b) => b.similarity - a.similarity || (a.node.beliefId < b.node.beliefId ? -1 : a.node.beliefId > b.node.beliefId ? 1 : 0));
}

/**
 * §4.10 three-way resolution. Same hash and polarity is a match at 1.0 (the
 * shortcut); otherwise the top_k same-polarity nodes by cosine: ≥ match_threshold
 * match, < no_match_threshold no_match, between uncertain (new node + tentative
 * link), with `inVerifierBand` so the caller may ask the verifier (§4.11).
 *
 * A deny atom never joins an affirm node, nor the reverse: atoms are stored in
 * affirmative form, so "i am patient" affirm and deny share a hash and an
 * embedding; joining them would erase the very contradiction §4.15 must see. A
 * node is unique by (hash, polarity).
 */
export function resolveAtom(atom: { canonicalHash: string; polarity: Polarity; vector: readonly number[] }, nodes: readonly NodeView[]): Resolution {
  const same = nodes.filter((n) => n.polarity === atom.polarity);
  const exact = same.find((n) => n.canonicalHash === atom.canonicalHash);
  const ranked = rankBySimilarity(atom.vector, same).slice(0, cfg.topK);
  const candidateIds = ranked.map((r) => r.node.beliefId);
  if (exact) return { outcome: 'match', matchedId: exact.beliefId, matchConfidence: 1, candidateIds, inVerifierBand: false };
  const best = ranked[0];
  if (!best || best.similarity < cfg.noMatchThreshold) return { outcome: 'no_match', matchedId: null, matchConfidence: best?.similarity ?? 0, candidateIds, inVerifierBand: false };
  if (best.similarity >= cfg.matchThreshold) return { outcome: 'match', matchedId: best.node.beliefId, matchConfidence: best.similarity, candidateIds, inVerifierBand: false };
  const [lo, hi] = cfg.verifierBand;
  return { outcome: 'uncertain', matchedId: best.node.beliefId, matchConfidence: best.similarity, candidateIds, inVerifierBand: best.similarity >= lo && best.similarity < hi };
}
