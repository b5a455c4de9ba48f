import { selectChallenge } from './select.js';
import type { Perception } from './types.js';

const DAY = 86_400_000;
const AT = new Date('2025-06-01T09:00:00Z');
const daysAgo = (d: number) => new Date(AT.getTime() - d * DAY);
const clear = { shame: false, isolation: false, dependencyFear: false, relationalStrain: false };
const ids = { challengeId: (beliefId: string) => `challenge-of-${beliefId}` };

const perception = (p: Partial<Perception> & { beliefId: string }): Perception => ({
  canonicalText: `belief ${p.beliefId}`,
  rawText: '',
  polarity: 'affirm',
  confidence: 0.6,
  createdAt: daysAgo(20),
  lastAt: daysAgo(1),
  occurrences: [daysAgo(20), daysAgo(10), daysAgo(1)],
  rewardCorrelation: 0,
  contradictingEvidence: 0,
  ...p,
});

describe('selectChallenge: the spec\'s example flow', () => {
  it('given the family belief (3 times, 10 days old, confidence 0.4, reward −0.2, no contradictions, no signals), then one curious challenge with the spec\'s prompt', () => {
    const family = perception({
      beliefId: 'family',
      canonicalText: 'my family disrespects me for not working with my hands',
      rawText: 'My family disrespects me for not working with my hands',
      confidence: 0.4,
      createdAt: daysAgo(10),
      lastAt: daysAgo(2),
      occurrences: [daysAgo(10), daysAgo(6), daysAgo(2)],
      rewardCorrelation: -0.2,
      contradictingEvidence: 0,
    });

    const result = selectChallenge([family], clear, AT, ids);

    expect(result.blocked).toBeNull();
    expect(result.considered).toEqual([
      {
        beliefId: 'family',
        eligible: true,
        reason: 'eligible',
        risk: 'low',
        evaluated: true,
        repetitionCount: 3,
        rewardCorrelation: -0.2,
        contradictingEvidence: 0,
        challenge: true,
        because: ['repetition'],
      },
    ]);
    expect(result.challenge).toMatchObject({ challengeId: 'challenge-of-family', beliefId: 'family', style: 'curious', because: ['repetition'] });
    expect(result.challenge?.prompt.startsWith('Can I ask something, just to understand better?')).toBe(true);
    expect(result.challenge?.prompt).toContain(
      "You've mentioned this a few times — do you feel it's always true, or are there moments when it might not be?",
    );
    expect(result.challenge?.prompt).toContain('your family disrespects you for not working with your hands');
  });
});

describe('selectChallenge: the integration flow', () => {
  it.each([
    ['shame', { ...clear, shame: true }, 'shame_or_isolation'],
    ['isolation', { ...clear, isolation: true }, 'shame_or_isolation'],
    ['dependency fear', { ...clear, dependencyFear: true }, 'dependency_fear'],
  ] as const)('given %s, then nothing is considered or proposed', (_case, safety, blocked) => {
    expect(selectChallenge([perception({ beliefId: 'a' })], safety, AT, ids)).toEqual({ blocked, considered: [], challenge: null });
  });

  it('given no perceptions, then no challenge', () => {
    expect(selectChallenge([], clear, AT, ids)).toEqual({ blocked: null, considered: [], challenge: null });
  });

  it('given only the 5 most recent are read, then an older repeated belief is never challenged', () => {
    const recentButQuiet = [1, 2, 3, 4, 5].map((n) => perception({ beliefId: `quiet-${n}`, lastAt: daysAgo(n), occurrences: [daysAgo(n)] }));
    const old = perception({ beliefId: 'old', lastAt: daysAgo(8) });

    const result = selectChallenge([old, ...recentButQuiet], clear, AT, ids);

    expect(result.challenge).toBeNull();
    expect(result.considered.map((c) => c.beliefId)).not.toContain('old');
  });

  it('given too recent and low-confidence perceptions, then they are recorded with the lock\'s reason and not evaluated', () => {
    const young = perception({ beliefId: 'young', createdAt: daysAgo(6.9), lastAt: daysAgo(0.1) });
    const fragile = perception({ beliefId: 'fragile', confidence: 0.29, lastAt: daysAgo(0.2) });

    const result = selectChallenge([young, fragile], clear, AT, ids);

    expect(result.challenge).toBeNull();
    expect(result.considered.map((c) => [c.beliefId, c.reason, c.evaluated])).toEqual([
      ['young', 'too_recent', false],
      ['fragile', 'low_confidence', false],
    ]);
  });

  it('given a belief exactly 7 days old with confidence exactly 0.3, then it passes the filter and the lock', () => {
    const edge = perception({ beliefId: 'edge', createdAt: daysAgo(7), confidence: 0.3 });

    expect(selectChallenge([edge], clear, AT, ids).challenge?.beliefId).toBe('edge');
  });

  it('given only the first 2 eligible by the filter are evaluated, then a third that calls for it is not reached', () => {
    const calm = (id: string, last: number) => perception({ beliefId: id, lastAt: daysAgo(last), occurrences: [daysAgo(last)] });
    const third = perception({ beliefId: 'third', lastAt: daysAgo(3) });

    const result = selectChallenge([calm('first', 1), calm('second', 2), third], clear, AT, ids);

    expect(result.challenge).toBeNull();
    expect(result.considered.map((c) => [c.beliefId, c.evaluated, c.challenge])).toEqual([
      ['first', true, false],
      ['second', true, false],
    ]);
  });

  it('given two perceptions that call for it, then only the newest is challenged (one per conversation)', () => {
    const result = selectChallenge([perception({ beliefId: 'older', lastAt: daysAgo(3) }), perception({ beliefId: 'newer', lastAt: daysAgo(1) })], clear, AT, ids);

    expect(result.challenge?.beliefId).toBe('newer');
    expect(result.considered.map((c) => c.beliefId)).toEqual(['newer']);
  });

  it('given relational strain and confidence 0.4, then the lock blocks it inside the flow and it uses one of the 2 slots', () => {
    const strained = perception({ beliefId: 'strained', confidence: 0.4, lastAt: daysAgo(1) });
    const sure = perception({ beliefId: 'sure', confidence: 0.5, lastAt: daysAgo(2) });

    const result = selectChallenge([strained, sure], { ...clear, relationalStrain: true }, AT, ids);

    expect(result.considered[0]).toMatchObject({ beliefId: 'strained', eligible: false, reason: 'relational_strain_low_confidence', risk: 'medium', evaluated: false });
    expect(result.challenge?.beliefId).toBe('sure');
  });

  it('given relational strain and confidence exactly 0.5, then it may be challenged', () => {
    const sure = perception({ beliefId: 'sure', confidence: 0.5 });

    expect(selectChallenge([sure], { ...clear, relationalStrain: true }, AT, ids).challenge?.beliefId).toBe('sure');
  });

  it('given contradicting evidence, then the challenge is gentle', () => {
    const p = perception({ beliefId: 'c', occurrences: [daysAgo(20)], contradictingEvidence: 1, rawText: 'I never finish anything' });

    expect(selectChallenge([p], clear, AT, ids).challenge).toMatchObject({ style: 'gentle', because: ['contradicting_evidence'] });
  });

  it('given a negative reward correlation, then the challenge is reflective', () => {
    const p = perception({ beliefId: 'r', occurrences: [daysAgo(20)], rewardCorrelation: -0.5 });

    expect(selectChallenge([p], clear, AT, ids).challenge).toMatchObject({ style: 'reflective', because: ['negative_reward'] });
  });

  it('given the same lastAt, then creation time and then id order the perceptions', () => {
    const a = perception({ beliefId: 'a', createdAt: daysAgo(30) });
    const b = perception({ beliefId: 'b', createdAt: daysAgo(20) });
    const c = perception({ beliefId: 'c', createdAt: daysAgo(20) });

    expect(selectChallenge([a, c, b], clear, AT, ids).challenge?.beliefId).toBe('b');
  });

  it('given the input list, then it is not reordered', () => {
    const list = [perception({ beliefId: 'x', lastAt: daysAgo(5) }), perception({ beliefId: 'y', lastAt: daysAgo(1) })];

    selectChallenge(list, clear, AT, ids);

    expect(list.map((p) => p.beliefId)).toEqual(['x', 'y']);
  });
});
