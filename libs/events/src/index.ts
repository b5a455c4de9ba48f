import { eventType } from '@hearth/bus';
import { belief, ingress, memory, orchestrator, retention, router, trust, uncertainty } from '@hearth/proto';

/** The typed catalogue of Hearth events: protobuf name and codec of each. */
export const Events = {
  UserCreated: eventType('hearth.ingress.v1.UserCreated', ingress.UserCreated),
  OnboardingAnswered: eventType('hearth.ingress.v1.OnboardingAnswered', ingress.OnboardingAnswered),
  TurnReceived: eventType('hearth.ingress.v1.TurnReceived', ingress.TurnReceived),
  ControlsUpdated: eventType('hearth.ingress.v1.ControlsUpdated', ingress.ControlsUpdated),
  AppOpened: eventType('hearth.ingress.v1.AppOpened', ingress.AppOpened),
  AdminAccessed: eventType('hearth.ingress.v1.AdminAccessed', ingress.AdminAccessed),
  TurnRouted: eventType('hearth.router.v1.TurnRouted', router.TurnRouted),
  PersonaAssigned: eventType('hearth.orchestrator.v1.PersonaAssigned', orchestrator.PersonaAssigned),
  TurnCompleted: eventType('hearth.orchestrator.v1.TurnCompleted', orchestrator.TurnCompleted),
  ChatRefused: eventType('hearth.orchestrator.v1.ChatRefused', orchestrator.ChatRefused),
  RelationshipUpdated: eventType('hearth.orchestrator.v1.RelationshipUpdated', orchestrator.RelationshipUpdated),
  RetentionDeclined: eventType('hearth.orchestrator.v1.RetentionDeclined', orchestrator.RetentionDeclined),
  MemoryRecorded: eventType('hearth.memory.v1.MemoryRecorded', memory.MemoryRecorded),
  MemoryConfirmed: eventType('hearth.memory.v1.MemoryConfirmed', memory.MemoryConfirmed),
  MemoriesInvalidated: eventType('hearth.memory.v1.MemoriesInvalidated', memory.MemoriesInvalidated),
  TurnMemoryWritten: eventType('hearth.memory.v1.TurnMemoryWritten', memory.TurnMemoryWritten),
  RetentionPlanned: eventType('hearth.retention.v1.RetentionPlanned', retention.RetentionPlanned),
  RetentionAcknowledged: eventType('hearth.retention.v1.RetentionAcknowledged', retention.RetentionAcknowledged),
  RetentionIgnored: eventType('hearth.retention.v1.RetentionIgnored', retention.RetentionIgnored),
  AppOpenAttributed: eventType('hearth.retention.v1.AppOpenAttributed', retention.AppOpenAttributed),
  BeliefsExtracted: eventType('hearth.belief.v1.BeliefsExtracted', belief.BeliefsExtracted),
  BeliefsMerged: eventType('hearth.belief.v1.BeliefsMerged', belief.BeliefsMerged),
  ExtractorVersionRolledBack: eventType('hearth.belief.v1.ExtractorVersionRolledBack', belief.ExtractorVersionRolledBack),
  BeliefChallengeIssued: eventType('hearth.belief.v1.BeliefChallengeIssued', belief.BeliefChallengeIssued),
  BeliefConfidenceUpdated: eventType('hearth.belief.v1.BeliefConfidenceUpdated', belief.BeliefConfidenceUpdated),
  BeliefGardened: eventType('hearth.belief.v1.BeliefGardened', belief.BeliefGardened),
  MessageChecked: eventType('hearth.uncertainty.v1.MessageChecked', uncertainty.MessageChecked),
  UncertaintyRecorded: eventType('hearth.uncertainty.v1.UncertaintyRecorded', uncertainty.UncertaintyRecorded),
  UncertaintySurfaced: eventType('hearth.uncertainty.v1.UncertaintySurfaced', uncertainty.UncertaintySurfaced),
  UncertaintyResolved: eventType('hearth.uncertainty.v1.UncertaintyResolved', uncertainty.UncertaintyResolved),
  UncertaintySteppedDown: eventType('hearth.uncertainty.v1.UncertaintySteppedDown', uncertainty.UncertaintySteppedDown),
  ReliabilityChanged: eventType('hearth.uncertainty.v1.ReliabilityChanged', uncertainty.ReliabilityChanged),
  ToleranceAdjusted: eventType('hearth.uncertainty.v1.ToleranceAdjusted', uncertainty.ToleranceAdjusted),
  DriftCycled: eventType('hearth.uncertainty.v1.DriftCycled', uncertainty.DriftCycled),
  FeedbackRecorded: eventType('hearth.trust.v1.FeedbackRecorded', trust.FeedbackRecorded),
  GardenerDecided: eventType('hearth.trust.v1.GardenerDecided', trust.GardenerDecided),
  OutcomeEvaluated: eventType('hearth.trust.v1.OutcomeEvaluated', trust.OutcomeEvaluated),
  TrustUpdated: eventType('hearth.trust.v1.TrustUpdated', trust.TrustUpdated),
} as const;

export type UserCreated = ingress.UserCreated;
export type OnboardingAnswered = ingress.OnboardingAnswered;
export type OnboardingAnswers = ingress.OnboardingAnswers;
export type TurnReceived = ingress.TurnReceived;
export type ControlsUpdated = ingress.ControlsUpdated;
export type TurnRouted = router.TurnRouted;
export type RoutingDecision = router.RoutingDecision;
export type TopicMatch = router.TopicMatch;
export type PersonaAssigned = orchestrator.PersonaAssigned;
export type StableStyleParams = orchestrator.StableStyleParams;
export type TurnCompleted = orchestrator.TurnCompleted;
export type ChatRefused = orchestrator.ChatRefused;
export type LlmExchange = orchestrator.LlmExchange;
export type RelationshipUpdated = orchestrator.RelationshipUpdated;
export type RelationshipState = orchestrator.RelationshipState;
export type ResponsePlan = orchestrator.ResponsePlan;
export type GateVerdict = orchestrator.GateVerdict;
export type MemoryRecorded = memory.MemoryRecorded;
export type MemoryConfirmed = memory.MemoryConfirmed;
export type MemoriesInvalidated = memory.MemoriesInvalidated;
export type TurnMemoryWritten = memory.TurnMemoryWritten;
export type AppOpened = ingress.AppOpened;
export type AdminAccessed = ingress.AdminAccessed;
export type RetentionDeclined = orchestrator.RetentionDeclined;
export type RetentionPlanned = retention.RetentionPlanned;
export type RetentionAcknowledged = retention.RetentionAcknowledged;
export type RetentionIgnored = retention.RetentionIgnored;
export type AppOpenAttributed = retention.AppOpenAttributed;
export type BeliefsExtracted = belief.BeliefsExtracted;
export type BeliefsMerged = belief.BeliefsMerged;
export type ExtractorVersionRolledBack = belief.ExtractorVersionRolledBack;
export type BeliefChallengeIssued = belief.BeliefChallengeIssued;
export type BeliefConfidenceUpdated = belief.BeliefConfidenceUpdated;
export type BeliefContext = orchestrator.BeliefContext;
export type UncertaintyContext = orchestrator.UncertaintyContext;
export type MessageChecked = uncertainty.MessageChecked;
export type UncertaintyRecorded = uncertainty.UncertaintyRecorded;
export type UncertaintySurfaced = uncertainty.UncertaintySurfaced;
export type UncertaintyResolved = uncertainty.UncertaintyResolved;
export type UncertaintySteppedDown = uncertainty.UncertaintySteppedDown;
export type ReliabilityChanged = uncertainty.ReliabilityChanged;
export type ToleranceAdjusted = uncertainty.ToleranceAdjusted;
export type DriftCycled = uncertainty.DriftCycled;
export type UncertaintySubject = uncertainty.Subject;
export type BeliefGardened = belief.BeliefGardened;
export type FeedbackRecorded = trust.FeedbackRecorded;
export type FeedbackTag = trust.FeedbackTag;
export type GardenerDecided = trust.GardenerDecided;
export type OutcomeEvaluated = trust.OutcomeEvaluated;
export type TrustUpdated = trust.TrustUpdated;
export type ActorShare = trust.ActorShare;

export { deriveId, isUuid } from './ids.js';
export { styleParamsToJson, styleParamsFromJson } from './style.js';
export { llmExchangeToProto } from './llm.js';
export {
  FIND_MEMORIES,
  SEARCH_MEMORIES,
  LIST_MEMORIES,
  INVALIDATE_MEMORY,
  GET_PERSONA,
  GET_RELATIONSHIP,
  GET_RETENTION,
  GET_BELIEFS,
  GET_BELIEF_CONTEXT,
  MERGE_BELIEFS,
  ROLLBACK_EXTRACTOR_VERSION,
  LIST_BELIEF_USERS,
  CHECK_MESSAGE,
  CHECK_RELIABILITY,
  GET_UNCERTAINTIES,
  GET_COMPANION_BELIEFS,
  GET_TRUST,
  queryClients,
  type QueryClients,
} from './queries.js';
