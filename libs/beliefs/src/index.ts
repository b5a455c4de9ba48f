// The belief graph's domain (self-belief-decomposer.md): pure phases 1–13 and
// the in-memory graph of the evaluation; belief challenges in ./challenge.
export * from './config.js';
export * from './types.js';
export { sourceContextOf, inferMode, capsRatio, hasProfanity, exclaimDensity } from './source-context.js';
export { segment, startsIndependentClause } from './segment.js';
export { atomizeRules, atomizeClause, RULE_CONFIDENCE } from './atomize.js';
export { validateAtoms, rejectionOf } from './validate.js';
export { canonicalize, hashOf, type Canonical } from './canonicalize.js';
export { dedupAtoms, type Dedupable } from './dedup.js';
export { epistemicsOf } from './epistemics.js';
export { streamOf } from './stream.js';
export { embeddingTextOf } from './embedding-text.js';
export { decompose, hasFirstPerson } from './decompose.js';
export { resolveAtom, rankBySimilarity } from './resolve.js';
export { detectConflicts, exclusiveSlot, isMomentary } from './conflict.js';
export { linkConfidence, linkStateOf, orderedPair, type LinkState } from './links.js';
export { activationOf, coreScoreOf, migrationOf, statusOf, type DemotionTrigger } from './scoring.js';
export { extractorVersion } from './version.js';
export * from './prompts.js';
export { nodeViewOf, stepGraph, type StepInput, type Verdict } from './step.js';
export { InMemoryBeliefGraph, type GraphLink, type GraphOccurrence } from './graph.js';
export { selfConsistency, type SelfConsistencyIssue } from './self-consistency.js';
export { EPISTEMIC_CUES, DEGREE_CUES } from './lexicon.js';
export * from './challenge/index.js';
