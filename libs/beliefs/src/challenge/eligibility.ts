import { BELIEF_CONFIG } from '../config.js';
import type { BeliefChallengeEligibility, ChallengeSafety } from './types.js';

const DAY_MS = 86_400_000;

/** Whole and fractional days from `from` to `at`; NaN when either date is invalid. */
export function ageDays(from: Date, at: Date): number {
  return (at.getTime() - from.getTime()) / DAY_MS;
}

/**
 * The HARD SAFETY LOCK of belief-challenge.md §2: nothing may question a
 * belief unless this says `eligible`. The blocks are checked in the spec's
 * order and the first one decides:
 *
 * 1. shame or isolation → high. The spec lists "Shame + Isolation state" as one
 *    block, but its integration skips challenges when *any* of shame, isolation
 *    or dependency fear is present; either state alone is a fragile moment, so
 *    the stricter reading is the one implemented.
 * 2. dependency fear → high.
 * 3. confidence < 0.3 → medium: an epistemically fragile belief.
 * 4. relational strain with confidence < 0.5 → medium.
 * 5. younger than 7 days → low: too recent (exactly 7 days passes).
 *
 * A confidence or a date that is not a number fails closed (blocked).
 */
export function isBeliefChallengeAllowed(
  perception: { confidence: number; createdAt: Date },
  safety: ChallengeSafety,
  at: Date,
): BeliefChallengeEligibility {
  const lock = BELIEF_CONFIG.challengeLock;
  const { confidence } = perception;
  if (safety.shame || safety.isolation) return { eligible: false, reason: 'shame_or_isolation', risk: 'high' };
  if (safety.dependencyFear) return { eligible: false, reason: 'dependency_fear', risk: 'high' };
  if (!Number.isFinite(confidence) || confidence < lock.minConfidence) return { eligible: false, reason: 'low_confidence', risk: 'medium' };
  if (safety.relationalStrain && confidence < lock.strainMinConfidence) {
    return { eligible: false, reason: 'relational_strain_low_confidence', risk: 'medium' };
  }
  const age = ageDays(perception.createdAt, at);
  if (!(age >= lock.minAgeDays)) return { eligible: false, reason: 'too_recent', risk: 'low' };
  return { eligible: true, reason: 'eligible', risk: 'low' };
}
