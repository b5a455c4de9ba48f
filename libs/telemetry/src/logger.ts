import { hostname } from 'node:os';
import { context, isSpanContextValid, trace } from '@opentelemetry/api';
import { pino, type DestinationStream, type LevelWithSilent, type Logger as PinoLogger } from 'pino';

/** Hearth's logger: pino, one JSON object per line. */
export type Logger = PinoLogger;

export interface LoggerOptions {
  /** Written as `service` on every line, so one process running all services stays readable. */
  service: string;
  /**
   * Minimum level (from `LOG_LEVEL`).
   * @default 'info'
   */
  level?: LevelWithSilent;
  /**
   * Where lines go; tests pass a stream to capture them.
   * @default process.stdout
   */
  destination?: DestinationStream;
  /** Log to stderr instead: a command whose stdout is its result (JSON, a report). */
  stderr?: boolean;
}

/**
 * A pino logger that stamps `service` on every line and, inside a span, the active
 * `trace_id` and `span_id`, so a turn's log lines join its trace across services.
 */
export function createLogger(options: LoggerOptions): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: options.service, pid: process.pid, hostname: hostname() },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      mixin: activeTraceFields,
    },
    options.destination ?? pino.destination(options.stderr ? 2 : 1),
  );
}

function activeTraceFields(): Record<string, string> {
  const spanContext = trace.getSpanContext(context.active());
  if (!spanContext || !isSpanContextValid(spanContext)) return {};
  return { trace_id: spanContext.traceId, span_id: spanContext.spanId };
}
