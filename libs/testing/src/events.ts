import type { EventType, StoredEvent } from '@hearth/bus';

/**
 * A StoredEvent as a consumer receives it, for tests that write the log by hand:
 * `value` encoded as `type`, readable (not erased, not sealed), the first of its
 * subject; `over` sets any other field.
 */
export function storedEvent<T>(type: EventType<T>, value: T, over: Partial<StoredEvent> = {}): StoredEvent {
  return {
    id: '',
    type: type.name,
    userId: '',
    occurredAt: new Date(0),
    causationId: '',
    correlationId: '',
    schemaVersion: 1,
    payload: type.encode(value),
    service: '',
    producerBuild: '',
    stream: '',
    subject: '',
    seq: 1,
    prevSeq: 0,
    raw: new Uint8Array(0),
    keyGeneration: 0,
    erased: false,
    ...over,
  };
}
