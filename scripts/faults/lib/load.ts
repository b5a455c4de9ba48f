// The load of the fault suite: users who onboard, then chat one message after
// another as a phone does, retrying each message with the same message_id and
// text until it gets a definite answer.
import { randomUUID } from 'node:crypto';
import { waitFor } from '@hearth/testing';
import { onboardingAnswers } from '../../eval/lib/replay.js';
import { NoDefiniteAnswerError, type RetryingClient } from './client.js';

/** How long a new user's persona may take to be assigned. */
const PERSONA_TIMEOUT_MS = 60_000;

/** Lines of an ordinary day: nothing that routes to a safety or correction path. */
const LINES = [
  'I went for a long walk by the river this morning',
  'work was busy today, lots of meetings',
  'I cooked pasta for dinner and it turned out well',
  'my sister called and we talked about her new job',
  'I started reading a mystery novel last night',
  'the weather was nice so I sat in the park for a while',
  'I am thinking about learning to play the guitar',
  'my friend and I watched a movie at the cinema',
  'I tried a new coffee place near the office',
  'tomorrow I want to clean up my apartment',
];

/** The eval's onboarding answers (they pass §4.1.1), for every user of the load. */
export const ONBOARDING_ANSWERS = onboardingAnswers('Robin');

export interface LoadUser {
  userId: string;
  token: string;
  conversationId: string;
}

/** One chat message and what its client finally got. */
export interface SentMessage {
  userId: string;
  conversationId: string;
  messageId: string;
  text: string;
  /** Requests it took (1 when the first try was answered). */
  tries: number;
  /** `ok`: 200; `rejected`: another definite answer (a 4xx); `no_answer`: none by the deadline. */
  outcome: 'ok' | 'rejected' | 'no_answer';
  status?: number;
  code?: string;
  /** The reply the client got (200). */
  reply?: { assistantMessageId: string; text: string };
  /** performance.now() of the definite answer. */
  answeredAt?: number;
}

/** Turns answered so far, and a way to wait until a number of them is reached. */
export class LoadProgress {
  done = 0;
  private readonly waiting: { n: number; resolve: (reached: boolean) => void }[] = [];
  private finished = false;

  constructor(
    readonly total: number,
    private readonly onTick?: (done: number) => void,
  ) {}

  tick(): void {
    this.done++;
    this.onTick?.(this.done);
    for (const w of this.waiting.filter((x) => this.done >= x.n)) {
      this.waiting.splice(this.waiting.indexOf(w), 1);
      w.resolve(true);
    }
  }

  /** Resolves true once `n` turns are answered, false if the load ends first. */
  reached(n: number): Promise<boolean> {
    if (this.done >= n) return Promise.resolve(true);
    if (this.finished) return Promise.resolve(false);
    return new Promise((resolve) => this.waiting.push({ n, resolve }));
  }

  finish(): void {
    this.finished = true;
    for (const w of this.waiting.splice(0)) w.resolve(false);
  }
}

/** A dev token for a new user (or an admin), retried like every other request. */
export async function devToken(client: RetryingClient, deadline: number, admin = false): Promise<{ token: string; userId: string }> {
  const r = await client.send<{ token: string; user_id: string }>('POST', '/v1/dev/token', { body: admin ? { roles: ['admin'] } : {}, deadline });
  if (r.status !== 200) throw new Error(`POST /v1/dev/token answered ${r.status}: ${JSON.stringify(r.body)}`);
  return { token: r.body.token, userId: r.body.user_id };
}

/** A new user through onboarding, once its persona is assigned. */
export async function onboard(client: RetryingClient, deadline: number): Promise<LoadUser> {
  const { token, userId } = await devToken(client, deadline);
  const created = await client.send('POST', '/v1/me', { token, userId, deadline });
  if (created.status !== 200) throw new Error(`POST /v1/me answered ${created.status}: ${JSON.stringify(created.body)}`);
  const answered = await client.send('PUT', '/v1/me/onboarding', { token, userId, body: ONBOARDING_ANSWERS, deadline });
  if (answered.status !== 200) throw new Error(`PUT /v1/me/onboarding answered ${answered.status}: ${JSON.stringify(answered.body)}`);
  await waitFor(
    async () => {
      const me = await client.send<{ persona: unknown }>('GET', '/v1/me', { token, userId, deadline });
      return me.status === 200 && me.body.persona !== null;
    },
    { what: `the persona of user ${userId}`, timeoutMs: PERSONA_TIMEOUT_MS, intervalMs: 100 },
  );
  return { userId, token, conversationId: randomUUID() };
}

/** Sends one message until a definite answer (or `deadlineMs` passes) and records the outcome. */
export async function sendMessage(client: RetryingClient, user: LoadUser, text: string, deadlineMs: number, messageId: string = randomUUID()): Promise<SentMessage> {
  const sent: SentMessage = { userId: user.userId, conversationId: user.conversationId, messageId, text, tries: 0, outcome: 'no_answer' };
  try {
    const r = await client.send<{ assistant?: { message_id: string; text: string }; error?: { code: string } }>(
      'POST',
      `/v1/conversations/${user.conversationId}/messages`,
      { token: user.token, userId: user.userId, body: { message_id: messageId, text }, deadline: performance.now() + deadlineMs },
    );
    sent.tries = r.tries;
    sent.status = r.status;
    sent.answeredAt = performance.now();
    if (r.status === 200 && r.body.assistant) {
      sent.outcome = 'ok';
      sent.reply = { assistantMessageId: r.body.assistant.message_id, text: r.body.assistant.text };
    } else {
      sent.outcome = 'rejected';
      if (r.body.error?.code) sent.code = r.body.error.code;
    }
  } catch (err) {
    if (!(err instanceof NoDefiniteAnswerError)) throw err;
    sent.code = err.last;
    sent.tries = err.tries;
  }
  return sent;
}

export interface LoadOptions {
  client: RetryingClient;
  users: readonly LoadUser[];
  messagesPerUser: number;
  /** Longest a single message may go without a definite answer before it counts as lost. */
  messageDeadlineMs: number;
  progress: LoadProgress;
  /** Called with each message once it has its outcome. */
  onSent?: (m: SentMessage) => void;
  /** True stops each user before its next message (the scenario cannot go on). */
  stopped?: () => boolean;
}

/** Every user sends its messages one after another, all users at once. */
export async function runLoad(opts: LoadOptions): Promise<SentMessage[]> {
  const sent: SentMessage[] = [];
  await Promise.all(
    opts.users.map(async (user, u) => {
      for (let i = 0; i < opts.messagesPerUser && !opts.stopped?.(); i++) {
        const text = `${LINES[(u + i) % LINES.length]} (${i + 1})`;
        const m = await sendMessage(opts.client, user, text, opts.messageDeadlineMs);
        sent.push(m);
        opts.onSent?.(m);
        opts.progress.tick();
      }
    }),
  );
  opts.progress.finish();
  return sent;
}
