import { RELATIONSHIP, STAGES, type Stage } from '../config.js';
import type { Evidence } from './evidence.js';

/**
 * Stage G of turn-pipeline §11: session accounting, the score delta, inactivity
 * decay and stage promotion, as pure arithmetic. The caller reads the state and
 * the time and stores the result; nothing here reads a clock.
 */

/** RelationshipState per user and companion (§2.5; proto `RelationshipState`). */
export interface RelationshipState {
  stage: Stage;
  /** 0..100. */
  rapportScore: number;
  /** Sessions so far, the current one included (§11.1). */
  sessionsCount: number;
  /** The last user message (§11.1, §11.4); null before the first. */
  lastInteractionAt: Date | null;
  /** The start of the current session. */
  lastSessionAt: Date | null;
  lastStagePromotionAt: Date | null;
  /** Disengaged replies in the current session (§11.2), this one included once counted. */
  sessionDisengaged: number;
}

/** The §11.3 rules, as named in a delta's parts. */
export type DeltaRule =
  | 'preference_share'
  | 'preference_share_2plus'
  | 'meaningful_response'
  | 'emotional_disclosure'
  | 'past_reference'
  | 'disengaged_repeat';

export interface DeltaPart {
  rule: DeltaRule;
  points: number;
}

export interface Delta {
  /** The sum of the parts. */
  raw: number;
  /** `raw` clamped to [−2, +5]. */
  clamped: number;
  parts: DeltaPart[];
}

export interface Decay {
  /** Points due: one per full 7 days since the last user message. */
  points: number;
  /** The actual drop after the stage floor (0 when the score is at or below it). */
  applied: number;
}

export interface Promotion {
  /** The next stage when every §11.5 condition holds, else null. */
  to: Stage | null;
  /**
   * Why not, for audit: the failing conditions joined by "; " in the order
   * rapport, sessions, cooldown (e.g. `rapport 12 < 15; sessions 2 < 3`, `cooldown`);
   * '' when promoted or already at the top stage.
   */
  blockedBy: string;
}

/** Stage G's result for one user message (proto `RelationshipUpdated`, less ids and evidence). */
export interface RelationshipUpdate {
  next: RelationshipState;
  previous: RelationshipState;
  delta: Delta;
  decay: Decay;
  sessionStarted: boolean;
  /** The stage before a promotion by this message, else null. */
  promotedFrom: Stage | null;
  /** See {@link Promotion.blockedBy}. */
  promotionBlockedBy: string;
}

/** A time that is not a valid Date. Not retryable: the caller passed garbage. */
export class RelationshipInputError extends Error {
  readonly code = 'RELATIONSHIP_INPUT_INVALID';
  override readonly name = 'RelationshipInputError';
}

/** A relationship before the first user message: STRANGER, 0 rapport, no sessions. */
export function initialRelationship(): RelationshipState {
  return {
    stage: 'STRANGER',
    rapportScore: 0,
    sessionsCount: 0,
    lastInteractionAt: null,
    lastSessionAt: null,
    lastStagePromotionAt: null,
    sessionDisengaged: 0,
  };
}

/**
 * §11.3: the positive rules stack; the negative one fires when this reply is
 * disengaged and it is at least the 3rd disengaged reply of the session
 * (`disengagedInSession` counts this one), so the 1st and 2nd cost nothing and
 * the 3rd, 4th, … cost −2 each. The sum is clamped to [−2, +5].
 */
export function computeDelta(e: Evidence, disengagedInSession: number): Delta {
  const d = RELATIONSHIP.delta;
  const parts: DeltaPart[] = [];
  if (e.preferences >= 2) parts.push({ rule: 'preference_share_2plus', points: d.preferenceTwoOrMore });
  else if (e.preferences >= 1) parts.push({ rule: 'preference_share', points: d.preferenceOne });
  if (e.meaningfulResponse) parts.push({ rule: 'meaningful_response', points: d.meaningfulResponse });
  if (e.emotionalDisclosure) parts.push({ rule: 'emotional_disclosure', points: d.emotionalDisclosure });
  if (e.pastReference) parts.push({ rule: 'past_reference', points: d.pastReference });
  if (e.disengaged && disengagedInSession >= RELATIONSHIP.disengagedRepeat) parts.push({ rule: 'disengaged_repeat', points: d.disengaged });
  const raw = parts.reduce((sum, part) => sum + part.points, 0);
  return { raw, clamped: clamp(raw, RELATIONSHIP.deltaClamp.min, RELATIONSHIP.deltaClamp.max), parts };
}

/**
 * §11.4 decay due at `now` for the inactivity since the last user message:
 * −1 per full 7 days, never below the stage's floor, and never raising a score
 * that is already below it.
 */
export function decayFor(state: RelationshipState, now: Date): Decay {
  const last = state.lastInteractionAt;
  if (last === null) return { points: 0, applied: 0 };
  const periods = Math.floor(elapsedMs(last, now) / RELATIONSHIP.decay.everyMs);
  const points = periods * RELATIONSHIP.decay.points;
  const floor = RELATIONSHIP.stageFloor[state.stage];
  const applied = Math.max(0, Math.min(points, state.rapportScore - floor));
  return { points, applied };
}

/**
 * §11.5: the next stage, one step only, when rapport ≥ its threshold, at least 3
 * sessions, and no promotion in the last 7 days (exactly 7 days is enough).
 */
export function promotion(state: RelationshipState, now: Date): Promotion {
  const next = STAGES[STAGES.indexOf(state.stage) + 1];
  if (next === undefined) return { to: null, blockedBy: '' };
  const threshold = RELATIONSHIP.promotionThreshold[next as Exclude<Stage, 'STRANGER'>];
  const blocked: string[] = [];
  if (state.rapportScore < threshold) blocked.push(`rapport ${state.rapportScore} < ${threshold}`);
  if (state.sessionsCount < RELATIONSHIP.promotionMinSessions) blocked.push(`sessions ${state.sessionsCount} < ${RELATIONSHIP.promotionMinSessions}`);
  const since = state.lastStagePromotionAt;
  if (since !== null && now.getTime() - since.getTime() < RELATIONSHIP.promotionCooldownMs) blocked.push('cooldown');
  return blocked.length === 0 ? { to: next, blockedBy: '' } : { to: null, blockedBy: blocked.join('; ') };
}

/**
 * Stage G for one user message at `now` (§11.1–11.5), in this order:
 * 1. decay for the inactivity since the last user message (§11.4, on demand);
 * 2. session accounting: a new session iff there was no user message before or
 *    the last one is more than 4 h old (exactly 4 h is the same session); a new
 *    session counts, starts at `now` and resets the disengaged count;
 * 3. a disengaged reply is counted into the session;
 * 4. the delta (§11.3) is applied and rapport clamped to [0, 100];
 * 5. at most one promotion (§11.5), judged on the state after 1–4;
 * 6. `lastInteractionAt` becomes `now` (or stays, if `now` is earlier: a message
 *    stamped out of order never moves the clock back nor counts negative time).
 *
 * @throws {RelationshipInputError} when `now` or a stored time is not a valid Date.
 */
export function updateRelationship(prev: RelationshipState | null, input: { now: Date; evidence: Evidence }): RelationshipUpdate {
  const { now, evidence } = input;
  const previous = prev ?? initialRelationship();
  assertTimes(previous, now);

  const decay = decayFor(previous, now);
  let rapport = previous.rapportScore - decay.applied;

  const last = previous.lastInteractionAt;
  const sessionStarted = last === null || elapsedMs(last, now) > RELATIONSHIP.sessionGapMs;
  const sessionsCount = sessionStarted ? previous.sessionsCount + 1 : previous.sessionsCount;
  const lastSessionAt = sessionStarted ? now : previous.lastSessionAt;
  const sessionDisengaged = (sessionStarted ? 0 : previous.sessionDisengaged) + (evidence.disengaged ? 1 : 0);

  const delta = computeDelta(evidence, sessionDisengaged);
  rapport = clamp(rapport + delta.clamped, RELATIONSHIP.rapportClamp.min, RELATIONSHIP.rapportClamp.max);

  const scored: RelationshipState = { ...previous, rapportScore: rapport, sessionsCount, lastSessionAt, sessionDisengaged };
  const step = promotion(scored, now);
  const next: RelationshipState = {
    ...scored,
    stage: step.to ?? previous.stage,
    lastStagePromotionAt: step.to === null ? previous.lastStagePromotionAt : now,
    lastInteractionAt: last !== null && last.getTime() > now.getTime() ? last : now,
  };
  return {
    next,
    previous,
    delta,
    decay,
    sessionStarted,
    promotedFrom: step.to === null ? null : previous.stage,
    promotionBlockedBy: step.blockedBy,
  };
}

/**
 * The state as it reads at `now` (GET /v1/me/relationship): the pending §11.4
 * decay applied, nothing else changed, the input left untouched. Stored state is
 * never decayed in place, so the decay is counted once, from `lastInteractionAt`.
 *
 * @throws {RelationshipInputError} when `now` or a stored time is not a valid Date.
 */
export function viewAt(state: RelationshipState, now: Date): RelationshipState {
  assertTimes(state, now);
  return { ...state, rapportScore: state.rapportScore - decayFor(state, now).applied };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** Milliseconds from `from` to `to`; a `to` before `from` counts as no time at all. */
function elapsedMs(from: Date, to: Date): number {
  return Math.max(0, to.getTime() - from.getTime());
}

function assertTimes(state: RelationshipState, now: Date): void {
  const times = { now, lastInteractionAt: state.lastInteractionAt, lastSessionAt: state.lastSessionAt, lastStagePromotionAt: state.lastStagePromotionAt };
  for (const [name, time] of Object.entries(times)) {
    if (time !== null && Number.isNaN(time.getTime())) throw new RelationshipInputError(`${name} is not a valid Date`);
  }
}
