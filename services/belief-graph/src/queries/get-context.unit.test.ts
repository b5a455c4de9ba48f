import { rewardCorrelationOf } from './get-context.js';

describe('rewardCorrelationOf', () => {
  it("given a belief's evaluated outcomes, then its reward correlation is their mean reward", () => {
    expect(rewardCorrelationOf(2, -0.8)).toBeCloseTo(-0.4, 12);
    expect(rewardCorrelationOf(4, 1.2)).toBeCloseTo(0.3, 12);
  });

  it('given no outcome, then it is 0, which the evaluator reads as no signal', () => {
    expect(rewardCorrelationOf(0, 0)).toBe(0);
    expect(rewardCorrelationOf(0, -3)).toBe(0);
  });

  it('stays within [−1, 1] and is 0 for a sum that is not a number', () => {
    expect(rewardCorrelationOf(1, -1.5)).toBe(-1);
    expect(rewardCorrelationOf(1, 2)).toBe(1);
    expect(rewardCorrelationOf(3, Number.NaN)).toBe(0);
  });
});
