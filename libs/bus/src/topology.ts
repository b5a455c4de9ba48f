/** The eight Hearth services; each owns one stream and one database schema. */
export const SERVICE_NAMES = [
  'ingress',
  'router',
  'orchestrator',
  'memory',
  'belief-graph',
  'uncertainty',
  'trust',
  'retention',
] as const;

export type ServiceName = (typeof SERVICE_NAMES)[number];

/** Reserved subject keys for global aggregates (in place of a user id). */
export const GLOBAL_KEYS = {
  personaAssignments: '_persona_assignments',
  /** Erasures: UserErased on ingress's stream, each service's ErasureApplied on its own. */
  erasures: '_erasures',
} as const;

const TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * Names of streams, subjects and consumers under one namespace. Tests use a
 * unique namespace each so that leftovers of earlier runs never matter.
 */
export class Topology {
  constructor(readonly namespace: string) {
    if (!/^[a-z0-9_]+$/.test(namespace)) {
      throw new Error(`invalid namespace '${namespace}': lowercase letters, digits and _ only`);
    }
  }

  /** `<ns>.<service>.v1.<key>`: one chain per user (or global key) per service. */
  subject(service: ServiceName, key: string): string {
    if (!TOKEN.test(key)) throw new Error(`invalid subject key '${key}'`);
    return `${this.namespace}.${service}.v1.${key}`;
  }

  /** Every subject of a service's stream. */
  streamSubjects(service: ServiceName): string {
    return `${this.namespace}.${service}.v1.>`;
  }

  stream(service: ServiceName): string {
    return `${this.namespace}_${service.replace(/-/g, '_')}`.toUpperCase();
  }

  /** The subject key (user id or global key) of a full subject. */
  keyOf(subject: string): string {
    const i = subject.lastIndexOf('.');
    return subject.slice(i + 1);
  }

  /** Stream of dead letters, one subject per consuming service. */
  get dlqStream(): string {
    return `${this.namespace}_DLQ`.toUpperCase();
  }

  dlqSubject(service: ServiceName): string {
    return `${this.namespace}.dlq.${service}`;
  }

  /** Marker on the dead-letter stream: a consumer of this service applied a dead letter after all. */
  redrivenSubject(service: ServiceName): string {
    return `${this.namespace}.dlq.${service}.redriven`;
  }

  /** Request/reply subject a durable consumer answers redrive requests on (queue group: the durable). */
  redrive(durable: string): string {
    return `${this.namespace}.redrive.${durable}`;
  }

  /** Durable consumer name: `<service>-<purpose>`. */
  durable(service: ServiceName, purpose: string): string {
    const name = `${service}-${purpose}`;
    if (!TOKEN.test(name)) throw new Error(`invalid consumer name '${name}'`);
    return name;
  }

  /** Request/reply subject of a query served by a service. */
  query(service: ServiceName, name: string): string {
    return `${this.namespace}.q.${service}.${name}`;
  }

  /** Core-NATS subject for process-wide control messages (dev clock and the like). */
  control(name: string): string {
    return `${this.namespace}.control.${name}`;
  }
}
