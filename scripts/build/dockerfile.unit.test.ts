// deploy/Dockerfile has one target per service, each copying only that service's
// deployable folder, and every service image runs the command build.int.test.ts
// starts each output with.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVICE_NAMES } from '@hearth/bus';
import { REPO } from './bundle.js';
import { START_COMMAND } from './output.js';

const dockerfile = readFileSync(join(REPO, 'deploy', 'Dockerfile'), 'utf8');

/** The Dockerfile's stages: name → the instructions after its FROM. */
function stages(text: string): Map<string, { from: string; lines: string[] }> {
  const out = new Map<string, { from: string; lines: string[] }>();
  let current: string[] | null = null;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    const from = /^FROM\s+(\S+)\s+AS\s+(\S+)$/i.exec(line);
    if (from) {
      current = [];
      out.set(from[2]!, { from: from[1]!, lines: current });
    } else if (current && line !== '' && !line.startsWith('#')) {
      current.push(line);
    }
  }
  return out;
}

describe('deploy/Dockerfile', () => {
  const all = stages(dockerfile);

  it('has a target per service, built on the shared runtime, holding only its own deployable folder', () => {
    for (const name of SERVICE_NAMES) {
      const stage = all.get(name);
      expect(stage).toBeDefined();
      expect(stage!.from).toBe('runtime');
      expect(stage!.lines).toEqual([`COPY --from=build --chown=root:root /out/${name} /app`]);
    }
  });

  it('builds every deployable folder in the build stage, from the lockfile', () => {
    const build = all.get('build')!.lines.join('\n');
    expect(build).toContain('pnpm install --frozen-lockfile');
    expect(build).toContain('pnpm build --out /out');
  });

  it('runs each service as a non-root user with the start command the build test uses, in production by default', () => {
    const runtime = all.get('runtime')!.lines.join('\n');
    expect(runtime).toContain('USER node');
    expect(runtime).toContain('WORKDIR /app');
    expect(runtime).toMatch(/HEARTH_ENV=production/);
    expect(runtime).toContain(`CMD ${JSON.stringify(START_COMMAND).replace(/,/g, ', ')}`);
    // Nothing in the runtime can compile TypeScript or fetch packages.
    expect(runtime).not.toMatch(/tsx|pnpm|npm install/);
  });
});
