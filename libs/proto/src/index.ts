export * as common from './gen/hearth/common/v1/envelope.js';
export * as commonEvents from './gen/hearth/common/v1/events.js';
export * as ingress from './gen/hearth/ingress/v1/events.js';
export * as router from './gen/hearth/router/v1/events.js';
export * as orchestrator from './orchestrator.js';
export * as memory from './memory.js';
export * as retention from './retention.js';
export * as belief from './belief.js';
export * as uncertainty from './uncertainty.js';
export * as trust from './trust.js';
export {
  eventCodecs,
  isEventTypeName,
  typeName,
  UnknownEventTypeError,
  type EventCodec,
  type EventCodecs,
  type EventMessage,
  type EventTypeName,
  type MessageCodec,
} from './registry.js';
