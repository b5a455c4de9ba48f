import type { Bus } from './bus.js';
import { SERVICE_NAMES, type ServiceName } from './topology.js';

// The request/reply queries between services are declared once, as proto services
// (`service MemoryQueries { rpc … }` in proto/hearth/<owner>/v1/queries.proto).
// ts-proto generates from them the interface, a client over an `Rpc` and a
// definition; this file binds both ends to NATS. The subject of a query is its
// owner's query prefix and the rpc's name, as it was before the declarations.

/** A message codec as ts-proto generates it. */
interface Codec<T> {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
}

// Any codec: what it encodes is checked where the handlers are typed.
interface AnyCodec {
  encode(message: never): { finish(): Uint8Array };
  decode(input: Uint8Array): unknown;
}

interface QueryMethod {
  readonly name: string;
  readonly requestType: AnyCodec;
  readonly responseType: AnyCodec;
  readonly requestStream: false;
  readonly responseStream: false;
}

/** A proto service as ts-proto's `generic-definitions` output gives it. */
export interface QueryServiceDefinition {
  readonly name: string;
  /** `hearth.<owner>.v1.<Owner>Queries` */
  readonly fullName: string;
  readonly methods: Readonly<Record<string, QueryMethod>>;
}

type MessageOf<C> = C extends { decode(input: Uint8Array): infer T } ? T : never;

/** The handlers of a query service, keyed by rpc name (the generated interface's shape). */
export type QueryHandlers<D extends QueryServiceDefinition> = {
  [K in keyof D['methods'] as D['methods'][K]['name']]: (
    request: MessageOf<D['methods'][K]['requestType']>,
  ) => Promise<MessageOf<D['methods'][K]['responseType']>>;
};

/** What a ts-proto client is built on. */
export interface Rpc {
  request(service: string, method: string, data: Uint8Array): Promise<Uint8Array>;
}

// A proto package names its owner; the belief graph's package is `belief`.
const PACKAGE_OWNERS: Readonly<Record<string, ServiceName>> = { belief: 'belief-graph' };

/** The service that serves a proto query service, from its full name. */
export function queryOwner(fullName: string): ServiceName {
  const pkg = /^hearth\.([a-z-]+)\.v\d+\.[A-Za-z]+$/.exec(fullName)?.[1];
  const owner = pkg === undefined ? undefined : (PACKAGE_OWNERS[pkg] ?? pkg);
  if (!owner || !(SERVICE_NAMES as readonly string[]).includes(owner)) {
    throw new Error(`no Hearth service owns the proto service ${fullName}`);
  }
  return owner as ServiceName;
}

/**
 * The `Rpc` a generated client asks through: NATS request/reply to the owner of
 * the proto service, answered within `timeoutMs` or a `QueryError`.
 *   new memory.MemoryQueriesClientImpl(queryRpc(bus, { timeoutMs: 5_000 }))
 */
export function queryRpc(bus: Bus, opts: { timeoutMs?: number } = {}): Rpc {
  // A client names one proto service: its owner is worked out once, not per query.
  const owners = new Map<string, ServiceName>();
  return {
    request: (service, method, data) => {
      let owner = owners.get(service);
      if (!owner) owners.set(service, (owner = queryOwner(service)));
      return bus.query(owner, method, data, opts.timeoutMs);
    },
  };
}

/**
 * Serves every rpc of a proto query service: the request decoded, the handler's
 * answer encoded. A handler that throws answers with the error (the caller's
 * `QueryError`), as `Bus.serveQuery` does.
 */
export async function serveQueries<D extends QueryServiceDefinition>(bus: Bus, definition: D, handlers: NoInfer<QueryHandlers<D>>): Promise<void> {
  await serve(bus, definition, handlers as unknown as Record<string, Handler>, true);
}

/**
 * Serves some rpcs of a proto query service: a stand-in for its owner in a test
 * or a benchmark, which answers only what the code under test asks.
 */
export async function serveSomeQueries<D extends QueryServiceDefinition>(bus: Bus, definition: D, handlers: NoInfer<Partial<QueryHandlers<D>>>): Promise<void> {
  await serve(bus, definition, handlers as unknown as Record<string, Handler>, false);
}

type Handler = (request: unknown) => Promise<unknown>;

async function serve(bus: Bus, definition: QueryServiceDefinition, handlers: Record<string, Handler>, every: boolean): Promise<void> {
  const owner = queryOwner(definition.fullName);
  for (const method of Object.values(definition.methods)) {
    const handle = handlers[method.name];
    if (!handle) {
      if (every) throw new Error(`${definition.fullName}: no handler for ${method.name}`);
      continue;
    }
    const req = method.requestType as Codec<unknown>;
    const res = method.responseType as Codec<unknown>;
    await bus.serveQuery(owner, method.name, async (data) => {
      let request: unknown;
      try {
        request = req.decode(data);
      } catch (err) {
        throw new Error(`${method.name}Request does not decode`, { cause: err });
      }
      return res.encode(await handle(request)).finish();
    });
  }
}
