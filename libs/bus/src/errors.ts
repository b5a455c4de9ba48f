/** Base of every bus error: a stable code and the cause kept. */
export class BusError extends Error {
  constructor(
    readonly code: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The subject moved on since the caller read it (JetStream error 10071,
 * wrong last sequence). Reload state and decide again.
 */
export class AppendConflictError extends BusError {
  constructor(
    readonly subject: string,
    readonly expectedSeq: number,
    options?: { cause?: unknown },
  ) {
    super('APPEND_CONFLICT', `subject ${subject} is past sequence ${expectedSeq}`, options);
  }
}

/**
 * A handler failure that no retry can fix (bad payload, broken invariant):
 * the event is dead-lettered at once instead of redelivered.
 */
export class TerminalError extends BusError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('TERMINAL', message, options);
  }
}

/** A query got no answer, or the server answered with an error. */
export class QueryError extends BusError {}
