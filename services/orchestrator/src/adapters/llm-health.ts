import type { DependencyStatus } from '@hearth/host';
import { counter, type Logger } from '@hearth/telemetry';

/** Why an LLM call gave no usable reply, as the failure metric counts it. */
export type LlmFailureKind = 'timeout' | 'rate_limited' | 'server' | 'transport' | 'invalid';

const failures = counter('hearth_llm_failures_total', 'LLM calls of a turn that gave no usable reply, by kind (timeout, rate_limited, server, transport, invalid)');

/**
 * The kind of an LLM failure, from the LlmError of libs/llm (read by shape, so an
 * error from another module realm classifies the same): a timeout (the client's or
 * HTTP 408), 429, another HTTP error, no connection, or an answer that is not the
 * JSON asked for (empty, unparsable, or not an OpenAI API at all).
 */
export function classifyLlmFailure(err: unknown): LlmFailureKind {
  const { code, status, retryable } = (err ?? {}) as { code?: unknown; status?: unknown; retryable?: unknown };
  switch (code) {
    case 'LLM_TIMEOUT':
      return 'timeout';
    case 'LLM_HTTP_ERROR':
      if (status === 429) return 'rate_limited';
      return status === 408 ? 'timeout' : 'server';
    case 'LLM_UNAVAILABLE':
      // Retryable: the server could not be reached. Not: it answered something that is not the API.
      return retryable === false ? 'invalid' : 'transport';
    default:
      // LLM_INVALID_JSON, LLM_EMPTY, and anything that is no LlmError: no usable answer.
      return 'invalid';
  }
}

/** A short reason for readiness details and logs: the kind and the HTTP status, never the provider's words. */
function reasonOf(kind: LlmFailureKind, err: unknown): string {
  const { code, status } = (err ?? {}) as { code?: unknown; status?: unknown };
  if (typeof status === 'number') return `${kind} (HTTP ${status})`;
  return typeof code === 'string' ? `${kind} (${code})` : kind;
}

export interface LlmHealthOptions {
  /** Failed calls in a row that open the breaker. */
  openAfterFailures: number;
  /** How long the provider is skipped once the breaker is open, before one call probes it. */
  coolDownMs: number;
  /** Wall-clock milliseconds (an outage is real time, not the virtual clock). */
  now: () => number;
  logger?: Logger;
}

/**
 * What this process knows of its LLM provider: up or failing since when, and a
 * circuit breaker. Closed, every turn calls the provider. After
 * `openAfterFailures` failed calls in a row it opens: turns skip the provider
 * (and answer offline at once) for `coolDownMs`; then a single call probes it,
 * closing the breaker on success and opening it again on failure.
 */
export interface LlmHealth {
  /** Whether a turn may call the provider now (false while open; true once for the probe). */
  allow(): boolean;
  /** A call gave a usable reply. */
  success(): void;
  /** A call failed: counts it and returns its kind. */
  failure(err: unknown): LlmFailureKind;
  /** False from the first failed call until a call succeeds again. */
  readonly up: boolean;
  /** Readiness details: failing degrades the service, it never makes it unready. */
  status(): DependencyStatus;
}

export function createLlmHealth(opts: LlmHealthOptions): LlmHealth {
  const { now, logger } = opts;
  let consecutive = 0;
  let since = now();
  let reason = '';
  let openUntil: number | null = null;
  // The probe in flight after a cool-down; it has a cool-down of its own so that
  // a probe whose caller never reports back cannot hold the breaker open forever.
  let probeUntil: number | null = null;

  return {
    allow() {
      if (openUntil === null) return true;
      const t = now();
      if (t < openUntil) return false;
      if (probeUntil !== null && t < probeUntil) return false;
      probeUntil = t + opts.coolDownMs;
      return true;
    },
    success() {
      if (consecutive > 0) {
        logger?.info({ llm: { downMs: now() - since, failures: consecutive } }, 'the LLM provider answers again; replies come from it');
        since = now();
      }
      consecutive = 0;
      reason = '';
      openUntil = null;
      probeUntil = null;
    },
    failure(err) {
      const kind = classifyLlmFailure(err);
      failures.add(1, { kind });
      const t = now();
      if (consecutive === 0) {
        since = t;
        logger?.warn({ llm: { kind: reasonOf(kind, err) } }, 'the LLM provider is failing; replies come from the offline responder');
      }
      consecutive++;
      reason = reasonOf(kind, err);
      if (consecutive >= opts.openAfterFailures) {
        if (openUntil === null) {
          logger?.warn({ llm: { failures: consecutive, coolDownMs: opts.coolDownMs } }, 'LLM circuit open: turns skip the provider until a probe succeeds');
        }
        openUntil = t + opts.coolDownMs;
        probeUntil = null;
      }
      return kind;
    },
    get up() {
      return consecutive === 0;
    },
    status() {
      if (consecutive === 0) return { ok: true, since: new Date(since).toISOString() };
      const open = openUntil === null ? '' : `; circuit open, next probe after ${new Date(openUntil).toISOString()}`;
      return { ok: false, reason: `${consecutive} failed call(s) in a row, last: ${reason}${open}`, since: new Date(since).toISOString() };
    },
  };
}
