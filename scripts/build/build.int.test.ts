// Every service builds to its own output and starts from it as its image does:
// bundled ahead of time (no tsx), deployed with only its production dependencies to a
// folder outside the repository (so nothing resolves through the workspace's
// node_modules), started with the image's command, ready, then stopped by SIGTERM.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@hearth/bus';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import { bundleService, type Bundle } from './bundle.js';
import { dependencyDrift, deployService, startFromOutput, stopGracefully } from './output.js';

const ns = testNamespace('build');
const out = mkdtempSync(join(tmpdir(), 'hearth-build-'));
const bundles = new Map<string, Bundle>();
let nats: string;
let dbUrl: string;

beforeAll(async () => {
  [nats, dbUrl] = await Promise.all([natsUrl(), databaseUrl()]);
  for (const name of SERVICE_NAMES) bundles.set(name, await bundleService(name));
}, 120_000);

afterAll(async () => {
  rmSync(out, { recursive: true, force: true });
  await cleanupNamespace(nats, ns);
  await dropSchemas(dbUrl, ns);
});

describe('the ahead-of-time build', () => {
  it.each([...SERVICE_NAMES])('%s: its bundle holds its own service code and libs/ only, and its package.json declares what it imports', (name) => {
    const b = bundles.get(name)!;
    expect(b.serviceFolders).toEqual([name]);
    expect(dependencyDrift(b)).toEqual([]);
    // No TypeScript loader at run time: the output is plain JavaScript.
    expect(b.packages).not.toContain('tsx');
  });

  it('ingress holds none of memory, the orchestrator or retention (the query clients come from proto/)', () => {
    const ingress = bundles.get('ingress')!;
    const code = readFileSync(join(ingress.distDir, 'main.js'), 'utf8');
    expect(code).toContain('MemoryQueriesClientImpl');
    // Each is a name only its own service defines.
    for (const foreign of ['createQdrantIndex', 'PERSONA_LIBRARY', 'startScheduler']) expect(code).not.toContain(foreign);
    expect(ingress.packages).not.toContain('@qdrant/js-client-rest');
  });

  it.each([...SERVICE_NAMES])(
    '%s: deployed alone, starts from its output with the image command, is ready, and exits 0 on SIGTERM',
    async (name) => {
      const dir = join(out, name);
      await deployService(name, dir);
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
      expect(Object.keys(pkg.dependencies).sort()).toEqual(bundles.get(name)!.packages);
      const s = await startFromOutput(dir, {
        NATS_URL: nats,
        DATABASE_URL: dbUrl,
        HEARTH_NAMESPACE: ns,
        HEARTH_ENV: 'test',
        HEARTH_KEK: randomBytes(32).toString('base64'),
        LOG_LEVEL: 'warn',
      });
      try {
        const metrics = await (await fetch(`http://127.0.0.1:${s.port}/metrics`)).text();
        expect(metrics).toMatch(new RegExp(`hearth_ready\\{[^}]*service_name="${name}"[^}]*\\} 1`));
      } finally {
        expect(await stopGracefully(s.child)).toBe(0);
      }
    },
    90_000,
  );
});
