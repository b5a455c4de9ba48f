// The HTTP side of the fault suite: a client that behaves as a mobile app does
// (every failure retried with the same body until a definite answer) and a log
// of every answer it saw, from which the report counts 5xx and recovery times.
import { setTimeout as sleep } from 'node:timers/promises';

/** Longest pause between two tries when the server sent no Retry-After. */
const MAX_BACKOFF_MS = 2_000;
const FIRST_BACKOFF_MS = 100;
/** A Retry-After longer than this is clamped (a client would not wait minutes in a test). */
const MAX_RETRY_AFTER_MS = 30_000;

/** One answer (or its absence) as a client saw it. */
export interface Seen {
  /** performance.now() when the request went out and when its answer (or error) came back. */
  sentAt: number;
  at: number;
  /** HTTP status; 0 when there was no answer (connection refused or reset, timeout). */
  status: number;
  /** The API's error code, when the body was an error envelope. */
  code?: string;
  userId?: string;
  route: string;
}

/** Every answer the clients of one scenario saw, in order of arrival. */
export class AnswerLog {
  readonly seen: Seen[] = [];

  add(s: Seen): void {
    this.seen.push(s);
  }

  /** Answers with status 5xx. */
  count5xx(): number {
    return this.seen.filter((s) => s.status >= 500).length;
  }

  /** How many answers had each status ('no answer' for 0), for the report. */
  byStatus(): Record<string, number> {
    const out: Record<string, number> = {};
    for (const s of this.seen) {
      const key = s.status === 0 ? 'no answer' : String(s.status);
      out[key] = (out[key] ?? 0) + 1;
    }
    return out;
  }
}

export interface Answer<T = unknown> {
  status: number;
  body: T;
}

/** A request that never got a definite answer before its deadline. */
export class NoDefiniteAnswerError extends Error {
  override readonly name = 'NoDefiniteAnswerError';
  readonly code = 'NO_DEFINITE_ANSWER' as const;

  constructor(
    readonly route: string,
    readonly last: string,
    readonly tries: number,
  ) {
    super(`${route}: no definite answer after ${tries} tries (last: ${last})`);
  }
}

export interface RetryingClientOptions {
  /** Base URL of Hearth now: it changes when Hearth is restarted on a new port. */
  url: () => string;
  log: AnswerLog;
  /**
   * Abandon one try after this long (then retry it, as a phone does).
   * @default 45_000
   */
  requestTimeoutMs?: number;
}

export interface SendOptions {
  token?: string;
  userId?: string;
  body?: unknown;
  /** Give up (NoDefiniteAnswerError) when no definite answer came by then (performance.now()). */
  deadline: number;
}

/** Statuses a mobile client retries with the same request: no answer, 429 and every 5xx (504 included). */
export function isRetryable(status: number): boolean {
  return status === 0 || status === 429 || status >= 500;
}

/** Retry-After in ms (seconds or an HTTP date), or undefined. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (header.trim() !== '' && Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

function routeOf(method: string, path: string): string {
  return `${method} ${path.split('?')[0]!.replace(UUID, '{id}')}`;
}

/**
 * Sends a request until it gets a definite answer (2xx, any 4xx but 429): no
 * answer, 429 and 5xx are retried with the same
 * body after `Retry-After` when the server gave one, else after a backoff that
 * doubles up to 2 s (with jitter, so clients do not retry in lockstep).
 */
export class RetryingClient {
  private readonly timeoutMs: number;

  constructor(private readonly opts: RetryingClientOptions) {
    this.timeoutMs = opts.requestTimeoutMs ?? 45_000;
  }

  get url(): string {
    return this.opts.url();
  }

  /** One try, logged; status 0 when no answer came. */
  async once<T = unknown>(method: string, path: string, opts: Omit<SendOptions, 'deadline'> = {}): Promise<Answer<T> & { retryAfter?: number }> {
    const route = routeOf(method, path);
    const sentAt = performance.now();
    let status = 0;
    let body: unknown;
    let retryAfter: number | undefined;
    try {
      const res = await fetch(`${this.opts.url()}${path}`, {
        method,
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: {
          ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      const text = await res.text();
      status = res.status;
      retryAfter = retryAfterMs(res.headers.get('retry-after'));
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    } catch (err) {
      // No answer: refused while Hearth restarts, reset by a kill, or timed out.
      body = { error: { code: 'NO_ANSWER', message: errorText(err) } };
    }
    const code = errorCode(body);
    this.opts.log.add({ sentAt, at: performance.now(), status, ...(code ? { code } : {}), ...(opts.userId ? { userId: opts.userId } : {}), route });
    return { status, body: body as T, ...(retryAfter !== undefined ? { retryAfter } : {}) };
  }

  /** Retries until a definite answer; throws {@link NoDefiniteAnswerError} at the deadline. */
  async send<T = unknown>(method: string, path: string, opts: SendOptions): Promise<Answer<T> & { tries: number }> {
    let backoff = FIRST_BACKOFF_MS;
    let tries = 0;
    let last = '';
    for (;;) {
      tries++;
      const a = await this.once<T>(method, path, opts);
      if (!isRetryable(a.status)) return { status: a.status, body: a.body, tries };
      last = a.status === 0 ? errorMessage(a.body) : `${a.status} ${errorCode(a.body) ?? ''}`.trim();
      const wait = a.retryAfter !== undefined ? Math.min(a.retryAfter, MAX_RETRY_AFTER_MS) : backoff * (0.5 + Math.random() / 2);
      if (a.retryAfter === undefined) backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      if (performance.now() + wait > opts.deadline) throw new NoDefiniteAnswerError(routeOf(method, path), last, tries);
      await sleep(wait);
    }
  }
}

function errorCode(body: unknown): string | undefined {
  const e = (body as { error?: { code?: unknown } } | null)?.error;
  return typeof e?.code === 'string' ? e.code : undefined;
}

function errorMessage(body: unknown): string {
  const e = (body as { error?: { message?: unknown } } | null)?.error;
  return typeof e?.message === 'string' ? e.message : 'no answer';
}

function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return cause?.code ?? cause?.message ?? err.message;
}
