import { eventType } from '@hearth/bus';
import { ingress, orchestrator, router } from '@hearth/proto';

/** The typed catalogue of Hearth events: protobuf name and codec of each. */
export const Events = {
  UserCreated: eventType('hearth.ingress.v1.UserCreated', ingress.UserCreated),
  OnboardingAnswered: eventType('hearth.ingress.v1.OnboardingAnswered', ingress.OnboardingAnswered),
  TurnReceived: eventType('hearth.ingress.v1.TurnReceived', ingress.TurnReceived),
  TurnRouted: eventType('hearth.router.v1.TurnRouted', router.TurnRouted),
  PersonaAssigned: eventType('hearth.orchestrator.v1.PersonaAssigned', orchestrator.PersonaAssigned),
  TurnCompleted: eventType('hearth.orchestrator.v1.TurnCompleted', orchestrator.TurnCompleted),
  ChatRefused: eventType('hearth.orchestrator.v1.ChatRefused', orchestrator.ChatRefused),
  RelationshipUpdated: eventType('hearth.orchestrator.v1.RelationshipUpdated', orchestrator.RelationshipUpdated),
} as const;

export type UserCreated = ingress.UserCreated;
export type OnboardingAnswered = ingress.OnboardingAnswered;
export type OnboardingAnswers = ingress.OnboardingAnswers;
export type TurnReceived = ingress.TurnReceived;
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

export { deriveId } from './ids.js';
export { styleParamsToJson, styleParamsFromJson } from './style.js';
