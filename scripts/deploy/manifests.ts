// Builds the Kubernetes objects of services.ts, pure: no file is read or written here
// (synth.ts writes them, render.ts turns them into YAML). The objects are typed by
// kubernetes-models, whose interfaces are generated from Kubernetes' OpenAPI schemas.
import type { ServiceName } from '@hearth/bus';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import type { INetworkPolicy, INetworkPolicyEgressRule, INetworkPolicyPeer, INetworkPolicyPort } from 'kubernetes-models/networking.k8s.io/v1';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import type { IService } from 'kubernetes-models/v1';
import { CLUSTER, CPU_TARGET_UTILIZATION, heapLimitMi, RELEASE, RESOURCES, SERVICES, type Egress, type ServiceSpec } from './services.js';

export type KubeObject = IDeployment | IService | IPodDisruptionBudget | IHorizontalPodAutoscaler | INetworkPolicy;

/** An object and the comments its YAML carries, by dotted path (`spec.template.spec.containers.0.image`). */
export interface Manifest {
  readonly object: KubeObject;
  /** A comment above the whole document. */
  readonly comment?: string;
  readonly notes?: Readonly<Record<string, string>>;
}

/** A file of the synthesis: its path in the repository and its documents (or its text). */
export type SynthFile = { readonly path: string; readonly header: string; readonly manifests: readonly Manifest[] } | { readonly path: string; readonly text: string };

const PART_OF = { 'app.kubernetes.io/part-of': 'hearth' } as const;

function labelsOf(name: string): Record<string, string> {
  return { 'app.kubernetes.io/name': name, ...PART_OF };
}

/** The pods of one service: its name and Hearth's, so that no other app's pod of the same name matches. */
function podsOf(name: ServiceName): { matchLabels: Record<string, string> } {
  return { matchLabels: labelsOf(name) };
}

/** `belief-graph` → `BELIEF_GRAPH`, as in the keys of hearth-nats-users. */
function envName(name: ServiceName): string {
  return name.toUpperCase().replace(/-/g, '_');
}

function imageOf(name: ServiceName): string {
  return `${RELEASE.registry}/hearth-${name}:${RELEASE.tag}`;
}

export function deployment(s: ServiceSpec): Manifest {
  const r = RESOURCES[s.name];
  const object: IDeployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: s.name, labels: labelsOf(s.name) },
    spec: {
      revisionHistoryLimit: 5,
      minReadySeconds: 5,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      selector: podsOf(s.name),
      template: {
        metadata: {
          labels: labelsOf(s.name),
          annotations: { 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(s.httpPort), 'prometheus.io/path': '/metrics' },
        },
        spec: {
          automountServiceAccountToken: false,
          terminationGracePeriodSeconds: 30,
          securityContext: { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000, seccompProfile: { type: 'RuntimeDefault' } },
          affinity: {
            podAntiAffinity: {
              preferredDuringSchedulingIgnoredDuringExecution: [
                { weight: 100, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: { 'app.kubernetes.io/name': s.name } } } },
              ],
            },
          },
          containers: [
            {
              name: s.name,
              image: imageOf(s.name),
              imagePullPolicy: 'IfNotPresent',
              envFrom: [{ configMapRef: { name: 'hearth-config' } }, { secretRef: { name: 'hearth-secrets' } }],
              env: [
                { name: 'NATS_USER', value: s.name },
                { name: 'NATS_PASSWORD', valueFrom: { secretKeyRef: { name: 'hearth-nats-users', key: `NATS_PASSWORD_${envName(s.name)}` } } },
                { name: 'HEARTH_KEK', valueFrom: { secretKeyRef: { name: 'hearth-kek', key: 'HEARTH_KEK', optional: true } } },
                { name: 'HEARTH_KEK_PREVIOUS', valueFrom: { secretKeyRef: { name: 'hearth-kek-previous', key: 'HEARTH_KEK_PREVIOUS', optional: true } } },
                { name: 'PORT', value: String(s.httpPort) },
                { name: 'NODE_OPTIONS', value: `--max-old-space-size=${heapLimitMi(r)}` },
              ],
              ports: [{ name: 'http', containerPort: s.httpPort }],
              startupProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 1, failureThreshold: 30 },
              livenessProbe: { httpGet: { path: '/healthz', port: 'http' }, periodSeconds: 10, timeoutSeconds: 2, failureThreshold: 3 },
              readinessProbe: { httpGet: { path: '/readyz', port: 'http' }, periodSeconds: 5, timeoutSeconds: 3, failureThreshold: 2 },
              lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } },
              resources: {
                requests: { cpu: `${r.cpuRequestMilli}m`, memory: `${r.memoryRequestMi}Mi` },
                limits: { cpu: `${r.cpuLimitMilli}m`, memory: `${r.memoryLimitMi}Mi` },
              },
              securityContext: { allowPrivilegeEscalation: false, readOnlyRootFilesystem: true, capabilities: { drop: ['ALL'] } },
              volumeMounts: [
                { name: 'tmp', mountPath: '/tmp' },
                { name: 'nats-ca', mountPath: '/etc/hearth/nats-ca', readOnly: true },
              ],
            },
          ],
          volumes: [
            { name: 'tmp', emptyDir: { sizeLimit: '256Mi' } },
            { name: 'nats-ca', secret: { secretName: 'nats-server-tls', items: [{ key: 'ca.crt', path: 'ca.crt' }] } },
          ],
        },
      },
    },
  };
  const pod = 'spec.template.spec';
  const c = `${pod}.containers.0`;
  return {
    object,
    comment: `${s.name}: one process per pod, started by its image's own command (node on the compiled JS). The replicas share the service's durable consumers; per-user order holds because a consumer naks an event whose predecessor on the user's subject it has not applied yet (ARCHITECTURE.md).`,
    notes: {
      spec: 'No `replicas`: the HorizontalPodAutoscaler owns the count (an apply would otherwise reset it). A new Deployment starts with one pod until the HPA first raises it to minReplicas.',
      'spec.strategy': 'Old and new replicas coexist during a rollout; never drop below the ready ones.',
      [`${pod}.terminationGracePeriodSeconds`]: "preStop (5 s) + Nest's graceful close: HTTP, then consumers, NATS drain, database.",
      [`${pod}.securityContext.runAsUser`]: "The image's `node` user.",
      [`${c}.env.0`]: 'Its own NATS user (infra/nats.yaml): it may publish its own stream\'s events only.',
      [`${c}.env.2`]:
        'The key-encryption key that wraps every user\'s data key (README.md "Keys and erasure"): one Secret for all services, created once, never regenerated. Optional, because with KMS_PROVIDER=vault there is none; a production process with KMS_PROVIDER=local refuses to start without it.',
      [`${c}.env.3`]: 'Only during a KEK rotation (README.md "Rotating the KEK").',
      [`${c}.env.5`]: 'Keeps the V8 heap inside the memory limit (two thirds of it).',
      [`${c}.startupProbe`]:
        '/healthz answers once the schema is migrated and the consumers started: under 5 s from compiled JS. 30 s leaves room for a slow migration; a release whose migration takes longer raises failureThreshold for that rollout.',
      [`${c}.readinessProbe`]: 'NATS and the database answer and every consumer is bound; 503 while shutting down.',
      [`${c}.lifecycle.preStop`]: 'Keep serving while endpoints and load balancers forget this pod, then SIGTERM.',
      [`${c}.resources`]: 'From RESOURCES in scripts/deploy/services.ts (see its MEASURED note).',
      [`${c}.volumeMounts.0`]: 'The root filesystem is read-only; Node and its libraries may still write temporary files.',
      [`${c}.volumeMounts.1`]: "The CA that signed NATS's certificate (NODE_EXTRA_CA_CERTS in hearth-config).",
      [`${pod}.volumes.1.secret.items`]: "Only the CA certificate: the server's key stays out of this pod.",
    },
  };
}

/** Only for traffic from outside the namespace: ingress's API (API.md). */
export function service(s: ServiceSpec): Manifest | null {
  if (!s.service) return null;
  return {
    object: {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name: s.name, labels: labelsOf(s.name) },
      spec: { type: 'ClusterIP', selector: labelsOf(s.name), ports: [{ name: 'http', port: s.service.port, targetPort: 'http' }] },
    },
    comment: 'Only ingress takes traffic from outside: mobile clients and admin tools (API.md).',
  };
}

export function podDisruptionBudget(s: ServiceSpec): Manifest {
  return {
    object: {
      apiVersion: 'policy/v1',
      kind: 'PodDisruptionBudget',
      metadata: { name: s.name, labels: labelsOf(s.name) },
      spec: { minAvailable: 1, selector: podsOf(s.name) },
    },
    comment: 'A node drain never takes the last ready replica.',
  };
}

export function horizontalPodAutoscaler(s: ServiceSpec): Manifest {
  return {
    object: {
      apiVersion: 'autoscaling/v2',
      kind: 'HorizontalPodAutoscaler',
      metadata: { name: s.name, labels: labelsOf(s.name) },
      spec: {
        scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: s.name },
        minReplicas: s.minReplicas,
        maxReplicas: s.maxReplicas,
        metrics: [
          { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: CPU_TARGET_UTILIZATION } } },
          { type: 'Pods', pods: { metric: { name: 'hearth_consumer_lag' }, target: { type: 'AverageValue', averageValue: String(s.lagTarget) } } },
        ],
        behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
      },
    },
    notes: {
      'spec.metrics.1':
        "hearth_consumer_lag comes through prometheus-adapter (README.md \"Resources and scaling\"): the custom metrics API serves each pod's largest consumer lag. Every replica reports its service's durable consumers, which the replicas share, so the average is the service's backlog: replicas are added while it stays above the target.",
      'spec.behavior.scaleDown': 'One pod a minute at most: each pod that goes hands its unacked messages to the others.',
    },
  };
}

const DNS_RULE: INetworkPolicyEgressRule = {
  to: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } }, podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } } }],
  ports: [
    { protocol: 'UDP', port: 53 },
    { protocol: 'TCP', port: 53 },
  ],
};

const tcp = (port: number): INetworkPolicyPort => ({ protocol: 'TCP', port });
const podsNamed = (name: string): INetworkPolicyPeer => ({ podSelector: { matchLabels: { 'app.kubernetes.io/name': name } } });
const namespaceNamed = (name: string): INetworkPolicyPeer => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } });
const ANYWHERE: INetworkPolicyPeer = { ipBlock: { cidr: '0.0.0.0/0' } };

/** Where each kind of egress goes: in-namespace pods by name, or addresses outside the cluster. */
const EGRESS: Readonly<Record<Egress, INetworkPolicyEgressRule>> = {
  nats: { to: [podsNamed('nats')], ports: [tcp(4222)] },
  otel: { to: [podsNamed('otel-collector')], ports: [tcp(4318)] },
    postgres: { to: [{ ipBlock: { cidr: CLUSTER.postgresCidr } }, podsNamed('postgres')], ports: [tcp(5432)] },
  qdrant: { to: [podsNamed('qdrant')], ports: [tcp(6333)] },
  https: { to: [ANYWHERE], ports: [tcp(443)] },
};

export function networkPolicy(s: ServiceSpec): Manifest {
  const scrape = { from: [namespaceNamed(CLUSTER.monitoringNamespace)], ports: [tcp(s.httpPort)] };
  const api = { from: [namespaceNamed(CLUSTER.ingressControllerNamespace)], ports: [tcp(s.httpPort)] };
  const notes: Record<string, string> = {
    'spec.ingress.0': `Prometheus scrapes /metrics from the ${CLUSTER.monitoringNamespace} namespace.`,
    'spec.egress.0': 'The cluster DNS (a node-local DNS cache needs its address added).',
  };
  if (s.service) notes['spec.ingress.1'] = `The HTTP API, through the ingress controller in ${CLUSTER.ingressControllerNamespace}.`;
  s.egress.forEach((e, i) => {
    const why: Record<Egress, string> = {
      nats: 'NATS clients (TLS).',
      otel: 'Traces to the OTel collector.',
      postgres: 'Postgres, managed outside the cluster (CLUSTER.postgresCidr) or in this namespace.',
      qdrant: "Qdrant's REST API.",
      https:
        s.name === 'ingress'
          ? "The identity provider's JWKS (AUTH_JWKS_URL)."
          : 'The LLM and embeddings endpoint (LLM_BASE_URL); an LLM inside the cluster on another port needs its own rule.',
    };
    notes[`spec.egress.${i + 1}`] = why[e];
  });
  return {
    object: {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'NetworkPolicy',
      metadata: { name: s.name, labels: labelsOf(s.name) },
      spec: {
        podSelector: podsOf(s.name),
        policyTypes: ['Ingress', 'Egress'],
        ingress: s.service ? [scrape, api] : [scrape],
        egress: [DNS_RULE, ...s.egress.map((e) => EGRESS[e])],
      },
    },
    comment: `What ${s.name}'s pods may reach and be reached from; everything else is denied (default-deny in network-policies.yaml). Kubelet probes are not NetworkPolicy traffic on the common CNIs (Calico, Cilium); check yours.`,
    notes,
  };
}

/** The pods of the services that have an egress of this kind: the other end admits exactly them. */
function servicesWith(e: Egress): INetworkPolicyPeer {
  return {
    podSelector: {
      matchLabels: PART_OF,
      matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: SERVICES.filter((s) => s.egress.includes(e)).map((s) => s.name) }],
    },
  };
}

/** The namespace-wide policies and the infrastructure's side of each service's egress. */
export function sharedNetworkPolicies(): Manifest[] {
  const policy = (name: string, spec: INetworkPolicy['spec'], comment?: string): Manifest => ({
    object: { apiVersion: 'networking.k8s.io/v1', kind: 'NetworkPolicy', metadata: { name }, spec },
    ...(comment ? { comment } : {}),
  });
  return [
    policy('default-deny', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] }, 'Everything in and out of every pod of the namespace is denied unless a policy allows it.'),
    policy('dns', { podSelector: {}, policyTypes: ['Egress'], egress: [DNS_RULE] }, "Every pod resolves names (the services' own policies say so too)."),
    policy(
      'nats',
      {
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'nats' } },
        policyTypes: ['Ingress', 'Egress'],
        ingress: [
          { from: [servicesWith('nats'), { podSelector: { matchLabels: { 'hearth.dev/nats-admin': 'true' } } }], ports: [tcp(4222)] },
          { from: [podsNamed('nats')], ports: [tcp(6222)] },
          { from: [namespaceNamed(CLUSTER.monitoringNamespace)], ports: [tcp(8222)] },
        ],
        egress: [{ to: [podsNamed('nats')], ports: [tcp(6222)] }],
      },
      "NATS: clients only from the Hearth services and from operators' admin pods (labelled hearth.dev/nats-admin=true, README.md \"NATS streams\"); routes only between the NATS pods; the monitoring endpoint (varz, jsz) for a Prometheus NATS exporter. So no other pod can append events.",
    ),
    policy(
      'nats-admin',
      { podSelector: { matchLabels: { 'hearth.dev/nats-admin': 'true' } }, policyTypes: ['Egress'], egress: [{ to: [podsNamed('nats')], ports: [tcp(4222)] }] },
      "Operators' admin pods (nats-box) reach NATS and nothing else.",
    ),
    policy(
      'qdrant',
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'qdrant' } }, policyTypes: ['Ingress'], ingress: [{ from: [servicesWith('qdrant')], ports: [tcp(6333)] }] },
      "Qdrant holds the memory service's vectors: only memory reaches it.",
    ),
    policy(
      'otel-collector',
      {
        podSelector: { matchLabels: { 'app.kubernetes.io/name': 'otel-collector' } },
        policyTypes: ['Ingress'],
        ingress: [
          { from: [servicesWith('otel')], ports: [tcp(4318)] },
          { from: [namespaceNamed(CLUSTER.monitoringNamespace)], ports: [tcp(8889)] },
        ],
      },
      "The collector: OTLP from the services, its Prometheus port from the monitoring namespace.",
    ),
    policy(
      'postgres',
      { podSelector: { matchLabels: { 'app.kubernetes.io/name': 'postgres' } }, policyTypes: ['Ingress'], ingress: [{ from: [servicesWith('postgres')], ports: [tcp(5432)] }] },
      'For a Postgres run inside this namespace (pods labelled app.kubernetes.io/name=postgres, e.g. by CloudNativePG): only the Hearth services reach it. Harmless when Postgres is managed outside the cluster.',
    ),
  ];
}

const GENERATED = 'Generated by `pnpm deploy:synth` from scripts/deploy/services.ts: do not edit; change the definition and synthesize again.';

/** Every file the synthesis writes. */
export function synthesize(): SynthFile[] {
  const perService = SERVICES.map(
    (s): SynthFile => ({
      path: `deploy/services/${s.name}.yaml`,
      header: `${GENERATED}\n${s.name}: Deployment, ${s.service ? 'Service, ' : ''}PodDisruptionBudget, HorizontalPodAutoscaler, NetworkPolicy.`,
      manifests: [deployment(s), service(s), podDisruptionBudget(s), horizontalPodAutoscaler(s), networkPolicy(s)].filter((m): m is Manifest => m !== null),
    }),
  );
  const kustomization = [
    `# ${GENERATED}`,
    'apiVersion: kustomize.config.k8s.io/v1beta1',
    'kind: Kustomization',
    'resources:',
    ...SERVICES.map((s) => `  - ${s.name}.yaml`),
    '',
  ].join('\n');
  return [
    ...perService,
    { path: 'deploy/services/kustomization.yaml', text: kustomization },
    {
      path: 'deploy/network-policies.yaml',
      header: `${GENERATED}\nThe namespace-wide NetworkPolicies and the infrastructure's side of the services' egress (each service's own policy is in services/<name>.yaml). NATS, Postgres, Qdrant and the collector admit exactly the services whose definition reaches them. Needs a CNI that enforces NetworkPolicy.`,
      manifests: sharedNetworkPolicies(),
    },
  ];
}
