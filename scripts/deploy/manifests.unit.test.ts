import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVICE_NAMES } from '@hearth/bus';
import type { IDeployment } from 'kubernetes-models/apps/v1';
import type { ICertificate } from '@kubernetes-models/cert-manager/cert-manager.io/v1';
import YAML from 'yaml';
import { deployment, synthesize, type KubeObject, type SynthFile } from './manifests.js';
import { renderFile } from './render.js';
import { RELEASE, RESOURCES, SERVICES } from './services.js';
import { schemaProblems, strictProblems, validationProblems, type Located } from './validate.js';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Every document of every YAML file in deploy/, read as Kubernetes reads it (YAML 1.1). */
function deployObjects(): Located[] {
  return walk(join(repo, 'deploy'))
    .filter((p) => /\.ya?ml$/.test(p))
    .flatMap((path) =>
      YAML.parseAllDocuments(readFileSync(path, 'utf8'), { version: '1.1' }).map((doc, i) => ({
        where: `${relative(repo, path)}#${i}`,
        object: doc.toJS() as unknown,
      })),
    )
    .filter(({ object }) => object !== null && (object as { kind?: unknown }).kind !== 'Kustomization');
}

const files = synthesize();
const objectsOf = (f: SynthFile): KubeObject[] => ('manifests' in f ? f.manifests.map((m) => m.object) : []);
const all = files.flatMap(objectsOf);
const find = <K extends KubeObject['kind']>(kind: K, name: string) =>
  all.find((o) => o.kind === kind && o.metadata?.name === name) as Extract<KubeObject, { kind: K }> | undefined;
const clone = <T>(value: T): T => structuredClone(value);

describe('deploy manifests', () => {
  it('the committed YAML is what `pnpm deploy:synth` writes (nobody edits it by hand)', () => {
    for (const file of files) {
      const committed = readFileSync(join(repo, file.path), 'utf8');
      expect({ file: file.path, differs: committed !== renderFile(file) }).toEqual({ file: file.path, differs: false });
    }
  });

  it('reads back as the same objects in YAML 1.1, as Kubernetes reads it (no string turns into a boolean)', () => {
    for (const file of files.filter((f) => 'manifests' in f)) {
      const back = YAML.parseAllDocuments(renderFile(file), { version: '1.1' }).map((d) => d.toJS() as unknown);
      expect(back).toEqual(objectsOf(file));
    }
  });

  it('every object of every manifest in deploy/, generated or static, passes the Kubernetes schemas and knows no unknown field', () => {
    const objects = deployObjects();
    expect(objects.length).toBeGreaterThan(40);
    expect(validationProblems(objects)).toEqual([]);
  });

  it('fails on a misspelled field, at any depth, and on a wrong type or a missing required field', () => {
    const dep = deployment(SERVICES[0]!).object as IDeployment;
    const misspelled = clone(dep) as unknown as { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    const c = misspelled.spec.template.spec.containers[0]!;
    c.imagePulPolicy = c.imagePullPolicy;
    delete c.imagePullPolicy;
    const wrongType = clone(dep);
    wrongType.spec!.template.spec!.containers[0]!.ports![0]!.containerPort = '8080' as unknown as number;
    const missing = clone(dep) as unknown as { spec: Record<string, unknown> };
    delete missing.spec.selector;
    const cases: Located[] = [
      { where: 'misspelled', object: misspelled },
      { where: 'wrongType', object: wrongType },
      { where: 'missing', object: missing },
    ];
    expect(strictProblems([cases[0]!])).toEqual([expect.stringMatching(/^misspelled .*'imagePulPolicy' does not exist in type 'IContainer'/)]);
    expect(schemaProblems([cases[0]!])).toEqual([]); // the schemas alone would let it through
    expect(schemaProblems([cases[1]!])).toEqual([expect.stringMatching(/^wrongType: .*containerPort must be integer/)]);
    expect(schemaProblems([cases[2]!])).toEqual([expect.stringMatching(/^missing: .*required property selector/)]);
    expect(validationProblems([{ where: 'unknown kind', object: { apiVersion: 'example.com/v1', kind: 'Widget' } }])).toEqual([
      expect.stringMatching(/^unknown kind: no schema for example.com\/v1 Widget/),
    ]);
  });

  it("checks cert-manager's Certificate against its CRD's schema too", () => {
    const cert = deployObjects().find((o) => (o.object as ICertificate).kind === 'Certificate' && (o.object as ICertificate).metadata?.name === 'nats-server')!;
    const bad = clone(cert.object) as ICertificate & { spec: Record<string, unknown> };
    bad.spec.dnsName = bad.spec.dnsNames;
    delete bad.spec.dnsNames;
    expect(strictProblems([{ where: 'cert', object: bad }])).toEqual([expect.stringMatching(/'dnsName' does not exist/)]);
    const noSecret = clone(cert.object) as { spec: Record<string, unknown> };
    delete noSecret.spec.secretName;
    expect(schemaProblems([{ where: 'cert', object: noSecret }])).toEqual([expect.stringMatching(/required property secretName/)]);
  });

  it('defines every service of libs/bus once, in its order', () => {
    expect(SERVICES.map((s) => s.name)).toEqual([...SERVICE_NAMES]);
  });

  it.each(SERVICES.map((s) => [s.name, s] as const))('%s: its own image with no command, probes, PDB, HPA on CPU and consumer lag', (name, s) => {
    const dep = find('Deployment', name)!;
    const c = dep.spec!.template.spec!.containers[0]!;
    expect(c.image).toBe(`registry.example.com/hearth-${name}:${RELEASE.tag}`);
    expect(c.command).toBeUndefined();
    expect(dep.spec!.replicas).toBeUndefined();
    const startup = c.startupProbe!;
    expect(startup.periodSeconds! * startup.failureThreshold!).toBeLessThanOrEqual(30);
    expect(find('PodDisruptionBudget', name)!.spec).toEqual({ minAvailable: 1, selector: dep.spec!.selector });
    const hpa = find('HorizontalPodAutoscaler', name)!.spec!;
    expect(hpa.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
    expect(hpa.minReplicas).toBeGreaterThanOrEqual(2);
    expect(hpa.metrics!.map((m) => m.resource?.name ?? m.pods?.metric.name)).toEqual(['cpu', 'hearth_consumer_lag']);
    expect(c.resources!.requests).toEqual({ cpu: `${RESOURCES[name].cpuRequestMilli}m`, memory: `${RESOURCES[name].memoryRequestMi}Mi` });
    const measured = RESOURCES[name].measured;
    expect(measured).not.toBeNull();
    if (measured) {
      expect(RESOURCES[name].memoryRequestMi).toBeGreaterThanOrEqual(measured.peakRssMi);
      expect(RESOURCES[name].cpuRequestMilli).toBeGreaterThanOrEqual(measured.cpuUnderLoadMilli * 0.9);
    }
    expect(Boolean(find('Service', name))).toBe(s.service !== null);
  });

  it('lets each service reach only what its definition says: Qdrant memory alone, 443 the LLM callers and ingress', () => {
    const egressPorts = (name: string) =>
      find('NetworkPolicy', name)!
        .spec!.egress!.flatMap((rule) => rule.ports!.map((p) => p.port))
        .sort((a, b) => Number(a) - Number(b));
    expect(egressPorts('memory')).toEqual([53, 53, 443, 4222, 4318, 5432, 6333]);
    expect(egressPorts('router')).toEqual([53, 53, 4222, 4318, 5432]);
    expect(egressPorts('retention')).toEqual([53, 53, 4222, 4318, 5432]);
    expect(SERVICES.filter((s) => s.egress.includes('https')).map((s) => s.name)).toEqual(['ingress', 'orchestrator', 'memory', 'belief-graph', 'uncertainty', 'trust']);
    const qdrant = find('NetworkPolicy', 'qdrant')!.spec!.ingress![0]!.from![0]!.podSelector!.matchExpressions![0]!.values;
    expect(qdrant).toEqual(['memory']);
    // Nothing is open to every source: the API comes through the ingress controller's namespace.
    for (const p of all.filter((o) => o.kind === 'NetworkPolicy')) {
      for (const rule of (p.spec as { ingress?: { from?: unknown[] }[] }).ingress ?? []) expect(rule.from?.length).toBeGreaterThan(0);
    }
  });

  it('keeps the promises of deploy/README.md (node deploy/check.mjs)', () => {
    const out = execFileSync(process.execPath, [join(repo, 'deploy', 'check.mjs')], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(out).toMatch(/: ok$/m);
  });
});
