import { decideChallenge, type ChallengeInput } from './challenge.js';

const AT = new Date('2026-11-01T09:00:00Z');
const HOUR = 3_600_000;

function input(over: Partial<ChallengeInput> = {}): ChallengeInput {
  return { at: AT, challengeId: 'c1', beliefId: 'u1', messageId: 'm1', belief: { confidence: 0.45, openConflicts: 2 }, decisionId: 'd1', ...over };
}

describe('decideChallenge', () => {
  it("given a challenge of a belief the graph lists then a decision of the agent's alone, against the belief's confidence and open conflicts, due at 2 h and 24 h", () => {
    expect(decideChallenge(input())).toEqual({
      decisionId: 'd1',
      beliefId: 'u1',
      action: 'challenge',
      reason: 'challenge_issued',
      contributions: { agent: 1 },
      conflicts: 2,
      confidence: 0.45,
      level: 0,
      shortDueAt: new Date(AT.getTime() + 2 * HOUR),
      longDueAt: new Date(AT.getTime() + 24 * HOUR),
      sourceMessageId: 'm1',
    });
  });

  it('given a belief the graph does not list then its confidence and conflicts are 0', () => {
    expect(decideChallenge(input({ belief: null }))).toMatchObject({ conflicts: 0, confidence: 0, action: 'challenge' });
  });
});
