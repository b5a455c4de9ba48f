import type { PhaseBreakdown } from './phases.js';
import type { QueryCounts, StreamDelta } from './probes.js';
import type { DatabaseCosts, JetStreamCosts, RateFigure } from './raw-costs.js';
import type { Summary } from './stats.js';
import { CRITICAL_PATH, TURN_COST_FROM_CODE } from './turn-cost.js';

/** Everything one run measured; also what `--json` writes. */
export interface BenchResult {
  startedAt: string;
  target: {
    mode: 'in-process' | 'external';
    url: string;
    /** Where the app's data lives, without credentials. */
    database: string;
    databaseKind: 'postgres' | 'pglite';
    nats: string;
    /** Namespace of the in-process Hearth and of the raw figures' stream and schema. */
    namespace: string;
    cpus: number;
  };
  options: { concurrency: number; turns: number; warmup: number; users: number };
  setup: { users: number; wallMs: number; notActive: number };
  warmup: { turns: number; errors: number; wallMs: number };
  turns: {
    measured: number;
    ok: number;
    errors: number;
    errorsByCode: Record<string, number>;
    wallMs: number;
    perSec: number;
    latencyMs: Summary;
  };
  raw: { jetstream: JetStreamCosts; database: DatabaseCosts };
  perTurn: {
    fromCode: typeof TURN_COST_FROM_CODE;
    /** Counted in this run (in-process only). */
    measured?: {
      appends: number;
      deliveries: number;
      redeliveries: number;
      projectionTransactions: number;
      autocommitWrites: number;
      writeCommits: number;
      statements: number;
      selects: number;
      rollbacks: number;
      dbBusyMs: number;
    };
    /** The statements most sent, by text, per turn (in-process only). */
    statementTexts?: { text: string; perTurn: number }[];
  };
  /** Where the time of a turn goes, from JetStream's server timestamps (in-process only). */
  phases?: PhaseBreakdown;
  /** This benchmark process during the measured turns (with --url: the client only). */
  process: { eventLoopUtilization: number; cpuMsPerTurn: number };
  criticalPathFloorMs: number;
  interpretation: string;
}

/** TOOLCHAIN.md "Raw cost of the pieces", for comparison. */
const REFERENCE = {
  publishAck: '5.4k msg/s, p50 170 µs',
  appendExpect: '13.7k msg/s (200 in flight)',
  lastBySubject: '—',
  select1: 'p50 57 µs',
  insert: '3.6k rows/s',
} as const;

export function perTurnMeasured(turns: number, streams: StreamDelta, q: QueryCounts): NonNullable<BenchResult['perTurn']['measured']> {
  const per = (n: number): number => n / Math.max(1, turns);
  return {
    appends: per(streams.appends),
    deliveries: per(streams.deliveries),
    redeliveries: per(streams.redeliveries),
    projectionTransactions: per(q.commits),
    autocommitWrites: per(q.autocommitWrites),
    writeCommits: per(q.commits + q.autocommitWrites),
    statements: per(q.statements),
    selects: per(q.selects),
    rollbacks: per(q.rollbacks),
    dbBusyMs: per(q.busyMs),
  };
}

/** The raw pieces of a turn's critical path, in ms, from this run's medians. */
export function criticalPathFloorMs(js: JetStreamCosts, db: DatabaseCosts): number {
  const us =
    CRITICAL_PATH.lastBySubject * js.lastBySubject.us.p50 +
    CRITICAL_PATH.appends * js.appendExpect.us.p50 +
    CRITICAL_PATH.roundTrips * db.select1.us.p50 +
    CRITICAL_PATH.commits * db.insert.us.p50;
  return us / 1000;
}

export function interpretation(r: Omit<BenchResult, 'interpretation'>): string {
  const m = r.perTurn.measured;
  const appends = m ? fmt(m.appends, 1) : String(TURN_COST_FROM_CODE.appends);
  const commits = m ? fmt(m.writeCommits, 1) : String(TURN_COST_FROM_CODE.writeCommits);
  const statements = m ? fmt(m.statements, 0) : String(TURN_COST_FROM_CODE.statements);
  const p50 = r.turns.latencyMs.p50;
  const ratio = (p50 * 1000) / r.raw.jetstream.publishAck.us.p50;
  const floorShare = (100 * r.criticalPathFloorMs) / p50;
  let where = '';
  if (r.target.mode === 'in-process') {
    const elu = r.process.eventLoopUtilization;
    where =
      `; the Hearth process spent ${fmt(r.process.cpuMsPerTurn, 1)} ms of CPU per turn with its event loop ${fmt(100 * elu, 0)}% busy, ` +
      (elu >= 0.75 ? 'so the time goes to CPU in the one Node process, not to waiting on NATS or the database' : 'so most of the rest is waiting between hand-offs');
  }
  return (
    `one turn ≈ ${appends} JetStream appends (each after a get-last-by-subject) + ${commits} ${dbName(r.target.databaseKind)} commits (${statements} statements); ` +
    `p50 turn = ${fmt(ratio, 0)}× the p50 publish-ack; the raw pieces on its critical path add up to ` +
    `${fmt(r.criticalPathFloorMs, 1)} ms = ${fmt(floorShare, 0)}% of the p50 turn${where}`
  );
}

export function renderReport(r: BenchResult): string {
  const out: string[] = [];
  const t = r.target;
  out.push(
    `Hearth turn benchmark — ${t.mode === 'in-process' ? 'in-process Hearth (all services), client in the same Node process' : `external Hearth at ${t.url}`}`,
  );
  out.push(
    `database: ${t.database}; NATS ${t.nats}; namespace ${t.namespace}; ${t.cpus} CPUs; ` +
      `concurrency ${r.options.concurrency}, users ${r.options.users}, warmup ${r.options.warmup}, turns ${r.options.turns}`,
  );
  out.push(`setup: ${r.setup.users} users onboarded and activated in ${fmt(r.setup.wallMs / 1000, 1)} s` + (r.setup.notActive ? ` (${r.setup.notActive} NOT ACTIVE)` : ''));
  out.push('');

  const tr = r.turns;
  const left: string[][] = [
    ['Turn via HTTP API', 'this run'],
    ['turns/s (ok turns / wall)', fmt(tr.perSec, 1)],
    ['latency p50', `${fmt(tr.latencyMs.p50, 1)} ms`],
    ['latency p90', `${fmt(tr.latencyMs.p90, 1)} ms`],
    ['latency p99', `${fmt(tr.latencyMs.p99, 1)} ms`],
    ['latency max', `${fmt(tr.latencyMs.max, 1)} ms`],
    ['errors', `${tr.errors} / ${tr.measured}`],
    ['wall time', `${fmt(tr.wallMs / 1000, 2)} s`],
    [t.mode === 'in-process' ? 'event loop busy (Hearth + client)' : 'event loop busy (client)', `${fmt(100 * r.process.eventLoopUtilization, 0)} %`],
    [t.mode === 'in-process' ? 'CPU of Hearth + client' : 'CPU of the client', `${fmt(r.process.cpuMsPerTurn, 1)} ms/turn`],
  ];
  const js = r.raw.jetstream;
  const db = r.raw.database;
  // The client's CPU per operation beside each: what a turn's pieces cost this process at the least.
  const withCpu = (row: string[], f: RateFigure): string[] => [...row.slice(0, 4), f.cpuUs === undefined ? '—' : `${fmt(f.cpuUs, 0)} µs`, ...row.slice(4)];
  const right: string[][] = [
    ['Raw piece, same run, same servers', 'rate', 'p50', 'p99', 'client CPU', 'TOOLCHAIN.md'],
    withCpu(rawRow('JS publish, await ack (200 B, file)', js.publishAck, 'msg/s', REFERENCE.publishAck), js.publishAck),
    withCpu(rawRow('JS append: Msg-Id + expect.lastSubjSeq', js.appendExpect, 'msg/s', REFERENCE.appendExpect), js.appendExpect),
    withCpu(rawRow('JS get-last-by-subject', js.lastBySubject, 'req/s', REFERENCE.lastBySubject), js.lastBySubject),
    ...(js.consumeAck ? [withCpu(rawRow('JS delivery to a pull consumer, acked', js.consumeAck, 'msg/s', '—'), js.consumeAck)] : []),
    withCpu(rawRow('DB SELECT 1 round trip', db.select1, 'q/s', REFERENCE.select1), db.select1),
    withCpu(rawRow('DB INSERT 1 row, autocommit', db.insert, 'rows/s', REFERENCE.insert), db.insert),
  ];
  out.push(...sideBySide(table(left), table(right)));
  out.push(
    `  (JetStream: sequential on stream ${js.stream}, ${js.publishAck.count} msgs each, per-user subjects for the append; ` +
      `DB: ${db.via}, ${db.select1.count} SELECTs, ${db.insert.count} INSERTs; ` +
      `${Object.entries(db.settings).map(([k, v]) => `${k}=${v}`).join(', ')})`,
  );
  if (tr.errors > 0) out.push(`  errors by code: ${Object.entries(tr.errorsByCode).map(([k, v]) => `${k} ×${v}`).join(', ')}`);
  out.push('');

  const code = r.perTurn.fromCode;
  const m = r.perTurn.measured;
  const mv = (v: number | undefined, digits = 2): string => (v === undefined ? 'n/a' : fmt(v, digits));
  out.push(
    ...table([
      ['Per turn', 'from the code (ingress, router, orchestrator)', m ? 'measured (this run, every service)' : 'measured (in-process only)'],
      ['JetStream appends', String(code.appends), mv(m?.appends)],
      ['get-last-by-subject lookups', String(code.lastBySubject), 'not counted'],
      ['consumer deliveries (each acked)', String(code.deliveries), m ? `${mv(m.deliveries)} (${mv(m.redeliveries)} redelivered)` : 'n/a'],
      ['projection transactions (COMMIT)', String(code.projectionTransactions), mv(m?.projectionTransactions)],
      ['reactor position writes (autocommit)', String(code.reactorPositionWrites), mv(m?.autocommitWrites)],
      [`${dbName(t.databaseKind)} write commits`, String(code.writeCommits), mv(m?.writeCommits)],
      ['SQL statements (of which SELECT)', String(code.statements), m ? `${mv(m.statements, 1)} (${mv(m.selects, 1)})` : 'n/a'],
      ['summed statement time', '—', m ? `${mv(m.dbBusyMs, 2)} ms` : 'n/a'],
      ['raw critical-path floor', `${CRITICAL_PATH.lastBySubject} get-last + ${CRITICAL_PATH.appends} appends + ${CRITICAL_PATH.roundTrips} round trips + ${CRITICAL_PATH.commits} commit`, `${fmt(r.criticalPathFloorMs, 2)} ms`],
    ]),
  );
  if (r.perTurn.statementTexts && r.perTurn.statementTexts.length > 0) {
    out.push('');
    out.push(
      ...table([
        ['Statements a turn sends, most sent first (this run; `$…` a list of parameters)', 'per turn'],
        ...r.perTurn.statementTexts.map((s) => [clip(s.text, 150), fmt(s.perTurn, 2)]),
      ]),
    );
  }
  if (r.phases) {
    const p = r.phases;
    const row = (name: string, s: Summary): string[] => [name, fmt(s.p50, 1), fmt(s.p90, 1), fmt(s.p99, 1), fmt(s.max, 1)];
    out.push('');
    out.push(
      ...table([
        [`Where a turn's time goes (ms; JetStream server timestamps, ${p.turns} turns)`, 'p50', 'p90', 'p99', 'max'],
        row('request → TurnReceived stored (HTTP, reads, get-last, append)', p.requestToReceived),
        row('TurnReceived → TurnRouted stored (router)', p.receivedToRouted),
        row('TurnRouted → TurnCompleted stored (orchestrator)', p.routedToCompleted),
        row('TurnCompleted → reply at client (turns projection, wake, read, HTTP)', p.completedToReply),
      ]),
    );
  }
  out.push('');
  out.push(r.interpretation);
  return out.join('\n');
}

function clip(text: string, max: number): string {
  const oneLine = text.replace(/\s+/g, ' ');
  return oneLine.length <= max ? oneLine : `${oneLine.slice(0, max - 1)}…`;
}

function dbName(kind: BenchResult['target']['databaseKind']): string {
  return kind === 'pglite' ? 'PGlite' : 'Postgres';
}

/** One raw-cost row: name, rate, p50, p99, and the TOOLCHAIN.md reference when given. */
export function rawRow(name: string, f: RateFigure, unit: string, reference?: string): string[] {
  const row = [name, `${fmtK(f.perSec)} ${unit}`, `${fmt(f.us.p50, 0)} µs`, `${fmt(f.us.p99, 0)} µs`];
  return reference === undefined ? row : [...row, reference];
}

/** Pads columns (by default the first left-aligned, the others right-aligned); a rule under the header. */
export function table(rows: string[][], align: readonly ('left' | 'right')[] = []): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const left = (i: number): boolean => (align[i] ?? (i === 0 ? 'left' : 'right')) === 'left';
  const line = (row: string[]): string => row.map((c, i) => (left(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  const [head, ...body] = rows;
  return [line(head!), widths.map((w) => '─'.repeat(w)).join('  '), ...body.map(line)];
}

/** Two tables next to each other, split by a vertical rule. */
export function sideBySide(a: string[], b: string[]): string[] {
  const width = Math.max(...a.map((l) => l.length));
  return Array.from({ length: Math.max(a.length, b.length) }, (_, i) => `${(a[i] ?? '').padEnd(width)}  │  ${b[i] ?? ''}`.trimEnd());
}

export function fmt(v: number, digits: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  return v.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
}

function fmtK(v: number): string {
  if (!Number.isFinite(v)) return 'n/a';
  return v >= 1000 ? `${fmt(v / 1000, 1)}k` : fmt(v, 0);
}

/** One target of issue 20: a figure measured in this run against its limit. */
export interface TargetCheck {
  /** What is measured, e.g. `CPU per turn (all services, one process)`. */
  name: string;
  measured: number;
  unit: string;
  /** `max`: the figure must stay at or under the limit; `min`: at or over it. */
  bound: 'max' | 'min';
  limit: number;
  /** How the limit was set when it is not a plain number, e.g. `4 × raw floor`. */
  limitText?: string;
  /** The raw figure of the same run it stands beside, e.g. `raw critical-path floor 2.10 ms`. */
  raw: string;
  met: boolean;
}

/** A target's verdict; a figure that could not be measured (NaN) is not met. */
export function checkTarget(t: Omit<TargetCheck, 'met'>): TargetCheck {
  const met = Number.isFinite(t.measured) && (t.bound === 'max' ? t.measured <= t.limit : t.measured >= t.limit);
  return { ...t, met };
}

/** The figure with as many decimals as a figure of that size needs to be compared (none for a whole number). */
export function fmtFigure(v: number, unit: string): string {
  const digits = Number.isInteger(v) || Math.abs(v) >= 100 ? 0 : Math.abs(v) >= 10 ? 1 : 2;
  return `${fmt(v, digits)} ${unit}`.trimEnd();
}

/** A "Targets" block: each target, the measured figure, its limit, the raw figure beside it, met or not. */
export function renderTargets(title: string, checks: readonly TargetCheck[]): string[] {
  const rows = checks.map((c) => [
    c.name,
    fmtFigure(c.measured, c.unit),
    `${c.bound === 'max' ? '≤' : '≥'} ${fmtFigure(c.limit, c.unit)}${c.limitText ? ` (${c.limitText})` : ''}`,
    c.raw,
    c.met ? 'met' : 'NOT MET',
  ]);
  const met = checks.filter((c) => c.met).length;
  return [
    ...table([[title, 'measured', 'target', 'raw figure, same run', 'verdict'], ...rows], ['left', 'right', 'left', 'left', 'left']),
    `  ${met} of ${checks.length} targets met`,
  ];
}

/** issue 20's targets for a turn: the same run, this machine, every service live. */
export const TURN_TARGETS = {
  /** CPU per turn of the one process with every service, in ms. */
  cpuMsPerTurn: 8,
  /** Turns per second at `loadedConcurrency`, with no error. */
  turnsPerSec: 150,
  loadedConcurrency: 16,
  /** At concurrency 1, p50 at most this multiple of the raw critical-path floor. */
  p50FloorMultiple: 4,
  /** At concurrency 1, in ms. */
  p99Ms: 40,
} as const;

/** One measurement for the targets: turns at a fixed concurrency after their own warmup. */
export interface TargetRun {
  concurrency: number;
  users: number;
  warmup: number;
  turns: number;
  ok: number;
  errors: number;
  errorsByCode: Record<string, number>;
  wallMs: number;
  perSec: number;
  latencyMs: Summary;
  /** This process (Hearth and client, or the client alone) during the measured turns. */
  cpuMsPerTurn: number;
  eventLoopUtilization: number;
}

export interface TurnTargetsInput {
  databaseKind: BenchResult['target']['databaseKind'];
  /** At TURN_TARGETS.loadedConcurrency. */
  loaded: TargetRun;
  /** At concurrency 1. */
  single: TargetRun;
  /** The raw critical-path floor of this run, in ms. */
  floorMs: number;
  /** This run's raw JetStream append with expect (for the throughput the log alone allows). */
  appendsPerSec: number;
  /** The same client against a trivial HTTP server in another process: the client's own CPU per turn. */
  client?: TargetRun;
  /** What the raw pieces a turn uses would cost this process alone (see {@link rawPiecesCpu}). */
  rawPieces?: RawPiecesCpu;
}

/** The client CPU of one turn's raw pieces, each at its raw series' cost in this run: a floor under the CPU per turn. */
export interface RawPiecesCpu {
  ms: number;
  /** How it adds up, e.g. `70.8 statements × 108 µs + …`. */
  text: string;
}

/**
 * The CPU one turn's counted pieces would take at their raw cost (a `SELECT 1`
 * for each statement, a bare append, get-last and delivery): what no change to
 * Hearth's own code can go under without sending fewer of them. Undefined
 * without counts (an external Hearth) or without the raw CPU figures.
 */
export function rawPiecesCpu(m: NonNullable<BenchResult['perTurn']['measured']>, js: JetStreamCosts, db: DatabaseCosts): RawPiecesCpu | undefined {
  const parts: [number, string, number | undefined][] = [
    [m.statements, 'statements', db.select1.cpuUs],
    [m.appends, 'appends', js.appendExpect.cpuUs],
    [TURN_COST_FROM_CODE.lastBySubject, 'get-last', js.lastBySubject.cpuUs],
    [m.deliveries, 'deliveries', js.consumeAck?.cpuUs],
  ];
  if (parts.some(([, , us]) => us === undefined)) return undefined;
  const ms = parts.reduce((sum, [n, , us]) => sum + (n * us!) / 1000, 0);
  return { ms, text: parts.map(([n, name, us]) => `${fmt(n, 1)} ${name} × ${fmt(us!, 0)} µs`).join(' + ') };
}

/** The turn targets of issue 20, each with its measured and raw figures. CPU is the whole process's, client included. */
export function turnTargets(i: TurnTargetsInput): TargetCheck[] {
  const t = TURN_TARGETS;
  const { loaded, single } = i;
  const client = i.client ? `; of it the client ${fmt(i.client.cpuMsPerTurn, 2)} ms (against a trivial server)` : '; the client not measured apart';
  const cpuCeiling = 1000 / loaded.cpuMsPerTurn;
  const logCeiling = i.appendsPerSec / TURN_COST_FROM_CODE.appends;
  return [
    checkTarget({
      name: `CPU per turn, Hearth + client in one process (c=${loaded.concurrency})`,
      measured: loaded.cpuMsPerTurn,
      unit: 'ms',
      bound: 'max',
      limit: t.cpuMsPerTurn,
      raw: `${fmt(100 * loaded.eventLoopUtilization, 0)} % event loop busy${client}${i.rawPieces ? `; the raw pieces alone ${fmt(i.rawPieces.ms, 1)} ms` : ''}`,
    }),
    checkTarget({
      name: `turns/s at concurrency ${loaded.concurrency}`,
      measured: loaded.perSec,
      unit: 'turns/s',
      bound: 'min',
      limit: t.turnsPerSec,
      raw: `CPU-bound ceiling ${fmt(cpuCeiling, 0)}/s (1000 ÷ CPU ms); raw appends ÷ ${TURN_COST_FROM_CODE.appends} = ${fmt(logCeiling, 0)}/s`,
    }),
    checkTarget({
      name: `errors at concurrency ${loaded.concurrency}`,
      measured: loaded.errors,
      unit: `of ${loaded.turns}`,
      bound: 'max',
      limit: 0,
      raw: Object.keys(loaded.errorsByCode).length ? Object.entries(loaded.errorsByCode).map(([k, v]) => `${k} ×${v}`).join(', ') : '—',
    }),
    checkTarget({
      name: 'turn p50 at concurrency 1',
      measured: single.latencyMs.p50,
      unit: 'ms',
      bound: 'max',
      limit: t.p50FloorMultiple * i.floorMs,
      limitText: `${t.p50FloorMultiple} × floor`,
      raw: `raw critical-path floor ${fmt(i.floorMs, 2)} ms (p50 = ${fmt(single.latencyMs.p50 / i.floorMs, 1)} × floor)`,
    }),
    checkTarget({
      name: 'turn p99 at concurrency 1',
      measured: single.latencyMs.p99,
      unit: 'ms',
      bound: 'max',
      limit: t.p99Ms,
      raw: `raw critical-path floor ${fmt(i.floorMs, 2)} ms`,
    }),
  ];
}

/** The "Targets (issue 20)" block of bench:turn: the verdicts, then the runs they come from. */
export function renderTurnTargets(i: TurnTargetsInput): string {
  const run = (name: string, r: TargetRun): string =>
    `  ${name}: ${r.turns} turns after ${r.warmup} warmup, ${r.users} user${r.users === 1 ? '' : 's'}: ${fmt(r.perSec, 1)} turns/s, p50 ${fmt(r.latencyMs.p50, 1)} ms, ` +
    `p99 ${fmt(r.latencyMs.p99, 1)} ms, CPU ${fmt(r.cpuMsPerTurn, 2)} ms/turn, event loop ${fmt(100 * r.eventLoopUtilization, 0)} %, errors ${r.errors}`;
  const out = [
    ...renderTargets(`Targets (issue 20), ${dbName(i.databaseKind)}, same run`, turnTargets(i)),
    run(`concurrency ${i.loaded.concurrency} (Hearth + client)`, i.loaded),
    run('concurrency 1 (Hearth + client)', i.single),
    ...(i.rawPieces ? [`  the raw pieces of one turn alone (probed run's counts, each at its raw client CPU in this run): ${i.rawPieces.text} = ${fmt(i.rawPieces.ms, 1)} ms`] : []),
  ];
  if (i.client) {
    const share = i.client.cpuMsPerTurn / i.loaded.cpuMsPerTurn;
    out.push(run(`client alone, concurrency ${i.client.concurrency}, against a trivial HTTP server in another process`, i.client));
    out.push(
      `  the client is ${fmt(100 * share, 0)} % of the CPU per turn above; Hearth alone would be about ${fmt(i.loaded.cpuMsPerTurn - i.client.cpuMsPerTurn, 2)} ms/turn ` +
        '(an estimate beside the verdict, not the verdict: the target is judged on what the one process spent)',
    );
  }
  return out.join('\n');
}
