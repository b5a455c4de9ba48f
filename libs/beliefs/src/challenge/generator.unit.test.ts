import { normalizeUserText } from '@hearth/text';
import { BELIEF_CHALLENGE_STYLES, type BeliefEvaluation } from './types.js';
import { CHALLENGE_OPENINGS, PATTERN_QUESTIONS, chooseStyle, generateBeliefChallenge, quoteBack } from './generator.js';

const evaluation = (e: Partial<BeliefEvaluation> = {}): BeliefEvaluation => ({ repetitionCount: 0, rewardCorrelation: 0, contradictingEvidenceCount: 0, ...e });
const repeated = evaluation({ repetitionCount: 3 });
const unrewarding = evaluation({ rewardCorrelation: -0.6 });
const contradicted = evaluation({ contradictingEvidenceCount: 1 });
const perception = { beliefId: 'b-1', rawText: "I'm too slow to learn anything new", canonicalText: 'i am too slow to learn anything new' };

// Words and phrases of confrontation, correction or authority (BC §4 "no
// confrontation, no correction, no authority"), matched as whole phrases.
const CONFRONTATIONAL = [
  "you're wrong",
  'you are wrong',
  "that's wrong",
  'wrong about',
  'actually',
  'you should',
  'you must',
  'you need to',
  'you have to',
  "that's not true",
  'that is not true',
  "that isn't true",
  'not true',
  'obviously',
  'clearly',
  'the truth is',
  'in reality',
  'face it',
  'admit',
  'irrational',
  'ridiculous',
  'silly',
  'stupid',
  'nonsense',
  'false',
  'mistaken',
  'fact is',
];
const confrontationIn = (text: string): string[] => {
  const norm = ` ${normalizeUserText(text).normNoPunct} `;
  return CONFRONTATIONAL.filter((w) => norm.includes(` ${normalizeUserText(w).normNoPunct} `));
};

describe('chooseStyle (deterministic)', () => {
  it.each([
    ['repetition alone', repeated, 'curious'],
    ['negative reward', unrewarding, 'reflective'],
    ['contradicting evidence', contradicted, 'gentle'],
    ['repetition and negative reward', evaluation({ repetitionCount: 5, rewardCorrelation: -0.5 }), 'reflective'],
    ['all three', evaluation({ repetitionCount: 5, rewardCorrelation: -0.5, contradictingEvidenceCount: 2 }), 'gentle'],
    ['nothing', evaluation(), 'curious'],
  ] as const)('given %s, then %s', (_case, e, style) => {
    expect(chooseStyle(e)).toBe(style);
  });
});

describe('generateBeliefChallenge (BC §4)', () => {
  it.each(BELIEF_CHALLENGE_STYLES)('given style %s, then the prompt opens with the spec\'s line for it', (style) => {
    const c = generateBeliefChallenge(perception, style, repeated);

    expect(c.style).toBe(style);
    expect(c.prompt.startsWith(CHALLENGE_OPENINGS[style])).toBe(true);
  });

  it('given the spec\'s openings, then they are word for word', () => {
    expect(CHALLENGE_OPENINGS).toEqual({
      gentle: 'I might be wrong, but can we look at this gently together?',
      curious: 'Can I ask something, just to understand better?',
      reflective: "I'm noticing a pattern here. How does this belief affect how you see yourself?",
    });
  });

  it('given curious and repetition, then the opening, the user\'s words, and the spec\'s example question last', () => {
    expect(generateBeliefChallenge(perception, 'curious', repeated).prompt).toBe(
      "Can I ask something, just to understand better? I'm thinking of when you said you're too slow to learn anything new. " +
        "You've mentioned this a few times — do you feel it's always true, or are there moments when it might not be?",
    );
  });

  it.each([
    ['negative reward', unrewarding, PATTERN_QUESTIONS.negative_reward],
    ['contradicting evidence', contradicted, PATTERN_QUESTIONS.contradicting_evidence],
    ['nothing (called anyway)', evaluation(), PATTERN_QUESTIONS.none],
    ['contradiction over repetition', evaluation({ repetitionCount: 4, contradictingEvidenceCount: 1 }), PATTERN_QUESTIONS.contradicting_evidence],
  ])('given %s, then the prompt asks about that pattern', (_case, e, question) => {
    expect(generateBeliefChallenge(perception, 'gentle', e).prompt).toContain(question);
  });

  it('given the user\'s words, then they are quoted back in the second person', () => {
    const p = { beliefId: 'b', rawText: 'My sister thinks I ruin every holiday.', canonicalText: 'my sister thinks i ruin every holiday' };

    expect(generateBeliefChallenge(p, 'curious', repeated).prompt).toContain("I'm thinking of when you said your sister thinks you ruin every holiday. ");
    expect(generateBeliefChallenge(p, 'curious', repeated).prompt).toMatch(/\?$/);
  });

  it('given no raw text, then the canonical text is quoted', () => {
    expect(quoteBack({ rawText: '  ', canonicalText: 'i am bad at keeping friends' })).toBe('you are bad at keeping friends');
  });

  it('given neither, then no quote sentence', () => {
    expect(generateBeliefChallenge({ beliefId: 'b', rawText: '', canonicalText: '' }, 'curious', repeated).prompt).toBe(
      `${CHALLENGE_OPENINGS.curious} ${PATTERN_QUESTIONS.repetition}`,
    );
  });

  it('given quote marks and final punctuation around the words, then they are trimmed', () => {
    expect(quoteBack({ rawText: '"I always let people down!!"', canonicalText: '' })).toBe('you always let people down');
  });

  it('given every style and every pattern, then no prompt contains a confrontational word', () => {
    const beliefs = [
      perception,
      { beliefId: 'b2', rawText: 'My family disrespects me for not working with my hands', canonicalText: '' },
      { beliefId: 'b3', rawText: 'Nobody at work takes me seriously', canonicalText: '' },
      { beliefId: 'b4', rawText: 'I am not a creative person', canonicalText: '' },
    ];
    const evaluations = [repeated, unrewarding, contradicted, evaluation(), evaluation({ repetitionCount: 9, rewardCorrelation: -1, contradictingEvidenceCount: 3 })];
    const found = beliefs.flatMap((b) =>
      BELIEF_CHALLENGE_STYLES.flatMap((s) => evaluations.flatMap((e) => confrontationIn(generateBeliefChallenge(b, s, e).prompt))),
    );

    expect(found).toEqual([]);
  });

  it('given a prompt that corrects, then the confrontation check finds it (the check can fail)', () => {
    expect(confrontationIn("Actually, you're wrong about that — you should see it differently.")).toEqual(["you're wrong", 'wrong about', 'actually', 'you should']);
  });

  it('given any style and pattern, then the prompt asks (contains a question mark)', () => {
    for (const s of BELIEF_CHALLENGE_STYLES) for (const e of [repeated, unrewarding, contradicted, evaluation()]) expect(generateBeliefChallenge(perception, s, e).prompt).toContain('?');
  });
});
