// Belief challenge (belief-challenge.md): the hard safety lock, the evaluator,
// the generator, the bounded confidence updater and the integration flow.
export * from './types.js';
export { ageDays, isBeliefChallengeAllowed } from './eligibility.js';
export { challengeTriggers, evaluateBelief, type EvaluationInput } from './evaluator.js';
export { CHALLENGE_OPENINGS, PATTERN_QUESTIONS, TRIGGER_PRIORITY, chooseStyle, generateBeliefChallenge, quoteBack } from './generator.js';
export { REPLY_LEXICON, replySignal, updateConfidence } from './updater.js';
export { selectChallenge, type ChallengeIds, type ChallengeSelection } from './select.js';
