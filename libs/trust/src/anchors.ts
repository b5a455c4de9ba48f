import { TRUST_CONFIG } from './config.js';
import { clamp, cosine } from './math.js';
import type { Anchors, BeliefView } from './types.js';

/**
 * The awareness-loop anchors (specs/README.md):
 * - origin: the mean embedding of the seeded beliefs, the persona at assignment
 *   (whatever their level since: it is where the companion started);
 * - live: Σ w·e / Σ w over identity-stream beliefs the companion still holds
 *   (level > −1), w = activation · confidence. Activation-weighted: a belief
 *   counts as far as the companion holds it, so a promotion or a deprecation
 *   moves the live anchor;
 * - coldStart: no belief beyond the seeded ones exists yet (g_align = 1).
 * Only vectors of one model are averaged: `model`, else the model most
 * embedded beliefs share (ties by name).
 */
export function anchorsOf(beliefs: readonly BeliefView[], model?: string): Anchors {
  const coldStart = !beliefs.some((b) => !b.seeded);
  const chosen = model ?? commonModel(beliefs);
  const embedded = beliefs.filter((b) => b.embeddingModel === chosen && b.embedding.length > 0);
  const dims = embedded[0]?.embedding.length ?? 0;
  const usable = embedded.filter((b) => b.embedding.length === dims);
  const origin = weightedMean(usable.filter((b) => b.seeded).map((b) => [b.embedding, 1] as const));
  const live = weightedMean(usable.filter((b) => b.stream === 'identity' && b.level > TRUST_CONFIG.levels.min).map((b) => [b.embedding, Math.max(0, b.activation) * Math.max(0, b.confidence)] as const));
  return { origin, live, coldStart };
}

/**
 * How much the companion is still itself: the live anchor projected on the
 * origin's direction, live · origin/|origin| — with unit belief vectors, the
 * weighted mean of each held belief's alignment with the persona. Unlike
 * cos(live, origin) it does not fall when one persona belief gains weight over
 * the others, and it rises when persona beliefs gain weight over foreign ones.
 * 0 without both anchors.
 */
export function coherenceOf(anchors: Anchors): number {
  if (!anchors.live || !anchors.origin) return 0;
  const norm = Math.hypot(...anchors.origin);
  if (norm === 0) return 0;
  let dot = 0;
  for (let i = 0; i < anchors.live.length; i++) dot += anchors.live[i]! * (anchors.origin[i] ?? 0);
  return dot / norm;
}

/**
 * A decision's own move of the companion toward (+) or away from (−) its
 * persona, as it stands now: the decided belief's weight in the live anchor now
 * less its weight before the decision (activation · confidence, 0 once
 * deprecated), times how much more it agrees with the origin anchor than what
 * the companion picked up beyond its persona (the weighted mean alignment of its
 * other non-seeded beliefs; 0 while it has none). Promoting a persona belief
 * moves toward the persona, deprecating one away; deprecating a picked-up
 * belief that agrees less than the others moves toward it, one that agrees
 * more away. Not divided by the total weight, so it does not shrink as the
 * companion grows. (Measured against every other belief instead, promoting a
 * persona belief of a companion that is little but its persona moved nothing;
 * against nothing, every deprecation moved away.) What else moved coherence since (drift,
 * other decisions, new beliefs) is not in it — Safety Rail 5's baseline, left
 * out by construction rather than extrapolated from a trend — and a decision
 * later undone has no share left. 0 for a belief that is not in the identity
 * stream, not embedded by the anchors' model, or gone.
 */
export function decisionCoherence(beliefs: readonly BeliefView[], beliefId: string, before: { confidence: number; level: number }): number {
  const model = commonModel(beliefs);
  const { origin } = anchorsOf(beliefs, model);
  const b = beliefs.find((x) => x.beliefId === beliefId);
  if (!origin || !b || b.stream !== 'identity' || b.embeddingModel !== model || b.embedding.length !== origin.length) return 0;
  const weightOf = (x: BeliefView, s: { confidence: number; level: number } = x) => (s.level > TRUST_CONFIG.levels.min ? Math.max(0, x.activation) * Math.max(0, s.confidence) : 0);
  let sum = 0;
  let total = 0;
  for (const x of beliefs) {
    if (x.beliefId === beliefId || x.seeded || x.stream !== 'identity' || x.embeddingModel !== model || x.embedding.length !== origin.length) continue;
    const w = weightOf(x);
    sum += w * cosine(x.embedding, origin);
    total += w;
  }
  const pickedUp = total > 0 ? sum / total : 0;
  return (weightOf(b) - weightOf(b, before)) * (cosine(b.embedding, origin) - pickedUp);
}

/**
 * §3 g_align = ((a_live − a_origin + 1) / 2)^α: a belief nearer the current self
 * than the origin is more sensitive to feedback, one stuck at the origin resists.
 * Divided by its value at a_live = a_origin (0.5^α), so a belief as near one
 * anchor as the other weighs 1, the spec's cold-start value ("Expected Behavior"):
 * otherwise every tag would lose two thirds of its weight the moment the
 * companion holds one belief beyond its persona. 1 at cold start, without
 * anchors, or for a vector they cannot be compared with.
 */
export function gAlign(beliefVector: readonly number[], anchors: Anchors): number {
  const { live, origin } = anchors;
  if (anchors.coldStart || !live || !origin || beliefVector.length === 0 || beliefVector.length !== live.length) return 1;
  const normalized = clamp((cosine(beliefVector, live) - cosine(beliefVector, origin) + 1) / 2, 0, 1);
  return (normalized / 0.5) ** TRUST_CONFIG.alphaAlign;
}

function commonModel(beliefs: readonly BeliefView[]): string | undefined {
  const counts = new Map<string, number>();
  for (const b of beliefs) if (b.embedding.length > 0) counts.set(b.embeddingModel, (counts.get(b.embeddingModel) ?? 0) + 1);
  let best: [string, number] | undefined;
  for (const [m, n] of counts) if (!best || n > best[1] || (n === best[1] && m < best[0])) best = [m, n];
  return best?.[0];
}

function weightedMean(items: readonly (readonly [readonly number[], number])[]): number[] | null {
  const dims = items[0]?.[0].length ?? 0;
  const sum = new Array<number>(dims).fill(0);
  let total = 0;
  for (const [v, w] of items) {
    const norm = Math.hypot(...v);
    if (w <= 0 || norm === 0) continue;
    total += w;
    // Unit vectors: each belief counts by its weight, not by its vector's length.
    for (let i = 0; i < dims; i++) sum[i]! += (w * v[i]!) / norm;
  }
  return total > 0 ? sum.map((x) => x / total) : null;
}
