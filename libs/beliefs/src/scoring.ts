import { BELIEF_CONFIG, type NodeStatus, type Stream } from './config.js';
import type { CoreScore, MigrationCheck, OccurrenceView } from './types.js';

const DAY_MS = 86_400_000;
const core = BELIEF_CONFIG.coreScore;
const mig = BELIEF_CONFIG.migration;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const ageDays = (then: Date, at: Date) => Math.max(0, (at.getTime() - then.getTime()) / DAY_MS);

/**
 * The occurrences up to `at`, in one fixed order: a float sum depends on the
 * order of its terms, and the rows come back in whatever order the table
 * holds them, which differs between live and a replay (invariant 3).
 */
function countedAt(occurrences: readonly OccurrenceView[], at: Date): OccurrenceView[] {
  return occurrences
    .filter((o) => o.at.getTime() <= at.getTime())
    .sort((a, b) => a.at.getTime() - b.at.getTime() || a.sourceWeight - b.sourceWeight || a.atomConfidence - b.atomConfidence);
}

/** §4.16: Σ source_weight · exp(−ln 2 · age_days / half_life(stream)); occurrences after `at` do not count yet. */
export function activationOf(occurrences: readonly OccurrenceView[], stream: Stream, at: Date): number {
  const halfLife = BELIEF_CONFIG.halfLifeDays[stream];
  return countedAt(occurrences, at).reduce((sum, o) => sum + o.sourceWeight * Math.exp((-Math.LN2 * ageDays(o.at, at)) / halfLife), 0);
}

/** §4.17 status thresholds. */
export function statusOf(coreScore: number): NodeStatus {
  if (coreScore >= core.core) return 'core';
  if (coreScore >= core.developing) return 'developing';
  return 'surface';
}

/**
 * §4.17 core score: support × spread × diversity, less the conflict penalty
 * weight · conflicts / n_weighted, floored at 0. `conflicts` is a count already
 * limited to the recent window, or the conflicts' times (those within
 * recent_window_days before `at` are counted). With no weighted evidence the
 * score is 0 and so is the penalty.
 */
export function coreScoreOf(occurrences: readonly OccurrenceView[], conflicts: number | readonly Date[], at: Date): CoreScore {
  const occ = countedAt(occurrences, at);
  const nWeighted = occ.reduce((s, o) => s + o.sourceWeight * o.atomConfidence, 0);
  const support = 1 - Math.exp(-nWeighted / core.kN);
  const times = occ.map((o) => o.at.getTime());
  const spreadDays = times.length > 0 ? (Math.max(...times) - Math.min(...times)) / DAY_MS : 0;
  const spread = sigmoid((spreadDays - core.spreadMidpointDays) / core.spreadTemperatureDays);
  const nContexts = new Set(occ.map((o) => o.contextId)).size;
  const diversity = sigmoid((nContexts - core.diversityMidpointContexts) / core.diversityTemperature);
  const base = support * spread * diversity;
  const inWindow = typeof conflicts === 'number' ? conflicts : conflicts.filter((d) => d.getTime() <= at.getTime() && ageDays(d, at) <= core.conflictWindowDays).length;
  const conflictPenalty = nWeighted > 0 ? (core.conflictPenaltyWeight * inWindow) / nWeighted : 0;
  const coreScore = Math.max(0, base - conflictPenalty);
  return { support, spread, diversity, base, conflictPenalty, coreScore, status: statusOf(coreScore) };
}

export type DemotionTrigger = (typeof mig.ratchet.demotionTriggers)[number];

/**
 * §4.14 migration: a `state` belief moves to `identity` when spread, diversity
 * and activation all reach their minimums. The ratchet: an `identity` belief
 * never demotes on its own (allow_demotion false, §9.5); only an explicit
 * trigger of the config's list moves it back to `state`. Meta and relational
 * beliefs do not migrate.
 */
export function migrationOf(input: { stream: Stream; spread: number; diversity: number; activation: number; demotionTrigger?: DemotionTrigger }): MigrationCheck {
  const { stream } = input;
  if (stream === 'identity') {
    const trigger = input.demotionTrigger;
    if (trigger && mig.ratchet.demotionTriggers.includes(trigger)) return { migrate: true, from: 'identity', to: 'state', reason: trigger };
    return { migrate: false, from: 'identity', to: 'identity', reason: mig.ratchet.enabled ? 'ratchet' : 'no_demotion_rule' };
  }
  if (stream !== 'state') return { migrate: false, from: stream, to: stream, reason: 'stream_does_not_migrate' };
  const short: string[] = [];
  if (input.spread < mig.minSpread) short.push('spread');
  if (input.diversity < mig.minDiversity) short.push('diversity');
  if (input.activation < mig.minActivation) short.push('activation');
  if (short.length > 0) return { migrate: false, from: 'state', to: 'state', reason: `below_min:${short.join(',')}` };
  return { migrate: true, from: 'state', to: 'identity', reason: 'promote_state_to_identity' };
}
