/** Stable codes of {@link ClockError}. */
export type ClockErrorCode =
  /** advance() got a negative, NaN or infinite amount. Not retryable. */
  | 'CLOCK_INVALID_ADVANCE'
  /** Every compare-and-set attempt lost to a concurrent advance. Retryable. */
  | 'CLOCK_ADVANCE_CONFLICT'
  /** The shared offset in NATS KV is not an integer number of milliseconds. */
  | 'CLOCK_CORRUPT_OFFSET'
  /** The clock was closed; it still tells time but can no longer advance. */
  | 'CLOCK_CLOSED'
  /** waitForClockOffset() gave up. */
  | 'CLOCK_WAIT_TIMEOUT';

export class ClockError extends Error {
  override readonly name = 'ClockError';
  readonly code: ClockErrorCode;

  constructor(code: ClockErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
