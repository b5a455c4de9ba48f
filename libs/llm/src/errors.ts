import type { LlmExchange } from './types.js';

/** Why an LLM call failed. */
export type LlmErrorCode =
  /** No answer within the timeout, after the client's retries. */
  | 'LLM_TIMEOUT'
  /** The server could not be reached, after the client's retries. */
  | 'LLM_UNAVAILABLE'
  /** The server answered with an HTTP error (see `status`). */
  | 'LLM_HTTP_ERROR'
  /** The reply was not the JSON the schema asks for, even after one repair. */
  | 'LLM_INVALID_JSON'
  /** The reply had no content. */
  | 'LLM_EMPTY';

export interface LlmErrorOptions {
  /** Whether the same call may succeed later (timeouts, outages, 408/409/429/5xx). */
  retryable: boolean;
  /** Every exchange of the call, the failed one last, so the caller can record them. */
  exchanges: readonly LlmExchange[];
  /** HTTP status of an `LLM_HTTP_ERROR`. */
  status?: number;
  cause?: unknown;
}

/**
 * An LLM call failed. `retryable` separates a passing failure (try again later or
 * use the offline provider) from one that will fail the same way again.
 */
export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly code: LlmErrorCode;
  readonly retryable: boolean;
  readonly exchanges: LlmExchange[];
  /** HTTP status of an `LLM_HTTP_ERROR`, else `null`. */
  readonly status: number | null;

  constructor(code: LlmErrorCode, message: string, options: LlmErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = options.retryable;
    this.exchanges = [...options.exchanges];
    this.status = options.status ?? null;
  }
}
