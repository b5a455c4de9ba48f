// The replay benchmark (issue 20: `pnpm replay` ≥ 20,000 events/s per
// projection). It builds a realistic event log by running chat turns through an
// in-process Hearth with every service, stops Hearth, then rebuilds every
// projection from the log as `pnpm replay` does. Each projection's rate stands
// beside raw figures of the same run: the very same read with no apply
// (bus.read: fetch, decode, open), the ordered consumer alone (no decode), and
// the database's statements and commits.
//
//   pnpm bench:replay [--turns 2000] [--concurrency 8] [--users 32] [--batch-size N] [--projection NAME]... [--json FILE] [--cpu-prof FILE]
//
// With DATABASE_URL unset it runs on PGlite, in a temporary directory that the
// replay opens again once Hearth has stopped (as `pnpm replay` opens PGLITE_DIR).
// The namespace's streams and schemas, and that directory, go at the end.
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { DeliverPolicy } from '@nats-io/jetstream';
import pg from 'pg';
import { Bus, type ServiceName } from '@hearth/bus';
import { baseEnvSchema, loadConfig } from '@hearth/config';
import { eventEncryption, loadHostConfig, runHearth, schemaFor, type HearthProcess } from '@hearth/host';
import { checkpointOf, openDatabase, replayProjection, schemaDb, type Database, type Projection, type ReplayReport } from '@hearth/store';
import { cleanupNamespace, dropSchemas, testNamespace } from '@hearth/testing';
import { ALL_SERVICES } from '../../services/registry.js';
import { ApiCallError, ApiClient, type BenchUser } from './lib/api-client.js';
import { intArg, isLoopback, log, withTimeout } from './lib/cli.js';
import { QueryCounter, waitForQuiet, type QueryCounts } from './lib/probes.js';
import { createProgress } from './lib/progress.js';
import { mapLimit, startCpuProfile } from './lib/run.js';
import { measureDatabase, type DatabaseCosts, type Queryable, type RateFigure } from './lib/raw-costs.js';
import { checkTarget, fmt, rawRow, renderTargets, table, type TargetCheck } from './lib/report.js';
import { perSecond } from './lib/stats.js';

/** issue 20: `pnpm replay` ≥ 20,000 events/s per projection. */
const TARGET_EVENTS_PER_SEC = 20_000;
/** Below this many events, a rate mostly measures a replay's fixed cost (consumers, lookups, first batch). */
const FEW_EVENTS = 1_000;
/** Sizes of the raw database series. */
const RAW = { selects: 1_000, inserts: 1_000, batch: 500, batches: 10 } as const;

interface Options {
  turns: number;
  concurrency: number;
  users: number;
  batchSize?: number;
  projection?: string[];
  json?: string;
  cpuProf?: string;
}

const program = new Command('bench:replay')
  .description('Rebuild every projection from a log of real turns, beside the raw read and database figures of the same run')
  .option('--turns <n>', 'chat turns that build the log', intArg(1), 2000)
  .option('--concurrency <n>', 'workers sending turns at once', intArg(1), 8)
  .option('--users <n>', 'chatting users (at least the concurrency; each worker has its own)', intArg(1), 32)
  .option('--batch-size <n>', "events per applyEvents transaction (default: replayProjection's)", intArg(1))
  .option('--projection <name>', 'only this projection, as name or service/name (repeatable)', (v: string, prev: string[] | undefined) => [...(prev ?? []), v])
  .option('--json <file>', 'also write the results as JSON')
  .option('--cpu-prof <file>', 'write a V8 CPU profile of this process during the replays (.cpuprofile)')
  .parse();

const opts = program.opts<Options>();
if (opts.users < opts.concurrency) program.error('--users must be at least --concurrency: two workers on one user would wait on each other');
const env = loadConfig(baseEnvSchema, process.env);
for (const [name, url] of [
  ['NATS_URL', env.NATS_URL],
  ['DATABASE_URL', env.DATABASE_URL],
] as const) {
  const hosts = (url ?? '').split(',').filter(Boolean).map((s) => new URL(s.includes('://') ? s : `nats://${s}`).hostname);
  if (hosts.some((h) => !isLoopback(h))) program.error(`${name} must point at 127.0.0.1: the benchmark sends traffic to loopback only`);
}

/** The environment of the in-process Hearth and of the replay: dev tokens, no rate limits. */
function benchEnv(namespace: string, pgliteDir: string | undefined): NodeJS.ProcessEnv {
  return {
    ...process.env,
    HEARTH_ENV: 'dev',
    HEARTH_NAMESPACE: namespace,
    EVENT_ENCRYPTION: 'on',
    LOG_LEVEL: 'warn',
    RATE_LIMIT_CHAT_PER_MINUTE: '0',
    RATE_LIMIT_CHAT_BURST: '0',
    RATE_LIMIT_PER_MINUTE: '0',
    RATE_LIMIT_ANON_PER_MINUTE: '0',
    ...(pgliteDir ? { PGLITE_DIR: pgliteDir } : {}),
  };
}

/** `turns` turns over `concurrency` workers; worker w chats with users w, w + concurrency, … in turn. */
async function runTurns(client: ApiClient, users: readonly BenchUser[], turns: number, concurrency: number): Promise<{ errors: Record<string, number>; wallMs: number }> {
  const errors: Record<string, number> = {};
  const progress = createProgress(turns, 'turns building the log');
  let next = 0;
  let failed = 0;
  const worker = async (w: number): Promise<void> => {
    const own = users.filter((_, i) => i % concurrency === w);
    for (let k = 0; next < turns; k++) {
      const n = next++;
      try {
        await client.sendTurn(own[k % own.length]!, n, randomUUID());
      } catch (err) {
        failed++;
        const code = err instanceof ApiCallError ? `${err.status || 'no response'} ${err.code}` : `exception ${String(err)}`;
        errors[code] = (errors[code] ?? 0) + 1;
      }
      progress.tick(failed);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  progress.stop();
  return { errors, wallMs: performance.now() - started };
}

/** A sequential pass over events: how many, in how long. */
interface ReadFigure {
  events: number;
  ms: number;
  perSec: number;
}

const readFigure = (events: number, ms: number): ReadFigure => ({ events, ms, perSec: perSecond(events, ms) });

function sumReads(a: readonly ReadFigure[]): ReadFigure {
  return readFigure(
    a.reduce((s, r) => s + r.events, 0),
    a.reduce((s, r) => s + r.ms, 0),
  );
}

/** The live checkpoint of a projection on each of its sources: what replay reads up to. */
async function checkpoints(bus: Bus, database: Database, schema: string, p: Projection): Promise<Map<ServiceName, number>> {
  const live = schemaDb(database, schema);
  const out = new Map<ServiceName, number>();
  for (const source of p.sources) out.set(source, await checkpointOf(live, p.name, bus.topology.stream(source)));
  return out;
}

/** The read a replay of `p` does, without applying anything: bus.read of each source up to its checkpoint. */
async function readAlone(bus: Bus, p: Projection, upTo: Map<ServiceName, number>): Promise<ReadFigure> {
  let events = 0;
  const started = performance.now();
  for (const [source, last] of upTo) {
    if (last === 0) continue;
    for await (const e of bus.read(source, { toSeq: last, ...(p.key === undefined ? {} : { key: p.key }) })) {
      if (e) events++;
    }
  }
  return readFigure(events, performance.now() - started);
}

/** A whole stream through an ordered consumer, nothing decoded: what JetStream and the client deliver. */
async function consumeRaw(bus: Bus, service: ServiceName): Promise<ReadFigure> {
  const stream = bus.topology.stream(service);
  const info = await bus.jsm.streams.info(stream);
  const last = info.state.last_seq;
  if (info.state.messages === 0) return readFigure(0, 0);
  const started = performance.now();
  const consumer = await bus.js.consumers.get(stream, { deliver_policy: DeliverPolicy.All });
  const iter = await consumer.consume({ max_messages: 1_000 });
  let events = 0;
  try {
    for await (const m of iter) {
      events++;
      if (m.seq >= last || m.info.pending === 0) break;
    }
  } finally {
    iter.stop();
    await consumer.delete().catch(() => undefined);
  }
  return readFigure(events, performance.now() - started);
}

/** Single-row INSERTs, `batch` to a transaction (the shape of a replay's writes), and `batch` rows in one INSERT. */
async function measureInsertBatches(db: Queryable, schema: string): Promise<{ statementInTx: RateFigure; multiRow: RateFigure }> {
  const table = `"${schema}".bench_replay_rows`;
  const payload = 'x'.repeat(200);
  await db.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  try {
    await db.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, payload text NOT NULL)`);
    let id = 0;
    const series = async (one: () => Promise<void>): Promise<RateFigure> => {
      await one(); // warmup
      const us: number[] = [];
      const started = performance.now();
      for (let b = 0; b < RAW.batches; b++) {
        const t0 = performance.now();
        await one();
        us.push((performance.now() - t0) * 1000);
      }
      const wallMs = performance.now() - started;
      const sorted = us.sort((x, y) => x - y);
      const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
      return { count: RAW.batches * RAW.batch, wallMs, perSec: perSecond(RAW.batches * RAW.batch, wallMs), us: { count: sorted.length, mean: wallMs * 1000 / sorted.length, p50: at(50), p90: at(90), p99: at(99), max: sorted[sorted.length - 1]! } };
    };
    const statementInTx = await series(async () => {
      await db.query('BEGIN');
      for (let i = 0; i < RAW.batch; i++) await db.query(`INSERT INTO ${table} (id, payload) VALUES ($1, $2)`, [id++, payload]);
      await db.query('COMMIT');
    });
    const multiRow = await series(async () => {
      const ids = Array.from({ length: RAW.batch }, () => id++);
      await db.query(`INSERT INTO ${table} (id, payload) SELECT unnest($1::int[]), $2`, [ids, payload]);
    });
    return { statementInTx, multiRow };
  } finally {
    await db.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
}

interface ProjectionResult {
  label: string;
  sources: readonly ServiceName[];
  report: ReplayReport;
  perSec: number;
  /** The statements of the rebuild (read and apply), not of the schema setup or the diff. */
  statements: QueryCounts;
  readBefore: ReadFigure;
  readAfter: ReadFigure;
  /** The mean rate of the two reads around the replay. */
  readPerSec: number;
}

interface RawFigures {
  consume: Record<string, ReadFigure>;
  database: DatabaseCosts;
  statementInTx: RateFigure;
  multiRow: RateFigure;
}

function renderResults(results: readonly ProjectionResult[], raw: RawFigures, meta: { database: string; kind: 'postgres' | 'pglite'; batchSize: number; turns: number; log: Record<string, number> }): string {
  const dbName = meta.kind === 'pglite' ? 'PGlite' : 'Postgres';
  const out: string[] = [];
  out.push(`Hearth replay benchmark — every projection rebuilt from the log of ${meta.turns} turns (all services), as pnpm replay does`);
  out.push(`database: ${meta.database}; NATS ${env.NATS_URL}; ${availableParallelism()} CPUs; applyEvents batch ${meta.batchSize}`);
  out.push(`log: ${Object.entries(meta.log).map(([s, n]) => `${s} ${n}`).join(', ')} events`);
  out.push('');
  out.push(
    ...table([
      ['Projection (sources)', 'events', 'rebuild s', 'events/s', 'in applyEvents', 'read alone ev/s', 'statements/event', 'µs/statement', 'setup + diff s', 'equal'],
      ...results.map((r) => [
        `${r.label} (${r.sources.join(', ')})`,
        String(r.report.events),
        fmt(r.report.timings.rebuildMs / 1000, 2),
        fmt(r.perSec, 0),
        `${fmt((100 * r.report.timings.applyMs) / Math.max(1e-9, r.report.timings.rebuildMs), 0)} %`,
        fmt(r.readPerSec, 0),
        fmt(r.statements.statements / Math.max(1, r.report.events), 2),
        fmt((1000 * r.statements.busyMs) / Math.max(1, r.statements.statements), 0),
        fmt((r.report.timings.setupMs + r.report.timings.diffMs) / 1000, 2),
        r.report.equal ? 'yes' : 'NO',
      ]),
    ]),
  );
  out.push(
    '  (events/s = events read ÷ rebuild time: the reads and the applyEvents transactions, overlapped; in applyEvents = summed applyEvents time ÷ rebuild time; ' +
      'read alone = the same bus.read with no apply, before and after all the replays, mean; statements: every SQL statement of the rebuild, BEGIN and COMMIT included, with its mean round trip)',
  );
  out.push('');
  const consume = Object.entries(raw.consume).filter(([, f]) => f.events > 0);
  out.push(
    ...table([
      ['Raw piece, same run, same servers', 'rate', 'p50', 'p99'],
      ...consume.map(([s, f]) => [`JS ordered consumer, no decode: ${s} (${f.events})`, `${fmt(f.perSec, 0)} msg/s`, '', '']),
      rawRow(`${dbName} SELECT 1 round trip`, raw.database.select1, 'q/s'),
      rawRow(`${dbName} INSERT 1 row, autocommit`, raw.database.insert, 'rows/s'),
      rawRow(`${dbName} INSERT 1 row × ${RAW.batch} in one transaction (p: per tx)`, raw.statementInTx, 'rows/s'),
      rawRow(`${dbName} one INSERT of ${RAW.batch} rows (p: per statement)`, raw.multiRow, 'rows/s'),
    ]),
  );
  out.push(`  (DB: ${raw.database.via}; ${Object.entries(raw.database.settings).map(([k, v]) => `${k}=${v}`).join(', ')})`);
  out.push('');
  const measurable = results.filter((r) => r.report.events > 0);
  const checks: TargetCheck[] = measurable.map((r) =>
    checkTarget({
      name: `replay ${r.label}`,
      measured: r.perSec,
      unit: 'events/s',
      bound: 'min',
      limit: TARGET_EVENTS_PER_SEC,
      raw:
        `read alone ${fmt(r.readPerSec, 0)} ev/s; ${fmt(raw.statementInTx.perSec, 0)} single-row INSERTs/s in a tx` +
        (r.report.events < FEW_EVENTS ? `; only ${r.report.events} events: the fixed cost of a replay dominates` : ''),
    }),
  );
  out.push(...renderTargets(`Targets (issue 20), ${dbName}`, checks));
  const empty = results.filter((r) => r.report.events === 0).map((r) => r.label);
  if (empty.length > 0) out.push(`  not measured (no events of theirs in this log): ${empty.join(', ')}`);
  const different = results.filter((r) => !r.report.equal).map((r) => r.label);
  if (different.length > 0) out.push(`  replay DIFFERS from live for: ${different.join(', ')}`);
  for (const r of results) {
    for (const t of r.report.tables.filter((d) => d.onlyLive + d.onlyReplay > 0)) {
      out.push(`    ${r.label} ${t.table}: live ${t.liveRows}, replay ${t.replayRows}, only-live ${t.onlyLive}, only-replay ${t.onlyReplay}`);
      for (const sample of t.samples) out.push(`      ${JSON.stringify(sample, (_, v: unknown) => (Array.isArray(v) && v.length > 8 ? `[${v.length} items]` : v))}`);
    }
  }
  return out.join('\n');
}

function wanted(service: string, p: Projection): boolean {
  return !opts.projection || opts.projection.some((n) => n === p.name || n === `${service}/${p.name}`);
}

async function main(): Promise<number> {
  const namespace = testNamespace('bench');
  const pgliteDir = env.DATABASE_URL ? undefined : await mkdtemp(join(tmpdir(), 'hearth-bench-replay-'));
  const databaseText = env.DATABASE_URL
    ? (() => {
        const u = new URL(env.DATABASE_URL);
        return `Postgres ${u.hostname}:${u.port || 5432}${u.pathname} (DATABASE_URL)`;
      })()
    : 'PGlite in a temporary directory (DATABASE_URL unset)';
  const hostEnv = benchEnv(namespace, pgliteDir);
  let hearth: HearthProcess | undefined;
  let bus: Bus | undefined;
  let database: Database | undefined;
  try {
    log(`starting Hearth in this process: namespace ${namespace}, ${databaseText}, NATS ${env.NATS_URL}`);
    hearth = await runHearth({ services: ALL_SERVICES, port: 0, env: hostEnv });
    const client = new ApiClient(hearth.url);
    log(`setting up ${opts.users} users (token, user, onboarding, first message)`);
    const users = await mapLimit(Array.from({ length: opts.users }), Math.min(opts.users, 16), () => client.setupUser());
    const built = await runTurns(client, users, opts.turns, opts.concurrency);
    const failed = Object.values(built.errors).reduce((a, b) => a + b, 0);
    log(`log built: ${opts.turns} turns in ${fmt(built.wallMs / 1000, 1)} s${failed ? `, errors: ${JSON.stringify(built.errors)}` : ''}; waiting for every consumer to finish`);
    await waitForQuiet(hearth.bus.jsm, namespace, 120_000);
    log('stopping Hearth (the replay runs on its log and schemas alone)');
    await hearth.stop();
    hearth = undefined;

    const config = loadHostConfig(hostEnv);
    const quiet = { info: () => undefined, warn: () => undefined, error: (o: object, m?: string) => log(`bus error: ${m ?? ''} ${JSON.stringify(o)}`) };
    bus = await Bus.connect({ url: config.NATS_URL, name: 'hearth-bench-replay', namespace, logger: quiet, encryption: eventEncryption(config) });
    database = await openDatabase({ url: config.DATABASE_URL, pgliteDir: config.PGLITE_DIR });

    const streams: Record<string, number> = {};
    for (const s of ALL_SERVICES) streams[s.name] = await bus.lastSeq(s.name);
    log(`raw: each stream through an ordered consumer, nothing decoded`);
    const consume: Record<string, ReadFigure> = {};
    for (const s of ALL_SERVICES) consume[s.name] = await consumeRaw(bus, s.name);

    const jobs = ALL_SERVICES.flatMap((s) => s.projections.filter((p) => wanted(s.name, p)).map((p) => ({ s, p })));
    if (jobs.length === 0) throw new Error(`no projection named ${opts.projection?.join(', ')}`);
    // The read alone, before and after every replay (outside the profile, which is of the replays only).
    log('raw: the read of each projection with no apply (bus.read: fetch, decode, open)');
    const planned = [];
    for (const { s, p } of jobs) {
      const schema = schemaFor(namespace, s.name);
      const upTo = await checkpoints(bus, database, schema, p);
      planned.push({ s, p, schema, upTo, readBefore: await readAlone(bus, p, upTo) });
    }
    const profiler = opts.cpuProf ? await startCpuProfile() : undefined;
    const counter = new QueryCounter(database.pool);
    const replayed: { report: ReplayReport; statements: QueryCounts }[] = [];
    for (const [i, { s, p, schema }] of planned.entries()) {
      let statements: QueryCounts | undefined;
      const report = await replayProjection({
        bus,
        database,
        service: s.name,
        schema,
        projection: p,
        migrations: s.migrations,
        ...(opts.batchSize ? { batchSize: opts.batchSize } : {}),
        onPhase: (phase) => (phase === 'rebuild' ? counter.start() : (statements = counter.stop())),
      });
      replayed.push({ report, statements: statements ?? counter.stop() });
      log(`[${i + 1}/${planned.length}] ${s.name}/${p.name}: ${report.events} events in ${fmt(report.timings.rebuildMs / 1000, 2)} s = ${fmt(perSecond(report.events, report.timings.rebuildMs), 0)} events/s, ${report.equal ? 'equal to live' : 'DIFFERENT from live'}`);
    }
    counter.detach();
    if (profiler && opts.cpuProf) {
      await writeFile(opts.cpuProf, await profiler.stop());
      log(`CPU profile of the replays written to ${opts.cpuProf}`);
    }
    const results: ProjectionResult[] = [];
    for (const [i, { s, p, upTo, readBefore }] of planned.entries()) {
      const { report, statements } = replayed[i]!;
      const readAfter = await readAlone(bus, p, upTo);
      results.push({
        label: `${s.name}/${p.name}`,
        sources: p.sources,
        report,
        perSec: perSecond(report.events, report.timings.rebuildMs),
        statements,
        readBefore,
        readAfter,
        readPerSec: sumReads([readBefore, readAfter]).perSec,
      });
    }

    log(`raw ${database.kind}: ${RAW.selects} SELECT 1, ${RAW.inserts} single-row INSERTs, ${RAW.batches} × ${RAW.batch} rows per transaction and per statement`);
    const rawSchema = `${namespace}_benchraw`;
    let dbRaw: { database: DatabaseCosts; statementInTx: RateFigure; multiRow: RateFigure };
    const measure = async (q: Queryable, via: string) => ({ database: await measureDatabase(q, { via, schema: rawSchema, ...RAW }), ...(await measureInsertBatches(q, rawSchema)) });
    if (config.DATABASE_URL) {
      const c = new pg.Client({ connectionString: config.DATABASE_URL });
      await c.connect();
      try {
        dbRaw = await measure(c, 'pg.Client on DATABASE_URL');
      } finally {
        await c.end();
      }
    } else {
      const c = await database.pool.connect();
      try {
        dbRaw = await measure(c, "the replay's own PGlite through openDatabase (@hearth/store)");
      } finally {
        c.release();
      }
    }
    const raw: RawFigures = { consume, ...dbRaw };
    const batchSize = opts.batchSize ?? 500;
    process.stdout.write(`${renderResults(results, raw, { database: databaseText, kind: database.kind, batchSize, turns: opts.turns, log: streams })}\n`);
    if (opts.json) {
      await writeFile(opts.json, `${JSON.stringify({ startedAt: new Date().toISOString(), namespace, database: databaseText, options: opts, log: streams, targetEventsPerSec: TARGET_EVENTS_PER_SEC, projections: results, raw }, null, 2)}\n`);
      log(`results written to ${opts.json}`);
    }
    return results.every((r) => r.report.equal) && failed === 0 ? 0 : 1;
  } finally {
    if (hearth) await withTimeout('stopping Hearth', hearth.stop());
    if (bus) await withTimeout('closing the bus', bus.close());
    if (database) await withTimeout('closing the database', database.close());
    await withTimeout('deleting streams', cleanupNamespace(env.NATS_URL, namespace).then((n) => log(`deleted streams: ${n.join(', ') || 'none'}`)));
    if (env.DATABASE_URL) await withTimeout('dropping schemas', dropSchemas(env.DATABASE_URL, namespace).then((n) => log(`dropped schemas: ${n.join(', ') || 'none'}`)));
    if (pgliteDir) await withTimeout('removing the PGlite directory', rm(pgliteDir, { recursive: true, force: true }));
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
