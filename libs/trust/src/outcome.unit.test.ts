import { TRUST_CONFIG, type Tag } from './config.js';
import { doubtRateBefore, evaluateOutcome, percentile } from './outcome.js';
import type { AnswerSignal, ChallengeAnswer, DecisionRecord, FeedbackEntry, OutcomeInputs } from './types.js';

const T0 = new Date('2026-11-20T12:00:00Z');
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (ms: number) => new Date(T0.getTime() + ms);

const decision: DecisionRecord = { decisionId: 'd1', beliefId: 'b1', action: 'promote', at: T0, coherence: 0.8, conflicts: 2, confidence: 0.6, level: 0, doubtRate: 0, contributions: { user: 0.75, agent: 0.25 } };

function inputs(over: Partial<OutcomeInputs> = {}): OutcomeInputs {
  return { decision, horizon: '24h', at: at(DAY), coherence: 0.8, coherenceOwn: 0, conflicts: 2, conflictHistory: [], beliefDecisions: [], userFeedback: [], ...over };
}

let n = 0;
function tag(t: Tag, ms: number, over: Partial<FeedbackEntry> = {}): FeedbackEntry {
  n += 1;
  return { feedbackId: `f${n}`, tag: t, actor: 'user', beliefId: 'b1', alignment: 0.8, weight: TRUST_CONFIG.baseTagWeight[t], applied: true, reason: 'counted', at: at(ms), ...over };
}

describe('evaluateOutcome (§2)', () => {
  it('given nothing changed after a promotion then only stability counts: r = 0.2, credited by share', () => {
    const r = evaluateOutcome(inputs());
    expect(r.components).toEqual({ coherence: 0, confidence: 0, stability: 1, validation: 0 });
    expect(r.reward).toBeCloseTo(0.2, 12);
    expect(r.credit.user).toBeCloseTo(0.15, 12);
    expect(r.credit.agent).toBeCloseTo(0.05, 12);
  });

  describe('coherence (Δcoh, Safety Rails 5)', () => {
    it("given the decision's own move toward the persona is the scale then +1; half of it away then −0.5", () => {
      expect(evaluateOutcome(inputs({ coherenceOwn: TRUST_CONFIG.coherenceScale })).components.coherence).toBeCloseTo(1, 9);
      expect(evaluateOutcome(inputs({ coherenceOwn: -TRUST_CONFIG.coherenceScale / 2 })).components.coherence).toBeCloseTo(-0.5, 9);
    });

    it('given coherence rose since the decision but not by the decision then the rise is baseline drift, recorded and left out', () => {
      const r = evaluateOutcome(inputs({ coherence: 0.85, coherenceOwn: 0 }));
      expect(r.coherenceBaseline).toBeCloseTo(0.05, 12);
      expect(r.components.coherence).toBe(0);
    });
  });

  describe('conflicts (Δconf)', () => {
    it('given fewer open conflicts than at the decision then positive, normalized by the 95th percentile (≥ 1)', () => {
      expect(evaluateOutcome(inputs({ conflicts: 0, conflictHistory: [0, 1, 2, 4, 4] })).components.confidence).toBeCloseTo(2 / 4, 12);
      expect(evaluateOutcome(inputs({ conflicts: 3, conflictHistory: [] })).components.confidence).toBe(-1);
      expect(evaluateOutcome(inputs({ conflicts: 9, conflictHistory: [0, 1, 2] })).components.confidence).toBe(-1);
    });
  });

  describe('stability (ping-pong detection)', () => {
    it('given no reversal then +1; one then 0; two or more in 7 days then −1', () => {
      const d = (ms: number, action: 'promote' | 'deprecate') => ({ at: at(ms), action });
      expect(evaluateOutcome(inputs({ beliefDecisions: [d(0, 'promote'), d(-2 * DAY, 'promote')] })).components.stability).toBe(1);
      expect(evaluateOutcome(inputs({ beliefDecisions: [d(-2 * DAY, 'deprecate')] })).components.stability).toBe(0);
      expect(evaluateOutcome(inputs({ beliefDecisions: [d(-3 * DAY, 'promote'), d(-2 * DAY, 'deprecate'), d(0, 'promote')] })).components.stability).toBe(-1);
      // Decisions older than the window are forgotten.
      expect(evaluateOutcome(inputs({ beliefDecisions: [d(-8 * DAY, 'promote'), d(-7 * DAY, 'deprecate')] })).components.stability).toBe(1);
    });

    it('given a hold then 0 with no reversal around it, −1 when the belief ping-pongs', () => {
      const hold = { ...decision, action: 'hold' as const };
      expect(evaluateOutcome(inputs({ decision: hold })).components.stability).toBe(0);
      const pingPong = [{ at: at(-3 * DAY), action: 'promote' as const }, { at: at(-2 * DAY), action: 'deprecate' as const }, { at: at(-DAY), action: 'promote' as const }];
      expect(evaluateOutcome(inputs({ decision: hold, beliefDecisions: pingPong })).components.stability).toBe(-1);
    });
  });

  describe('user validation', () => {
    it('given the user agreed after a promotion then explicit +1; disagreed then −1; mixed in proportion', () => {
      expect(evaluateOutcome(inputs({ userFeedback: [tag('+keep', HOUR)] })).validationExplicit).toBe(1);
      expect(evaluateOutcome(inputs({ userFeedback: [tag('+doubt', HOUR), tag('+artifact', 2 * HOUR)] })).validationExplicit).toBe(-1);
      expect(evaluateOutcome(inputs({ userFeedback: [tag('+keep', HOUR), tag('+keep', 2 * HOUR), tag('+doubt', 3 * HOUR)] })).validationExplicit).toBeCloseTo(1 / 3, 12);
    });

    it('given a deprecation then the user doubting agrees with it', () => {
      expect(evaluateOutcome(inputs({ decision: { ...decision, action: 'deprecate' }, userFeedback: [tag('+doubt', HOUR)] })).validationExplicit).toBe(1);
    });

    it('counts only the user’s applied tags on the belief, after the decision and within 24 h and the horizon', () => {
      const ignored = [tag('+doubt', -HOUR), tag('+doubt', HOUR, { beliefId: 'b2' }), tag('+doubt', HOUR, { actor: 'agent' }), tag('+doubt', HOUR, { applied: false, reason: 'duplicate' }), tag('+doubt', 0), tag('+doubt', 3 * HOUR)];
      expect(evaluateOutcome(inputs({ horizon: '2h', at: at(2 * HOUR), userFeedback: [tag('+keep', HOUR), ...ignored] })).validationExplicit).toBe(1);
      expect(evaluateOutcome(inputs({ decision: { ...decision, action: 'hold' }, userFeedback: [tag('+keep', HOUR)] })).validationExplicit).toBe(0);
    });

    it('given the user doubts less after the decision then implicit validation is the fall of their doubt rate', () => {
      const before = [tag('+doubt', -2 * HOUR, { beliefId: 'b9' }), tag('+keep', -HOUR, { beliefId: 'b8' })];
      const after = [tag('+keep', HOUR, { beliefId: 'b9' })];
      const r = evaluateOutcome(inputs({ userFeedback: [...before, ...after] }));
      expect(r.validationImplicit).toBeCloseTo(0.5, 12);
      expect(r.validationExplicit).toBe(0);
      // No tag on the decided belief: the explicit part has no signal, the implicit one counts alone.
      expect(r.components.validation).toBeCloseTo(0.5, 12);
      expect(evaluateOutcome(inputs({ userFeedback: before })).validationImplicit).toBe(0);
      expect(doubtRateBefore([...before, ...after], T0)).toBeCloseTo(0.5, 12);
      expect(doubtRateBefore([], T0)).toBe(0);
    });
  });

  it('given every component at its best then r = 1; at its worst r = −1', () => {
    const best = evaluateOutcome(inputs({ coherenceOwn: TRUST_CONFIG.coherenceScale, conflicts: 0, conflictHistory: [2], userFeedback: [tag('+doubt', -HOUR), tag('+keep', HOUR)] }));
    expect(best.reward).toBeCloseTo(1, 12);
    const pingPong = [{ at: at(-2 * DAY), action: 'promote' as const }, { at: at(-DAY), action: 'deprecate' as const }];
    const worst = evaluateOutcome(inputs({ coherenceOwn: -TRUST_CONFIG.coherenceScale, conflicts: 4, conflictHistory: [2], beliefDecisions: pingPong, userFeedback: [tag('+keep', -HOUR), tag('+doubt', HOUR)] }));
    expect(worst.reward).toBeCloseTo(-1, 12);
    expect(worst.credit).toEqual({ user: expect.closeTo(-0.75, 12), agent: expect.closeTo(-0.25, 12) });
  });
});

describe('evaluateOutcome of a challenge (belief-challenge.md, the companion questioning a user belief)', () => {
  const challenge: DecisionRecord = { decisionId: 'd2', beliefId: 'u1', action: 'challenge', at: T0, coherence: 0, conflicts: 1, confidence: 0.4, level: 0, doubtRate: 0, contributions: { agent: 1 } };
  const answer = (signal: AnswerSignal, ms: number, challengeId = 'c1'): ChallengeAnswer => ({ challengeId, signal, at: at(ms) });
  const of = (answers: ChallengeAnswer[], over: Partial<OutcomeInputs> = {}) =>
    evaluateOutcome(inputs({ decision: challenge, conflicts: 1, challenge: { challengeId: 'c1', answers }, ...over }));

  it('given the user questioned or contradicted the belief then validation +1 and the answer went the challenge’s way (stable): r = 0.4, all to the agent', () => {
    for (const signal of ['questioned', 'contradicted'] as const) {
      const r = of([answer(signal, HOUR)]);
      expect(r.components).toEqual({ coherence: 0, confidence: 0, stability: 1, validation: 1 });
      expect(r.validationExplicit).toBe(1);
      expect(r.reward).toBeCloseTo(0.4, 12);
      expect(r.credit).toEqual({ agent: expect.closeTo(0.4, 12) });
    }
  });

  it('given the user reinforced the belief then validation −1 and one reversal (inconclusive): r = −0.2', () => {
    const r = of([answer('reinforced', HOUR)]);
    expect(r.components).toEqual({ coherence: 0, confidence: 0, stability: 0, validation: -1 });
    expect(r.reward).toBeCloseTo(-0.2, 12);
    expect(r.credit.agent).toBeCloseTo(-0.2, 12);
    expect(r.credit.user).toBeUndefined();
  });

  it('given no answer, an answer that says nothing, or one after the horizon then no validation signal', () => {
    expect(of([]).components.validation).toBe(0);
    expect(of([answer('none', HOUR)]).components.validation).toBe(0);
    const late = of([answer('reinforced', 3 * HOUR)], { horizon: '2h', at: at(2 * HOUR) });
    expect(late.components.validation).toBe(0);
    // Another challenge's answer is not this one's.
    expect(of([answer('reinforced', HOUR, 'c0')]).components.validation).toBe(0);
    // Without its challenge's answers at all, nothing but the challenge itself.
    expect(evaluateOutcome(inputs({ decision: challenge, conflicts: 1 })).components).toEqual({ coherence: 0, confidence: 0, stability: 1, validation: 0 });
  });

  it("given the companion's coherence moved then the challenge's coherence is still 0: it moved none of the companion's beliefs", () => {
    const r = of([], { coherence: 0.9, coherenceOwn: TRUST_CONFIG.coherenceScale });
    expect(r.components.coherence).toBe(0);
    expect(r.coherenceBaseline).toBe(0);
  });

  it('given the user reinforced and questioned the belief back and forth in 7 days then ping-pong (−1); answers older than the window are forgotten', () => {
    const pingPong = [answer('reinforced', -3 * DAY, 'c0'), answer('questioned', -2 * DAY, 'c0'), answer('reinforced', HOUR)];
    expect(of(pingPong).components.stability).toBe(-1);
    expect(of([answer('reinforced', -9 * DAY, 'c0'), answer('questioned', -8 * DAY, 'c0'), answer('questioned', HOUR)]).components.stability).toBe(1);
  });

  it('given more open conflicts on the belief than at the challenge (contradicting evidence the user voiced) then Δconf is positive; fewer, negative', () => {
    expect(of([], { conflicts: 3, conflictHistory: [0, 4] }).components.confidence).toBeCloseTo(2 / 3.8, 12);
    expect(of([], { conflicts: 0 }).components.confidence).toBe(-1);
  });

  it('a challenge reinforced twice in a week is its worst short of conflicts: r = −0.4', () => {
    const r = of([answer('reinforced', -2 * DAY, 'c0'), answer('reinforced', HOUR)]);
    // c0's answer ↑, this challenge ↓, its answer ↑: two reversals.
    expect(r.components).toEqual({ coherence: 0, confidence: 0, stability: -1, validation: -1 });
    expect(r.reward).toBeCloseTo(-0.4, 12);
  });
});

describe('percentile', () => {
  it('interpolates between ranks and is 0 for no values', () => {
    expect(percentile([], 0.95)).toBe(0);
    expect(percentile([3], 0.95)).toBe(3);
    expect(percentile([4, 0, 2, 1, 3], 0.5)).toBe(2);
    expect(percentile([0, 10], 0.95)).toBeCloseTo(9.5, 12);
    expect(percentile([1, 2, 3], 1)).toBe(3);
  });
});
