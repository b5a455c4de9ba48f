// The one definition of how Hearth runs on Kubernetes: which services, what each may
// reach, how many replicas and how much CPU and memory. `pnpm deploy:synth` turns it into
// deploy/services/*.yaml and deploy/network-policies.yaml (manifests.ts); nobody edits
// those by hand (manifests.unit.test.ts fails when they differ from the synthesis).
import type { ServiceName } from '@hearth/bus';

/** The images of a release: `<registry>/hearth-<service>:<tag>`, built from deploy/Dockerfile `--target <service>`. */
export const RELEASE = { registry: 'registry.example.com', tag: '0.2.0' } as const;

/** Namespaces outside Hearth's that reach its pods (adjust to your cluster). */
export const CLUSTER = {
  /** Where Prometheus runs: it scrapes every pod's /metrics. */
  monitoringNamespace: 'monitoring',
  /** Where the ingress controller of deploy/ingress-example.yaml runs (ingress-nginx). */
  ingressControllerNamespace: 'ingress-nginx',
  /** The managed Postgres (infra/postgres.md): narrow it to your instance's address range. */
  postgresCidr: '0.0.0.0/0',
} as const;

/**
 * What a service's pods may open, besides DNS (every pod). `nats` 4222, `postgres` 5432
 * (managed, outside the cluster), `otel` the collector's OTLP/HTTP 4318, `qdrant` 6333
 * (REST), `https` 443 anywhere: the LLM and embeddings endpoint (LLM_BASE_URL), the
 * identity provider's JWKS.
 */
export type Egress = 'nats' | 'postgres' | 'otel' | 'qdrant' | 'https';

export interface ServiceSpec {
  readonly name: ServiceName;
  /** The HPA never goes below this: two, so that a rollout or a node drain keeps one ready. */
  readonly minReplicas: number;
  readonly maxReplicas: number;
  /** PORT of the process: /healthz, /readyz, /metrics, and ingress's API. */
  readonly httpPort: number;
  /** A ClusterIP Service in front of the pods: only for traffic from outside (Prometheus scrapes pods by annotation). */
  readonly service: { readonly port: number } | null;
  readonly egress: readonly Egress[];
  /**
   * The HPA adds replicas while the per-pod `hearth_consumer_lag` (messages not yet acked by
   * the service's durable consumers) averages above this.
   */
  readonly lagTarget: number;
}

const CORE: readonly Egress[] = ['nats', 'postgres', 'otel'];
/** The services that call the LLM or the embeddings endpoint (each builds a client in its src/index.ts from @hearth/llm). */
const LLM: readonly Egress[] = [...CORE, 'https'];

/** Every service, in the order of SERVICE_NAMES (libs/bus). */
export const SERVICES: readonly ServiceSpec[] = [
  // The HTTP API; https for the identity provider's JWKS (AUTH_JWKS_URL).
  { name: 'ingress', minReplicas: 2, maxReplicas: 6, httpPort: 8080, service: { port: 80 }, egress: [...CORE, 'https'], lagTarget: 200 },
  // A pure routing decision per turn: no LLM.
  { name: 'router', minReplicas: 2, maxReplicas: 4, httpPort: 8080, service: null, egress: CORE, lagTarget: 200 },
  // The chat reply and its gates.
  { name: 'orchestrator', minReplicas: 2, maxReplicas: 8, httpPort: 8080, service: null, egress: LLM, lagTarget: 50 },
  // Extraction (chat) and embeddings; the only service that reaches Qdrant.
  { name: 'memory', minReplicas: 2, maxReplicas: 6, httpPort: 8080, service: null, egress: [...LLM, 'qdrant'], lagTarget: 100 },
  // Atomizes beliefs (chat) and embeds them.
  { name: 'belief-graph', minReplicas: 2, maxReplicas: 6, httpPort: 8080, service: null, egress: LLM, lagTarget: 100 },
  // Classifies contradictions (chat).
  { name: 'uncertainty', minReplicas: 2, maxReplicas: 4, httpPort: 8080, service: null, egress: LLM, lagTarget: 100 },
  // Labels feedback (chat) and embeds it.
  { name: 'trust', minReplicas: 2, maxReplicas: 4, httpPort: 8080, service: null, egress: LLM, lagTarget: 100 },
  // Scheduling and rendering requests: its replicas lease users between them, no LLM.
  { name: 'retention', minReplicas: 2, maxReplicas: 4, httpPort: 8080, service: null, egress: CORE, lagTarget: 200 },
];

/** Requests and limits of one service's container, in millicores and MiB. */
export interface Resources {
  readonly cpuRequestMilli: number;
  readonly cpuLimitMilli: number;
  readonly memoryRequestMi: number;
  readonly memoryLimitMi: number;
  /** What was measured on the service's build output, or null until it is. */
  readonly measured: { readonly rssAtReadyMi: number; readonly peakRssMi: number; readonly cpuUnderLoadMilli: number } | null;
}

// MEASURED with `pnpm bench:services --turns 1600` (each service started from its build
// output with its image's command, one process each, 1,600 turns at concurrency 8 through
// ingress, Postgres, this 2-core machine, 22.3 turns/s): the RSS once /readyz answered,
// the peak RSS over the run, and the CPU the process used under that load (millicores).
// Requests: CPU ≈ what the load used, rounded up; memory ≥ the peak (the RSS grows over
// a run until the heap limit makes the GC work for it). Limits: 1 CPU (a burst may use a
// core) and 2× the memory request; memory's embedded vector index grows with the users'
// memories (QDRANT_URL moves it out).
const measured = (rssAtReadyMi: number, peakRssMi: number, cpuUnderLoadMilli: number) => ({ rssAtReadyMi, peakRssMi, cpuUnderLoadMilli });

export const RESOURCES: Readonly<Record<ServiceName, Resources>> = {
  ingress: { cpuRequestMilli: 250, cpuLimitMilli: 1000, memoryRequestMi: 320, memoryLimitMi: 640, measured: measured(184, 282, 249) },
  router: { cpuRequestMilli: 100, cpuLimitMilli: 1000, memoryRequestMi: 192, memoryLimitMi: 384, measured: measured(144, 152, 74) },
  orchestrator: { cpuRequestMilli: 250, cpuLimitMilli: 1000, memoryRequestMi: 384, memoryLimitMi: 768, measured: measured(184, 329, 241) },
  memory: { cpuRequestMilli: 250, cpuLimitMilli: 1000, memoryRequestMi: 320, memoryLimitMi: 640, measured: measured(184, 253, 209) },
  'belief-graph': { cpuRequestMilli: 200, cpuLimitMilli: 1000, memoryRequestMi: 256, memoryLimitMi: 512, measured: measured(186, 249, 157) },
  uncertainty: { cpuRequestMilli: 150, cpuLimitMilli: 1000, memoryRequestMi: 256, memoryLimitMi: 512, measured: measured(184, 226, 144) },
  trust: { cpuRequestMilli: 100, cpuLimitMilli: 1000, memoryRequestMi: 192, memoryLimitMi: 384, measured: measured(149, 166, 88) },
  retention: { cpuRequestMilli: 150, cpuLimitMilli: 1000, memoryRequestMi: 192, memoryLimitMi: 384, measured: measured(140, 181, 132) },
};

/** The V8 heap a container may grow to: two thirds of its memory limit, the rest for buffers, code and native memory. */
export function heapLimitMi(r: Resources): number {
  return Math.floor((r.memoryLimitMi * 2) / 3);
}

/** HPA target for CPU, in percent of the CPU requested. */
export const CPU_TARGET_UTILIZATION = 70;
