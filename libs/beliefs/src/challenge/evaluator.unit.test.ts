import { challengeTriggers, evaluateBelief } from './evaluator.js';

const DAY = 86_400_000;
const AT = new Date('2025-03-20T12:00:00Z');
const daysAgo = (d: number) => new Date(AT.getTime() - d * DAY);
const times = (...days: number[]) => days.map(daysAgo);

describe('evaluateBelief (BC §3)', () => {
  it('given three occurrences in 90 days, then repetition calls for a challenge', () => {
    expect(evaluateBelief({ occurrences: times(1, 5, 10), rewardCorrelation: 0, contradictingEvidence: 0 }, AT)).toEqual({
      repetitionCount: 3,
      rewardCorrelation: 0,
      contradictingEvidenceCount: 0,
      challenge: true,
      because: ['repetition'],
    });
  });

  it('given exactly two occurrences, then no challenge (repetition must exceed 2)', () => {
    expect(evaluateBelief({ occurrences: times(1, 5), rewardCorrelation: 0, contradictingEvidence: 0 }, AT)).toMatchObject({
      repetitionCount: 2,
      challenge: false,
      because: [],
    });
  });

  it('given occurrences older than 90 days or after the evaluation time, then they do not count', () => {
    expect(evaluateBelief({ occurrences: times(1, 90.001, 200, -1), rewardCorrelation: 0, contradictingEvidence: 0 }, AT).repetitionCount).toBe(1);
  });

  it('given an occurrence exactly 90 days old, then it counts', () => {
    expect(evaluateBelief({ occurrences: times(0, 45, 90), rewardCorrelation: 0, contradictingEvidence: 0 }, AT)).toMatchObject({
      repetitionCount: 3,
      challenge: true,
    });
  });

  it.each([
    [-0.31, true],
    [-0.3, false],
    [-0.2, false],
    [0, false],
  ])('given reward correlation %p (threshold below −0.3), then challenge is %p', (rewardCorrelation, challenge) => {
    const r = evaluateBelief({ occurrences: [], rewardCorrelation, contradictingEvidence: 0 }, AT);

    expect(r.challenge).toBe(challenge);
    expect(r.because).toEqual(challenge ? ['negative_reward'] : []);
  });

  it.each([
    [0, false],
    [1, true],
    [4, true],
  ])('given %p contradicting entries, then challenge is %p', (contradictingEvidence, challenge) => {
    expect(evaluateBelief({ occurrences: [], rewardCorrelation: 0, contradictingEvidence }, AT).challenge).toBe(challenge);
  });

  it('given every criterion, then all are listed in the spec order', () => {
    expect(evaluateBelief({ occurrences: times(1, 2, 3, 4), rewardCorrelation: -0.8, contradictingEvidence: 2 }, AT).because).toEqual([
      'repetition',
      'negative_reward',
      'contradicting_evidence',
    ]);
  });

  it('given a reward correlation that is not a number (no trust outcome yet), then it counts as 0', () => {
    expect(evaluateBelief({ occurrences: [], rewardCorrelation: Number.NaN, contradictingEvidence: 0 }, AT)).toMatchObject({
      rewardCorrelation: 0,
      challenge: false,
    });
  });
});

describe('challengeTriggers', () => {
  it('given an evaluation, then the criteria it meets', () => {
    expect(challengeTriggers({ repetitionCount: 3, rewardCorrelation: -0.5, contradictingEvidenceCount: 0 })).toEqual(['repetition', 'negative_reward']);
    expect(challengeTriggers({ repetitionCount: 2, rewardCorrelation: -0.3, contradictingEvidenceCount: 0 })).toEqual([]);
  });
});
