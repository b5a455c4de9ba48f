import * as beliefEvents from './gen/hearth/belief/v1/events.js';
import * as commonEvents from './gen/hearth/common/v1/events.js';
import * as ingressEvents from './gen/hearth/ingress/v1/events.js';
import * as memoryEvents from './gen/hearth/memory/v1/events.js';
import * as orchestratorEvents from './gen/hearth/orchestrator/v1/events.js';
import * as retentionEvents from './gen/hearth/retention/v1/events.js';
import * as routerEvents from './gen/hearth/router/v1/events.js';
import * as uncertaintyEvents from './gen/hearth/uncertainty/v1/events.js';
import * as trustEvents from './gen/hearth/trust/v1/events.js';
import type { MessageFns } from './gen/hearth/common/v1/envelope.js';

/** What ts-proto generates for every message: encode/decode/fromPartial/toJSON/… */
export type MessageCodec<T> = MessageFns<T>;

/** The runtime shape shared by all message objects, whatever their message type. */
interface AnyCodec {
  encode: unknown;
  decode: unknown;
  fromPartial: unknown;
  toJSON: unknown;
}

/**
 * Maps `<package>.<Message>` to the message object for every message exported by
 * one generated module (its string constants are skipped).
 */
type CodecsOf<M extends { protobufPackage: string }> = {
  [K in keyof M as M[K] extends AnyCodec ? `${M['protobufPackage']}.${K & string}` : never]: M[K];
};

function isCodec(value: unknown): value is AnyCodec {
  if (typeof value !== 'object' || value === null) return false;
  const v = value as Partial<Record<keyof AnyCodec, unknown>>;
  return (
    typeof v.encode === 'function' &&
    typeof v.decode === 'function' &&
    typeof v.fromPartial === 'function' &&
    typeof v.toJSON === 'function'
  );
}

function collect<M extends { protobufPackage: string }>(mod: M): CodecsOf<M> {
  const out: Record<string, AnyCodec> = {};
  for (const [name, value] of Object.entries(mod)) {
    if (isCodec(value)) out[`${mod.protobufPackage}.${name}`] = value;
  }
  return out as CodecsOf<M>;
}

/**
 * Every message of the `*events.proto` files, keyed by its fully-qualified
 * protobuf name — the value of `Envelope.type`.
 */
export type EventCodecs = CodecsOf<typeof commonEvents> &
  CodecsOf<typeof ingressEvents> &
  CodecsOf<typeof routerEvents> &
  CodecsOf<typeof orchestratorEvents> &
  CodecsOf<typeof memoryEvents> &
  CodecsOf<typeof retentionEvents> &
  CodecsOf<typeof beliefEvents> &
  CodecsOf<typeof uncertaintyEvents> &
  CodecsOf<typeof trustEvents>;

/** A fully-qualified event type name, e.g. `"hearth.ingress.v1.TurnReceived"`. */
export type EventTypeName = keyof EventCodecs;

/** The message object of one event type. */
export type EventCodec<N extends EventTypeName = EventTypeName> = EventCodecs[N];

/** The decoded message of one event type. */
export type EventMessage<N extends EventTypeName> = ReturnType<EventCodecs[N]['decode']>;

export const eventCodecs: Readonly<EventCodecs> = Object.freeze({
  ...collect(commonEvents),
  ...collect(ingressEvents),
  ...collect(routerEvents),
  ...collect(orchestratorEvents),
  ...collect(memoryEvents),
  ...collect(retentionEvents),
  ...collect(beliefEvents),
  ...collect(uncertaintyEvents),
  ...collect(trustEvents),
});

const namesByCodec = new Map<unknown, EventTypeName>(
  Object.entries(eventCodecs).map(([name, codec]) => [codec, name as EventTypeName]),
);

/** Thrown when a message object or name is not in {@link eventCodecs}. */
export class UnknownEventTypeError extends Error {
  readonly code = 'UNKNOWN_EVENT_TYPE';
  override readonly name = 'UnknownEventTypeError';

  /** @param typeName The unknown name, or undefined for an unknown message object. */
  constructor(
    readonly typeName: string | undefined,
    options?: ErrorOptions,
  ) {
    super(
      typeName === undefined
        ? 'not an event message object (none of eventCodecs)'
        : `unknown event type: ${typeName}`,
      options,
    );
  }
}

/** Narrows a string (such as `Envelope.type`) to a known event type name. */
export function isEventTypeName(name: string): name is EventTypeName {
  return Object.hasOwn(eventCodecs, name);
}

/** The event type whose message object is exactly `C`. */
type NameOf<C> = {
  [N in EventTypeName]: [C] extends [EventCodecs[N]] ? ([EventCodecs[N]] extends [C] ? N : never) : never;
}[EventTypeName];

/**
 * The fully-qualified protobuf name of an event's message object, for
 * `Envelope.type`: `typeName(ingress.TurnReceived) === "hearth.ingress.v1.TurnReceived"`.
 * @throws {UnknownEventTypeError} when the object is not an event message.
 */
export function typeName<C extends EventCodec>(codec: C): NameOf<C> {
  const name = namesByCodec.get(codec);
  if (name === undefined) throw new UnknownEventTypeError(undefined);
  return name as NameOf<C>;
}
