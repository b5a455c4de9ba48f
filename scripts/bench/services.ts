// Each service as Kubernetes runs it: built ahead of time, deployed to its own folder,
// started from it with its image's command, one process per service, and a load of
// chat turns through ingress. Per process: time to ready, RSS at ready and at its
// peak, CPU per turn and the cores it used under the load — the figures the
// manifests' resource requests come from (scripts/deploy/services.ts RESOURCES).
//
//   NATS_URL=… DATABASE_URL=… pnpm bench:services [--users 16] [--turns 400] [--concurrency 8]
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { SERVICE_NAMES } from '@hearth/bus';
import { cleanupNamespace, dropSchemas } from '@hearth/testing';
import { bundleService } from '../build/bundle.js';
import { deployService, mib, processMemory, startFromOutput, stopGracefully, type Started } from '../build/output.js';
import { ApiCallError, ApiClient, type BenchUser } from './lib/api-client.js';
import { intArg, log, requiredServerEnv } from './lib/cli.js';

const program = new Command('bench:services')
  .description('Start every service from its build output, one process each, and measure them under a load of turns.')
  .option('--users <n>', 'users chatting', intArg(1, 1000), 16)
  .option('--turns <n>', 'turns in the measured load', intArg(1, 100_000), 400)
  .option('--concurrency <n>', 'turns in flight', intArg(1, 256), 8)
  .parse();
const opts = program.opts<{ users: number; turns: number; concurrency: number }>();
const env = requiredServerEnv((m) => program.error(m), 'Set NATS_URL and DATABASE_URL (a real NATS and Postgres).');
const TICKS_PER_SECOND = 100; // Linux USER_HZ: /proc/<pid>/stat counts CPU in these.
/** How long the idle cost is measured, with every process up and no traffic. */
const IDLE_SECONDS = 10;

/** CPU seconds (user + system) a process has used so far. */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}


/** Until every process's /metrics shows hearth_consumer_lag 0 for all its consumers (or 60 s). */
async function drained(processes: Started[]): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    const lags = await Promise.all(
      processes.map(async (p) => {
        const text = await (await fetch(`http://127.0.0.1:${p.port}/metrics`)).text();
        return [...text.matchAll(/^hearth_consumer_lag\{[^}]*\} (\d+(?:\.\d+)?)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
      }),
    );
    if (lags.every((l) => l === 0)) return;
    if (performance.now() > deadline) {
      log(`consumers still lagging after 60 s: ${lags.join(', ')}`);
      return;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

const ns = `bsvc${randomUUID().slice(0, 8)}`;
const out = mkdtempSync(join(tmpdir(), 'hearth-bench-services-'));
const running = new Map<string, Started>();
try {
  for (const name of SERVICE_NAMES) {
    await bundleService(name);
    await deployService(name, join(out, name));
  }
  log(`built and deployed ${SERVICE_NAMES.length} services`);
  for (const name of SERVICE_NAMES) {
    const s = await startFromOutput(join(out, name), {
      NATS_URL: env.NATS_URL,
      DATABASE_URL: env.DATABASE_URL,
      HEARTH_NAMESPACE: ns,
      HEARTH_ENV: 'dev',
      LOG_LEVEL: 'warn',
      // The load is a few users sending fast: the per-user limits are off, as in bench:turn.
      RATE_LIMIT_CHAT_PER_MINUTE: '0',
      RATE_LIMIT_CHAT_BURST: '0',
      RATE_LIMIT_PER_MINUTE: '0',
      RATE_LIMIT_ANON_PER_MINUTE: '0',
    });
    running.set(name, s);
    log(`${name}: ready in ${Math.round(s.readyMs)} ms, RSS ${mib(s.rssBytes)}`);
  }
  const api = new ApiClient(`http://127.0.0.1:${running.get('ingress')!.port}`);
  const users: BenchUser[] = [];
  for (let i = 0; i < opts.users; i++) users.push(await api.setupUser());
  // A warm-up turn each, so first-use costs (JIT, pools) are not in the figures.
  await Promise.all(users.map((u) => api.sendTurn(u, 1)));

  // What each process costs with no traffic at all (pollers, consumer pulls, metrics).
  await drained([...running.values()]);
  const idleFrom = new Map([...running].map(([n, s]) => [n, cpuSeconds(s.child.pid!)]));
  await new Promise((r) => setTimeout(r, IDLE_SECONDS * 1000));
  const idle = new Map([...running].map(([n, s]) => [n, (cpuSeconds(s.child.pid!) - idleFrom.get(n)!) / IDLE_SECONDS]));

  const cpuBefore = new Map([...running].map(([n, s]) => [n, cpuSeconds(s.child.pid!)]));
  const started = performance.now();
  let next = 0;
  const errors = new Map<string, number>();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      for (let i = next++; i < opts.turns; i = next++) {
        await api.sendTurn(users[i % users.length]!, i).catch((err: unknown) => {
          const code = err instanceof ApiCallError ? `${err.status} ${err.code}` : String(err);
          errors.set(code, (errors.get(code) ?? 0) + 1);
        });
      }
    }),
  );
  const wallS = (performance.now() - started) / 1000;
  // The write-back and the other consumers finish after the replies: wait until every
  // consumer of every process reports no lag.
  await drained([...running.values()]);
  const rows: string[] = [];
  for (const [name, s] of running) {
    const cpu = cpuSeconds(s.child.pid!) - cpuBefore.get(name)!;
    const mem = processMemory(s.child.pid!);
    rows.push(
      `| ${name} | ${Math.round(s.readyMs)} ms | ${mib(s.rssBytes)} | ${mib(mem.peak)} | ${Math.round(idle.get(name)! * 1000)}m | ${((cpu * 1000) / opts.turns).toFixed(2)} ms | ${Math.round((cpu / wallS) * 1000)}m |`,
    );
  }
  process.stdout.write(
    `\n${opts.turns} turns at concurrency ${opts.concurrency}, ${opts.users} users: ${(opts.turns / wallS).toFixed(1)} turns/s, errors: ${[...errors].map(([c, n]) => `${n} × ${c}`).join(', ') || 'none'}\n\n` +
      `| service | start to ready | RSS at ready | peak RSS | cores idle | CPU per turn | cores under load |\n|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
  );
} finally {
  for (const s of running.values()) await stopGracefully(s.child).catch(() => undefined);
  rmSync(out, { recursive: true, force: true });
  await cleanupNamespace(env.NATS_URL, ns).catch(() => undefined);
  await dropSchemas(env.DATABASE_URL, ns).catch(() => undefined);
}
