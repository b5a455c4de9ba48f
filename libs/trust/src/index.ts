// The outcome-driven trust system as pure domain code (outcome-driven-trust.md):
// provenance trust, tag detection and alignment, the awareness anchors, the
// feedback aggregator and gardener verdict, and the outcome evaluator. Shared by
// the trust service, belief-graph's gardener step and the benchmarks.
export * from './config.js';
export * from './types.js';
export { initialActorTrust, updateTrust } from './provenance.js';
export { mayTag, detectTags, alignTag } from './tags.js';
export { anchorsOf, coherenceOf, decisionCoherence, gAlign } from './anchors.js';
export { weighFeedback, gateFeedback, scoreBelief, globalScore, gardenerVerdict } from './aggregate.js';
export { evaluateOutcome, doubtRateBefore } from './outcome.js';
