import { normalizeUserText } from '@hearth/text';
import type { Stage } from '../config.js';
import { analyzeEmotion } from './emotion.js';
import { detectEvidence, type Evidence } from './evidence.js';
import {
  RelationshipInputError,
  computeDelta,
  decayFor,
  initialRelationship,
  promotion,
  updateRelationship,
  viewAt,
  type RelationshipState,
} from './rules.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const T0 = new Date('2026-11-22T09:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

/** Evidence of an ordinary engaged reply with nothing to score, overridden per test. */
const evidence = (over: Partial<Evidence> = {}): Evidence => ({
  preferences: 0,
  meaningfulResponse: false,
  emotionalDisclosure: false,
  pastReference: false,
  disengaged: false,
  tokens: 6,
  ...over,
});
const DISENGAGED = evidence({ disengaged: true, tokens: 1 });

const state = (over: Partial<RelationshipState> = {}): RelationshipState => ({
  ...initialRelationship(),
  sessionsCount: 1,
  lastInteractionAt: T0,
  lastSessionAt: T0,
  ...over,
});

describe('initialRelationship (turn-pipeline §2.5)', () => {
  it('is a STRANGER with no rapport, no sessions and no times', () => {
    expect(initialRelationship()).toEqual({
      stage: 'STRANGER',
      rapportScore: 0,
      sessionsCount: 0,
      lastInteractionAt: null,
      lastSessionAt: null,
      lastStagePromotionAt: null,
      sessionDisengaged: 0,
    });
  });
});

describe('computeDelta (§11.3)', () => {
  it('given every positive rule at once, then 2 + 1 + 4 + 4 = 11 is clamped to 5', () => {
    const delta = computeDelta(evidence({ preferences: 2, meaningfulResponse: true, emotionalDisclosure: true, pastReference: true }), 0);

    expect(delta).toEqual({
      raw: 11,
      clamped: 5,
      parts: [
        { rule: 'preference_share_2plus', points: 2 },
        { rule: 'meaningful_response', points: 1 },
        { rule: 'emotional_disclosure', points: 4 },
        { rule: 'past_reference', points: 4 },
      ],
    });
  });

  it.each([
    [0, 0],
    [1, 1],
    [2, 2],
    [5, 2],
  ])('given %i distinct preference(s), then the preference rule gives %i', (preferences, points) => {
    expect(computeDelta(evidence({ preferences }), 0).raw).toBe(points);
  });

  it.each([
    [1, 0],
    [2, 0],
    [3, -2],
    [4, -2],
  ])('given a disengaged reply that is number %i of the session, then it gives %i', (nth, points) => {
    expect(computeDelta(DISENGAGED, nth)).toMatchObject({ raw: points, clamped: points });
  });

  it('given an engaged reply after 3 disengaged ones, then nothing is taken', () => {
    expect(computeDelta(evidence(), 3).raw).toBe(0);
  });

  it('given a 3rd disengaged reply that shares a preference, then +1 − 2 = −1', () => {
    expect(computeDelta(evidence({ preferences: 1, disengaged: true, tokens: 3 }), 3)).toEqual({
      raw: -1,
      clamped: -1,
      parts: [
        { rule: 'preference_share', points: 1 },
        { rule: 'disengaged_repeat', points: -2 },
      ],
    });
  });
});

describe('decayFor and viewAt (§11.4)', () => {
  it.each([
    [6 * DAY + 23 * HOUR + 59 * MINUTE, 0],
    [7 * DAY - 1, 0],
    [7 * DAY, 1],
    [14 * DAY - 1, 1],
    [21 * DAY, 3],
  ])('given %i ms of inactivity at STRANGER 10, then %i point(s) are due and applied', (ms, points) => {
    expect(decayFor(state({ rapportScore: 10 }), at(ms))).toEqual({ points, applied: points });
  });

  it.each([
    ['STRANGER', 3, 28 * DAY, 4, 3, 0],
    ['ACQUAINTANCE', 16, 35 * DAY, 5, 1, 15],
    ['FRIEND', 45, 70 * DAY, 10, 5, 40],
    ['CLOSE_FRIEND', 80, 14 * DAY, 2, 2, 78],
  ] as const)('given %s at %i after %i ms, then %i points are due, %i applied, and it reads %i', (stage, rapportScore, ms, points, applied, reads) => {
    const s = state({ stage, rapportScore });

    expect(decayFor(s, at(ms))).toEqual({ points, applied });
    expect(viewAt(s, at(ms)).rapportScore).toBe(reads);
  });

  it('given a score already below its stage floor, then decay leaves it alone (never raises it)', () => {
    const s = state({ stage: 'ACQUAINTANCE', rapportScore: 10 });

    expect(decayFor(s, at(21 * DAY))).toEqual({ points: 3, applied: 0 });
    expect(viewAt(s, at(21 * DAY)).rapportScore).toBe(10);
  });

  it('given no user message yet, then nothing is due', () => {
    expect(decayFor(initialRelationship(), at(365 * DAY))).toEqual({ points: 0, applied: 0 });
  });

  it('given a state, when viewed, then the input is not mutated and only the rapport changes', () => {
    const s = state({ rapportScore: 20, stage: 'ACQUAINTANCE' });
    const copy = structuredClone(s);

    const view = viewAt(s, at(14 * DAY));

    expect(s).toEqual(copy);
    expect(view).toEqual({ ...copy, rapportScore: 18 });
  });

  it('given an invalid Date, then a named error is thrown', () => {
    expect(() => viewAt(state(), new Date(Number.NaN))).toThrow(RelationshipInputError);
    expect(() => updateRelationship(state({ lastInteractionAt: new Date('nope') }), { now: T0, evidence: evidence() })).toThrow(
      expect.objectContaining({ code: 'RELATIONSHIP_INPUT_INVALID', message: 'lastInteractionAt is not a valid Date' }),
    );
  });
});

describe('promotion (§11.5)', () => {
  it.each([
    [state({ rapportScore: 15, sessionsCount: 2 }), null, 'sessions 2 < 3'],
    [state({ rapportScore: 15, sessionsCount: 3 }), 'ACQUAINTANCE', ''],
    [state({ rapportScore: 12, sessionsCount: 3 }), null, 'rapport 12 < 15'],
    [state({ rapportScore: 12, sessionsCount: 1 }), null, 'rapport 12 < 15; sessions 1 < 3'],
    [state({ rapportScore: 80, sessionsCount: 9 }), 'ACQUAINTANCE', ''],
    [state({ stage: 'ACQUAINTANCE', rapportScore: 39, sessionsCount: 9 }), null, 'rapport 39 < 40'],
    [state({ stage: 'FRIEND', rapportScore: 75, sessionsCount: 9 }), 'CLOSE_FRIEND', ''],
    [state({ stage: 'CLOSE_FRIEND', rapportScore: 100, sessionsCount: 9 }), null, ''],
  ] as const)('given %o, then it promotes to %p (blocked by %p)', (s, to, blockedBy) => {
    expect(promotion(s, T0)).toEqual({ to, blockedBy });
  });

  it.each([
    [7 * DAY - 1, null, 'cooldown'],
    [7 * DAY, 'FRIEND', ''],
  ] as const)('given the last promotion %i ms ago, then it promotes to %p (blocked by %p)', (ms, to, blockedBy) => {
    const s = state({ stage: 'ACQUAINTANCE', rapportScore: 40, sessionsCount: 5, lastStagePromotionAt: T0 });

    expect(promotion(s, at(ms))).toEqual({ to, blockedBy });
  });

  it('given everything failing, then all reasons are named in order', () => {
    const s = state({ stage: 'ACQUAINTANCE', rapportScore: 20, sessionsCount: 2, lastStagePromotionAt: T0 });

    expect(promotion(s, at(DAY)).blockedBy).toBe('rapport 20 < 40; sessions 2 < 3; cooldown');
  });
});

describe('updateRelationship (§11.1–11.5)', () => {
  it('given no previous state, when the first message arrives, then session 1 starts at it', () => {
    const update = updateRelationship(null, { now: T0, evidence: evidence({ preferences: 1 }) });

    expect(update).toEqual({
      previous: initialRelationship(),
      next: {
        stage: 'STRANGER',
        rapportScore: 1,
        sessionsCount: 1,
        lastInteractionAt: T0,
        lastSessionAt: T0,
        lastStagePromotionAt: null,
        sessionDisengaged: 0,
      },
      delta: { raw: 1, clamped: 1, parts: [{ rule: 'preference_share', points: 1 }] },
      decay: { points: 0, applied: 0 },
      sessionStarted: true,
      promotedFrom: null,
      promotionBlockedBy: 'rapport 1 < 15; sessions 1 < 3',
    });
  });

  it.each([
    [4 * HOUR, false, 1],
    [4 * HOUR + 1, true, 2],
  ])('given the last message %i ms ago, then a new session starts: %p', (ms, started, sessions) => {
    const update = updateRelationship(state({ sessionDisengaged: 2 }), { now: at(ms), evidence: evidence() });

    expect(update.sessionStarted).toBe(started);
    expect(update.next.sessionsCount).toBe(sessions);
    expect(update.next.lastSessionAt).toEqual(started ? at(ms) : T0);
    expect(update.next.sessionDisengaged).toBe(started ? 0 : 2);
    expect(update.next.lastInteractionAt).toEqual(at(ms));
  });

  it('given disengaged replies, then the 1st and 2nd cost 0, the 3rd and 4th −2, and a new session resets the count', () => {
    const times = [0, MINUTE, 2 * MINUTE, 3 * MINUTE, 3 * MINUTE + 4 * HOUR + 1];
    let s = state({ rapportScore: 10, lastInteractionAt: at(-MINUTE) });
    const deltas: number[] = [];
    const counts: number[] = [];

    for (const ms of times) {
      const update = updateRelationship(s, { now: at(ms), evidence: DISENGAGED });
      deltas.push(update.delta.clamped);
      counts.push(update.next.sessionDisengaged);
      s = update.next;
    }

    expect(deltas).toEqual([0, 0, -2, -2, 0]);
    expect(counts).toEqual([1, 2, 3, 4, 1]);
    expect(s.rapportScore).toBe(6);
  });

  it('given an engaged reply between disengaged ones, then the session count keeps counting disengaged replies only', () => {
    let s = state({ rapportScore: 10, sessionDisengaged: 2 });
    s = updateRelationship(s, { now: at(MINUTE), evidence: evidence() }).next;
    const update = updateRelationship(s, { now: at(2 * MINUTE), evidence: DISENGAGED });

    expect(update.next.sessionDisengaged).toBe(3);
    expect(update.delta.clamped).toBe(-2);
  });

  it('given rapport 1 and a −2 delta, then rapport clamps at 0', () => {
    const update = updateRelationship(state({ rapportScore: 1, sessionDisengaged: 2 }), { now: at(MINUTE), evidence: DISENGAGED });

    expect(update.delta.clamped).toBe(-2);
    expect(update.next.rapportScore).toBe(0);
  });

  it('given rapport 98 and a +5 delta, then rapport clamps at 100', () => {
    const s = state({ stage: 'CLOSE_FRIEND', rapportScore: 98, sessionsCount: 20 });
    const update = updateRelationship(s, { now: at(MINUTE), evidence: evidence({ emotionalDisclosure: true, pastReference: true }) });

    expect(update.delta).toMatchObject({ raw: 8, clamped: 5 });
    expect(update.next.rapportScore).toBe(100);
  });

  it('given 14 days of silence at ACQUAINTANCE 20, when a message arrives, then decay is applied first and a new session starts', () => {
    const s = state({ stage: 'ACQUAINTANCE', rapportScore: 20, sessionsCount: 4, lastStagePromotionAt: at(-30 * DAY) });
    const update = updateRelationship(s, { now: at(14 * DAY), evidence: evidence({ preferences: 1 }) });

    expect(update.decay).toEqual({ points: 2, applied: 2 });
    expect(update.sessionStarted).toBe(true);
    expect(update.next.rapportScore).toBe(19);
    expect(update.next.sessionsCount).toBe(5);
  });

  it('given decay that meets a promotion in the same message, then the decayed score is judged', () => {
    const s = state({ rapportScore: 16, sessionsCount: 2 });
    const update = updateRelationship(s, { now: at(14 * DAY), evidence: evidence() });

    expect(update.next.rapportScore).toBe(14);
    expect(update.next.stage).toBe('STRANGER');
    expect(update.promotionBlockedBy).toBe('rapport 14 < 15');
  });

  it('given rapport 80 at STRANGER with 3 sessions, then it promotes to ACQUAINTANCE only, and the next message is held by the cooldown', () => {
    const s = state({ rapportScore: 80, sessionsCount: 3 });

    const first = updateRelationship(s, { now: at(MINUTE), evidence: evidence() });
    const second = updateRelationship(first.next, { now: at(2 * MINUTE), evidence: evidence() });

    expect(first.next.stage).toBe('ACQUAINTANCE');
    expect(first.promotedFrom).toBe('STRANGER');
    expect(first.next.lastStagePromotionAt).toEqual(at(MINUTE));
    expect(second.next.stage).toBe('ACQUAINTANCE');
    expect(second.promotedFrom).toBeNull();
    expect(second.promotionBlockedBy).toBe('cooldown');
  });

  it('given ACQUAINTANCE reaching 40 within 7 days of its promotion, then the cooldown holds it until exactly 7 days', () => {
    const promotedAt = T0;
    let s = state({ stage: 'ACQUAINTANCE', rapportScore: 39, sessionsCount: 3, lastStagePromotionAt: promotedAt, lastInteractionAt: at(DAY) });

    const within = updateRelationship(s, { now: at(2 * DAY), evidence: evidence({ emotionalDisclosure: true }) });
    s = within.next;
    const atSeven = updateRelationship(s, { now: at(7 * DAY), evidence: evidence() });

    expect(within.next).toMatchObject({ stage: 'ACQUAINTANCE', rapportScore: 43 });
    expect(within.promotionBlockedBy).toBe('cooldown');
    expect(atSeven.decay.points).toBe(0);
    expect(atSeven.next).toMatchObject({ stage: 'FRIEND', rapportScore: 43, lastStagePromotionAt: at(7 * DAY) });
    expect(atSeven.promotedFrom).toBe('ACQUAINTANCE');
  });

  it('given a message stamped before the last one, then no time is counted and the clock does not move back', () => {
    const update = updateRelationship(state({ lastInteractionAt: at(HOUR) }), { now: T0, evidence: evidence() });

    expect(update.sessionStarted).toBe(false);
    expect(update.decay.points).toBe(0);
    expect(update.next.lastInteractionAt).toEqual(at(HOUR));
  });

  it('given a previous state, then it is not mutated', () => {
    const s = state({ rapportScore: 10, sessionDisengaged: 2 });
    const copy = structuredClone(s);

    const update = updateRelationship(s, { now: at(5 * HOUR), evidence: DISENGAGED });

    expect(s).toEqual(copy);
    expect(update.previous).toEqual(copy);
  });
});

describe('a scripted conversation through the whole of Stage G', () => {
  interface Step {
    after: number;
    text: string;
    expected: { stage: Stage; rapport: number; sessions: number; delta: number; promotedFrom: Stage | null; blockedBy: string };
  }
  // Three sessions 5 h apart; no assistant question before any reply, so no meaningful-response points.
  const script: Step[] = [
    { after: 0, text: 'I love sushi and I hate rain', expected: { stage: 'STRANGER', rapport: 2, sessions: 1, delta: 2, promotedFrom: null, blockedBy: 'rapport 2 < 15; sessions 1 < 3' } },
    { after: 10 * MINUTE, text: "Honestly I'm heartbroken, my cat ran away yesterday", expected: { stage: 'STRANGER', rapport: 6, sessions: 1, delta: 4, promotedFrom: null, blockedBy: 'rapport 6 < 15; sessions 1 < 3' } },
    { after: 5 * HOUR, text: "Do you remember my cat? I'm still devastated about it.", expected: { stage: 'STRANGER', rapport: 11, sessions: 2, delta: 5, promotedFrom: null, blockedBy: 'rapport 11 < 15; sessions 2 < 3' } },
    { after: 5 * MINUTE, text: 'I feel so happy today, my sister is coming home', expected: { stage: 'STRANGER', rapport: 15, sessions: 2, delta: 4, promotedFrom: null, blockedBy: 'sessions 2 < 3' } },
    { after: MINUTE, text: 'ok', expected: { stage: 'STRANGER', rapport: 15, sessions: 2, delta: 0, promotedFrom: null, blockedBy: 'sessions 2 < 3' } },
    { after: 5 * HOUR, text: 'hey', expected: { stage: 'ACQUAINTANCE', rapport: 15, sessions: 3, delta: 0, promotedFrom: 'STRANGER', blockedBy: '' } },
    { after: MINUTE, text: "I'm thrilled, my favorite band is touring and I love their new album", expected: { stage: 'ACQUAINTANCE', rapport: 20, sessions: 3, delta: 5, promotedFrom: null, blockedBy: 'rapport 20 < 40; cooldown' } },
  ];

  it('given the script, when each message is replayed, then the stage, score and audit follow §11 message by message', () => {
    let s: RelationshipState | null = null;
    let now = T0.getTime();
    const actual: Step['expected'][] = [];

    for (const step of script) {
      now += step.after;
      const normNoPunct = normalizeUserText(step.text).normNoPunct;
      const found = detectEvidence({ normNoPunct, previousAssistantAskedQuestion: false, emotion: analyzeEmotion(normNoPunct) });
      const update = updateRelationship(s, { now: new Date(now), evidence: found });
      actual.push({
        stage: update.next.stage,
        rapport: update.next.rapportScore,
        sessions: update.next.sessionsCount,
        delta: update.delta.clamped,
        promotedFrom: update.promotedFrom,
        blockedBy: update.promotionBlockedBy,
      });
      s = update.next;
    }

    expect(actual).toEqual(script.map((step) => step.expected));
  });
});
