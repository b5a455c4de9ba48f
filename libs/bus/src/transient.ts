import { BusError, QueryError } from './errors.js';

// Postgres SQLSTATE classes and codes that mean "the server is (briefly) not there":
// 08 connection exception, 57P01–57P03 admin/crash shutdown and cannot connect now,
// 53300 too many connections, 57014 a statement cancelled by statement_timeout.
const PG_TRANSIENT_CODES = new Set(['57P01', '57P02', '57P03', '53300', '57014']);
// Node socket errors on the way to a server.
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
// The NATS client's error classes for a connection that is gone or an answer that did not come.
const NATS_TRANSIENT_NAMES = new Set(['ConnectionError', 'ClosedConnectionError', 'DrainingConnectionError', 'TimeoutError', 'NoRespondersError', 'RequestError']);
// pg and pg-pool say these in words only.
const TRANSIENT_MESSAGES = [
  /connection terminated/i,
  /timeout exceeded when trying to connect/i,
  /connection timeout/i,
  /query read timeout/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
  /the database system is (starting up|shutting down|in recovery mode)/i,
];

/**
 * True when an error means a dependency (NATS, Postgres, a peer's query) is
 * briefly unavailable rather than that the input is bad: the caller should
 * retry later (HTTP 503 with Retry-After; a consumer pauses and naks without
 * counting the delivery toward quarantine). Walks the `cause` chain.
 */
export function isTransientError(err: unknown): boolean {
  // A permission the server refuses stays refused: a deployment error to see, not to wait out.
  if (isPermissionViolation(err)) return false;
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return false;
    const { code, name, message } = e as { code?: unknown; name?: unknown; message?: unknown };
    if (e instanceof QueryError && e.code === 'QUERY_UNANSWERED') return true;
    if (e instanceof BusError && (e.code === 'APPEND_FAILED' || e.code === 'APPEND_RETRIES_EXHAUSTED')) return true;
    if (code === 'KMS_UNAVAILABLE') return true;
    // A read model behind its stream (libs/store's ProjectionBehindError): it catches up, the input is not at fault.
    if (code === 'PROJECTION_BEHIND') return true;
    if (typeof code === 'string' && (code.startsWith('08') || PG_TRANSIENT_CODES.has(code) || SOCKET_CODES.has(code))) return true;
    if (typeof name === 'string' && NATS_TRANSIENT_NAMES.has(name)) return true;
    if (typeof message === 'string' && TRANSIENT_MESSAGES.some((re) => re.test(message))) return true;
  }
  return false;
}

/** True when the NATS server refused a publish or subscription for want of permission (anywhere in the cause chain). */
export function isPermissionViolation(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 8; e = (e as { cause?: unknown }).cause, depth++) {
    if (typeof e !== 'object') return false;
    const { name, message } = e as { name?: unknown; message?: unknown };
    if (name === 'PermissionViolationError') return true;
    if (typeof message === 'string' && /permissions? violation/i.test(message)) return true;
  }
  return false;
}
