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
  const right: string[][] = [
    ['Raw piece, same run, same servers', 'rate', 'p50', 'p99', 'TOOLCHAIN.md'],
    rawRow('JS publish, await ack (200 B, file)', js.publishAck, 'msg/s', REFERENCE.publishAck),
    rawRow('JS append: Msg-Id + expect.lastSubjSeq', js.appendExpect, 'msg/s', REFERENCE.appendExpect),
    rawRow('JS get-last-by-subject', js.lastBySubject, 'req/s', REFERENCE.lastBySubject),
    rawRow('DB SELECT 1 round trip', db.select1, 'q/s', REFERENCE.select1),
    rawRow('DB INSERT 1 row, autocommit', db.insert, 'rows/s', REFERENCE.insert),
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
      ['Per turn', 'from the code', m ? 'measured (this run)' : 'measured (in-process only)'],
      ['JetStream appends', String(code.appends), mv(m?.appends)],
      ['get-last-by-subject lookups', String(code.lastBySubject), 'not counted'],
      ['consumer deliveries (each ackAck-ed)', String(code.deliveries), m ? `${mv(m.deliveries)} (${mv(m.redeliveries)} redelivered)` : 'n/a'],
      ['projection transactions (COMMIT)', String(code.projectionTransactions), mv(m?.projectionTransactions)],
      ['reactor position writes (autocommit)', String(code.reactorPositionWrites), mv(m?.autocommitWrites)],
      [`${dbName(t.databaseKind)} write commits`, String(code.writeCommits), mv(m?.writeCommits)],
      ['SQL statements (of which SELECT)', String(code.statements), m ? `${mv(m.statements, 1)} (${mv(m.selects, 1)})` : 'n/a'],
      ['summed statement time', '—', m ? `${mv(m.dbBusyMs, 2)} ms` : 'n/a'],
      ['raw critical-path floor', `${CRITICAL_PATH.lastBySubject} get-last + ${CRITICAL_PATH.appends} appends + ${CRITICAL_PATH.roundTrips} round trips + ${CRITICAL_PATH.commits} commit`, `${fmt(r.criticalPathFloorMs, 2)} ms`],
    ]),
  );
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

function dbName(kind: BenchResult['target']['databaseKind']): string {
  return kind === 'pglite' ? 'PGlite' : 'Postgres';
}

/** One raw-cost row: name, rate, p50, p99, and the TOOLCHAIN.md reference when given. */
export function rawRow(name: string, f: RateFigure, unit: string, reference?: string): string[] {
  const row = [name, `${fmtK(f.perSec)} ${unit}`, `${fmt(f.us.p50, 0)} µs`, `${fmt(f.us.p99, 0)} µs`];
  return reference === undefined ? row : [...row, reference];
}

/** Pads columns: the first left-aligned, the others right-aligned; a rule under the header. */
export function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((c, i) => (widths[i] = Math.max(widths[i] ?? 0, c.length)));
  const line = (row: string[]): string => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
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
