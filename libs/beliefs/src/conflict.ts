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
  const live = others.filter((o) => o.beliefId !== node.beliefId && !(isMomentary(node) && isMomentary(o)));
  const pool = live.filter((o) => o.polarity !== node.polarity);
  const ranked = rankBySimilarity(node.vector, pool);
  const out: Conflict[] = [];
  ranked.forEach(({ node: other, similarity }, rank) => {
    const [a, b] = orderedPair(node.beliefId, other.beliefId);
    if (other.canonicalHash === node.canonicalHash) out.push({ nodeAId: a, nodeBId: b, conflictType: 'contradiction', detectionMethod: 'polarity_flip', similarity });
    else if (cfg.tensionEnabled && rank < cfg.topK && similarity > cfg.embeddingThreshold)
      out.push({ nodeAId: a, nodeBId: b, conflictType: 'tension', detectionMethod: 'semantic_opposition', similarity });
  });
  out.push(...exclusiveValueConflicts(node, live));
  return out;
}

/**
 * Attributes one holds one value of at a time (Hearth, beyond §4.15: the most
 * common self-contradiction of chatbots in DECODE is a second value, not a
 * negation — "i am from oregon" then "i am from ohio"). Each pattern's first
 * group is the value.
 */
const EXCLUSIVE_SLOTS: readonly { slot: string; pattern: RegExp }[] = [
  { slot: 'favorite', pattern: /^my (?:favorite|favourite) (.+?) (?:is|are) (.+)$/ },
  { slot: 'from', pattern: /^i am (?:originally )?from (.+)$/ },
  { slot: 'name', pattern: /^my name is (.+)$/ },
  { slot: 'age', pattern: /^i am (\d+)(?: years old)?$/ },
];

/** The attribute and value an affirmed exclusive statement sets, or null. */
export function exclusiveSlot(canonicalText: string): { slot: string; value: string } | null {
  for (const { slot, pattern } of EXCLUSIVE_SLOTS) {
    const m = pattern.exec(canonicalText);
    if (!m) continue;
    // "my favorite band is x": the attribute is the band; the value is what follows "is".
    return slot === 'favorite' ? { slot: `favorite:${m[1]!}`, value: m[2]! } : { slot, value: m[1]! };
  }
  return null;
}

/** Two affirmed nodes that give one exclusive attribute different values contradict (detection_method exclusive_value). */
function exclusiveValueConflicts(node: NodeView, live: readonly NodeView[]): Conflict[] {
  const mine = node.polarity === 'affirm' ? exclusiveSlot(node.canonicalText) : null;
  if (!mine) return [];
  return live.flatMap((other) => {
    const theirs = other.polarity === 'affirm' ? exclusiveSlot(other.canonicalText) : null;
    if (!theirs || theirs.slot !== mine.slot || theirs.value === mine.value) return [];
    const [a, b] = orderedPair(node.beliefId, other.beliefId);
    return [{ nodeAId: a, nodeBId: b, conflictType: 'contradiction' as const, detectionMethod: 'exclusive_value' as const, similarity: 0 }];
  });
}
