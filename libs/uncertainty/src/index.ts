// The uncertainty engine as pure domain code (uncertainty-engine.md): reliability,
// the offline contradiction classifier, the ingestion check, drift, surfacing and
// its phrasing. Shared by the uncertainty service, memory (retrieval weights) and
// the orchestrator (the weave).
export * from './config.js';
export * from './types.js';
export { temporalCue, correctionCue, deniesValue, stanceCue } from './cues.js';
export { itemWords, valueWords, heldClause, sideClause, surfaceContextOf, contextMatches } from './describe.js';
export { questionFor, type Question } from './phrasing.js';
export { decayedConfidence, assemblyWeight, reliabilityOf } from './decay.js';
export { checkMessage, classifyPair, selectSurface, answerSide, evidenceOf, evidenceWinner, severityOf, storeOf, sourceOf, sideOf, type CheckInput } from './check.js';
export { reconcile, sampleForDrift, driftBudget, domainOf, type DriftInput, type DriftDecision } from './drift.js';
export { CLASSIFIER_PROMPT, classifierReplySchema, classifierUserPrompt, type ClassifierReply } from './prompts.js';
