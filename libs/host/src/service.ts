import type { Kysely } from 'kysely';
import type { Bus, RunningConsumer, ServiceName } from '@hearth/bus';
import type { Clock } from '@hearth/clock';
import type { Database, Migrations, Projection } from '@hearth/store';
import type { Logger } from '@hearth/telemetry';

/** What a service gets from the host: its own schema, the bus, the clock. */
export interface ServiceContext {
  name: ServiceName;
  env: 'dev' | 'test' | 'production';
  /** The environment the host was started with: a service parses its own config from it. */
  environment: Readonly<Record<string, string | undefined>>;
  logger: Logger;
  bus: Bus;
  database: Database;
  /** Kysely bound to the service's own schema; the service narrows it to its own table types. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- narrowed per service
  db: Kysely<any>;
  schema: string;
  clock: Clock;
  /** Advances the shared virtual clock (dev and test only; undefined in production). */
  advanceClock?: (seconds: number) => Promise<Date>;
}

/** An HTTP surface a service adds to its Nest app (the ingress API). */
export interface HttpSurface {
  /** Nest controller classes. */
  controllers: (new (...args: never[]) => unknown)[];
  /** Nest providers, e.g. `{ provide: TOKEN, useValue: api }`. */
  providers: unknown[];
}

/**
 * The state of a dependency a service can do without for a while (the LLM
 * provider: replies fall back to the offline responder). Readiness reports it
 * in its details without failing on it.
 */
export interface DependencyStatus {
  ok: boolean;
  /** Why it is not ok (no secrets, no personal data). */
  reason?: string;
  /** ISO time the current state began. */
  since?: string;
}

/** A running service: consumers and timers, started by the JetStream transport. */
export interface ServiceRuntime {
  /** Degradable dependencies, shown in readiness details (never fail readiness). */
  dependencies?(): Record<string, DependencyStatus>;
  /** True when an `Authorization` header is an operator's (ingress: a verified admin token); opens readiness details. */
  isOperator?(authorization: string): Promise<boolean>;
  /**
   * Erases what the service keeps about a user outside its projections' tables
   * (a vector index, a cache), after the projections' rows were deleted. Must be
   * idempotent: an erasure may be delivered again.
   */
  onUserErased?(userId: string): Promise<void>;
  /** Binds consumers and starts workers; called once the schema is migrated. */
  start(): Promise<RunningConsumer[]>;
  http?: HttpSurface;
  /** Extra shutdown after consumers stopped. */
  stop?(): Promise<void>;
}

/** One deployable service: its schema, its projections, and how to build it. */
export interface ServiceDefinition {
  name: ServiceName;
  migrations: Migrations;
  /** Every projection the service runs (replay rebuilds and compares these). */
  projections: Projection[];
  create(ctx: ServiceContext): Promise<ServiceRuntime>;
}

/** The schema of a service under a namespace: `hearth_ingress`, `t1a2b_belief_graph`. */
export function schemaFor(namespace: string, service: ServiceName): string {
  return `${namespace}_${service.replace(/-/g, '_')}`;
}
