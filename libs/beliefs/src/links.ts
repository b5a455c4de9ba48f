import { BELIEF_CONFIG } from './config.js';

const link = BELIEF_CONFIG.tentativeLink;
const res = BELIEF_CONFIG.resolution;

export type LinkState = 'pending' | 'accepted' | 'rejected';

/** §3.3: sigmoid(a·support_both − b·support_one − c·age_days). */
export function linkConfidence(supportBoth: number, supportOne: number, ageDays: number): number {
  return 1 / (1 + Math.exp(-(link.a * supportBoth - link.b * supportOne - link.c * ageDays)));
}

/**
 * §4.12 auto-resolution: accepted above auto_accept, rejected below auto_reject,
 * else pending. Accepted never merges (§9.4): merging is a separate, explicit operation.
 */
export function linkStateOf(confidence: number): LinkState {
  if (confidence > res.autoAcceptThreshold) return 'accepted';
  if (confidence < res.autoRejectThreshold) return 'rejected';
  return 'pending';
}

/** §4.12, §9.3: a link or conflict pair stored with the smaller id first (string order). */
export function orderedPair(a: string, b: string): [string, string] {
  return a < b ? [a, b] : [b, a];
}
