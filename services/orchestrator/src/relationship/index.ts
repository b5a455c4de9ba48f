/** Stage G of turn-pipeline §11: the emotion analyzer, the §11.2 detectors and the §11.3–11.5 rules. Pure: no I/O, no clock. */
export { analyzeEmotion, type EmotionReading, type EmotionTag } from './emotion.js';
export { countPreferences, countTokens, detectEvidence, isDisengaged, isPastReference, type Evidence, type EvidenceInput } from './evidence.js';
export {
  RelationshipInputError,
  computeDelta,
  decayFor,
  initialRelationship,
  promotion,
  updateRelationship,
  viewAt,
  type Decay,
  type Delta,
  type DeltaPart,
  type DeltaRule,
  type Promotion,
  type RelationshipState,
  type RelationshipUpdate,
} from './rules.js';
