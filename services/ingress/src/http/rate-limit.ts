import { INGRESS } from '../config.js';

/**
 * The rate limits of API.md, as pure decisions: which limits a request counts
 * against, and how a fixed window counts. The NATS KV store and the Fastify
 * hook live in rate-limit-store.ts and rate-limit-plugin.ts.
 */

/** The four limits of API.md, from the config (0 = off). */
export interface RateLimitSettings {
  chatPerMinute: number;
  chatBurst: number;
  perMinute: number;
  anonPerMinute: number;
}

/** One limit: at most `max` requests per key in a window of `windowMs`. */
export interface Limit {
  /** Part of the counter's key: limits never share a counter. */
  name: 'chat-burst' | 'chat-minute' | 'user' | 'anon';
  max: number;
  windowMs: number;
}

/** The limits of each kind of request; a limit that is off is left out. */
export interface LimitPlan {
  /** An authenticated POST of a chat message, keyed by the verified `sub`. */
  chat: Limit[];
  /** Any other authenticated request, keyed by the verified `sub`. */
  user: Limit[];
  /** A request without a valid token, keyed by the client address. */
  anon: Limit[];
}

/**
 * The burst window: how long the per-minute rate takes to earn a burst
 * (30 a minute, burst 10: 20 s), at most a minute.
 */
export function burstWindowMs(s: Pick<RateLimitSettings, 'chatPerMinute' | 'chatBurst'>): number {
  const { windowMs, defaultBurstWindowMs } = INGRESS.rateLimits;
  if (s.chatPerMinute <= 0) return defaultBurstWindowMs;
  return Math.min(windowMs, Math.max(1_000, Math.round((windowMs * s.chatBurst) / s.chatPerMinute)));
}

export function limitPlan(s: RateLimitSettings): LimitPlan {
  const { windowMs } = INGRESS.rateLimits;
  const on = (l: Limit[]) => l.filter((x) => x.max > 0);
  return {
    // The burst first: a burst over it is refused without using up the minute.
    chat: on([
      { name: 'chat-burst', max: s.chatBurst, windowMs: burstWindowMs(s) },
      { name: 'chat-minute', max: s.chatPerMinute, windowMs },
    ]),
    user: on([{ name: 'user', max: s.perMinute, windowMs }]),
    anon: on([{ name: 'anon', max: s.anonPerMinute, windowMs }]),
  };
}

export function anyLimit(plan: LimitPlan): boolean {
  return plan.chat.length + plan.user.length + plan.anon.length > 0;
}

/** The path of a request URL, without its query string. */
export function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** Dev routes, operations and docs are never limited (API.md). */
export function isExempt(path: string): boolean {
  return (
    path.startsWith('/v1/dev/') ||
    path === '/healthz' ||
    path === '/readyz' ||
    path === '/metrics' ||
    path === '/docs' ||
    path.startsWith('/docs/')
  );
}

const CHAT = /^\/v1\/conversations\/[^/]+\/messages\/?$/;

/** Sending a chat message: the request that can call an LLM. */
export function isChat(method: string, path: string): boolean {
  return method === 'POST' && CHAT.test(path);
}

/** The limits a request counts against, and the key (without the limit's name) it counts under. */
export function limitsFor(plan: LimitPlan, req: { method: string; path: string; userId: string | null; address: string }): { limits: Limit[]; key: string } {
  if (req.userId === null) return { limits: plan.anon, key: `ip:${req.address}` };
  return { limits: isChat(req.method, req.path) ? plan.chat : plan.user, key: `user:${req.userId}` };
}

/** One key's window: when it started and how many requests it has counted. */
export interface WindowCount {
  startMs: number;
  count: number;
}

/**
 * Counts one request: a window starts at a key's first request and lasts
 * `windowMs`; a request after it starts a new one (the semantics of
 * @fastify/rate-limit's own store, shared across replicas here).
 */
export function countRequest(current: WindowCount | null, nowMs: number, windowMs: number): WindowCount {
  if (!current || nowMs >= current.startMs + windowMs || nowMs < current.startMs - windowMs) return { startMs: nowMs, count: 1 };
  return { startMs: current.startMs, count: current.count + 1 };
}

/** Milliseconds until a window ends (at least 1). */
export function windowTtlMs(w: WindowCount, nowMs: number, windowMs: number): number {
  return Math.max(1, w.startMs + windowMs - nowMs);
}

/** The 429 body of API.md. */
export function rateLimitedBody(retryAfterSeconds: number) {
  return {
    error: {
      code: 'RATE_LIMITED',
      message: `too many requests; retry in ${retryAfterSeconds} s`,
      details: { retry_after_seconds: retryAfterSeconds },
    },
  };
}
