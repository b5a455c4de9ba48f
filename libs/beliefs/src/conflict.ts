import { BELIEF_CONFIG } from './config.js';
import { orderedPair } from './links.js';
import { rankBySimilarity } from './resolve.js';
import type { Conflict, NodeView } from './types.js';

const cfg = BELIEF_CONFIG.conflict;

/** A node about one moment: temporal scope `state` or stream `state`. */
export function isMomentary(node: Pick<NodeView, 'temporalScope' | 'stream'>): boolean {
  return node.temporalScope === 'state' || node.stream === 'state';
}

/**
 * §4.15 conflict engine for one node against the others of its graph.
 * Contradiction (polarity_flip): same canonical hash, opposite polarity — checked
 * over all nodes, since the hash is exact. Tension (semantic_opposition): among
 * the top_k most similar, similarity > embedding_threshold, opposite polarity,
 * different hash. Two momentary nodes never conflict (different moments, §9.6);
 * a state against a habitual or identity node does. Pairs come ordered (a < b).
 *
 * In the affirmative-form design "i love mornings" and "i hate mornings" are
 * "i like mornings" affirm and deny: one hash, so a contradiction where the spec's
 * table shows a tension. Tension is what is left for a near-paraphrase of
 * opposite polarity ("i am a patient person" vs "i am not patient").
 */
export function detectConflicts(node: NodeView, others: readonly NodeView[]): Conflict[] {
  const pool = others.filter((o) => o.beliefId !== node.beliefId && o.polarity !== node.polarity && !(isMomentary(node) && isMomentary(o)));
  const ranked = rankBySimilarity(node.vector, pool);
  const out: Conflict[] = [];
  ranked.forEach(({ node: other, similarity }, rank) => {
    const [a, b] = orderedPair(node.beliefId, other.beliefId);
    if (other.canonicalHash === node.canonicalHash) out.push({ nodeAId: a, nodeBId: b, conflictType: 'contradiction', detectionMethod: 'polarity_flip', similarity });
    else if (cfg.tensionEnabled && rank < cfg.topK && similarity > cfg.embeddingThreshold)
      out.push({ nodeAId: a, nodeBId: b, conflictType: 'tension', detectionMethod: 'semantic_opposition', similarity });
  });
  return out;
}
