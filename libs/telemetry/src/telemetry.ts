import { context, diag, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { PrometheusExporter, PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { TelemetryError } from './errors.js';
import { rebindGauges } from './metrics.js';
import { startRuntimeMetrics, UNIT_SUFFIX_VIEWS } from './runtime.js';

export interface TelemetryOptions {
  /**
   * The calling service. The first caller's name becomes the `service.name` resource
   * attribute; later callers (other services in the same process) are added to
   * {@link Telemetry.services}.
   */
  service: string;
  /**
   * Base URL of an OTLP/HTTP collector (`OTEL_EXPORTER_OTLP_ENDPOINT`); spans are
   * posted to `<url>/v1/traces`. Only the first call of a process decides.
   * @default undefined (spans stay in-process: ids reach logs and NATS headers, nothing is exported)
   */
  otlpEndpoint?: string;
  /**
   * Extra span processors, e.g. an in-memory exporter in tests. Only the first call
   * of a process decides.
   * @default []
   */
  spanProcessors?: SpanProcessor[];
}

/** One caller's handle on the process-wide telemetry. */
export interface Telemetry {
  /** The Prometheus exposition text of every metric recorded in this process. */
  metricsText(): Promise<string>;
  /** Services that currently hold a handle. */
  services(): string[];
  /**
   * Releases this handle. The last handle of the process flushes spans, shuts the
   * providers down and unregisters the globals, so a later initTelemetry starts afresh.
   */
  shutdown(): Promise<void>;
}

interface ProcessTelemetry {
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly prometheus: PrometheusExporter;
  readonly serializer: PrometheusSerializer;
  readonly stopRuntimeMetrics: () => void;
  /** Live handles per service name. */
  readonly holders: Map<string, number>;
}

let current: ProcessTelemetry | undefined;

/**
 * `service.name` as a `service_name` label on every metric, so dashboards and alerts
 * group by service whatever labels the scrape config adds (`hearth` when one process
 * runs every service).
 */
const SERVICE_LABEL = /^service\.name$/;

/**
 * Sets up tracing (W3C propagation, async-local context) and metrics (Prometheus
 * text, no server of its own; the process's runtime metrics included) once per
 * process. All services may run in one process, so repeated calls share the same
 * providers and each returns its own handle.
 */
export function initTelemetry(options: TelemetryOptions): Telemetry {
  const state = (current ??= startProcessTelemetry(options));
  state.holders.set(options.service, (state.holders.get(options.service) ?? 0) + 1);

  let released = false;
  return {
    metricsText: () => renderMetrics(state),
    services: () => [...state.holders.keys()].sort(),
    async shutdown() {
      if (released) return;
      released = true;
      const left = (state.holders.get(options.service) ?? 1) - 1;
      if (left > 0) state.holders.set(options.service, left);
      else state.holders.delete(options.service);
      if (state.holders.size === 0 && current === state) {
        current = undefined;
        await stopProcessTelemetry(state);
      }
    },
  };
}

function startProcessTelemetry(options: TelemetryOptions): ProcessTelemetry {
  const resource = resourceFromAttributes({ 'service.name': options.service, 'service.namespace': 'hearth' });

  const spanProcessors: SpanProcessor[] = [...(options.spanProcessors ?? [])];
  if (options.otlpEndpoint) {
    const url = `${options.otlpEndpoint.replace(/\/+$/, '')}/v1/traces`;
    spanProcessors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
  }
  const tracerProvider = new BasicTracerProvider({ resource, spanProcessors });

  const prometheus = new PrometheusExporter({ preventServerStart: true });
  const meterProvider = new MeterProvider({ resource, readers: [prometheus], views: UNIT_SUFFIX_VIEWS });

  const registered = {
    context: context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable()),
    propagation: propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    ),
    trace: trace.setGlobalTracerProvider(tracerProvider),
    metrics: metrics.setGlobalMeterProvider(meterProvider),
  };
  const taken = Object.entries(registered).filter(([, ok]) => !ok).map(([api]) => api);
  if (taken.length > 0) {
    if (registered.context) context.disable();
    if (registered.propagation) propagation.disable();
    if (registered.trace) trace.disable();
    if (registered.metrics) metrics.disable();
    void tracerProvider.shutdown();
    void meterProvider.shutdown();
    throw new TelemetryError(
      'TELEMETRY_GLOBAL_CONFLICT',
      `another OpenTelemetry SDK already registered the global ${taken.join(', ')}`,
    );
  }
  rebindGauges();

  return {
    tracerProvider,
    meterProvider,
    prometheus,
    serializer: new PrometheusSerializer(undefined, undefined, SERVICE_LABEL),
    stopRuntimeMetrics: startRuntimeMetrics(meterProvider),
    holders: new Map(),
  };
}

async function renderMetrics(state: ProcessTelemetry): Promise<string> {
  rebindGauges();
  const { resourceMetrics, errors } = await state.prometheus.collect();
  if (errors.length > 0) diag.warn('telemetry: metric collection errors', ...errors);
  return state.serializer.serialize(resourceMetrics);
}

async function stopProcessTelemetry(state: ProcessTelemetry): Promise<void> {
  state.stopRuntimeMetrics();
  try {
    await Promise.all([state.tracerProvider.shutdown(), state.meterProvider.shutdown()]);
  } finally {
    trace.disable();
    metrics.disable();
    propagation.disable();
    context.disable();
    rebindGauges();
  }
}
