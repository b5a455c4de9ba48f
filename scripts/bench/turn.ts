// The benchmark of one chat turn through the real HTTP API, with the raw
// JetStream and Postgres costs measured in the same run, side by side.
//
//   pnpm bench:turn [--concurrency 8] [--turns 400] [--warmup 40] [--users N] [--url BASE] [--json FILE] [--no-encryption-compare]
//                   [--without SERVICE]... [--no-service-compare] [--targets]
//
// Without --url it starts every Hearth service in this process under a fresh
// namespace, and removes that namespace's streams and schemas at the end. It
// also runs the same turns with EVENT_ENCRYPTION off, on, and off again, each on
// a Hearth of its own without probes, so the report gives what sealing every
// payload costs, measured in the same run; and without belief-graph (or the
// services --without names), with every service, and without again, so the
// report gives what that service adds to a turn.
//
// --targets adds issue 20's targets: on the same Hearth, after the probed run,
// the turns at concurrency 16 and at concurrency 1 (each after its own warmup),
// then the same client at concurrency 16 against a trivial HTTP server in
// another process (what the client alone costs this process), and a "Targets
// (issue 20)" block judged against the raw figures of the same run.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { randomBytes, randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Command, InvalidArgumentError } from 'commander';
import { jetstreamManager } from '@nats-io/jetstream';
import { connect } from '@nats-io/transport-node';
import pg from 'pg';
import { baseEnvSchema, loadConfig } from '@hearth/config';
import { runHearth, type HearthProcess } from '@hearth/host';
import { openDatabase, type Database } from '@hearth/store';
import { ALL_SERVICES } from '../../services/registry.js';
import { ApiCallError, ApiClient, type BenchUser } from './lib/api-client.js';
import { QueryCounter, streamDelta, waitForQuiet, type QueryCounts, type StreamSnapshot } from './lib/probes.js';
import { turnPhases, wallNowMs, type PhaseBreakdown, type TurnTiming } from './lib/phases.js';
import { intArg, isLoopback, log, withTimeout } from './lib/cli.js';
import { createProgress } from './lib/progress.js';
import { mapLimit, startCpuProfile } from './lib/run.js';
import { measureDatabase, measureJetStream, type DatabaseCosts } from './lib/raw-costs.js';
import {
  criticalPathFloorMs,
  interpretation,
  perTurnMeasured,
  rawPiecesCpu,
  renderReport,
  renderTurnTargets,
  turnTargets,
  TURN_TARGETS,
  type BenchResult,
  type TargetRun,
  type TurnTargetsInput,
} from './lib/report.js';
import { perSecond, summarize } from './lib/stats.js';
import { TURN_COST_FROM_CODE } from './lib/turn-cost.js';

/** The statement texts the report lists, most sent first. */
const STATEMENT_TEXTS_SHOWN = 20;

/** Sizes of the raw series (the brief of this benchmark). */
const RAW = { messages: 2_000, lookups: 1_000, subjects: 500, selects: 1_000, inserts: 1_000 } as const;

interface Options {
  concurrency: number;
  turns: number;
  warmup: number;
  users?: number;
  url?: string;
  json?: string;
  cpuProf?: string;
  encryptionCompare: boolean;
  without: string[];
  serviceCompare: boolean;
  targets: boolean;
}

function serviceName(value: string): string {
  if (!ALL_SERVICES.some((s) => s.name === value)) throw new InvalidArgumentError(`unknown service '${value}'; known: ${ALL_SERVICES.map((s) => s.name).join(', ')}`);
  if (value === 'ingress' || value === 'router' || value === 'orchestrator') throw new InvalidArgumentError(`a turn cannot run without ${value}`);
  return value;
}

function loopbackUrl(value: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new InvalidArgumentError('expected a URL such as http://127.0.0.1:8080');
  }
  if (!isLoopback(u.hostname)) throw new InvalidArgumentError('the benchmark only talks to 127.0.0.1 (or localhost)');
  return u.origin;
}

function hostsOf(urls: string): string[] {
  return urls.split(',').map((s) => {
    const entry = s.trim();
    return new URL(entry.includes('://') ? entry : `nats://${entry}`).hostname;
  });
}

const program = new Command('bench:turn')
  .description('One chat turn through the HTTP API, beside the raw JetStream and Postgres costs of the same run')
  .option('--concurrency <n>', 'workers sending turns at once', intArg(1), 8)
  .option('--turns <n>', 'measured turns', intArg(1), 400)
  .option('--warmup <n>', 'unmeasured turns before them', intArg(0), 40)
  .option('--users <n>', 'chatting users (default: the concurrency)', intArg(1))
  .option('--url <base>', 'bench a Hearth already running there instead of starting one in this process', loopbackUrl)
  .option('--json <file>', 'also write the results as JSON')
  .option('--cpu-prof <file>', 'write a V8 CPU profile of this process during the measured turns (.cpuprofile)')
  .option('--no-encryption-compare', 'skip the run with EVENT_ENCRYPTION=off that prices payload encryption')
  .option('--without <service>', 'the service the comparison leaves out (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), serviceName(v)])
  .option('--no-service-compare', 'skip the runs without a service (default: without belief-graph) that price it')
  .option('--targets', `also measure issue 20's targets: concurrency ${TURN_TARGETS.loadedConcurrency} and concurrency 1 on the same Hearth, and the client alone`, false)
  .parse();

const opts = program.opts<Options>();
if (opts.targets && opts.url) program.error('--targets judges the CPU of the one process with every service: it needs the in-process Hearth (no --url)');
opts.without = opts.without?.length ? opts.without : ['belief-graph'];
const env = loadConfig(baseEnvSchema, process.env);
for (const [name, hosts] of [
  ['NATS_URL', hostsOf(env.NATS_URL)],
  ['DATABASE_URL', env.DATABASE_URL ? [new URL(env.DATABASE_URL).hostname] : []],
] as const) {
  if (hosts.some((h) => !isLoopback(h))) program.error(`${name} must point at 127.0.0.1: the benchmark sends traffic to loopback only`);
}

let interrupted = false;
process.on('SIGINT', () => {
  if (interrupted) process.exit(130);
  interrupted = true;
  log('interrupted: finishing the turns in flight, then cleaning up (Ctrl-C again to exit now)');
});

interface TurnRun {
  done: number;
  latencies: number[];
  /** Client-side start and end of each successful turn. */
  timings: TurnTiming[];
  errors: number;
  errorsByCode: Record<string, number>;
  wallMs: number;
}

/** `total` turns over `concurrency` workers; worker w chats as user w mod users. */
async function runTurns(client: ApiClient, users: readonly BenchUser[], total: number, concurrency: number, onTurn?: (errors: number) => void): Promise<TurnRun> {
  const run: TurnRun = { done: 0, latencies: [], timings: [], errors: 0, errorsByCode: {}, wallMs: 0 };
  let next = 0;
  const worker = async (w: number): Promise<void> => {
    const user = users[w % users.length]!;
    while (!interrupted && next < total) {
      const n = next++;
      const messageId = randomUUID();
      const startMs = wallNowMs();
      const t0 = performance.now();
      try {
        await client.sendTurn(user, n, messageId);
        run.latencies.push(performance.now() - t0);
        run.timings.push({ messageId, startMs, endMs: wallNowMs() });
      } catch (err) {
        run.errors++;
        const code = err instanceof ApiCallError ? `${err.status || 'no response'} ${err.code}` : `exception ${String(err)}`;
        run.errorsByCode[code] = (run.errorsByCode[code] ?? 0) + 1;
      }
      run.done++;
      onTurn?.(run.errors);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  run.wallMs = performance.now() - started;
  return run;
}

/** Deletes the namespace's streams (`<NS>_*`) and its KV buckets (clock, data keys, rate limits). */
async function deleteStreams(natsUrl: string, namespace: string): Promise<string[]> {
  const nc = await connect({ servers: natsUrl.split(','), name: 'hearth-bench-cleanup' });
  try {
    const jsm = await jetstreamManager(nc);
    const prefix = `${namespace}_`.toUpperCase();
    const doomed: string[] = [];
    for await (const name of jsm.streams.names()) {
      if (name.startsWith(prefix) || name.startsWith(`KV_${namespace}_`)) doomed.push(name);
    }
    for (const name of doomed) await jsm.streams.delete(name);
    return doomed;
  } finally {
    await nc.drain().catch(() => nc.close());
  }
}

/** Drops every schema named `<namespace>_*`. */
async function dropSchemas(db: { query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }> }, namespace: string): Promise<string[]> {
  // starts_with, not LIKE: `_` is a LIKE wildcard.
  const { rows } = await db.query('SELECT nspname FROM pg_namespace WHERE starts_with(nspname, $1) ORDER BY nspname', [`${namespace}_`]);
  const names = (rows as { nspname: string }[]).map((r) => r.nspname);
  for (const name of names) await db.query(`DROP SCHEMA IF EXISTS "${name.replace(/"/g, '""')}" CASCADE`);
  return names;
}

function describeDatabase(): { kind: 'postgres' | 'pglite'; text: string } {
  if (!env.DATABASE_URL) return { kind: 'pglite', text: `PGlite ${env.PGLITE_DIR} (DATABASE_URL unset)` };
  const u = new URL(env.DATABASE_URL);
  return { kind: 'postgres', text: `Postgres ${u.hostname}:${u.port || 5432}${u.pathname} (DATABASE_URL)` };
}

/** The environment of an in-process Hearth for the bench: dev tokens, no rate limits. */
function benchEnv(namespace: string, encryption: 'on' | 'off'): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HEARTH_ENV: 'dev',
    HEARTH_NAMESPACE: namespace,
    EVENT_ENCRYPTION: encryption,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_CHAT_PER_MINUTE: '0',
    RATE_LIMIT_CHAT_BURST: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_ANON_PER_MINUTE: '0',
  };
}

/** One arm of the encryption comparison: throughput, latency and this process's CPU per turn. */
interface EncryptionArm {
  encryption: 'on' | 'off';
  namespace: string;
  turns: number;
  errors: number;
  perSec: number;
  latencyMs: ReturnType<typeof summarize>;
  cpuMsPerTurn: number;
}

function measuredArm(encryption: 'on' | 'off', namespace: string, run: TurnRun, cpuMsPerTurn: number): EncryptionArm {
  return {
    encryption,
    namespace,
    turns: run.done,
    errors: run.errors,
    perSec: perSecond(run.latencies.length, run.wallMs),
    latencyMs: summarize(run.latencies),
    cpuMsPerTurn,
  };
}

/**
 * The same turns on a Hearth of their own (its own namespace, removed
 * afterwards) with EVENT_ENCRYPTION on or off, and no probes: the arms differ in
 * encryption only.
 */
async function comparisonArm(encryption: 'on' | 'off', users: number, label: string, without: readonly string[] = []): Promise<EncryptionArm> {
  const namespace = `bench_${randomBytes(4).toString('hex')}`;
  const services = ALL_SERVICES.filter((s) => !without.includes(s.name));
  log(
    without.length
      ? `service comparison: the same turns without ${without.join(', ')}, ${label} (namespace ${namespace})`
      : `encryption comparison: the same turns with EVENT_ENCRYPTION=${encryption}, ${label} (namespace ${namespace})`,
  );
  const h = await runHearth({ services, port: 0, env: benchEnv(namespace, encryption) });
  try {
    const client = new ApiClient(h.url);
    const setup = await mapLimit(Array.from({ length: users }), Math.min(users, 16), () => client.setupUser());
    await runTurns(client, setup, opts.warmup, opts.concurrency);
    await waitForQuiet(h.bus.jsm, namespace);
    const cpu0 = process.cpuUsage();
    const progress = createProgress(opts.turns, without.length ? `measured turns, without ${without.join(', ')} (${label})` : `measured turns, encryption ${encryption} (${label})`);
    const run = await runTurns(client, setup, opts.turns, opts.concurrency, (errors) => progress.tick(errors));
    progress.stop();
    const cpu = process.cpuUsage(cpu0);
    return measuredArm(encryption, namespace, run, (cpu.user + cpu.system) / 1000 / Math.max(1, run.done));
  } finally {
    if (describeDatabase().kind === 'pglite' && !env.PGLITE_DIR.startsWith('memory://')) {
      await withTimeout('dropping PGlite schemas', dropSchemas(h.database.pool, namespace));
    }
    await withTimeout(`stopping the comparison Hearth (encryption ${encryption})`, h.stop());
    await withTimeout('deleting streams', deleteStreams(env.NATS_URL, namespace));
    if (env.DATABASE_URL) {
      const c = new pg.Client({ connectionString: env.DATABASE_URL });
      await c.connect();
      try {
        await dropSchemas(c, namespace);
      } finally {
        await c.end();
      }
    }
  }
}

/** The mean of two arms of the same kind (off before and off after the encrypted run: drift cancels). */
function meanArm(a: EncryptionArm, b: EncryptionArm): EncryptionArm {
  const mid = (x: number, y: number) => (x + y) / 2;
  return {
    ...a,
    namespace: `${a.namespace}+${b.namespace}`,
    turns: a.turns + b.turns,
    errors: a.errors + b.errors,
    perSec: mid(a.perSec, b.perSec),
    latencyMs: { count: a.latencyMs.count + b.latencyMs.count, mean: mid(a.latencyMs.mean, b.latencyMs.mean), p50: mid(a.latencyMs.p50, b.latencyMs.p50), p90: mid(a.latencyMs.p90, b.latencyMs.p90), p99: mid(a.latencyMs.p99, b.latencyMs.p99), max: Math.max(a.latencyMs.max, b.latencyMs.max) },
    cpuMsPerTurn: mid(a.cpuMsPerTurn, b.cpuMsPerTurn),
  };
}

function pct(on: number, off: number): string {
  const d = ((on - off) / off) * 100;
  return `${d >= 0 ? '+' : ''}${d.toFixed(1)} %`;
}

/** What running the left-out services costs a turn: with them, against the mean of the runs without them before and after. */
function renderServiceCost(without: readonly string[], before: EncryptionArm, withAll: EncryptionArm, after: EncryptionArm): string {
  const off = meanArm(before, after);
  const row = (name: string, a: EncryptionArm) =>
    `  ${name.padEnd(24)} ${a.perSec.toFixed(1).padStart(7)} turns/s   p50 ${a.latencyMs.p50.toFixed(1).padStart(7)} ms   p99 ${a.latencyMs.p99.toFixed(1).padStart(7)} ms   CPU ${a.cpuMsPerTurn.toFixed(2)} ms/turn   errors ${a.errors}`;
  const label = `without ${without.join(', ')}`;
  return [
    `Services (same run: ${label}, with every service, ${label} again, each on its own Hearth without probes after its own warmup; encryption on)`,
    row(label, before),
    row('with every service', withAll),
    row(`${label} (again)`, after),
    `  cost of ${without.join(', ')}: CPU ${(withAll.cpuMsPerTurn - off.cpuMsPerTurn).toFixed(2)} ms/turn (${pct(withAll.cpuMsPerTurn, off.cpuMsPerTurn)}), throughput ${pct(withAll.perSec, off.perSec)}, p50 ${pct(withAll.latencyMs.p50, off.latencyMs.p50)}, p99 ${pct(withAll.latencyMs.p99, off.latencyMs.p99)}`,
  ].join('\n');
}

function renderEncryption(offBefore: EncryptionArm, on: EncryptionArm, offAfter: EncryptionArm): string {
  const off = meanArm(offBefore, offAfter);
  const row = (a: EncryptionArm) =>
    `  ${a.encryption.padEnd(4)} ${a.perSec.toFixed(1).padStart(7)} turns/s   p50 ${a.latencyMs.p50.toFixed(1).padStart(7)} ms   p99 ${a.latencyMs.p99.toFixed(1).padStart(7)} ms   CPU ${a.cpuMsPerTurn.toFixed(2)} ms/turn   errors ${a.errors}`;
  return [
    'Event encryption (same run, before and after the probed run above: off, on, off again, each on its own Hearth without probes after its own warmup; on is compared with the mean of the two offs)',
    row(offBefore),
    row(on),
    row(offAfter),
    `  cost of sealing: throughput ${pct(on.perSec, off.perSec)}, p50 ${pct(on.latencyMs.p50, off.latencyMs.p50)}, p99 ${pct(on.latencyMs.p99, off.latencyMs.p99)}, CPU/turn ${pct(on.cpuMsPerTurn, off.cpuMsPerTurn)}`,
  ].join('\n');
}

/**
 * `opts.turns` turns at `concurrency` after a warmup of their own; with
 * `settle`, the warmup's background work ends before and the measured turns'
 * after the CPU window (so CPU per turn counts every service's work on them).
 */
async function targetRun(client: ApiClient, users: readonly BenchUser[], concurrency: number, label: string, settle?: () => Promise<unknown>): Promise<TargetRun> {
  const warmup = Math.max(opts.warmup, 2 * concurrency);
  log(`${label}: warmup ${warmup} turns`);
  await runTurns(client, users, warmup, concurrency);
  await settle?.();
  const elu0 = performance.eventLoopUtilization();
  const cpu0 = process.cpuUsage();
  const progress = createProgress(opts.turns, label);
  const run = await runTurns(client, users, opts.turns, concurrency, (errors) => progress.tick(errors));
  progress.stop();
  await settle?.();
  const cpu = process.cpuUsage(cpu0);
  return {
    concurrency,
    users: Math.min(users.length, concurrency),
    warmup,
    turns: run.done,
    ok: run.latencies.length,
    errors: run.errors,
    errorsByCode: run.errorsByCode,
    wallMs: run.wallMs,
    perSec: perSecond(run.latencies.length, run.wallMs),
    latencyMs: summarize(run.latencies),
    cpuMsPerTurn: (cpu.user + cpu.system) / 1000 / Math.max(1, run.done),
    eventLoopUtilization: performance.eventLoopUtilization(elu0).utilization,
  };
}

/** An HTTP server in a child process that answers every request with `body`: the client's cost without Hearth's. */
async function startTrivialServer(body: string): Promise<{ url: string; stop(): Promise<void> }> {
  const script = `const b = Buffer.from(process.env.BODY);
require('node:http').createServer((req, res) => { req.resume(); req.on('end', () => { res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': b.length }); res.end(b); }); })
  .listen(0, '127.0.0.1', function () { process.stdout.write(this.address().port + '\\n'); });`;
  const child = spawn(process.execPath, ['-e', script], { env: { PATH: process.env.PATH, BODY: body }, stdio: ['ignore', 'pipe', 'inherit'] });
  const [chunk] = (await once(child.stdout, 'data')) as [Buffer];
  return {
    url: `http://127.0.0.1:${Number(chunk.toString().trim())}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** issue 20's runs on the same Hearth: concurrency 16, concurrency 1, and the client alone against a trivial server. */
async function measureTargets(h: HearthProcess, client: ApiClient, setup: readonly BenchUser[], namespace: string): Promise<Omit<TurnTargetsInput, 'databaseKind' | 'floorMs' | 'appendsPerSec'>> {
  const c = TURN_TARGETS.loadedConcurrency;
  const more = Math.max(0, c - setup.length);
  if (more > 0) log(`targets: setting up ${more} more users (one per worker at concurrency ${c})`);
  const users = [...setup, ...(await mapLimit(Array.from({ length: more }), Math.min(more, 16), () => client.setupUser()))];
  const settle = () => waitForQuiet(h.bus.jsm, namespace);
  const loaded = await targetRun(client, users.slice(0, c), c, `targets: concurrency ${c}`, settle);
  const single = await targetRun(client, users.slice(0, 1), 1, 'targets: concurrency 1', settle);
  if (interrupted) return { loaded, single };
  // A real reply, so the trivial server sends what Hearth sends.
  const reply = JSON.stringify(await client.sendTurn(users[0]!, 0));
  const trivial = await startTrivialServer(reply);
  try {
    const alone = await targetRun(new ApiClient(trivial.url), users.slice(0, c), c, `targets: the client alone at concurrency ${c} (trivial server)`);
    return { loaded, single, client: alone };
  } finally {
    await trivial.stop();
  }
}

async function main(): Promise<number> {
  const namespace = `bench_${randomBytes(4).toString('hex')}`;
  const users = opts.users ?? opts.concurrency;
  const database = describeDatabase();
  let hearth: HearthProcess | undefined;
  let counter: QueryCounter | undefined;
  let ownPglite: Database | undefined;
  let offArm: EncryptionArm | undefined;
  let onArm: EncryptionArm | undefined;
  try {
    let url = opts.url;
    if (!url) {
      log(`starting Hearth in this process: namespace ${namespace}, ${database.text}, NATS ${env.NATS_URL}`);
      if (opts.encryptionCompare) {
        offArm = await comparisonArm('off', users, 'before');
        onArm = await comparisonArm('on', users, 'between');
      }
      // The bench drives many users from one address; dev tokens and no rate limits.
      hearth = await runHearth({ services: ALL_SERVICES, port: 0, env: benchEnv(namespace, 'on') });
      url = hearth.url;
      counter = new QueryCounter(hearth.database.pool, namespace);
    }
    const client = new ApiClient(url);

    log(`setting up ${users} users (token, user, onboarding, first message) on ${url}`);
    const setupStarted = performance.now();
    const setup = await mapLimit(Array.from({ length: users }), Math.min(users, 16), () => client.setupUser());
    const setupMs = performance.now() - setupStarted;
    const notActive = setup.filter((u) => u.state !== 'ACTIVE').length;
    if (notActive > 0) log(`warning: ${notActive} user(s) not ACTIVE after their first message`);

    if (opts.warmup > 0) log(`warmup: ${opts.warmup} turns`);
    const warm = await runTurns(client, setup, opts.warmup, opts.concurrency);

    let before: StreamSnapshot | undefined;
    if (hearth) {
      before = await waitForQuiet(hearth.bus.jsm, namespace);
      counter?.start();
    }
    const profiler = opts.cpuProf ? await startCpuProfile() : undefined;
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const progress = createProgress(opts.turns, 'measured turns');
    const run = await runTurns(client, setup, opts.turns, opts.concurrency, (errors) => progress.tick(errors));
    progress.stop();
    if (profiler && opts.cpuProf) {
      await writeFile(opts.cpuProf, await profiler.stop());
      log(`CPU profile of the measured turns written to ${opts.cpuProf}`);
    }
    const cpu = process.cpuUsage(cpu0);
    const usage = {
      eventLoopUtilization: performance.eventLoopUtilization(elu0).utilization,
      cpuMsPerTurn: (cpu.user + cpu.system) / 1000 / Math.max(1, run.done),
    };
    let queries: QueryCounts | undefined;
    let statementTexts: { text: string; count: number }[] | undefined;
    let after: StreamSnapshot | undefined;
    let phases: PhaseBreakdown | undefined;
    if (hearth) {
      after = await waitForQuiet(hearth.bus.jsm, namespace);
      queries = counter?.stop();
      statementTexts = counter?.statementTexts();
      counter?.detach();
      const ranges = new Map([...after.lastSeq].map(([stream, seq]) => [stream, { from: (before?.lastSeq.get(stream) ?? 0) + 1, to: seq }]));
      phases = await turnPhases(hearth.bus.js, hearth.bus.topology, ranges, run.timings);
    }
    const targetRuns = opts.targets && hearth && !interrupted ? await measureTargets(hearth, client, setup, namespace) : undefined;

    log(`raw JetStream: ${RAW.messages} publishes awaiting each ack, ${RAW.messages} appends with expect, ${RAW.lookups} get-last lookups`);
    const jetstream = await measureJetStream({ natsUrl: env.NATS_URL, namespace, ...RAW });
    const rawSchema = `${namespace}_benchraw`;
    let dbCosts: DatabaseCosts;
    if (env.DATABASE_URL) {
      log(`raw Postgres: ${RAW.selects} SELECT 1, ${RAW.inserts} single-row INSERTs (pg.Client)`);
      const pgClient = new pg.Client({ connectionString: env.DATABASE_URL });
      await pgClient.connect();
      try {
        dbCosts = await measureDatabase(pgClient, { via: 'pg.Client on DATABASE_URL', schema: rawSchema, ...RAW });
      } finally {
        await pgClient.end();
      }
    } else if (hearth) {
      log(`raw PGlite: ${RAW.selects} SELECT 1, ${RAW.inserts} single-row INSERTs through the app's own openDatabase pool`);
      dbCosts = await measureDatabase(hearth.database.pool, {
        via: "the app's own PGlite through openDatabase (@hearth/store) pg.Pool, max 1",
        schema: rawSchema,
        ...RAW,
      });
    } else {
      log('raw PGlite: opening an in-memory PGlite through openDatabase (@hearth/store), as the app does');
      ownPglite = await openDatabase({ pgliteDir: 'memory://' });
      dbCosts = await measureDatabase(ownPglite.pool, {
        via: "a fresh in-memory PGlite through openDatabase (@hearth/store) pg.Pool, max 1 (not the server's own)",
        schema: rawSchema,
        ...RAW,
      });
    }

    const measuredTurns = run.done;
    const ok = run.latencies.length;
    const partial: Omit<BenchResult, 'interpretation'> = {
      startedAt: new Date().toISOString(),
      target: {
        mode: hearth ? 'in-process' : 'external',
        url,
        database: database.text,
        databaseKind: database.kind,
        nats: env.NATS_URL,
        namespace,
        cpus: availableParallelism(),
      },
      options: { concurrency: opts.concurrency, turns: opts.turns, warmup: opts.warmup, users },
      setup: { users: setup.length, wallMs: setupMs, notActive },
      warmup: { turns: warm.done, errors: warm.errors, wallMs: warm.wallMs },
      turns: {
        measured: measuredTurns,
        ok,
        errors: run.errors,
        errorsByCode: run.errorsByCode,
        wallMs: run.wallMs,
        perSec: perSecond(ok, run.wallMs),
        latencyMs: summarize(run.latencies),
      },
      raw: { jetstream, database: dbCosts },
      perTurn: {
        fromCode: TURN_COST_FROM_CODE,
        measured: before && after && queries ? perTurnMeasured(measuredTurns, streamDelta(before, after), queries) : undefined,
        statementTexts: statementTexts?.slice(0, STATEMENT_TEXTS_SHOWN).map((s) => ({ text: s.text, perTurn: s.count / Math.max(1, measuredTurns) })),
      },
      phases,
      process: usage,
      criticalPathFloorMs: criticalPathFloorMs(jetstream, dbCosts),
    };
    const result: BenchResult = { ...partial, interpretation: interpretation(partial) };
    process.stdout.write(`${renderReport(result)}\n`);
    let targets: { input: TurnTargetsInput; checks: ReturnType<typeof turnTargets> } | undefined;
    if (targetRuns) {
      const measured = result.perTurn.measured;
      const rawPieces = measured ? rawPiecesCpu(measured, jetstream, dbCosts) : undefined;
      const input: TurnTargetsInput = {
        ...targetRuns,
        databaseKind: database.kind,
        floorMs: result.criticalPathFloorMs,
        appendsPerSec: jetstream.appendExpect.perSec,
        ...(rawPieces ? { rawPieces } : {}),
      };
      targets = { input, checks: turnTargets(input) };
      process.stdout.write(`\n${renderTurnTargets(input)}\n`);
    }
    const offAfter = offArm && !interrupted ? await comparisonArm('off', users, 'after') : undefined;
    if (offArm && onArm && offAfter) process.stdout.write(`\n${renderEncryption(offArm, onArm, offAfter)}\n`);
    let serviceCost: { without: string[]; before: EncryptionArm; withAll: EncryptionArm; after: EncryptionArm; withoutMean: EncryptionArm } | undefined;
    if (opts.serviceCompare && !opts.url && !interrupted) {
      const before = await comparisonArm('on', users, 'before', opts.without);
      const withAll = await comparisonArm('on', users, 'between');
      const after = await comparisonArm('on', users, 'after', opts.without);
      serviceCost = { without: opts.without, before, withAll, after, withoutMean: meanArm(before, after) };
      process.stdout.write(`\n${renderServiceCost(opts.without, before, withAll, after)}\n`);
    }
    if (opts.json) {
      const encryption = offArm && onArm && offAfter ? { offBefore: offArm, on: onArm, offAfter, offMean: meanArm(offArm, offAfter) } : undefined;
      await writeFile(opts.json, `${JSON.stringify({ ...result, encryption, serviceCost, targets }, null, 2)}\n`);
      log(`results written to ${opts.json}`);
    }
    if (interrupted) log('interrupted: the figures above cover only the turns that ran');
    return run.errors > 0 || notActive > 0 || interrupted || (targets?.input.loaded.errors ?? 0) > 0 ? 1 : 0;
  } finally {
    counter?.detach();
    if (ownPglite) await withTimeout('closing the raw PGlite', ownPglite.close());
    if (hearth) {
      const h = hearth;
      // An on-disk PGlite outlives the run: its schemas go now, while it is open.
      if (database.kind === 'pglite' && !env.PGLITE_DIR.startsWith('memory://')) {
        await withTimeout('dropping PGlite schemas', dropSchemas(h.database.pool, namespace));
      }
      log('stopping Hearth');
      await withTimeout('stopping Hearth', h.stop());
      await withTimeout(
        'deleting streams',
        deleteStreams(env.NATS_URL, namespace).then((names) => log(`deleted streams: ${names.join(', ') || 'none'}`)),
      );
      if (env.DATABASE_URL) {
        const url = env.DATABASE_URL;
        await withTimeout(
          'dropping schemas',
          (async () => {
            const c = new pg.Client({ connectionString: url });
            await c.connect();
            try {
              log(`dropped schemas: ${(await dropSchemas(c, namespace)).join(', ') || 'none'}`);
            } finally {
              await c.end();
            }
          })(),
        );
      }
    }
  }
}

// Exit explicitly: keep-alive sockets and library timers must not hold the process.
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
