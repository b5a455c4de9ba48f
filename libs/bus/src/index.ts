export { Bus, isNotFound, activeTraceId, type BusOptions, type BusLogger, type AppendResult } from './bus.js';
export { startConsumer, ACK, type ConsumerSpec, type Outcome, type Quarantine, type RunningConsumer } from './consumer.js';
export { deadLetterKey, listDeadLetters, purgeDeadLetters, redriveDeadLetter, markRedriven, watchDeadLetters, type DeadLetterEntry, type RedriveResult } from './dead-letters.js';
export {
  eventType,
  draft,
  payloadOf,
  decodeEnvelope,
  encodeEnvelope,
  type EventType,
  type EventDraft,
  type StoredEvent,
  type SealedPayload,
  type MessageCodec,
} from './events.js';
export { Keyring, KeyringError, keyBucketName, type Sealed, type KeyringOptions } from './keys/keyring.js';
export { withCause, currentCause, type Cause } from './keys/cause.js';
export { KmsUnavailableError, LocalKek, VaultTransitKek, type KeyEncryptionKey, type VaultTransitOptions } from './keys/kek.js';
export { appendDecided } from './append.js';
export { BusError, AppendConflictError, TerminalError, QueryError } from './errors.js';
export { isPermissionViolation, isTransientError } from './transient.js';
export { Topology, SERVICE_NAMES, GLOBAL_KEYS, type ServiceName } from './topology.js';
export { queryOwner, queryRpc, serveQueries, serveSomeQueries, type QueryHandlers, type QueryServiceDefinition, type Rpc } from './queries.js';
