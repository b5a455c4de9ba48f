import { eventType, type EventType, type MessageCodec } from '@hearth/bus';
import { belief, ingress, memory, orchestrator, retention, router, trust, typeName, uncertainty, type EventCodec } from '@hearth/proto';

/**
 * An event type from its generated message: the name is the message's
 * fully-qualified protobuf name from the registry, never written by hand (a message
 * that is not in an events.proto throws here, at import).
 */
function eventOf<T>(codec: MessageCodec<T>): EventType<T> {
  return eventType(typeName(codec as unknown as EventCodec), codec);
}

/** The typed catalogue of Hearth events: protobuf name and codec of each. */
export const Events = {
  UserCreated: eventOf(ingress.UserCreated),
  OnboardingAnswered: eventOf(ingress.OnboardingAnswered),
  TurnReceived: eventOf(ingress.TurnReceived),
  ControlsUpdated: eventOf(ingress.ControlsUpdated),
  AppOpened: eventOf(ingress.AppOpened),
  AdminAccessed: eventOf(ingress.AdminAccessed),
  TurnRouted: eventOf(router.TurnRouted),
  PersonaAssigned: eventOf(orchestrator.PersonaAssigned),
  TurnCompleted: eventOf(orchestrator.TurnCompleted),
  ChatRefused: eventOf(orchestrator.ChatRefused),
  RelationshipUpdated: eventOf(orchestrator.RelationshipUpdated),
  RetentionDeclined: eventOf(orchestrator.RetentionDeclined),
  MemoryRecorded: eventOf(memory.MemoryRecorded),
  MemoryConfirmed: eventOf(memory.MemoryConfirmed),
  MemoriesInvalidated: eventOf(memory.MemoriesInvalidated),
  TurnMemoryWritten: eventOf(memory.TurnMemoryWritten),
  RetentionPlanned: eventOf(retention.RetentionPlanned),
  RetentionAcknowledged: eventOf(retention.RetentionAcknowledged),
  RetentionIgnored: eventOf(retention.RetentionIgnored),
  AppOpenAttributed: eventOf(retention.AppOpenAttributed),
  BeliefsExtracted: eventOf(belief.BeliefsExtracted),
  BeliefsMerged: eventOf(belief.BeliefsMerged),
  ExtractorVersionRolledBack: eventOf(belief.ExtractorVersionRolledBack),
  BeliefChallengeIssued: eventOf(belief.BeliefChallengeIssued),
  BeliefConfidenceUpdated: eventOf(belief.BeliefConfidenceUpdated),
  BeliefGardened: eventOf(belief.BeliefGardened),
  MessageChecked: eventOf(uncertainty.MessageChecked),
  UncertaintyRecorded: eventOf(uncertainty.UncertaintyRecorded),
  UncertaintySurfaced: eventOf(uncertainty.UncertaintySurfaced),
  UncertaintyResolved: eventOf(uncertainty.UncertaintyResolved),
  UncertaintySteppedDown: eventOf(uncertainty.UncertaintySteppedDown),
  ReliabilityChanged: eventOf(uncertainty.ReliabilityChanged),
  ToleranceAdjusted: eventOf(uncertainty.ToleranceAdjusted),
  DriftCycled: eventOf(uncertainty.DriftCycled),
  FeedbackRecorded: eventOf(trust.FeedbackRecorded),
  GardenerDecided: eventOf(trust.GardenerDecided),
  OutcomeEvaluated: eventOf(trust.OutcomeEvaluated),
  TrustUpdated: eventOf(trust.TrustUpdated),
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
  CHECK_MESSAGE,
  CHECK_RELIABILITY,
  GET_UNCERTAINTIES,
  GET_COMPANION_BELIEFS,
  GET_TRUST,
  queryClients,
  type QueryClients,
} from './queries.js';
