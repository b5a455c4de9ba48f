// What is checked after a scenario: once every consumer has caught up, each
// message a client sent is in its user's history exactly once with the reply the
// client got, the admin timeline holds one TurnReceived and one TurnCompleted
// for it, and `pnpm replay` rebuilds every projection equal to the live one.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { waitFor } from '@hearth/testing';
import type { RetryingClient } from './client.js';
import type { LoadUser, SentMessage } from './load.js';

const ROOT = resolve(import.meta.dirname, '../../..');
/** How long the consumers may take to catch up after the load. */
const QUIESCE_TIMEOUT_MS = 120_000;
/** How long `pnpm replay` may take. */
const REPLAY_TIMEOUT_MS = 300_000;
/** Largest history page (API.md). */
const HISTORY_LIMIT = 200;

const TURN_RECEIVED = 'hearth.ingress.v1.TurnReceived';
const TURN_COMPLETED = 'hearth.orchestrator.v1.TurnCompleted';

export interface Verification {
  /** Messages without a definite answer, or answered 200 but missing from the history. */
  lost: string[];
  /** Message ids (user or assistant) more than once in a history. */
  doubled: string[];
  /** Messages whose reply differs from the assistant message in the history (or whose user text differs). */
  mismatched: string[];
  /** Messages without exactly one TurnReceived and one TurnCompleted in the timeline. */
  timeline: string[];
  /** Messages answered with a 4xx other than the expected ones. */
  rejected: string[];
  /** Whether every consumer caught up (lag 0) before the checks. */
  quiesced: boolean;
}

interface HistoryEntry {
  message_id: string;
  role: 'user' | 'assistant';
  text: string;
}

interface TimelineEntry {
  type: string;
  event_id: string;
  payload: { messageId?: string; assistantText?: string } | null;
}

/** Sum of `hearth_consumer_lag` over every consumer, or undefined when /metrics has none. */
export async function consumerLag(url: string): Promise<number | undefined> {
  const res = await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5_000) });
  if (res.status !== 200) return undefined;
  let sum: number | undefined;
  for (const line of (await res.text()).split('\n')) {
    if (!line.startsWith('hearth_consumer_lag{')) continue;
    sum = (sum ?? 0) + Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return sum;
}

/**
 * Waits until every consumer has acked everything, seen twice in a row (a
 * reply published between two consumers' reads would otherwise slip through).
 */
export async function quiesce(url: () => string): Promise<boolean> {
  let zeros = 0;
  try {
    await waitFor(
      async () => {
        const lag = await consumerLag(url());
        zeros = lag === 0 ? zeros + 1 : 0;
        return zeros >= 2;
      },
      { what: 'every consumer to catch up', timeoutMs: QUIESCE_TIMEOUT_MS, intervalMs: 200 },
    );
    return true;
  } catch {
    return false;
  }
}

export interface VerifyOptions {
  client: RetryingClient;
  admin: { token: string };
  users: readonly LoadUser[];
  messages: readonly SentMessage[];
  /** Statuses+codes that are the expected definite answer besides 200 (the poison turn). */
  expectedRejections?: ReadonlySet<string>;
  deadlineMs: number;
}

export async function verify(opts: VerifyOptions): Promise<Verification> {
  const { client } = opts;
  const out: Verification = { lost: [], doubled: [], mismatched: [], timeline: [], rejected: [], quiesced: await quiesce(() => client.url) };
  const deadline = performance.now() + opts.deadlineMs;
  const byUser = new Map<string, SentMessage[]>();
  for (const m of opts.messages) byUser.set(m.userId, [...(byUser.get(m.userId) ?? []), m]);

  for (const user of opts.users) {
    const sent = byUser.get(user.userId) ?? [];
    if (sent.length === 0) continue;
    const h = await client.send<{ messages: HistoryEntry[] }>('GET', `/v1/conversations/${user.conversationId}/messages?limit=${HISTORY_LIMIT}`, {
      token: user.token,
      userId: user.userId,
      deadline,
    });
    if (h.status !== 200) throw new Error(`history of ${user.userId}: ${h.status} ${JSON.stringify(h.body)}`);
    const t = await client.send<{ events: TimelineEntry[] }>('GET', `/v1/admin/users/${user.userId}/timeline`, { token: opts.admin.token, deadline });
    if (t.status !== 200) throw new Error(`timeline of ${user.userId}: ${t.status} ${JSON.stringify(t.body)}`);

    const history = h.body.messages;
    const seen = new Map<string, HistoryEntry[]>();
    for (const e of history) seen.set(e.message_id, [...(seen.get(e.message_id) ?? []), e]);
    for (const [id, entries] of seen) if (entries.length > 1) out.doubled.push(id);

    const count = (type: string, messageId: string): TimelineEntry[] =>
      t.body.events.filter((e) => e.type === type && (e.payload?.messageId ?? e.event_id) === messageId);

    for (const m of sent) {
      if (m.outcome === 'no_answer') {
        out.lost.push(m.messageId);
        continue;
      }
      if (m.outcome === 'rejected') {
        if (!opts.expectedRejections?.has(`${m.status} ${m.code ?? ''}`)) out.rejected.push(m.messageId);
        continue;
      }
      const mine = seen.get(m.messageId)?.find((e) => e.role === 'user');
      const reply = m.reply ? seen.get(m.reply.assistantMessageId)?.find((e) => e.role === 'assistant') : undefined;
      if (!mine || !reply) {
        out.lost.push(m.messageId);
        continue;
      }
      if (mine.text !== m.text || reply.text !== m.reply?.text) out.mismatched.push(m.messageId);
      const received = count(TURN_RECEIVED, m.messageId);
      const completed = count(TURN_COMPLETED, m.messageId);
      if (received.length !== 1 || completed.length !== 1 || completed[0]!.payload?.assistantText !== m.reply?.text) {
        out.timeline.push(m.messageId);
      }
    }
  }
  return out;
}

export interface ReplayOutcome {
  /** Projections replayed, and those equal to live. */
  projections: number;
  equal: number;
  /** service/projection of those that differ. */
  different: string[];
  exitCode: number | null;
  /** The end of its output when it failed. */
  error?: string;
}

/** Runs `pnpm replay` (scripts/replay.ts) against the scenario's namespace and servers. */
export async function runReplay(env: { namespace: string; natsUrl: string; databaseUrl: string }): Promise<ReplayOutcome> {
  const dir = await mkdtemp(join(tmpdir(), 'hearth-faults-replay-'));
  const file = join(dir, 'replay.json');
  try {
    const child = spawn('node', ['--import', 'tsx', 'scripts/replay.ts', '--json', file], {
      cwd: ROOT,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        HEARTH_ENV: 'dev',
        HEARTH_NAMESPACE: env.namespace,
        NATS_URL: env.natsUrl,
        DATABASE_URL: env.databaseUrl,
        LOG_LEVEL: 'warn',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const chunks: string[] = [];
    child.stdout.on('data', (b: Buffer) => chunks.push(b.toString()));
    child.stderr.on('data', (b: Buffer) => chunks.push(b.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), REPLAY_TIMEOUT_MS);
    const exitCode = await new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    clearTimeout(timer);
    const reports = await readFile(file, 'utf8')
      .then((s) => JSON.parse(s) as { projection: string; schema: string; equal: boolean }[])
      .catch(() => undefined);
    const tail = chunks.join('').trimEnd().split('\n').slice(-20).join('\n');
    if (!reports) return { projections: 0, equal: 0, different: [], exitCode, error: tail || 'no report written' };
    return {
      projections: reports.length,
      equal: reports.filter((r) => r.equal).length,
      different: reports.filter((r) => !r.equal).map((r) => `${r.schema}/${r.projection}`),
      exitCode,
      ...(exitCode === 0 ? {} : { error: tail }),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
