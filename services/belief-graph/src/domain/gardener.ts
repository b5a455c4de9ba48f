import { TRUST_CONFIG } from '@hearth/trust';

/** What the gardener may ask of a belief; a hold asks nothing. */
export type GardenerStep = 'promote' | 'deprecate';

export type GardenedReason = 'applied' | 'unknown_belief' | 'not_companion' | 'at_ceiling' | 'at_floor';

/** The node a decision is about, as the graph holds it now; null when the user has no such node. */
export interface GardenedNode {
  holder: string;
  /** Neither deleted (rolled back) nor merged into another. */
  live: boolean;
  level: number;
  confidence: number;
}

/** The BeliefGardened values of one decision. */
export interface Gardening {
  applied: boolean;
  reason: GardenedReason;
  levelBefore: number;
  level: number;
  confidenceBefore: number;
  confidence: number;
}

// Six decimals, as the challenge updater keeps confidences: 0.6 + 0.15 is 0.75.
const round = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * outcome-driven-trust.md "Belief Gardener Scan", applied by the graph that owns
 * the node: a promote raises a live companion belief one level (at most
 * levels.max) and its confidence a step (at most 1); a deprecate lowers both (at
 * least levels.min, and 0). Anything else is recorded as not applied, with why;
 * the node is then left as it is.
 */
export function gardenBelief(action: GardenerStep, node: GardenedNode | null): Gardening {
  const { gardenerStep, levels } = TRUST_CONFIG;
  const levelBefore = node?.level ?? 0;
  const confidenceBefore = node?.confidence ?? 0;
  const unchanged = (reason: GardenedReason): Gardening => ({ applied: false, reason, levelBefore, level: levelBefore, confidenceBefore, confidence: confidenceBefore });
  if (!node || !node.live) return unchanged('unknown_belief');
  if (node.holder !== 'companion') return unchanged('not_companion');
  if (action === 'promote') {
    if (levelBefore >= levels.max) return unchanged('at_ceiling');
    return { applied: true, reason: 'applied', levelBefore, level: levelBefore + 1, confidenceBefore, confidence: round(Math.min(1, confidenceBefore + gardenerStep)) };
  }
  if (levelBefore <= levels.min) return unchanged('at_floor');
  return { applied: true, reason: 'applied', levelBefore, level: levelBefore - 1, confidenceBefore, confidence: round(Math.max(0, confidenceBefore - gardenerStep)) };
}
