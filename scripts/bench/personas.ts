// The benchmark of persona assignment (turn-pipeline §3) through its real path,
// with the raw JetStream and Postgres costs measured in the same run, side by side.
//
//   pnpm bench:personas [--onboardings 1000] [--replicas 3] [--concurrency 50] [--json FILE]
//
// Every PersonaAssigned goes to one reserved subject (GLOBAL_KEYS.personaAssignments)
// against its last sequence (§3.4.1: the anti-cloning cap is one global aggregate),
// so that log is a serialization point. This runs R orchestrator replicas in this
// process, wired as services/orchestrator/src/handlers/assign-persona.int.test.ts
// wires them (a Bus, the personas projection and the assign-persona reactor each,
// one shared schema), appends OnboardingAnswered events to the ingress stream,
// `--concurrency` onboardings in flight at once, and times each one from its
// append to the commit of its `personas` row. Needs NATS_URL and DATABASE_URL;
// the fresh namespace's streams and schemas are removed at the end.
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { Command } from 'commander';
import pg from 'pg';
import { AppendConflictError, Bus, draft, GLOBAL_KEYS, payloadOf, type BusLogger, type RunningConsumer, type ServiceName, type StoredEvent } from '@hearth/bus';
import { systemClock } from '@hearth/clock';
import { deriveId, Events } from '@hearth/events';
import { schemaFor } from '@hearth/host';
import { migrateSchema, openDatabase, schemaDb, startProjection, startReactor, type Database, type Reactor } from '@hearth/store';
import { cleanupNamespace, dropSchemas, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import { PERSONA } from '../../services/orchestrator/src/config.js';
import type { OrchestratorDb } from '../../services/orchestrator/src/db.js';
import { createAssignPersonaReactor } from '../../services/orchestrator/src/handlers/assign-persona.js';
import { service as orchestrator } from '../../services/orchestrator/src/index.js';
import { capViolations, comboKey, type CapViolation } from '../../services/orchestrator/src/personas/cap.js';
import { personasProjection } from '../../services/orchestrator/src/projections/personas.js';
import { createProgress } from './lib/progress.js';
import { measureDatabase, measureJetStream, type DatabaseCosts, type JetStreamCosts } from './lib/raw-costs.js';
import { intArg, isLoopback, log, requiredServerEnv, withTimeout } from './lib/cli.js';
import { fmt, rawRow, sideBySide, table } from './lib/report.js';
import { perSecond, summarize, type Summary } from './lib/stats.js';

/** Sizes of the raw series; one subject, as the assignment log is one subject. */
const RAW = { messages: 2_000, lookups: 1_000, subjects: 1, selects: 1_000, inserts: 1_000 } as const;
/** Longest an onboarding may wait for its persona row before it counts as failed. */
const VISIBLE_TIMEOUT_MS = 60_000;
/**
 * The serial section of one assignment, read from the code (assign-persona.ts,
 * libs/bus appendDecided, libs/store applyEvents): get-last of the log; 3 reads
 * (waitForPosition's position read at least once, the user's existing row, the
 * window query); the conditional publish; and, before the next decision can pass
 * waitForPosition, the personas projection's transaction (BEGIN, position FOR
 * UPDATE, INSERT, position and checkpoint upserts: 5 round trips, then COMMIT).
 */
const SERIAL_SECTION = { lastBySubject: 1, appends: 1, roundTrips: 3 + 5, commits: 1 } as const;

interface Options {
  onboardings: number;
  replicas: number;
  concurrency: number;
  json?: string;
}

const program: Command = new Command('bench:personas')
  .description('Persona assignment on the one global assignment log over R orchestrator replicas, beside the raw JetStream and Postgres costs of the same run')
  .option('--onboardings <n>', 'onboardings (OnboardingAnswered events), one new user each', intArg(1, 1_000_000), 1_000)
  .option('--replicas <n>', 'orchestrator replicas (personas projection + assign-persona reactor each)', intArg(1, 32), 3)
  .option('--concurrency <n>', 'onboardings in flight at once', intArg(1, 10_000), 50)
  .option('--json <file>', 'also write the results as JSON')
  .parse();

const opts = program.opts<Options>();
// Both required here: no default NATS, no PGlite (the replicas share one Postgres schema).
const env = requiredServerEnv(
  (m) => program.error(m),
  'set NATS_URL (JetStream) and DATABASE_URL (Postgres), e.g. NATS_URL=nats://127.0.0.1:4222 DATABASE_URL=postgres://postgres@127.0.0.1:5432/hearth_test',
);
for (const [name, hosts] of [
  ['NATS_URL', env.NATS_URL.split(',').map((s) => new URL(s.includes('://') ? s.trim() : `nats://${s.trim()}`).hostname)],
  ['DATABASE_URL', [new URL(env.DATABASE_URL).hostname]],
] as const) {
  if (hosts.some((h) => !isLoopback(h))) program.error(`${name} must point at 127.0.0.1: the benchmark sends traffic to loopback only`);
}

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    log(`${signal}: no new onboardings; waiting for those in flight, then cleaning up (again to exit now)`);
  });
}

/** Counts what the buses log (consumer retries, dead letters); prints nothing. */
function countingLogger(counts: Record<string, number>): BusLogger {
  const count = (level: string) => (_obj: object, msg?: string) => {
    const key = `${level}: ${msg ?? '?'}`;
    counts[key] = (counts[key] ?? 0) + 1;
  };
  return { info: () => undefined, warn: count('warn'), error: count('error') };
}

/** One onboarding's instants on this process's monotonic clock (ms). */
interface Instants {
  appendStart: number;
  appendAcked?: number;
  /** First call of the assign-persona reactor for its OnboardingAnswered. */
  reactorCalled?: number;
  /** Ack of its PersonaAssigned on the log. */
  logStored?: number;
  /** The personas projection's commit of its row. */
  rowVisible?: number;
}

/**
 * What the replicas do on the log, seen through the bus each reactor is given
 * (only `lastOnSubject` and `append` are wrapped; each replica's assignments run
 * one at a time, so decide time = append start − end of the get-last before it).
 */
class LogProbe {
  readonly getLastMs: number[] = [];
  readonly decideMs: number[] = [];
  /** Each try that reached the publish: whose assignment was last on the log, and when get-last returned it. */
  readonly tries: { lastUser: string; lastEnd: number; decideMs: number }[] = [];
  readonly publishOkMs: number[] = [];
  readonly publishConflictMs: number[] = [];
  attempts = 0;
  conflicts = 0;
  otherAppendErrors = 0;
  appended = 0;
  firstAppend = Number.NaN;
  lastAppend = Number.NaN;
  readonly conflictsByUser = new Map<string, number>();

  constructor(private readonly instants: Map<string, Instants>) {}

  wrap(bus: Bus): Bus {
    const key = GLOBAL_KEYS.personaAssignments;
    let lastEnd = Number.NaN;
    let lastUser: string | undefined;
    const lastOnSubject: Bus['lastOnSubject'] = async (service: ServiceName, k: string) => {
      const t0 = performance.now();
      const last = await bus.lastOnSubject(service, k);
      if (k === key) {
        lastEnd = performance.now();
        lastUser = last?.userId;
        this.getLastMs.push(lastEnd - t0);
        this.attempts++;
      }
      return last;
    };
    const append: Bus['append'] = async (service, k, drafts, expected) => {
      if (k !== key) return bus.append(service, k, drafts, expected);
      const t0 = performance.now();
      if (!Number.isNaN(lastEnd)) {
        this.decideMs.push(t0 - lastEnd);
        if (lastUser !== undefined) this.tries.push({ lastUser, lastEnd, decideMs: t0 - lastEnd });
      }
      const userId = drafts[0]?.userId ?? '?';
      try {
        const results = await bus.append(service, k, drafts, expected);
        const t1 = performance.now();
        this.publishOkMs.push(t1 - t0);
        this.appended++;
        if (Number.isNaN(this.firstAppend)) this.firstAppend = t1;
        this.lastAppend = t1;
        const at = this.instants.get(userId);
        if (at && at.logStored === undefined) at.logStored = t1;
        return results;
      } catch (err) {
        if (err instanceof AppendConflictError) {
          this.conflicts++;
          this.publishConflictMs.push(performance.now() - t0);
          this.conflictsByUser.set(userId, (this.conflictsByUser.get(userId) ?? 0) + 1);
        } else {
          this.otherAppendErrors++;
        }
        throw err;
      }
    };
    return new Proxy(bus, {
      get(target, prop) {
        if (prop === 'lastOnSubject') return lastOnSubject;
        if (prop === 'append') return append;
        const value: unknown = Reflect.get(target, prop, target);
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
  }
}

/** Resolves each onboarding's wait when the personas projection commits its row. */
class RowWatch {
  private readonly waiting = new Map<string, (at: number | undefined) => void>();

  constructor(private readonly instants: Map<string, Instants>) {}

  /** Listener for startProjection's onApplied: called after each committed batch. */
  readonly onApplied = (events: StoredEvent[]): void => {
    const now = performance.now();
    for (const e of events) {
      if (e.type !== Events.PersonaAssigned.name) continue;
      const at = this.instants.get(e.userId);
      if (at && at.rowVisible === undefined) at.rowVisible = now;
      this.waiting.get(e.userId)?.(now);
    }
  };

  /** Registers before the append; resolves with the commit instant, or undefined after the timeout. */
  expect(userId: string): Promise<number | undefined> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(undefined), VISIBLE_TIMEOUT_MS);
      const done = (at: number | undefined): void => {
        clearTimeout(timer);
        this.waiting.delete(userId);
        resolve(at);
      };
      this.waiting.set(userId, done);
    });
  }

  cancel(userId: string): void {
    this.waiting.get(userId)?.(undefined);
  }
}

interface Replica {
  database: Database;
  bus: Bus;
  running: RunningConsumer[];
}

function onboardingDraft(userId: string) {
  return draft(
    Events.OnboardingAnswered,
    {
      answers: {
        preferredName: 'Bench',
        ageBand: '25-34',
        countryOrRegion: 'KR',
        occupationCategory: 'working',
        clientTimezone: 'Asia/Seoul',
        proactiveMessagesEnabled: true,
        suppressedTopics: [],
      },
      aiFriendId: deriveId('ingress', 'ai-friend', userId),
    },
    { id: deriveId('ingress', 'onboarding', userId, 0), userId, occurredAt: systemClock.now(), correlationId: userId },
  );
}

interface LogAudit {
  events: number;
  distinctUsers: number;
  /** Onboardings of this run with no PersonaAssigned on the log. */
  missing: number;
  withResamples: number;
  resamples: Summary;
  thirdMutation: number;
  fallback: number;
  /** Decisions whose recorded window size is not their log position (a stale projection). */
  staleWindows: number;
  capViolations: CapViolation[];
}

async function auditLog(writer: Bus, users: readonly string[]): Promise<LogAudit> {
  const events: StoredEvent[] = [];
  for await (const e of writer.read('orchestrator', { key: GLOBAL_KEYS.personaAssignments })) events.push(e);
  const payloads = events.map((e) => payloadOf(e, Events.PersonaAssigned));
  const onLog = new Set(events.map((e) => e.userId));
  const assignments = events.map((e, i) => ({ combo: comboKey(payloads[i]!.coreArchetype, payloads[i]!.humorMode, payloads[i]!.friendEnergy), assignedAt: e.occurredAt }));
  return {
    events: events.length,
    distinctUsers: onLog.size,
    missing: users.filter((u) => !onLog.has(u)).length,
    withResamples: payloads.filter((p) => p.resamples > 0).length,
    resamples: summarize(payloads.map((p) => p.resamples)),
    thirdMutation: payloads.filter((p) => p.mutatedCategories.length >= 3).length,
    fallback: payloads.filter((p) => p.fallback).length,
    staleWindows: payloads.filter((p, i) => p.windowTotal !== i).length,
    capViolations: capViolations(assignments, PERSONA.antiCloning.windowMs),
  };
}

interface PersonasResult {
  startedAt: string;
  target: { database: string; nats: string; namespace: string; logSubject: string; cpus: number; poolPerReplica: number };
  options: { onboardings: number; replicas: number; concurrency: number };
  run: {
    started: number;
    /** Persona row committed within the timeout. */
    ok: number;
    appendErrors: number;
    timeouts: number;
    wallMs: number;
    /** ok / wall. */
    perSec: number;
    /** OnboardingAnswered append start → personas row committed. */
    latencyMs: Summary;
  };
  phases: {
    onboardings: number;
    appendMs: Summary;
    toReactorMs: Summary;
    reactorToLogMs: Summary;
    logToRowMs: Summary;
  };
  log: {
    /** get-last-by-subject calls on the log = decide() calls. */
    attempts: number;
    appended: number;
    conflicts: number;
    otherAppendErrors: number;
    /** Attempts that appended nothing (decide found the row already there, or threw). */
    noAppend: number;
    conflictsPerAssignment: number;
    onboardingsWithConflict: number;
    maxConflictsOneOnboarding: number;
    /** Appends on the log / (last append − first append). */
    appendsPerSec: number;
    getLastMs: Summary;
    decideMs: Summary;
    /**
     * Per try: from get-last's return to the projection's commit of the assignment
     * it returned (0 when already committed): what waitForPosition must wait out.
     */
    projectionBehindMs: Summary;
    /** Share of tries whose get-last returned an assignment the projection had not committed yet. */
    triesBehind: number;
    /** decide − projectionBehind: poll overshoot + the 2 reads + sampling. */
    decideAfterCommitMs: Summary;
    publishOkMs: Summary;
    publishConflictMs: Summary;
    /** What the buses logged: consumer retries (nak after a failure), dead letters. */
    busLog: Record<string, number>;
    deadLetters: number;
    personasRows: number;
  };
  audit: LogAudit;
  /** This process (all replicas, the writer and the measurement) during the run. */
  process: { eventLoopUtilization: number; cpuMsPerAssignment: number };
  raw: { jetstream: JetStreamCosts; database: DatabaseCosts };
  /** The raw pieces of one assignment's serial section (SERIAL_SECTION), from this run's medians. */
  serialFloorMs: number;
  /** 1000 / serialFloorMs: what the log could take if only the raw pieces cost time. */
  ceilingPerSec: number;
}

async function main(): Promise<number> {
  const namespace = testNamespace('bench');
  const schema = schemaFor(namespace, 'orchestrator');
  const dbUrl = new URL(env.DATABASE_URL);
  const databaseText = `Postgres ${dbUrl.hostname}:${dbUrl.port || 5432}${dbUrl.pathname}`;
  const busLog: Record<string, number> = {};
  const busLogger = countingLogger(busLog);
  const replicas: Replica[] = [];
  let setup: Database | undefined;
  let writer: Bus | undefined;
  let replicasStopped = false;
  const stopReplicas = async (): Promise<void> => {
    if (replicasStopped) return;
    replicasStopped = true;
    await withTimeout('stopping consumers', Promise.all(replicas.flatMap((r) => r.running.map((c) => c.stop()))));
    for (const r of replicas) {
      await withTimeout('closing a replica bus', r.bus.close());
      await withTimeout('closing a replica pool', r.database.close());
    }
  };
  try {
    log(`namespace ${namespace}, ${databaseText}, NATS ${env.NATS_URL}: migrating ${schema}, starting ${opts.replicas} replica(s)`);
    setup = await openDatabase({ url: env.DATABASE_URL, poolSize: 2 });
    await migrateSchema(setup, schema, orchestrator.migrations);
    const setupDb: Kysely<OrchestratorDb> = schemaDb<OrchestratorDb>(setup, schema);
    writer = await Bus.connect({ url: env.NATS_URL, name: 'bench-personas-writer', namespace, logger: busLogger });
    await writer.ensureStreams(['ingress', 'orchestrator']);

    const instants = new Map<string, Instants>();
    const probe = new LogProbe(instants);
    const watch = new RowWatch(instants);
    for (let r = 0; r < opts.replicas; r++) {
      // A pool per replica, as each replica would be a process of its own.
      const database = await openDatabase({ url: env.DATABASE_URL });
      const bus = await Bus.connect({ url: env.NATS_URL, name: `bench-personas-replica-${r}`, namespace, logger: busLogger });
      const replica: Replica = { database, bus, running: [] };
      replicas.push(replica);
      const db = schemaDb<OrchestratorDb>(database, schema);
      const inner = createAssignPersonaReactor({ bus: probe.wrap(bus), db, clock: systemClock });
      const reactor: Reactor = {
        ...inner,
        react(e) {
          if (e.type === Events.OnboardingAnswered.name) {
            const at = instants.get(e.userId);
            if (at && at.reactorCalled === undefined) at.reactorCalled = performance.now();
          }
          return inner.react(e);
        },
      };
      replica.running.push(...(await startProjection(bus, db, 'orchestrator', personasProjection, { onApplied: watch.onApplied })));
      replica.running.push(...(await startReactor(bus, db, 'orchestrator', reactor)));
    }

    const users: string[] = [];
    const latencies: number[] = [];
    let appendErrors = 0;
    let timeouts = 0;
    let next = 0;
    const w = writer;
    const progress = createProgress(opts.onboardings, 'onboardings', 'assignments');
    const lane = async (): Promise<void> => {
      while (!interrupted && next < opts.onboardings) {
        next++;
        const userId = randomUUID();
        users.push(userId);
        const at: Instants = { appendStart: performance.now() };
        instants.set(userId, at);
        const visible = watch.expect(userId);
        try {
          await w.append('ingress', userId, [onboardingDraft(userId)], 0);
          at.appendAcked = performance.now();
        } catch (err) {
          appendErrors++;
          watch.cancel(userId);
          if (appendErrors === 1) log(`OnboardingAnswered append failed: ${err instanceof Error ? err.message : String(err)}`);
        }
        if (at.appendAcked !== undefined) {
          const rowAt = await visible;
          if (rowAt === undefined) timeouts++;
          else latencies.push(rowAt - at.appendStart);
        }
        progress.tick(appendErrors + timeouts);
      }
    };
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    await Promise.all(Array.from({ length: Math.min(opts.concurrency, opts.onboardings) }, lane));
    const wallMs = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const usage = {
      eventLoopUtilization: performance.eventLoopUtilization(elu0).utilization,
      cpuMsPerAssignment: (cpu.user + cpu.system) / 1000 / Math.max(1, latencies.length),
    };
    progress.stop();

    log(`auditing the assignment log (${probe.appended} appends) and the personas table`);
    const audit = await auditLog(writer, users);
    const rowCount = await setupDb.selectFrom('personas').select(setupDb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const dlq = await writer.jsm.streams.info(writer.topology.dlqStream);
    await stopReplicas();

    log(`raw JetStream on one subject: ${RAW.messages} publishes awaiting each ack, ${RAW.messages} with expect.lastSubjectSequence, ${RAW.lookups} get-last lookups`);
    const jetstream = await measureJetStream({ natsUrl: env.NATS_URL, namespace, ...RAW });
    log(`raw Postgres: ${RAW.selects} SELECT 1, ${RAW.inserts} single-row INSERTs (pg.Client)`);
    const pgClient = new pg.Client({ connectionString: env.DATABASE_URL });
    await pgClient.connect();
    let database: DatabaseCosts;
    try {
      database = await measureDatabase(pgClient, { via: 'pg.Client on DATABASE_URL', schema: `${namespace}_benchraw`, ...RAW });
    } finally {
      await pgClient.end();
    }

    const complete = [...instants.values()].filter(
      (a): a is Required<Instants> => a.appendAcked !== undefined && a.reactorCalled !== undefined && a.logStored !== undefined && a.rowVisible !== undefined,
    );
    const conflictCounts = [...probe.conflictsByUser.values()];
    const behind = probe.tries.flatMap((t) => {
      const committed = instants.get(t.lastUser)?.rowVisible;
      return committed === undefined ? [] : [{ behindMs: Math.max(0, committed - t.lastEnd), decideMs: t.decideMs }];
    });
    const serialFloorUs =
      SERIAL_SECTION.lastBySubject * jetstream.lastBySubject.us.p50 +
      SERIAL_SECTION.appends * jetstream.appendExpect.us.p50 +
      SERIAL_SECTION.roundTrips * database.select1.us.p50 +
      SERIAL_SECTION.commits * database.insert.us.p50;
    const result: PersonasResult = {
      startedAt: new Date(performance.timeOrigin + started).toISOString(),
      target: {
        database: databaseText,
        nats: env.NATS_URL,
        namespace,
        logSubject: writer.topology.subject('orchestrator', GLOBAL_KEYS.personaAssignments),
        cpus: availableParallelism(),
        poolPerReplica: 10,
      },
      options: { onboardings: opts.onboardings, replicas: opts.replicas, concurrency: opts.concurrency },
      run: { started: users.length, ok: latencies.length, appendErrors, timeouts, wallMs, perSec: perSecond(latencies.length, wallMs), latencyMs: summarize(latencies) },
      phases: {
        onboardings: complete.length,
        appendMs: summarize(complete.map((a) => a.appendAcked - a.appendStart)),
        toReactorMs: summarize(complete.map((a) => a.reactorCalled - a.appendAcked)),
        reactorToLogMs: summarize(complete.map((a) => a.logStored - a.reactorCalled)),
        logToRowMs: summarize(complete.map((a) => a.rowVisible - a.logStored)),
      },
      log: {
        attempts: probe.attempts,
        appended: probe.appended,
        conflicts: probe.conflicts,
        otherAppendErrors: probe.otherAppendErrors,
        noAppend: probe.attempts - probe.appended - probe.conflicts - probe.otherAppendErrors,
        conflictsPerAssignment: probe.conflicts / Math.max(1, probe.appended),
        onboardingsWithConflict: conflictCounts.length,
        maxConflictsOneOnboarding: conflictCounts.reduce((m, n) => Math.max(m, n), 0),
        appendsPerSec: perSecond(probe.appended - 1, probe.lastAppend - probe.firstAppend),
        getLastMs: summarize(probe.getLastMs),
        decideMs: summarize(probe.decideMs),
        projectionBehindMs: summarize(behind.map((b) => b.behindMs)),
        triesBehind: behind.filter((b) => b.behindMs > 0).length / Math.max(1, behind.length),
        decideAfterCommitMs: summarize(behind.map((b) => b.decideMs - b.behindMs)),
        publishOkMs: summarize(probe.publishOkMs),
        publishConflictMs: summarize(probe.publishConflictMs),
        busLog,
        deadLetters: dlq.state.messages,
        personasRows: Number(rowCount.n),
      },
      audit,
      process: usage,
      raw: { jetstream, database },
      serialFloorMs: serialFloorUs / 1000,
      ceilingPerSec: serialFloorUs > 0 ? 1e6 / serialFloorUs : Number.NaN,
    };
    process.stdout.write(`${renderReport(result)}\n`);
    if (opts.json) {
      await writeFile(opts.json, `${JSON.stringify(result, null, 2)}\n`);
      log(`results written to ${opts.json}`);
    }
    if (interrupted) log('interrupted: the figures above cover only the onboardings that ran');
    const failed =
      audit.capViolations.length > 0 ||
      appendErrors + timeouts > 0 ||
      audit.missing > 0 ||
      audit.events !== audit.distinctUsers ||
      result.log.deadLetters > 0 ||
      interrupted;
    return failed ? 1 : 0;
  } finally {
    await stopReplicas();
    if (writer) await withTimeout('closing the writer bus', writer.close());
    if (setup) await withTimeout('closing the setup pool', setup.close());
    await withTimeout(
      'deleting streams',
      cleanupNamespace(env.NATS_URL, namespace).then((names) => log(`deleted streams: ${names.join(', ') || 'none'}`)),
    );
    await withTimeout(
      'dropping schemas',
      dropSchemas(env.DATABASE_URL, namespace).then((names) => log(`dropped schemas: ${names.join(', ') || 'none'}`)),
    );
  }
}

// ── report ──────────────────────────────────────────────────────────────────

const pct = (n: number, of: number): string => `${fmt((100 * n) / Math.max(1, of), 1)} %`;
const ms = (v: number, digits = 1): string => `${fmt(v, digits)} ms`;

function renderReport(r: PersonasResult): string {
  const out: string[] = [];
  const t = r.target;
  out.push(`Hearth persona-assignment benchmark — ${r.options.replicas} orchestrator replica(s) in this process (personas projection + assign-persona reactor each), one global log`);
  out.push(
    `database: ${t.database} (a pool of ${t.poolPerReplica} per replica, one schema); NATS ${t.nats}; namespace ${t.namespace}; ${t.cpus} CPUs; ` +
      `onboardings ${r.options.onboardings}, replicas ${r.options.replicas}, concurrency ${r.options.concurrency}`,
  );
  out.push(`log subject: ${t.logSubject}`);
  out.push('');

  const run = r.run;
  const left: string[][] = [
    ['Persona assignment', 'this run'],
    ['assignments/s (rows visible / wall)', fmt(run.perSec, 1)],
    ['latency p50 (append → row committed)', ms(run.latencyMs.p50)],
    ['latency p90', ms(run.latencyMs.p90)],
    ['latency p99', ms(run.latencyMs.p99)],
    ['latency max', ms(run.latencyMs.max)],
    ['failed (append error / no row in 60 s)', `${run.appendErrors} / ${run.timeouts} of ${run.started}`],
    ['wall time', `${fmt(run.wallMs / 1000, 2)} s`],
    ['log appends/s (first → last append)', fmt(r.log.appendsPerSec, 1)],
    ['event loop busy (replicas + writer)', `${fmt(100 * r.process.eventLoopUtilization, 0)} %`],
    ['CPU of this process', `${fmt(r.process.cpuMsPerAssignment, 2)} ms/assignment`],
  ];
  const js = r.raw.jetstream;
  const db = r.raw.database;
  const right: string[][] = [
    ['Raw piece, same run, same servers', 'rate', 'p50', 'p99'],
    rawRow('JS publish, await ack (200 B, one subject)', js.publishAck, 'msg/s'),
    rawRow('JS publish + expect.lastSubjSeq (one subject)', js.appendExpect, 'msg/s'),
    rawRow('JS get-last-by-subject (that subject)', js.lastBySubject, 'req/s'),
    rawRow('DB SELECT 1 round trip', db.select1, 'q/s'),
    rawRow('DB INSERT 1 row, autocommit', db.insert, 'rows/s'),
  ];
  out.push(...sideBySide(table(left), table(right)));
  out.push(
    `  (raw: sequential, ${js.publishAck.count} msgs each on stream ${js.stream}; DB: ${db.via}, ${db.select1.count} SELECTs, ${db.insert.count} INSERTs; ` +
      `${Object.entries(db.settings).map(([k, v]) => `${k}=${v}`).join(', ')})`,
  );
  out.push(
    '  (latency: from just before the OnboardingAnswered append to the return of the personas projection\'s COMMIT of that user\'s row, ' +
      'taken in the projection\'s onApplied hook: no polling, no extra query)',
  );
  out.push('');

  const p = r.phases;
  const l = r.log;
  const row = (name: string, s: Summary): string[] => [name, String(s.count), fmt(s.p50, 2), fmt(s.p90, 2), fmt(s.p99, 2), fmt(s.max, 2)];
  out.push(
    ...table([
      [`Where an assignment's time goes (ms, this process's monotonic clock)`, 'n', 'p50', 'p90', 'p99', 'max'],
      row('OnboardingAnswered append → acked (ingress stream)', p.appendMs),
      row("acked → reactor called (delivery, replica's previous batch, position read)", p.toReactorMs),
      row('reactor called → PersonaAssigned stored (queue in the replica, tries)', p.reactorToLogMs),
      row('PersonaAssigned stored → row committed (personas projection)', p.logToRowMs),
    ]),
  );
  out.push('');
  out.push(
    ...table([
      ['One try on the log, per replica one at a time (ms)', 'n', 'p50', 'p90', 'p99', 'max'],
      row('get-last-by-subject of the log', l.getLastMs),
      row('decide: projection wait + 2 reads + sampling', l.decideMs),
      row(`  of it, the projection behind the log (${fmt(100 * l.triesBehind, 0)} % of tries)`, l.projectionBehindMs),
      row('  of it, after that commit (poll overshoot, 2 reads, sampling)', l.decideAfterCommitMs),
      row('conditional publish, accepted', l.publishOkMs),
      row('conditional publish, conflict (wrong last seq)', l.publishConflictMs),
    ]),
  );
  out.push('');
  const busLog = Object.entries(l.busLog).map(([k, v]) => `${k} ×${v}`).join(', ') || 'none';
  out.push(
    `contention: ${l.attempts} tries (get-last + decide), ${l.appended} appended, ${l.conflicts} conflicts ` +
      `(${fmt(l.conflictsPerAssignment, 2)} per assignment; ${pct(l.onboardingsWithConflict, l.appended)} of assignments had ≥ 1, max ${l.maxConflictsOneOnboarding} on one), ` +
      `${l.noAppend} tries that appended nothing, ${l.otherAppendErrors} other append errors`,
  );
  out.push(`consumers: bus log ${busLog}; dead letters ${l.deadLetters}; personas rows ${l.personasRows}`);
  out.push('');

  const a = r.audit;
  out.push(
    ...table([
      [`The log (${a.events} PersonaAssigned, ${a.distinctUsers} users, ${a.missing} onboardings missing)`, 'assignments', 'share'],
      ['needed resamples (resamples > 0)', String(a.withResamples), pct(a.withResamples, a.events)],
      ['a third mutated category', String(a.thirdMutation), pct(a.thirdMutation, a.events)],
      ['the fallback combo', String(a.fallback), pct(a.fallback, a.events)],
      ['stale window (windowTotal ≠ log position)', String(a.staleWindows), pct(a.staleWindows, a.events)],
    ]),
  );
  out.push(`  resamples per assignment: mean ${fmt(a.resamples.mean, 2)}, p99 ${fmt(a.resamples.p99, 0)}, max ${fmt(a.resamples.max, 0)}`);
  out.push(
    a.capViolations.length === 0
      ? 'capViolations(log, 24 h window): [] — OK'
      : `capViolations(log, 24 h window): ${a.capViolations.length} — FAIL\n${JSON.stringify(a.capViolations, null, 2)}`,
  );
  out.push('');
  const tries = l.attempts / Math.max(1, l.appended);
  out.push(
    `serial section: one log append every ${ms(1000 / l.appendsPerSec, 2)} (${fmt(l.appendsPerSec, 1)}/s), ${fmt(tries, 2)} tries per append; ` +
      `a try = get-last p50 ${ms(l.getLastMs.p50, 2)} + decide p50 ${ms(l.decideMs.p50, 2)} + publish p50 ${ms(l.publishOkMs.p50, 2)}; ` +
      `a decision first waits (waitForPosition, polled every 2→25 ms) for the personas projection to commit the log's last append, ` +
      `which lags the log by p50 ${ms(p.logToRowMs.p50, 2)} (consumer hand-off + transaction).`,
  );
  out.push(
    `raw floor of that section (get-last + 3 SELECTs + conditional publish + the projection's 5 round trips and commit; ` +
      `no consumer hand-off, no poll interval, no event loop): ${ms(r.serialFloorMs, 2)} → a ceiling of ≈ ${fmt(r.ceilingPerSec, 0)} assignments/s; ` +
      `measured ${fmt(run.perSec, 1)}/s = ${fmt((100 * run.perSec) / r.ceilingPerSec, 0)} % of it; raw conditional publish p50 ${ms(js.appendExpect.us.p50 / 1000, 2)} ` +
      `= ${fmt((100 * js.appendExpect.us.p50) / (1000 * (1000 / l.appendsPerSec)), 1)} % of the interval between appends.`,
  );
  return out.join('\n');
}

// Exit explicitly: keep-alive sockets and library timers must not hold the process.
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
