#!/usr/bin/env node
// Checks deploy/ without a cluster: every YAML file parses, every kustomization lists
// files that exist, and the manifests keep what deploy/README.md promises (eight
// services, identical but for their name, probes, draining, non-root, read-only root).
//   node deploy/check.mjs
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
const applied = new Set(['kustomization.yaml', 'infra/kustomization.yaml']);
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

/** The manifests of one service with its name replaced (in values only), for comparison. */
function normalised(svc, value) {
  if (typeof value === 'string') return value === svc ? '<svc>' : value.replaceAll(`services/${svc}/`, 'services/<svc>/');
  if (Array.isArray(value)) return value.map((v) => normalised(svc, v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalised(svc, v)]));
  return value;
}

let reference;
for (const svc of SERVICES) {
  const file = `services/${svc}.yaml`;
  const docs = files.get(file);
  if (!docs) {
    fail(file, 'missing');
    continue;
  }
  if (!existsSync(join(repo, 'services', svc, 'src', 'main.ts'))) fail(file, `services/${svc}/src/main.ts does not exist`);
  const dep = docs.find((d) => d.kind === 'Deployment' && d.metadata.name === svc);
  const pdb = docs.find((d) => d.kind === 'PodDisruptionBudget' && d.metadata.name === svc);
  if (!dep || !pdb) {
    fail(file, 'needs a Deployment and a PodDisruptionBudget named after the service');
    continue;
  }
  const pod = dep.spec.template.spec;
  const c = pod.containers[0];
  const at = `${file} Deployment`;
  expectAt(at, dep, 'spec.replicas', 2);
  expectAt(at, c, 'command', ['node', '--import', 'tsx', `services/${svc}/src/main.ts`]);
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
  expectAt(at, c, 'volumeMounts', [{ name: 'tmp', mountPath: '/tmp' }]);
  expectAt(at, pdb, 'spec.selector', dep.spec.selector);
  const services = docs.filter((d) => d.kind === 'Service');
  if (svc === 'ingress') {
    expectAt(file, services[0], 'spec.ports', [{ name: 'http', port: 80, targetPort: 'http' }]);
    expectAt(file, services[0], 'spec.selector', dep.spec.selector.matchLabels);
  } else if (services.length > 0) fail(file, 'only ingress has a Service');

  const shape = normalised(svc, [dep, pdb]);
  if (!reference) reference = { svc, shape };
  else if (JSON.stringify(shape) !== JSON.stringify(reference.shape)) {
    fail(file, `differs from services/${reference.svc}.yaml in more than the name`);
  }
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
  PORT: '8080',
  HOST: '0.0.0.0',
})) {
  expectAt('config.yaml', config, `data.${key}`, value);
}
for (const key of ['NATS_URL', 'AUTH_ISSUER', 'AUTH_AUDIENCE', 'AUTH_JWKS_URL', 'OTEL_EXPORTER_OTLP_ENDPOINT']) {
  if (!config?.data?.[key]) fail('config.yaml', `${key} missing`);
}
if (!find('Secret', 'hearth-secrets')?.stringData?.DATABASE_URL) fail('secret.example.yaml', 'DATABASE_URL missing');

// NATS: three JetStream nodes on 2.12 with file storage and a stated fsync choice.
const nats = find('StatefulSet', 'nats');
expectAt('infra/nats.yaml', nats, 'spec.replicas', 3);
if (!/^nats:2\.12[.-]/.test(nats?.spec.template.spec.containers[0].image ?? '')) fail('infra/nats.yaml', 'image is not nats:2.12');
if (!nats?.spec.volumeClaimTemplates?.length) fail('infra/nats.yaml', 'no PVC for the file store');
if (!/^\s*sync_interval:/m.test(find('ConfigMap', 'nats-config')?.data?.['nats.conf'] ?? '')) {
  fail('infra/nats.yaml', 'nats.conf does not state sync_interval');
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
