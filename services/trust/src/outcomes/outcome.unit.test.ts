import { initialActorTrust, type DecisionRecord, type OutcomeInputs } from '@hearth/trust';
import { decideOutcome } from './outcome.js';

const AT = new Date('2026-11-01T09:00:00Z');
const HOUR = 3_600_000;

function inputs(decision: Partial<DecisionRecord>, opts: Partial<OutcomeInputs> = {}): OutcomeInputs {
  const d: DecisionRecord = { decisionId: 'd1', beliefId: 'b1', action: 'promote', at: AT, coherence: 0.9, conflicts: 2, confidence: 0.6, level: 0, doubtRate: 0, contributions: { user: 0.6, agent: 0.4 }, ...decision };
  return {
    decision: d,
    horizon: '24h',
    at: new Date(AT.getTime() + 24 * HOUR),
    coherence: 0.9,
    coherenceOwn: 0,
    conflicts: 0,
    conflictHistory: [2],
    beliefDecisions: [{ at: AT, action: 'promote' }],
    userFeedback: [],
    ...opts,
  };
}

const neutral = { user: initialActorTrust('user'), agent: initialActorTrust('agent') };

describe('decideOutcome (an outcome and the trust steps it causes)', () => {
  it('given a promotion after which the conflicts resolved, then the reward is positive and both actors step up by their credit', () => {
    const d = decideOutcome(inputs({}), neutral, 1);
    expect(d.result.reward).toBeGreaterThan(0.1);
    expect(d.steps.map((s) => s.actor)).toEqual(['user', 'agent']);
    expect(d.steps[0]!.reward).toBeCloseTo(0.6 * d.result.reward);
    expect(d.steps.every((s) => s.trust > s.trustBefore && s.updates === 1)).toBe(true);
  });

  it('given the short horizon, then the step is 0.15 of the long one', () => {
    const long = decideOutcome(inputs({}), neutral, 1).steps[0]!;
    const short = decideOutcome(inputs({}, { horizon: '2h', at: new Date(AT.getTime() + 2 * HOUR) }), neutral, 0.15).steps[0]!;
    expect(short.alpha).toBeCloseTo(0.15 * long.alpha);
  });

  it('given a credit below r_min for an actor, then only the other actor is updated', () => {
    const d = decideOutcome(inputs({ contributions: { user: 0.95, agent: 0.05 } }), neutral, 1);
    expect(d.steps.map((s) => s.actor)).toEqual(['user']);
  });

  it('given no contributions, then no actor is updated', () => {
    expect(decideOutcome(inputs({ contributions: {} }), neutral, 1).steps).toEqual([]);
  });
});
