import { ROOT_CONTEXT, context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  SpanKind,
  counter,
  createLogger,
  currentTraceId,
  extractTraceContext,
  histogram,
  initTelemetry,
  injectTraceContext,
  observableGauge,
  withSpan,
  type Telemetry,
} from './index.js';

// Created before initTelemetry, as a library would at module load.
const turnsReceived = counter('test_turns_received', 'Turns received in the test');

describe('telemetry', () => {
  const spans = new InMemorySpanExporter();
  let telemetry: Telemetry;

  beforeAll(() => {
    telemetry = initTelemetry({ service: 'test-a', spanProcessors: [new SimpleSpanProcessor(spans)] });
  });

  afterEach(() => spans.reset());

  afterAll(async () => {
    await telemetry.shutdown();
  });

  describe('initTelemetry', () => {
    it('is idempotent per process: later calls share the providers and add their service', async () => {
      const second = initTelemetry({ service: 'test-b' });
      const tracerProvider = trace.getTracerProvider();

      expect(second.services()).toEqual(['test-a', 'test-b']);
      expect(telemetry.services()).toEqual(['test-a', 'test-b']);

      await second.shutdown();
      expect(telemetry.services()).toEqual(['test-a']);
      expect(trace.getTracerProvider()).toBe(tracerProvider);
      await withSpan('still-recording', async (span) => expect(span.isRecording()).toBe(true));
    });
  });

  describe('withSpan', () => {
    it('starts a span inside another in the same trace, as its child', async () => {
      const ids = await withSpan('outer', async (outer) =>
        withSpan('inner', async (inner) => ({ outer: outer.spanContext(), inner: inner.spanContext() })),
      );

      expect(ids.inner.traceId).toBe(ids.outer.traceId);
      expect(ids.inner.spanId).not.toBe(ids.outer.spanId);
      const inner = spans.getFinishedSpans().find((s) => s.name === 'inner');
      expect(inner?.parentSpanContext?.spanId).toBe(ids.outer.spanId);
    });

    it('records the exception and sets error status, then rethrows', async () => {
      const boom = new Error('boom');

      await expect(withSpan('failing', async () => Promise.reject(boom))).rejects.toBe(boom);

      const [span] = spans.getFinishedSpans();
      expect(span?.status).toEqual({ code: 2, message: 'boom' });
      expect(span?.events.map((e) => e.name)).toEqual(['exception']);
    });

    it('sets kind and attributes', async () => {
      await withSpan('consume', async () => undefined, { kind: SpanKind.CONSUMER, attributes: { 'hearth.user_id': 'u1' } });

      const [span] = spans.getFinishedSpans();
      expect(span?.kind).toBe(SpanKind.CONSUMER);
      expect(span?.attributes).toEqual({ 'hearth.user_id': 'u1' });
    });
  });

  describe('trace propagation across a NATS hop', () => {
    it('continues the same trace after inject and extract in a fresh context', async () => {
      const headers = new Map<string, string>();
      const sender = await withSpan(
        'publish TurnReceived',
        async (span) => {
          injectTraceContext((k, v) => headers.set(k, v));
          return span.spanContext();
        },
        { kind: SpanKind.PRODUCER },
      );

      const receiver = await context.with(ROOT_CONTEXT, () => {
        expect(currentTraceId()).toBeUndefined();
        const parent = extractTraceContext((k) => headers.get(k));
        return withSpan('handle TurnReceived', async (span) => span.spanContext(), { parent, kind: SpanKind.CONSUMER });
      });

      expect(headers.get('traceparent')).toMatch(new RegExp(`^00-${sender.traceId}-${sender.spanId}-01$`));
      expect(receiver.traceId).toBe(sender.traceId);
      const handled = spans.getFinishedSpans().find((s) => s.name === 'handle TurnReceived');
      expect(handled?.parentSpanContext?.spanId).toBe(sender.spanId);
    });

    it('starts a new trace when the message carries no context', async () => {
      const parent = extractTraceContext(() => undefined);
      const traceId = await withSpan('handle', async (span) => span.spanContext().traceId, { parent });

      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(spans.getFinishedSpans()[0]?.parentSpanContext).toBeUndefined();
    });
  });

  describe('createLogger', () => {
    function capture() {
      const lines: Array<Record<string, unknown>> = [];
      const destination = { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) };
      return { lines, logger: createLogger({ service: 'memory', level: 'debug', destination }) };
    }

    it('stamps the service and, inside a span, the trace and span ids', async () => {
      const { lines, logger } = capture();

      const ids = await withSpan('turn', async (span) => {
        logger.info({ user_id: 'u1' }, 'inside');
        return span.spanContext();
      });
      logger.debug('outside');

      expect(lines[0]).toMatchObject({
        level: 'info',
        service: 'memory',
        user_id: 'u1',
        msg: 'inside',
        trace_id: ids.traceId,
        span_id: ids.spanId,
      });
      expect(lines[1]).toMatchObject({ level: 'debug', service: 'memory', msg: 'outside' });
      expect(lines[1]).not.toHaveProperty('trace_id');
    });
  });

  describe('metrics', () => {
    it('renders a counter recorded through the helpers as Prometheus text', async () => {
      turnsReceived.add(2, { service: 'ingress' });
      turnsReceived.add(1, { service: 'ingress' });

      const text = await telemetry.metricsText();

      expect(text).toContain('# TYPE test_turns_received_total counter');
      expect(text).toMatch(/^test_turns_received_total\{service="ingress"[^}]*\} 3$/m);
    });

    it('renders histograms and observable gauges', async () => {
      histogram('test_turn_latency', 'Turn latency', 'ms', { buckets: [10, 100] }).record(42);
      let observed = 0;
      const gauge = observableGauge('test_consumer_lag', 'Pending messages', (result) => {
        observed += 1;
        result.observe(7, { stream: 'router' });
      });

      const text = await telemetry.metricsText();
      gauge.remove();
      await telemetry.metricsText();

      expect(text).toMatch(/^test_turn_latency_bucket\{[^}]*le="100"[^}]*\} 1$/m);
      expect(text).toMatch(/^test_consumer_lag\{stream="router"[^}]*\} 7$/m);
      expect(observed).toBe(1);
    });
  });
});
