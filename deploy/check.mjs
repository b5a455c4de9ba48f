#!/usr/bin/env node
// Checks deploy/ without a cluster: every YAML file parses, every kustomization lists
// files that exist, and the manifests keep what deploy/README.md promises (eight
// services, each with its own image, probes, draining, non-root, read-only root, a PDB,
// an HPA and its NetworkPolicy; a NATS user per service that may publish only its own
// stream, TLS, NetworkPolicies, an image that defaults to production; event encryption
// on, the KEK from its Secret, the data-key bucket open to every service and secure
// erase to ingress alone).
//   node deploy/check.mjs
// The unit test scripts/deploy/manifests.unit.test.ts runs it (so CI does), besides
// validating every object against the Kubernetes schemas; services/*.yaml and
// network-policies.yaml are synthesized by `pnpm deploy:synth` (scripts/deploy/).
// check-nats.mjs runs the same NATS permissions on a real server.
// Uses the `yaml` package: a direct dependency if there is one, else the copy pnpm
// installs for the toolchain (node_modules/.pnpm/yaml@2.*).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const deployDir = dirname(fileURLToPath(import.meta.url));
const repo = join(deployDir, '..');
const problems = [];
const fail = (where, what) => problems.push(`${where}: ${what}`);

function loadYaml() {
  const require = createRequire(import.meta.url);
  try {
    return require('yaml');
  } catch {
    const store = join(repo, 'node_modules', '.pnpm');
    const dir = existsSync(store) ? readdirSync(store).filter((d) => /^yaml@2\./.test(d)).sort().pop() : undefined;
    if (!dir) {
      console.error('deploy/check: the yaml package is not installed (run pnpm install)');
      process.exit(2);
    }
    return require(join(store, dir, 'node_modules', 'yaml'));
  }
}
const YAML = loadYaml();

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every document of every YAML file, by file (relative to deploy/). */
const files = new Map();
for (const path of walk(deployDir).filter((p) => /\.ya?ml$/.test(p))) {
  const rel = relative(deployDir, path);
  const docs = [];
  for (const doc of YAML.parseAllDocuments(readFileSync(path, 'utf8'))) {
    for (const e of [...doc.errors, ...doc.warnings]) fail(rel, e.message);
    const value = doc.toJS();
    if (value === null || value === undefined) continue;
    if (typeof value.kind !== 'string' || typeof value.apiVersion !== 'string') fail(rel, 'a document without kind/apiVersion');
    else if (value.kind !== 'Kustomization' && !value.metadata?.name) fail(rel, `${value.kind} without metadata.name`);
    docs.push(value);
  }
  files.set(rel, docs);
}
const all = [...files.entries()].flatMap(([file, docs]) => docs.map((doc) => ({ file, doc })));
const find = (kind, name) => all.find((d) => d.doc.kind === kind && d.doc.metadata?.name === name)?.doc;

// Kustomizations reference files (or folders with a kustomization) that exist.
for (const [file, docs] of files) {
  for (const k of docs.filter((d) => d.kind === 'Kustomization')) {
    for (const r of k.resources ?? []) {
      const path = join(deployDir, dirname(file), r);
      const ok = existsSync(path) && (statSync(path).isFile() || existsSync(join(path, 'kustomization.yaml')));
      if (!ok) fail(file, `resource ${r} does not exist`);
    }
  }
}
// monitoring/ is applied on its own (it needs the Prometheus Operator's CRDs).
const applied = new Set(['kustomization.yaml', 'infra/kustomization.yaml', 'services/kustomization.yaml', 'monitoring/kustomization.yaml']);
for (const file of files.keys()) {
  const listed = [...applied].some((k) =>
    (files.get(k)?.[0]?.resources ?? []).some((r) => join(dirname(k), r) === file),
  );
  if (!listed && !applied.has(file) && !file.endsWith('.example.yaml')) fail(file, 'not listed in any kustomization');
}

// The services of libs/bus are exactly the ones deployed.
const topology = readFileSync(join(repo, 'libs/bus/src/topology.ts'), 'utf8');
const SERVICES = [...(/SERVICE_NAMES = \[([^\]]*)\]/.exec(topology)?.[1] ?? '').matchAll(/'([a-z-]+)'/g)].map((m) => m[1]);
if (SERVICES.length !== 8) fail('libs/bus/src/topology.ts', `expected 8 SERVICE_NAMES, found ${SERVICES.length}`);

const get = (obj, path) => path.split('.').reduce((o, k) => (o === undefined || o === null ? undefined : o[k]), obj);
function expectAt(where, obj, path, expected) {
  const actual = get(obj, path);
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    fail(where, `${path} is ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
  }
}

/** `belief-graph` → `BELIEF_GRAPH`, as in environment variable names. */
const upper = (svc) => svc.toUpperCase().replace(/-/g, '_');

for (const svc of SERVICES) {
  const file = `services/${svc}.yaml`;
  const docs = files.get(file);
  if (!docs) {
    fail(file, 'missing');
    continue;
  }
  if (!existsSync(join(repo, 'services', svc, 'src', 'main.ts'))) fail(file, `services/${svc}/src/main.ts does not exist`);
  const named = (kind) => docs.find((d) => d.kind === kind && d.metadata.name === svc);
  const dep = named('Deployment');
  const pdb = named('PodDisruptionBudget');
  const hpa = named('HorizontalPodAutoscaler');
  const netpol = named('NetworkPolicy');
  if (!dep || !pdb || !hpa || !netpol) {
    fail(file, 'needs a Deployment, a PodDisruptionBudget, a HorizontalPodAutoscaler and a NetworkPolicy named after the service');
    continue;
  }
  const pod = dep.spec.template.spec;
  const c = pod.containers[0];
  const at = `${file} Deployment`;
  // The HPA owns the replica count (at least two); the image's own command starts the service.
  expectAt(at, dep, 'spec.replicas', undefined);
  if (!(hpa.spec.minReplicas >= 2)) fail(`${file} HorizontalPodAutoscaler`, 'minReplicas below 2');
  expectAt(`${file} HorizontalPodAutoscaler`, hpa, 'spec.scaleTargetRef', { apiVersion: 'apps/v1', kind: 'Deployment', name: svc });
  expectAt(`${file} HorizontalPodAutoscaler`, hpa, 'spec.metrics.1.pods.metric.name', 'hearth_consumer_lag');
  expectAt(at, c, 'command', undefined);
  if (!new RegExp(`/hearth-${svc}:[\\w.-]+$`).test(c.image ?? '')) fail(at, `image ${c.image} is not <registry>/hearth-${svc}:<tag>`);
  expectAt(at, c, 'envFrom', [{ configMapRef: { name: 'hearth-config' } }, { secretRef: { name: 'hearth-secrets' } }]);
  expectAt(at, c, 'ports', [{ name: 'http', containerPort: 8080 }]);
  expectAt(at, c, 'livenessProbe.httpGet.path', '/healthz');
  expectAt(at, c, 'readinessProbe.httpGet.path', '/readyz');
  expectAt(at, c, 'lifecycle.preStop.exec.command.0', 'sleep');
  expectAt(at, pod, 'terminationGracePeriodSeconds', 30);
  expectAt(at, dep, 'spec.template.metadata.annotations', {
    'prometheus.io/scrape': 'true',
    'prometheus.io/port': '8080',
    'prometheus.io/path': '/metrics',
  });
  for (const r of ['requests.cpu', 'requests.memory', 'limits.memory']) {
    if (get(c.resources, r) === undefined) fail(at, `resources.${r} missing`);
  }
  expectAt(at, c, 'volumeMounts', [
    { name: 'tmp', mountPath: '/tmp' },
    { name: 'nats-ca', mountPath: '/etc/hearth/nats-ca', readOnly: true },
  ]);
  expectAt(at, pod.volumes.find((v) => v.name === 'nats-ca'), 'secret', { secretName: 'nats-server-tls', items: [{ key: 'ca.crt', path: 'ca.crt' }] });
  // Its own NATS user, whose password only it reads; the one KEK of all services (and the
  // previous one, present only during a rotation).
  expectAt(at, c, 'env.4', { name: 'PORT', value: String(c.ports?.[0]?.containerPort) });
  // The V8 heap stays inside the container's memory limit.
  const heap = Number(/^--max-old-space-size=(\d+)$/.exec(c.env.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '')?.[1]);
  const limitMi = Number(/^(\d+)Mi$/.exec(c.resources?.limits?.memory ?? '')?.[1]);
  if (!(heap > 0 && heap < limitMi)) fail(at, `NODE_OPTIONS --max-old-space-size=${heap} is not inside the memory limit ${c.resources?.limits?.memory}`);
  expectAt(at, { env: c.env.slice(0, 4) }, 'env', [
    { name: 'NATS_USER', value: svc },
    { name: 'NATS_PASSWORD', valueFrom: { secretKeyRef: { name: 'hearth-nats-users', key: `NATS_PASSWORD_${upper(svc)}` } } },
    { name: 'HEARTH_KEK', valueFrom: { secretKeyRef: { name: 'hearth-kek', key: 'HEARTH_KEK', optional: true } } },
    { name: 'HEARTH_KEK_PREVIOUS', valueFrom: { secretKeyRef: { name: 'hearth-kek-previous', key: 'HEARTH_KEK_PREVIOUS', optional: true } } },
  ]);
  expectAt(at, pdb, 'spec.selector', dep.spec.selector);
  expectAt(at, pdb, 'spec.minAvailable', 1);
  expectAt(`${file} NetworkPolicy`, netpol, 'spec.podSelector', dep.spec.selector);
  expectAt(`${file} NetworkPolicy`, netpol, 'spec.policyTypes', ['Ingress', 'Egress']);
  const services = docs.filter((d) => d.kind === 'Service');
  if (svc === 'ingress') {
    expectAt(file, services[0], 'spec.ports', [{ name: 'http', port: 80, targetPort: 'http' }]);
    expectAt(file, services[0], 'spec.selector', dep.spec.selector.matchLabels);
  } else if (services.length > 0) fail(file, 'only ingress has a Service');
}

// Every pod runs non-root with a read-only root filesystem (namespace: PSS restricted).
for (const { file, doc } of all) {
  const pod = doc.spec?.template?.spec;
  if (!pod) continue;
  const at = `${file} ${doc.kind}/${doc.metadata.name}`;
  expectAt(at, pod, 'securityContext.runAsNonRoot', true);
  expectAt(at, pod, 'securityContext.seccompProfile.type', 'RuntimeDefault');
  for (const c of pod.containers) {
    expectAt(`${at} ${c.name}`, c, 'securityContext.allowPrivilegeEscalation', false);
    expectAt(`${at} ${c.name}`, c, 'securityContext.readOnlyRootFilesystem', true);
    expectAt(`${at} ${c.name}`, c, 'securityContext.capabilities.drop', ['ALL']);
    if (!c.resources?.requests || !c.resources?.limits) fail(`${at} ${c.name}`, 'needs resource requests and limits');
  }
}

// Shared configuration.
const config = find('ConfigMap', 'hearth-config');
for (const [key, value] of Object.entries({
  HEARTH_ENV: 'production',
  HEARTH_NAMESPACE: 'hearth',
  HOST: '0.0.0.0',
})) {
  expectAt('config.yaml', config, `data.${key}`, value);
}
for (const key of ['NATS_URL', 'AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT']) {
  if (!config?.data?.[key]) fail('config.yaml', `${key} missing`);
}
if (!/^tls:\/\//.test(config?.data?.NATS_URL ?? '')) fail('config.yaml', 'NATS_URL is not tls://');
expectAt('config.yaml', config, 'data.NATS_STREAM_REPLICAS', '3');
expectAt('config.yaml', config, 'data.NODE_EXTRA_CA_CERTS', '/etc/hearth/nats-ca/ca.crt');

// Event encryption (crypto-shredding): on, with a KEK from a Secret or a Vault, never from the
// ConfigMap. The variables are the ones libs/host reads.
const hostConfig = readFileSync(join(repo, 'libs/host/src/config.ts'), 'utf8');
for (const key of ['EVENT_ENCRYPTION', 'KMS_PROVIDER', 'DATA_KEY_CACHE_MS', 'HEARTH_KEK', 'VAULT_ADDR', 'VAULT_TOKEN']) {
  if (!new RegExp(`^\\s*${key}: `, 'm').test(hostConfig)) fail('libs/host/src/config.ts', `no longer reads ${key}: update deploy/`);
}
expectAt('config.yaml', config, 'data.EVENT_ENCRYPTION', 'on');
const kms = config?.data?.KMS_PROVIDER;
if (!['local', 'vault'].includes(kms)) fail('config.yaml', `KMS_PROVIDER is ${JSON.stringify(kms)}, expected local or vault`);
if (kms === 'vault' && !/^https:\/\//.test(config?.data?.VAULT_ADDR ?? '')) fail('config.yaml', 'KMS_PROVIDER=vault needs VAULT_ADDR (https://)');
if (!/^\d+$/.test(config?.data?.DATA_KEY_CACHE_MS ?? '')) fail('config.yaml', 'DATA_KEY_CACHE_MS missing or not a number of ms');
for (const key of ['HEARTH_KEK', 'VAULT_TOKEN']) {
  for (const { file, doc } of all.filter((d) => d.doc.kind === 'ConfigMap')) {
    if (doc.data && key in doc.data) fail(file, `${key} is a secret: not in a ConfigMap`);
  }
}
const kekSecret = find('Secret', 'hearth-kek');
if (!kekSecret?.stringData || !('HEARTH_KEK' in kekSecret.stringData)) fail('secret.example.yaml', 'the hearth-kek Secret (HEARTH_KEK) is not documented');
expectAt('secret.example.yaml hearth-kek', kekSecret, 'immutable', true);
if (!/openssl rand -base64 32/.test(readFileSync(join(deployDir, 'secret.example.yaml'), 'utf8'))) fail('secret.example.yaml', 'does not say how to make a KEK (openssl rand -base64 32)');

// Kubernetes reads manifests as YAML 1.1, where a bare on/off/yes/no is a boolean: every
// ConfigMap value must still be a string there (EVENT_ENCRYPTION: "on").
for (const [file] of files) {
  for (const doc of YAML.parseAllDocuments(readFileSync(join(deployDir, file), 'utf8'), { version: '1.1' })) {
    const value = doc.toJS();
    if (value?.kind !== 'ConfigMap') continue;
    for (const [k, v] of Object.entries(value.data ?? {})) {
      if (typeof v !== 'string') fail(file, `${value.metadata?.name} ${k} reads as ${typeof v} ${JSON.stringify(v)} in YAML 1.1: quote it`);
    }
  }
}

// The image defaults to production: run without the ConfigMap, it still serves no dev routes.
const dockerfile = readFileSync(join(deployDir, 'Dockerfile'), 'utf8');
if (!/^ENV\s+(?:[^\n]*\\\n)*[^\n]*\bHEARTH_ENV=production\b/m.test(dockerfile)) fail('Dockerfile', 'does not set ENV HEARTH_ENV=production');
if (!find('Secret', 'hearth-secrets')?.stringData?.DATABASE_URL) fail('secret.example.yaml', 'DATABASE_URL missing');

// NATS: three JetStream nodes on 2.12 with file storage and a stated fsync choice.
const nats = find('StatefulSet', 'nats');
expectAt('infra/nats.yaml', nats, 'spec.replicas', 3);
if (!/^nats:2\.12[.-]/.test(nats?.spec.template.spec.containers[0].image ?? '')) fail('infra/nats.yaml', 'image is not nats:2.12');
if (!nats?.spec.volumeClaimTemplates?.length) fail('infra/nats.yaml', 'no PVC for the file store');
if (!/^\s*sync_interval:/m.test(find('ConfigMap', 'nats-config')?.data?.['nats.conf'] ?? '')) {
  fail('infra/nats.yaml', 'nats.conf does not state sync_interval');
}

// NATS security: a user per service in one JetStream account, each publishing only its own
// stream and dead letters (plus the shared request/reply and JetStream API subjects), nothing
// deleted or purged but by admin, passwords from hearth-nats-users, TLS for clients and routes.
const natsConf = find('ConfigMap', 'nats-config')?.data?.['nats.conf'] ?? '';
const natsPod = nats?.spec.template.spec;
expectAt('infra/nats.yaml', natsPod?.containers[0], 'envFrom', [{ secretRef: { name: 'hearth-nats-users' } }]);
expectAt('infra/nats.yaml', natsPod?.volumes?.find((v) => v.name === 'tls'), 'secret', { secretName: 'nats-server-tls' });
if (!/^tls \{[^}]*cert_file: \/etc\/nats-tls\/tls\.crt/m.test(natsConf)) fail('infra/nats.yaml', 'nats.conf has no top-level tls block (clients must use TLS)');
if (!/cluster \{[\s\S]*no_advertise: true[\s\S]*tls \{[^}]*verify: true/.test(natsConf)) fail('infra/nats.yaml', 'nats.conf cluster needs no_advertise and verified route TLS');
if (/no_auth_user|allow_non_tls/.test(natsConf)) fail('infra/nats.yaml', 'nats.conf lets clients in without a user or TLS');
const quoted = (list) => [...list.matchAll(/"([^"]+)"/g)].map((m) => m[1]);
/** The subject lists nats.conf names (NEVER = [...]). */
const lists = new Map([...natsConf.matchAll(/^([A-Z_]+) = \[([^\]]*)\]$/gm)].map((m) => [m[1], quoted(m[2])]));
for (const subject of ['$JS.API.STREAM.DELETE.>', '$JS.API.STREAM.PURGE.>', '$JS.API.STREAM.MSG.DELETE.>']) {
  if (!lists.get('NEVER')?.includes(subject)) fail('infra/nats.yaml', `NEVER does not deny ${subject}`);
}
// Names as HEARTH_NAMESPACE=hearth makes them (libs/bus topology.ts and keys/keyring.ts).
const NS = config?.data?.HEARTH_NAMESPACE ?? 'hearth';
const KEY_BUCKET = `${NS}_datakeys`;
if (!/return `\$\{namespace\}_datakeys`/.test(readFileSync(join(repo, 'libs/bus/src/keys/keyring.ts'), 'utf8'))) {
  fail('libs/bus/src/keys/keyring.ts', 'the data-key bucket is no longer <namespace>_datakeys: update infra/nats.yaml');
}
const KEY_STREAM = `KV_${KEY_BUCKET}`;
const DLQ = `${NS}_DLQ`.toUpperCase();
const streamOf = (svc) => `${NS}_${svc.replace(/-/g, '_')}`.toUpperCase();
// The data-key bucket: keys created by whichever service first appends about a user, and a
// watch (ordered push consumer) whose flow-control replies go to $JS.FC.
const SHARED = ['hearth.q.>', '$JS.API.>', '$JS.ACK.>', '_INBOX.>', `$KV.${KEY_BUCKET}.>`, `$JS.FC.${KEY_STREAM}.>`];
// Ingress: redrive, chat wake-ups, rate limits; its JetStream API verb by verb, so that it may
// delete messages (secure erase) of the key bucket and the dead letters and of nothing else.
const INGRESS_ONLY = [
  'hearth.redrive.>', 'hearth.control.ingress-turns-applied', '$KV.>',
  '$JS.API.INFO', '$JS.API.STREAM.CREATE.>', '$JS.API.STREAM.UPDATE.>', '$JS.API.STREAM.INFO.>', '$JS.API.STREAM.NAMES', '$JS.API.STREAM.LIST',
  '$JS.API.STREAM.MSG.GET.>', '$JS.API.DIRECT.GET.>', '$JS.API.CONSUMER.>', `$JS.API.STREAM.MSG.DELETE.${KEY_STREAM}`, `$JS.API.STREAM.MSG.DELETE.${DLQ}`,
];

/** NATS subject matching: `*` one token, `>` one or more at the end. */
function matches(pattern, subject) {
  const p = pattern.split('.');
  const s = subject.split('.');
  for (let i = 0; i < p.length; i++) {
    if (p[i] === '>') return s.length > i;
    if (i >= s.length || (p[i] !== '*' && p[i] !== s[i])) return false;
  }
  return p.length === s.length;
}
/** What each user may publish, as nats-server decides: allowed by a pattern and denied by none. */
const publishPerms = new Map();
const userLines = [...natsConf.matchAll(/\{ user: ([a-z-]+),/g)].map((m) => m[1]);
if (JSON.stringify(userLines.sort()) !== JSON.stringify([...SERVICES, 'admin'].sort())) fail('infra/nats.yaml', `NATS users are ${userLines.join(', ')}; expected one per service and admin`);
for (const svc of SERVICES) {
  const at = `infra/nats.yaml user ${svc}`;
  if (!natsConf.includes(`{ user: ${svc}, password: $NATS_PASSWORD_${upper(svc)}, permissions: $PERMS_${upper(svc)} }`)) fail(at, 'missing, or not with its own password and permissions');
  const perms = new RegExp(`^\\s*PERMS_${upper(svc)} = \\{ publish: \\{ allow: \\[([^\\]]*)\\], deny: \\$([A-Z_]+) \\} \\}$`, 'm').exec(natsConf);
  if (!perms || !lists.has(perms[2])) {
    fail(at, `no PERMS_${upper(svc)} = { publish: { allow: [...], deny: $<a list defined above> } }`);
    continue;
  }
  const allow = quoted(perms[1]);
  const deny = lists.get(perms[2]);
  publishPerms.set(svc, (subject) => allow.some((p) => matches(p, subject)) && !deny.some((p) => matches(p, subject)));
  const own = [`hearth.${svc}.v1.>`, `hearth.dlq.${svc}`, `hearth.dlq.${svc}.redriven`];
  for (const subject of own) if (!allow.includes(subject)) fail(at, `may not publish ${subject}`);
  const allowed = new Set([...own, ...SHARED, ...(svc === 'ingress' ? INGRESS_ONLY : [])]);
  for (const subject of allow) if (!allowed.has(subject)) fail(at, `may publish ${subject}, beyond its own stream and the shared subjects`);
}
// What the code publishes (libs/bus: keyring.ts, dead-letters.ts, consumer.ts; libs/store
// erasure.ts) and who may, subject by subject. The durables: every service's
// `<svc>-erase-user-ingress-_erasures` on ingress's stream, ingress's
// `ingress-erasures-<svc>-_erasures` on every service's.
const everyone = SERVICES;
const may = [];
const slot = 'dXNlcg'; // a user id's KV key (base64url)
for (const s of [...SERVICES, 'trust']) {
  const durable = `${s}-erase-user-ingress-_erasures`;
  const ingressDurable = `ingress-erasures-${s}-_erasures`;
  may.push(
    [`${NS}.${s}.v1._erasures`, [s]],
    [`$JS.API.CONSUMER.CREATE.${streamOf('ingress')}.${durable}.${NS}.ingress.v1._erasures`, everyone],
    [`$JS.API.CONSUMER.DURABLE.CREATE.${streamOf('ingress')}.${durable}`, everyone],
    [`$JS.API.CONSUMER.INFO.${streamOf('ingress')}.${durable}`, everyone],
    [`$JS.API.CONSUMER.MSG.NEXT.${streamOf('ingress')}.${durable}`, everyone],
    [`$JS.ACK.${streamOf('ingress')}.${durable}.1.7.7.1764000000000000000.0`, everyone],
    [`$JS.API.CONSUMER.CREATE.${streamOf(s)}.${ingressDurable}.${NS}.${s}.v1._erasures`, everyone],
    [`$JS.API.CONSUMER.MSG.NEXT.${streamOf(s)}.${ingressDurable}`, everyone],
    [`$JS.API.STREAM.UPDATE.${streamOf(s)}`, everyone],
    [`$JS.API.STREAM.MSG.DELETE.${streamOf(s)}`, []],
    [`$JS.API.STREAM.DELETE.${streamOf(s)}`, []],
    [`$JS.API.STREAM.PURGE.${streamOf(s)}`, []],
  );
}
may.push(
  ['$JS.API.INFO', everyone],
  ['$JS.API.STREAM.NAMES', everyone],
  [`$JS.API.STREAM.INFO.${KEY_STREAM}`, everyone],
  [`$JS.API.STREAM.CREATE.${KEY_STREAM}`, everyone],
  [`$JS.API.CONSUMER.CREATE.${KEY_STREAM}.KV_WATCHER_x.$KV.${KEY_BUCKET}.>`, everyone],
  [`$JS.API.CONSUMER.INFO.${KEY_STREAM}.KV_WATCHER_x`, everyone],
  [`$JS.API.CONSUMER.DELETE.${KEY_STREAM}.KV_WATCHER_x`, everyone],
  [`$JS.FC.${KEY_STREAM}.oc_x_1.abcd`, everyone],
  [`$JS.API.DIRECT.GET.${KEY_STREAM}.$KV.${KEY_BUCKET}.${slot}`, everyone],
  [`$JS.API.STREAM.MSG.GET.${KEY_STREAM}`, everyone],
  [`$KV.${KEY_BUCKET}.${slot}`, everyone],
  [`$JS.API.STREAM.INFO.${DLQ}`, everyone],
  [`$JS.API.CONSUMER.CREATE.${DLQ}.oc_x`, everyone],
  [`${NS}.dlq.memory`, ['memory']],
  // Secure erase: ingress only, and only there.
  [`$JS.API.STREAM.MSG.DELETE.${KEY_STREAM}`, ['ingress']],
  [`$JS.API.STREAM.MSG.DELETE.${DLQ}`, ['ingress']],
  [`$JS.API.STREAM.MSG.DELETE.KV_${NS}_ratelimits`, []],
  [`$JS.API.STREAM.PURGE.${KEY_STREAM}`, []],
  [`$JS.API.STREAM.DELETE.${KEY_STREAM}`, []],
  [`$JS.API.STREAM.PURGE.${DLQ}`, []],
  [`$JS.API.STREAM.DELETE.${DLQ}`, []],
  [`$JS.FC.${streamOf('memory')}.x.y`, []],
);
if (publishPerms.size === SERVICES.length) {
  for (const [subject, who] of may) {
    for (const svc of SERVICES) {
      const can = publishPerms.get(svc)(subject);
      if (can && !who.includes(svc)) fail(`infra/nats.yaml user ${svc}`, `may publish ${subject}`);
      if (!can && who.includes(svc)) fail(`infra/nats.yaml user ${svc}`, `may not publish ${subject}`);
    }
  }
}
const natsUsers = find('Secret', 'hearth-nats-users')?.stringData ?? {};
for (const name of [...natsConf.matchAll(/\$(NATS_PASSWORD_[A-Z_]+)/g)].map((m) => m[1])) {
  if (!(name in natsUsers)) fail('nats-users.example.yaml', `${name} (used by nats.conf) missing`);
}
const natsCert = find('Certificate', 'nats-server');
expectAt('infra/nats-tls.yaml', natsCert, 'spec.secretName', 'nats-server-tls');
for (const name of ['nats', 'nats.hearth.svc', '*.nats-headless']) {
  if (!natsCert?.spec.dnsNames?.includes(name)) fail('infra/nats-tls.yaml', `the certificate does not name ${name}`);
}

// NetworkPolicies: deny by default; NATS (and an in-namespace Postgres) only from the services;
// the API only through the ingress controller, /metrics only from the monitoring namespace.
const policies = all.filter((d) => d.doc.kind === 'NetworkPolicy').map((d) => d.doc);
const policy = (name) => policies.find((p) => p.metadata.name === name);
expectAt('network-policies.yaml default-deny', policy('default-deny'), 'spec', { podSelector: {}, policyTypes: ['Ingress', 'Egress'] });
const servicePods = { matchLabels: { 'app.kubernetes.io/part-of': 'hearth' }, matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'In', values: SERVICES }] };
expectAt('network-policies.yaml nats', policy('nats'), 'spec.ingress.0', {
  from: [{ podSelector: servicePods }, { podSelector: { matchLabels: { 'hearth.dev/nats-admin': 'true' } } }],
  ports: [{ protocol: 'TCP', port: 4222 }],
});
expectAt('network-policies.yaml postgres', policy('postgres'), 'spec.ingress', [{ from: [{ podSelector: servicePods }], ports: [{ protocol: 'TCP', port: 5432 }] }]);
const namespaceOnly = (rule) => rule.from.every((peer) => peer.namespaceSelector && !peer.podSelector && !peer.ipBlock);
for (const svc of SERVICES) {
  const p = policy(svc);
  const at = `services/${svc}.yaml NetworkPolicy`;
  if (!p) continue;
  const ingress = p.spec.ingress ?? [];
  // Rule 0: Prometheus; rule 1 (ingress only): the ingress controller. Both from a namespace, to the HTTP port.
  if (ingress.length !== (svc === 'ingress' ? 2 : 1) || !ingress.every(namespaceOnly)) fail(at, 'ingress beyond /metrics from monitoring (and, for ingress, the API from the ingress controller)');
  expectAt(at, p, 'spec.ingress.0.from.0.namespaceSelector.matchLabels', { 'kubernetes.io/metadata.name': 'monitoring' });
  const egressTo = (port) => (p.spec.egress ?? []).some((rule) => rule.ports?.some((x) => x.port === port));
  for (const port of [53, 4222, 5432]) if (!egressTo(port)) fail(at, `no egress to port ${port}`);
  if (egressTo(6333) !== (svc === 'memory')) fail(at, 'only memory reaches Qdrant');
}
for (const p of policies) {
  for (const rule of p.spec.ingress ?? []) {
    if (!rule.from) fail(`NetworkPolicy ${p.metadata.name}`, 'an ingress rule open to every source');
  }
}

const qdrant = find('StatefulSet', 'qdrant');
const qdrantVersion = /^qdrant\/qdrant:v(\d+)\.(\d+)/.exec(qdrant?.spec.template.spec.containers[0].image ?? '');
if (!qdrantVersion || Number(qdrantVersion[1]) < 1 || (Number(qdrantVersion[1]) === 1 && Number(qdrantVersion[2]) < 13)) {
  fail('infra/qdrant.yaml', 'needs qdrant/qdrant v1.13 or newer');
}
if (!qdrant?.spec.volumeClaimTemplates?.length) fail('infra/qdrant.yaml', 'no PVC');

// The collector's embedded config is YAML too.
const otel = YAML.parseDocument(find('ConfigMap', 'otel-collector-config')?.data?.['config.yaml'] ?? '');
for (const e of otel.errors) fail('infra/otel-collector.yaml config.yaml', e.message);
expectAt('infra/otel-collector.yaml', otel.toJS(), 'receivers.otlp.protocols.http.endpoint', '0.0.0.0:4318');

const count = all.length;
if (problems.length > 0) {
  console.error(`deploy/check: ${problems.length} problem(s)\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.log(`deploy/check: ${files.size} YAML files, ${count} documents, ${SERVICES.length} services: ok`);
