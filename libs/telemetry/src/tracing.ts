import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  isSpanContextValid,
  propagation,
  trace,
  type Context,
  type Span,
} from '@opentelemetry/api';

const TRACER_NAME = 'hearth';
const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'];

export interface WithSpanOptions {
  /**
   * The context to start the span in, e.g. one from {@link extractTraceContext}.
   * @default the active context
   */
  parent?: Context;
  /**
   * Span attributes set at start.
   * @default {}
   */
  attributes?: Record<string, string | number | boolean>;
  /**
   * @default SpanKind.INTERNAL
   */
  kind?: SpanKind;
}

/**
 * Runs `fn` inside a new active span and ends it when `fn` settles. A failure is
 * recorded on the span (exception event, ERROR status) and rethrown unchanged.
 */
export function withSpan<T>(name: string, fn: (span: Span) => Promise<T>, opts: WithSpanOptions = {}): Promise<T> {
  const tracer = trace.getTracer(TRACER_NAME);
  const spanOptions = { kind: opts.kind ?? SpanKind.INTERNAL, ...(opts.attributes ? { attributes: opts.attributes } : {}) };
  return tracer.startActiveSpan(name, spanOptions, opts.parent ?? context.active(), async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}

/**
 * Writes the active trace context (`traceparent`, `tracestate`, `baggage`) through
 * `setHeader`, e.g. `(k, v) => headers.set(k, v)` on a NATS message.
 */
export function injectTraceContext(setHeader: (key: string, value: string) => void): void {
  propagation.inject(context.active(), null, { set: (_carrier, key, value) => setHeader(key, value) });
}

/**
 * Reads a trace context written by {@link injectTraceContext}; pass the result as
 * `withSpan(..., { parent })` so the handler's span continues the sender's trace.
 * The result derives from the root context, not the active one: a message carries
 * its own trace and must not inherit whatever span the consumer loop runs in.
 */
export function extractTraceContext(getHeader: (key: string) => string | undefined): Context {
  return propagation.extract(ROOT_CONTEXT, null, {
    get: (_carrier, key) => getHeader(key) || undefined,
    keys: () => TRACE_HEADERS,
  });
}

/** The active trace id, or undefined outside a (valid) span. */
export function currentTraceId(): string | undefined {
  const spanContext = trace.getSpanContext(context.active());
  return spanContext && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
