import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from '@hearth/testing';
import { REPO, type Bundle } from './bundle.js';

const run = promisify(execFile);

/** The command each image runs from its WORKDIR (deploy/Dockerfile's CMD). */
export const START_COMMAND = ['node', '--enable-source-maps', 'dist/main.js'] as const;

interface PackageJson {
  name: string;
  dependencies?: Record<string, string>;
  [k: string]: unknown;
}

function readJson(path: string): PackageJson {
  return JSON.parse(readFileSync(path, 'utf8')) as PackageJson;
}

/**
 * What a service's package.json must declare as its dependencies: each npm
 * package its bundle imports, at the version range the root package.json pins
 * (one version per package across the repository).
 */
export function expectedDependencies(bundle: Bundle): Record<string, string> {
  const root = readJson(join(REPO, 'package.json'));
  const pinned = { ...(root['devDependencies'] as Record<string, string>), ...root.dependencies };
  const deps: Record<string, string> = {};
  for (const p of bundle.packages) {
    const range = pinned[p];
    if (!range) throw new Error(`${bundle.service} imports ${p}, which the root package.json does not pin`);
    deps[p] = range;
  }
  return deps;
}

/** The differences between a service's declared dependencies and what its bundle imports ([] when none). */
export function dependencyDrift(bundle: Bundle): string[] {
  const file = join(REPO, 'services', bundle.service, 'package.json');
  const declared = readJson(file).dependencies ?? {};
  const expected = expectedDependencies(bundle);
  const drift: string[] = [];
  for (const [p, r] of Object.entries(expected)) {
    if (declared[p] === undefined) drift.push(`missing ${p}@${r}`);
    else if (declared[p] !== r) drift.push(`${p}: declared ${declared[p]}, root pins ${r}`);
  }
  for (const p of Object.keys(declared)) if (expected[p] === undefined) drift.push(`not imported: ${p}`);
  return drift;
}

/** Rewrites a service's package.json dependencies from its bundle (then `pnpm install` updates the lockfile). */
export function writeDependencies(bundle: Bundle): void {
  const file = join(REPO, 'services', bundle.service, 'package.json');
  const pkg = readJson(file);
  pkg.dependencies = expectedDependencies(bundle);
  writeFileSync(file, `${JSON.stringify(pkg, null, 2)}\n`);
}

/**
 * The service's deployable folder: its package.json, dist/ and the production
 * dependencies it declares, from the workspace lockfile (`pnpm deploy`). The
 * workspace packages are bundled into dist/, so none is installed.
 */
export async function deployService(service: string, outDir: string): Promise<void> {
  rmSync(outDir, { recursive: true, force: true });
  // pnpm 10 deploys from a lockfile of this one package (so nothing another package
  // needs lands here) when workspace packages are injected; set for this command only,
  // so the workspace's own installs keep linking libs/.
  await run('pnpm', ['--config.inject-workspace-packages=true', '--filter', `@hearth/svc-${service}`, 'deploy', '--prod', '--prefer-offline', outDir], {
    cwd: REPO,
    maxBuffer: 16 * 1024 * 1024,
    env: { ...process.env, npm_config_loglevel: 'error' },
  });
}

/** Bytes under a folder (files, not following links), as `du` counts apparent size. */
export function sizeOf(dir: string): number {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = lstatSync(path);
    total += st.isDirectory() ? sizeOf(path) : st.size;
  }
  return total;
}

export function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}


export interface Started {
  child: ChildProcess;
  port: number;
  /** Spawn to the first 200 from /readyz. */
  readyMs: number;
  /** Resident memory at ready, from /proc (0 where there is none). */
  rssBytes: number;
  output: () => string;
}

/**
 * Starts a service from its deployable folder exactly as its image does
 * (START_COMMAND in that folder) and waits until /readyz answers 200.
 */
export async function startFromOutput(outDir: string, env: Record<string, string>, opts: { timeoutMs?: number } = {}): Promise<Started> {
  const port = await freePort();
  const started = performance.now();
  const [cmd, ...args] = START_COMMAND;
  // Only what the image would have: no tsx loader, no NODE_OPTIONS from this process.
  const child = spawn(cmd, args, {
    cwd: outDir,
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout.on('data', (b: Buffer) => (log += b.toString()));
  child.stderr.on('data', (b: Buffer) => (log += b.toString()));
  const timeoutMs = opts.timeoutMs ?? 30_000;
  try {
    const outcome = await waitFor(
      async () => {
        if (child.exitCode !== null) return `exited with ${child.exitCode} before it was ready`;
        const res = await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined);
        return res?.status === 200 ? 'ready' : undefined;
      },
      { timeoutMs, intervalMs: 25, what: `${outDir} to answer /readyz` },
    );
    if (outcome !== 'ready') throw new Error(outcome);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${err instanceof Error ? err.message : String(err)}:\n${log.slice(-4000)}`, { cause: err });
  }
  const readyMs = performance.now() - started;
  const rssBytes = processMemory(child.pid!).rss;
  return { child, port, readyMs, rssBytes, output: () => log };
}

/** Resident memory now and at its peak (VmRSS, VmHWM), from /proc; 0 where there is none. */
export function processMemory(pid: number): { rss: number; peak: number } {
  let status = '';
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    // no /proc here
  }
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: kb('VmRSS'), peak: kb('VmHWM') };
}

/** SIGTERM, as Kubernetes stops a pod; resolves with the exit code (or rejects after `timeoutMs`). */
export async function stopGracefully(child: ChildProcess, timeoutMs = 30_000): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  return new Promise((resolveExit, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`did not exit within ${timeoutMs} ms of SIGTERM`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolveExit(code);
    });
    child.kill('SIGTERM');
  });
}
