/** Base of every harness error: a stable code and the cause kept. */
export class TestingError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** {@link waitFor} gave up; `cause` is the last error the probe threw, if any. */
export class WaitTimeoutError extends TestingError {
  constructor(
    readonly what: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown },
  ) {
    super('WAIT_TIMEOUT', `timed out after ${timeoutMs} ms waiting for ${what}`, options);
  }
}

/** No NATS or Postgres server to test against: the message names the variable to set. */
export class ServerUnavailableError extends TestingError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SERVER_UNAVAILABLE', message, options);
  }
}

/** A throwaway server failed to start or stop; the message carries its log tail. */
export class ServerProcessError extends TestingError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('SERVER_PROCESS', message, options);
  }
}
