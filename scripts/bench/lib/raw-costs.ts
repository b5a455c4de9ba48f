import { randomUUID } from 'node:crypto';
import { connect, headers as natsHeaders } from '@nats-io/transport-node';
import { AckPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamClient, type JetStreamManager } from '@nats-io/jetstream';
import { perSecond, summarize, type Summary } from './stats.js';

/** A sequential series of one operation: how many, how long in all, and each one in µs. */
export interface RateFigure {
  count: number;
  wallMs: number;
  perSec: number;
  us: Summary;
  /** This process's CPU (user + system) per operation, in µs: what one costs the client, beside what it takes. */
  cpuUs?: number;
}

export interface JetStreamCosts {
  stream: string;
  /** (a) publish of 200 B to one subject, awaiting each ack. */
  publishAck: RateFigure;
  /** (b) publish with Msg-Id and `expect.lastSubjectSequence` on per-user subjects (Bus.append). */
  appendExpect: RateFigure;
  /** The get-last-by-subject that precedes each append in appendDecided. */
  lastBySubject: RateFigure;
  /**
   * (c) delivery of the (a) messages to a durable pull consumer, each acked
   * plainly, as a consumer of the app takes them (batches of 100); `us` is the
   * time between two deliveries. Optional: older JSON results lack it.
   */
  consumeAck?: RateFigure;
}

export interface DatabaseCosts {
  /** How the figures were taken, e.g. `pg.Client (Postgres)`. */
  via: string;
  settings: Record<string, string>;
  select1: RateFigure;
  /** Single-row INSERT, autocommit: one commit per row. */
  insert: RateFigure;
}

/** What the database figures need of a client: `pg.Client` and `pg.Pool` both fit. */
export interface Queryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

const PAYLOAD_BYTES = 200;
const WARMUP_OPS = 100;

/** Times `count` sequential runs of `op` (after a short untimed warmup). */
async function timeSeries(count: number, op: (i: number) => Promise<unknown>): Promise<RateFigure> {
  for (let i = 0; i < Math.min(WARMUP_OPS, count); i++) await op(-1 - i);
  const us: number[] = new Array<number>(count);
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < count; i++) {
    const t0 = performance.now();
    await op(i);
    us[i] = (performance.now() - t0) * 1000;
  }
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - started;
  return { count, wallMs, perSec: perSecond(count, wallMs), us: summarize(us), cpuUs: (cpu.user + cpu.system) / count };
}

/**
 * JetStream figures on a throwaway file-storage stream `<NS>_BENCHRAW`, made
 * and deleted here, over a connection of its own.
 */
export async function measureJetStream(opts: {
  natsUrl: string;
  namespace: string;
  /** Messages published for (a) and for (b). */
  messages: number;
  /** get-last-by-subject lookups. */
  lookups: number;
  /** Distinct per-user subjects for (b). */
  subjects: number;
}): Promise<JetStreamCosts> {
  const nc = await connect({ servers: opts.natsUrl.split(','), name: 'hearth-bench-raw' });
  const stream = `${opts.namespace}_BENCHRAW`.toUpperCase();
  const root = `${opts.namespace}.benchraw`;
  try {
    const jsm = await jetstreamManager(nc);
    const js = jetstream(nc);
    await jsm.streams.add({
      name: stream,
      subjects: [`${root}.>`],
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: 120_000 * 1_000_000,
    });
    try {
      const payload = new Uint8Array(PAYLOAD_BYTES).fill(0x61);
      const publishAck = await timeSeries(opts.messages, (i) => js.publish(`${root}.plain`, payload, { msgID: `p${i}` }));

      const subjects = Array.from({ length: opts.subjects }, (_, k) => `${root}.user.u${k}`);
      const lastSeq = new Map<string, number>();
      const append = async (i: number): Promise<void> => {
        const subject = subjects[(i + subjects.length * WARMUP_OPS) % subjects.length]!;
        const h = natsHeaders();
        h.set('Hearth-Type', 'BenchAppended');
        const ack = await js.publish(subject, payload, {
          msgID: randomUUID(),
          expect: { lastSubjectSequence: lastSeq.get(subject) ?? 0 },
          headers: h,
          timeout: 5_000,
        });
        lastSeq.set(subject, ack.seq);
      };
      const appendExpect = await timeSeries(opts.messages, append);

      const lastBySubject = await timeSeries(opts.lookups, async (i) => {
        const subject = subjects[(i + subjects.length * WARMUP_OPS) % subjects.length]!;
        const m = await jsm.streams.getMessage(stream, { last_by_subj: subject });
        if (!m) throw new Error(`no last message on ${subject}`);
      });
      const consumeAck = await consumeSeries(jsm, js, stream, `${root}.plain`, opts.messages);
      return { stream, publishAck, appendExpect, lastBySubject, consumeAck };
    } finally {
      await jsm.streams.delete(stream);
    }
  } finally {
    await nc.drain().catch(() => nc.close());
  }
}

/** Takes `count` messages of a subject through a durable pull consumer, acking each; CPU and time per delivery. */
async function consumeSeries(jsm: JetStreamManager, js: JetStreamClient, stream: string, subject: string, count: number): Promise<RateFigure> {
  await jsm.consumers.add(stream, { durable_name: 'raw_consume', ack_policy: AckPolicy.Explicit, filter_subject: subject });
  const consumer = await js.consumers.get(stream, 'raw_consume');
  const us: number[] = [];
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const messages = await consumer.consume({ max_messages: 100 });
  let last = started;
  for await (const m of messages) {
    m.ack();
    const now = performance.now();
    us.push((now - last) * 1000);
    last = now;
    if (us.length >= count) break;
  }
  await messages.close();
  const cpu = process.cpuUsage(cpu0);
  const wallMs = performance.now() - started;
  return { count: us.length, wallMs, perSec: perSecond(us.length, wallMs), us: summarize(us), cpuUs: (cpu.user + cpu.system) / Math.max(1, us.length) };
}

/**
 * `SELECT 1` round trips and single-row autocommit INSERTs into a table of a
 * throwaway schema (created and dropped here). A regular table, not a TEMP one:
 * temp tables skip the WAL, so their commits would not cost what the app's do.
 */
export async function measureDatabase(
  db: Queryable,
  opts: { via: string; schema: string; selects: number; inserts: number },
): Promise<DatabaseCosts> {
  if (!/^[a-z_][a-z0-9_]*$/.test(opts.schema)) throw new Error(`invalid schema name '${opts.schema}'`);
  const settings: Record<string, string> = {};
  for (const name of ['server_version', 'synchronous_commit', 'fsync']) {
    const { rows } = await db.query(`SELECT current_setting('${name}') AS v`);
    settings[name] = (rows[0] as { v?: string } | undefined)?.v ?? '?';
  }
  const select1 = await timeSeries(opts.selects, () => db.query('SELECT 1'));
  const table = `"${opts.schema}".bench_rows`;
  await db.query(`CREATE SCHEMA IF NOT EXISTS "${opts.schema}"`);
  try {
    await db.query(`CREATE TABLE ${table} (id integer PRIMARY KEY, payload text NOT NULL)`);
    const payload = 'x'.repeat(PAYLOAD_BYTES);
    const insert = await timeSeries(opts.inserts, (i) => db.query(`INSERT INTO ${table} (id, payload) VALUES ($1, $2)`, [i, payload]));
    return { via: opts.via, settings, select1, insert };
  } finally {
    await db.query(`DROP SCHEMA IF EXISTS "${opts.schema}" CASCADE`);
  }
}
