// The four faults of the suite (issue 13), each on a world of its own: a fresh
// nats-server, postgres and Hearth child. The load runs; at a share of the
// answered turns the fault is injected; afterwards the invariants are checked.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { appendDecided, Bus, draft, LocalKek } from '@hearth/bus';
import { Events } from '@hearth/events';
import { AnswerLog, NoDefiniteAnswerError, RetryingClient, type Seen } from './client.js';
import { devToken, LoadProgress, onboard, ONBOARDING_ANSWERS, runLoad, sendMessage, type LoadUser, type SentMessage } from './load.js';
import { startStack, type Stack } from './stack.js';
import { runReplay, verify, type ReplayOutcome, type Verification } from './verify.js';

export const SCENARIO_IDS = ['a', 'b', 'c', 'd'] as const;
export type ScenarioId = (typeof SCENARIO_IDS)[number];

export const SCENARIO_TITLES: Record<ScenarioId, string> = {
  a: 'Hearth SIGKILLed twice',
  b: 'NATS SIGKILLed and restarted',
  c: 'Postgres stopped for 10 s',
  d: 'poison event (NUL in TurnReceived)',
};

/** How long Postgres stays stopped in scenario (c) (issue 13). */
const POSTGRES_DOWN_MS = 10_000;
/** How long the poisoned turn may take to get its definite answer: bounded retries, then quarantine. */
const POISON_ANSWER_TIMEOUT_MS = 60_000;
/** Time allowed for onboarding every user. */
const SETUP_TIMEOUT_MS = 120_000;
const POISON_TEXT = 'bad \u0000 byte';

export interface ScenarioOptions {
  users: number;
  messagesPerUser: number;
  /**
   * Longest one message may go without a definite answer before it counts as lost.
   * @default 120_000
   */
  messageDeadlineMs?: number;
  /**
   * Hearth's TURN_TIMEOUT_MS: how long a chat request waits before 504 (the client then retries).
   * @default 15_000
   */
  turnTimeoutMs?: number;
  /** Progress and fault lines. */
  log: (line: string) => void;
  /** Called with the answered turns after each one. */
  onTurn?: (done: number, total: number, log: AnswerLog) => void;
}

/** One injected fault and how long the users took to be served again. */
export interface FaultOutcome {
  label: string;
  /** Turns answered when it was injected. */
  atTurn: number;
  /** From the fault to the dependency being back (Hearth ready again, the server started). */
  restoreMs?: number;
  /** From the fault to the first 200 of a request sent after it. */
  firstOkMs?: number;
  /** From the fault until every user still chatting got a 200 for a request sent after it. */
  allServedMs?: number;
}

/** Scenario (d): what the poisoned user saw. */
export interface PoisonOutcome {
  messageId: string;
  /** The answer to the same message_id sent again: 422 TURN_FAILED expected. */
  status?: number;
  code?: string;
  details?: unknown;
  /** From the injection to that answer. */
  answerMs?: number;
  /** Status of the user's next, new message (200 expected) and when it came. */
  nextStatus?: number;
  nextMs?: number;
  /** GET /v1/admin/dead-letters: its status, and whether the event is listed. */
  deadLettersStatus?: number;
  listed?: boolean;
  deadLetter?: unknown;
  /** Events about the poisoned message in the timeline. */
  timelineTypes?: string[];
}

export interface ScenarioResult {
  id: ScenarioId;
  title: string;
  users: number;
  /** Chat messages the clients sent (the poisoned one excluded). */
  turns: number;
  answered200: number;
  lost: number;
  doubled: number;
  mismatched: number;
  timelineViolations: number;
  rejected: number;
  /** 5xx answers the clients saw (every route), and every status seen. */
  http5xx: number;
  statuses: Record<string, number>;
  /** Requests that took more than one try. */
  retriedMessages: number;
  faults: FaultOutcome[];
  /** Times Hearth exited without being killed (then restarted, as a supervisor would). */
  unexpectedExits: { atMs: number; output: string }[];
  replay: ReplayOutcome;
  poison?: PoisonOutcome;
  quiesced: boolean;
  /** Every broken invariant, in words; empty when the scenario passes. */
  problems: string[];
  durationMs: number;
  /** Ids behind the counts, for the JSON report. */
  samples: Pick<Verification, 'lost' | 'doubled' | 'mismatched' | 'timeline' | 'rejected'>;
}

export interface InjectedFault {
  label: string;
  atTurn: number;
  at: number;
  restoredAt?: number;
  /** Users with messages still to send when it hit. */
  active: Set<string>;
}

/** Recovery times of one fault from the answers seen. */
export function recovery(f: InjectedFault, seen: readonly Seen[]): FaultOutcome {
  const ok = seen.filter((s) => s.status >= 200 && s.status < 300 && s.sentAt >= f.at && s.userId !== undefined);
  const firstOk = ok.reduce<number | undefined>((min, s) => (min === undefined || s.at < min ? s.at : min), undefined);
  let allServed: number | undefined = f.active.size === 0 ? undefined : 0;
  for (const user of f.active) {
    const first = ok.filter((s) => s.userId === user).reduce<number | undefined>((min, s) => (min === undefined || s.at < min ? s.at : min), undefined);
    allServed = first === undefined || allServed === undefined ? undefined : Math.max(allServed, first);
  }
  return {
    label: f.label,
    atTurn: f.atTurn,
    ...(f.restoredAt !== undefined ? { restoreMs: f.restoredAt - f.at } : {}),
    ...(firstOk !== undefined ? { firstOkMs: firstOk - f.at } : {}),
    ...(allServed !== undefined ? { allServedMs: allServed - f.at } : {}),
  };
}

/** Runs one scenario from fresh servers to its verdict; the servers are removed afterwards. */
export async function runScenario(id: ScenarioId, opts: ScenarioOptions): Promise<ScenarioResult> {
  const started = performance.now();
  const log = (line: string): void => opts.log(`${id}: ${line}`);
  const messageDeadlineMs = opts.messageDeadlineMs ?? 120_000;
  const stack = await startStack({ log, env: { TURN_TIMEOUT_MS: String(opts.turnTimeoutMs ?? 15_000) } });
  log(`servers up (nats ${stack.nats.url}, postgres port ${stack.postgres.port}), Hearth at ${stack.url()}, namespace ${stack.namespace}`);
  try {
    return await drive(id, stack, opts, log, messageDeadlineMs, started);
  } finally {
    await stack.close();
  }
}

async function drive(id: ScenarioId, stack: Stack, opts: ScenarioOptions, log: (line: string) => void, messageDeadlineMs: number, started: number): Promise<ScenarioResult> {
  const answers = new AnswerLog();
  const client = new RetryingClient({ url: () => stack.url(), log: answers, requestTimeoutMs: (opts.turnTimeoutMs ?? 15_000) + 15_000 });
  const setupDeadline = performance.now() + SETUP_TIMEOUT_MS;
  const admin = await devToken(client, setupDeadline, true);
  const users = await Promise.all(Array.from({ length: opts.users }, () => onboard(client, setupDeadline)));
  // Scenario (d)'s victim: a user of its own, active (one turn) before the poison.
  const victim = id === 'd' ? await onboard(client, setupDeadline) : undefined;
  const victimMessages: SentMessage[] = [];
  if (victim) victimMessages.push(await sendMessage(client, victim, 'hello, nice to meet you', messageDeadlineMs));
  log(`${opts.users} users onboarded${victim ? ' (and the poison victim)' : ''}; load of ${opts.users * opts.messagesPerUser} turns starts`);

  const total = opts.users * opts.messagesPerUser;
  const progress = new LoadProgress(total, (done) => opts.onTurn?.(done, total, answers));
  // Users still chatting when a fault hits are the ones whose recovery counts.
  const remaining = new Map(users.map((u) => [u.userId, opts.messagesPerUser]));
  const onSent = (m: SentMessage): void => void remaining.set(m.userId, (remaining.get(m.userId) ?? 1) - 1);
  let faultFailed = false;
  const load = runLoad({ client, users, messagesPerUser: opts.messagesPerUser, messageDeadlineMs, progress, onSent, stopped: () => faultFailed });
  const faults: InjectedFault[] = [];
  const problems: string[] = [];
  let poison: PoisonOutcome | undefined;

  const inject = async (label: string, share: number, act: (f: InjectedFault) => Promise<void>): Promise<void> => {
    const atTurn = Math.max(1, Math.floor(total * share));
    if (!(await progress.reached(atTurn))) {
      problems.push(`fault "${label}" not injected: the load ended before ${atTurn} turns`);
      return;
    }
    const active = new Set(users.filter((u) => (remaining.get(u.userId) ?? 0) > 0).map((u) => u.userId));
    const f: InjectedFault = { label, atTurn: progress.done, at: performance.now(), active };
    faults.push(f);
    log(`${label} at ${progress.done}/${total} turns`);
    await act(f);
    log(`${label}: over after ${((performance.now() - f.at) / 1000).toFixed(1)} s`);
  };

  const faulting = (async (): Promise<void> => {
    switch (id) {
      case 'a':
        for (const [n, share] of [
          [1, 0.3],
          [2, 0.65],
        ] as const) {
          await inject(`SIGKILL Hearth #${n}`, share, async (f) => {
            await stack.killHearth();
            await stack.startHearth();
            f.restoredAt = performance.now();
          });
        }
        return;
      case 'b':
        await inject('SIGKILL NATS', 0.4, async (f) => {
          await stack.nats.stop({ keepData: true, signal: 'SIGKILL' });
          await stack.nats.start();
          f.restoredAt = performance.now();
        });
        return;
      case 'c':
        await inject(`Postgres stopped ${POSTGRES_DOWN_MS / 1000} s`, 0.4, async (f) => {
          await stack.postgres.stop({ keepData: true });
          // The outage itself: how long the database stays away.
          await sleep(POSTGRES_DOWN_MS);
          await stack.postgres.start();
          f.restoredAt = performance.now();
        });
        return;
      case 'd':
        await inject('poison TurnReceived', 0.4, async (f) => {
          poison = await poisonTurn(stack, client, admin, victim!, victimMessages, f, messageDeadlineMs);
          f.active = new Set([victim!.userId]);
        });
        return;
      default: {
        const never: never = id;
        throw new Error(`unknown scenario ${String(never)}`);
      }
    }
  })().catch((err: unknown) => {
    // A fault that could not be injected (or recovered from) fails the scenario; the
    // users send nothing more, and what they sent is still checked.
    faultFailed = true;
    problems.push(`injecting the fault failed: ${err instanceof Error ? err.message : String(err)}`);
    log(`injecting the fault failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  });

  const [sent] = await Promise.all([load, faulting]);
  const messages = [...sent, ...victimMessages];
  log(`load done: ${sent.filter((m) => m.outcome === 'ok').length}/${sent.length} answered 200; checking`);

  const allUsers = victim ? [...users, victim] : users;
  const v = await verify({ client, admin, users: allUsers, messages, deadlineMs: 120_000 });
  if (poison) await checkPoison(client, admin, victim!, poison);
  const replay = await runReplay({ namespace: stack.namespace, natsUrl: stack.nats.url, databaseUrl: stack.databaseUrl });
  log(`replay: ${replay.equal}/${replay.projections} projections equal${replay.error ? ` (exit ${replay.exitCode})` : ''}`);

  const result: ScenarioResult = {
    id,
    title: SCENARIO_TITLES[id],
    users: allUsers.length,
    turns: messages.length,
    answered200: messages.filter((m) => m.outcome === 'ok').length,
    lost: v.lost.length,
    doubled: v.doubled.length,
    mismatched: v.mismatched.length,
    timelineViolations: v.timeline.length,
    rejected: v.rejected.length,
    http5xx: answers.count5xx(),
    statuses: answers.byStatus(),
    retriedMessages: messages.filter((m) => m.tries > 1).length,
    faults: faults.map((f) => recovery(f, answers.seen)),
    unexpectedExits: stack.unexpectedExits.map((e) => ({ atMs: e.at - started, output: e.output })),
    replay,
    ...(poison ? { poison } : {}),
    quiesced: v.quiesced,
    problems,
    durationMs: 0,
    samples: { lost: v.lost, doubled: v.doubled, mismatched: v.mismatched, timeline: v.timeline, rejected: v.rejected },
  };
  // The poisoned user's recovery: the definite answer for that message_id, then their next reply.
  const poisoned = result.faults[0];
  if (poison && poisoned) {
    delete poisoned.firstOkMs;
    delete poisoned.allServedMs;
    if (poison.answerMs !== undefined) poisoned.firstOkMs = poison.answerMs;
    if (poison.nextMs !== undefined) poisoned.allServedMs = poison.nextMs;
  }
  problems.push(...judge(result));
  result.durationMs = performance.now() - started;
  return result;
}

/**
 * Scenario (d): a TurnReceived whose text holds NUL, appended to the victim's
 * chain directly (the edge refuses such text), as ingress appends a turn. The
 * victim then sends that message_id again, as a phone does after a lost answer
 * (with the text the edge accepts: the NUL removed), and then a new message.
 */
async function poisonTurn(
  stack: Stack,
  client: RetryingClient,
  admin: { token: string },
  victim: LoadUser,
  victimMessages: SentMessage[],
  f: InjectedFault,
  messageDeadlineMs: number,
): Promise<PoisonOutcome> {
  const deadline = performance.now() + POISON_ANSWER_TIMEOUT_MS;
  const me = await client.send<{ ai_friend_id: string | null; user_state: string }>('GET', '/v1/me', { token: victim.token, userId: victim.userId, deadline });
  if (me.status !== 200) throw new Error(`GET /v1/me of the victim answered ${me.status}: ${JSON.stringify(me.body)}`);
  // The turn is stamped with the virtual clock, as ingress stamps it.
  const clock = await client.send<{ now: string }>('GET', '/v1/dev/clock', { token: admin.token, deadline });
  if (clock.status !== 200) throw new Error(`GET /v1/dev/clock answered ${clock.status}: ${JSON.stringify(clock.body)}`);
  const messageId = randomUUID();
  const bus = await Bus.connect({
    url: stack.nats.url,
    name: 'hearth-faults',
    namespace: stack.namespace,
    logger: { info: () => undefined, warn: () => undefined, error: () => undefined },
    // The stack runs without HEARTH_KEK: the development KEK of its namespace.
    encryption: { kek: LocalKek.forDevelopment(stack.namespace) },
  });
  try {
    await appendDecided(bus, 'ingress', victim.userId, () => [
      draft(
        Events.TurnReceived,
        {
          messageId,
          conversationId: victim.conversationId,
          text: POISON_TEXT,
          source: 'chat',
          userState: me.body.user_state,
          activatesUser: false,
          missingOnboarding: [],
          aiFriendId: me.body.ai_friend_id ?? '',
          clientTimezone: ONBOARDING_ANSWERS.client_timezone,
          clientLocale: '',
          ageBand: ONBOARDING_ANSWERS.age_band,
        },
        { id: messageId, userId: victim.userId, occurredAt: new Date(clock.body.now), correlationId: messageId },
      ),
    ]);
  } finally {
    await bus.close();
  }
  f.at = performance.now();
  const outcome: PoisonOutcome = { messageId };
  try {
    const r = await client.send<{ error?: { code?: string; details?: unknown } }>('POST', `/v1/conversations/${victim.conversationId}/messages`, {
      token: victim.token,
      userId: victim.userId,
      body: { message_id: messageId, text: POISON_TEXT.replace('\u0000', '') },
      deadline: f.at + POISON_ANSWER_TIMEOUT_MS,
    });
    outcome.status = r.status;
    outcome.answerMs = performance.now() - f.at;
    if (r.body.error?.code) outcome.code = r.body.error.code;
    if (r.body.error?.details !== undefined) outcome.details = r.body.error.details;
  } catch (err) {
    if (!(err instanceof NoDefiniteAnswerError)) throw err;
    outcome.code = `no definite answer in ${POISON_ANSWER_TIMEOUT_MS / 1000} s (last: ${err.last})`;
  }
  const next = await sendMessage(client, victim, 'sorry, my phone glitched. anyway, how are you?', messageDeadlineMs);
  victimMessages.push(next);
  if (next.status !== undefined) outcome.nextStatus = next.status;
  if (next.outcome === 'ok' && next.answeredAt !== undefined) outcome.nextMs = next.answeredAt - f.at;
  return outcome;
}

/** Scenario (d), after the load: the dead-letter list and the timeline of the poisoned message. */
async function checkPoison(client: RetryingClient, admin: { token: string }, victim: LoadUser, poison: PoisonOutcome): Promise<void> {
  const deadline = performance.now() + 30_000;
  const dl = await client.send<{ dead_letters?: { event_id: string }[] }>('GET', '/v1/admin/dead-letters', { token: admin.token, deadline });
  poison.deadLettersStatus = dl.status;
  const entry = dl.body.dead_letters?.find((d) => d.event_id === poison.messageId);
  poison.listed = entry !== undefined;
  if (entry) poison.deadLetter = entry;
  const t = await client.send<{ events?: { type: string; event_id: string; payload: { messageId?: string } | null }[] }>(
    'GET',
    `/v1/admin/users/${victim.userId}/timeline`,
    { token: admin.token, deadline },
  );
  poison.timelineTypes = (t.body.events ?? [])
    .filter((e) => e.event_id === poison.messageId || e.payload?.messageId === poison.messageId || JSON.stringify(e.payload ?? {}).includes(poison.messageId))
    .map((e) => e.type);
}

/** The invariants of issue 13, in words; empty when all hold. */
export function judge(r: ScenarioResult): string[] {
  const p: string[] = [];
  if (r.lost > 0) p.push(`${r.lost} message(s) lost`);
  if (r.doubled > 0) p.push(`${r.doubled} message id(s) doubled in a history`);
  if (r.mismatched > 0) p.push(`${r.mismatched} reply(ies) differ from the history`);
  if (r.timelineViolations > 0) p.push(`${r.timelineViolations} message(s) without exactly one TurnReceived and one TurnCompleted`);
  if (r.rejected > 0) p.push(`${r.rejected} message(s) answered with an unexpected 4xx`);
  if (!r.quiesced) p.push('the consumers did not catch up after the load');
  if (r.unexpectedExits.length > 0) p.push(`Hearth exited on its own ${r.unexpectedExits.length} time(s)`);
  if (r.replay.projections === 0 || r.replay.equal !== r.replay.projections || r.replay.exitCode !== 0) {
    p.push(`replay: ${r.replay.equal}/${r.replay.projections} equal${r.replay.different.length ? ` (different: ${r.replay.different.join(', ')})` : ''}${r.replay.exitCode !== 0 ? `, exit ${r.replay.exitCode}` : ''}`);
  }
  if (r.poison) {
    const q = r.poison;
    const details = q.details as { event_id?: string; service?: string } | undefined;
    if (q.status === undefined) p.push(`poisoned turn: ${q.code ?? 'no definite answer'} (422 TURN_FAILED expected)`);
    else if (q.status !== 422 || q.code !== 'TURN_FAILED') p.push(`poisoned turn answered ${q.status} ${q.code ?? ''} (422 TURN_FAILED expected)`);
    else if (details?.event_id !== q.messageId || typeof details.service !== 'string') p.push(`TURN_FAILED details ${JSON.stringify(q.details)} (event_id and service expected)`);
    if (q.nextStatus !== 200) p.push(`the poisoned user's next message answered ${q.nextStatus ?? 'nothing'} (200 expected)`);
    if (q.deadLettersStatus !== 200 || !q.listed) p.push(`GET /v1/admin/dead-letters answered ${q.deadLettersStatus}${q.deadLettersStatus === 200 ? ' without the poisoned event' : ''}`);
  }
  return p;
}
