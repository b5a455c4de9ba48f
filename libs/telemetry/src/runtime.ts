import type { MeterProvider as MeterProviderApi } from '@opentelemetry/api';
import { RuntimeNodeInstrumentation } from '@opentelemetry/instrumentation-runtime-node';
import type { ViewOptions } from '@opentelemetry/sdk-metrics';

/** The `hearth` meter's HTTP server histogram (OpenTelemetry semantic conventions). */
export const HTTP_SERVER_REQUEST_DURATION = 'http.server.request.duration';

/**
 * Semantic-convention instruments with a unit, and the unit's Prometheus suffix.
 * The Prometheus exporter (0.223) writes the unit as a `# UNIT` line but leaves it
 * out of the name; Prometheus names carry it (`http_server_request_duration_seconds`,
 * as OpenTelemetry's Prometheus compatibility spec and the collector produce), so a
 * view renames each of these. Our own `hearth_*` instruments already end in their unit.
 */
const UNIT_SUFFIXES: Readonly<Record<string, 'seconds' | 'bytes' | 'ratio'>> = {
  [HTTP_SERVER_REQUEST_DURATION]: 'seconds',
  'process.cpu.time': 'seconds',
  'process.memory.usage': 'bytes',
  // @opentelemetry/instrumentation-runtime-node
  'nodejs.eventloop.delay.min': 'seconds',
  'nodejs.eventloop.delay.max': 'seconds',
  'nodejs.eventloop.delay.mean': 'seconds',
  'nodejs.eventloop.delay.stddev': 'seconds',
  'nodejs.eventloop.delay.p50': 'seconds',
  'nodejs.eventloop.delay.p90': 'seconds',
  'nodejs.eventloop.delay.p99': 'seconds',
  'nodejs.eventloop.time': 'seconds',
  'nodejs.eventloop.utilization': 'ratio',
  'v8js.gc.duration': 'seconds',
  'v8js.memory.heap.used': 'bytes',
  'v8js.memory.heap.space.size': 'bytes',
  'v8js.memory.heap.space.available_size': 'bytes',
  'v8js.memory.heap.space.physical_size': 'bytes',
};

/** Views that add the unit suffix to the names of {@link UNIT_SUFFIXES}. */
export const UNIT_SUFFIX_VIEWS: ViewOptions[] = Object.entries(UNIT_SUFFIXES).map(([instrumentName, suffix]) => ({
  instrumentName,
  name: `${instrumentName}_${suffix}`,
}));

/**
 * Event-loop resolution of the delay histogram, in ms. The reported delays include
 * it: an idle loop shows a p50 of about 10 ms.
 */
const EVENT_LOOP_RESOLUTION_MS = 10;

/**
 * Starts the process metrics of this process on `provider`: event-loop delay
 * (p50/p90/p99 per scrape window) and utilization, GC duration by kind, V8 heap by
 * space, active handles (instrumentation-runtime-node), CPU time and resident memory.
 * Returns the function that stops the collectors (the delay histogram and the GC
 * observer); the instruments go with the provider.
 */
export function startRuntimeMetrics(provider: MeterProviderApi): () => void {
  // It patches no module, so no require or import hook is installed: only timers and a GC observer.
  const runtime = new RuntimeNodeInstrumentation({ enabled: false, monitoringPrecision: EVENT_LOOP_RESOLUTION_MS });
  runtime.setMeterProvider(provider);
  runtime.enable();

  // The runtime instrumentation has no CPU or RSS; these follow the process.* conventions.
  const meter = provider.getMeter('hearth');
  meter
    .createObservableCounter('process.cpu.time', { description: 'CPU time of the process, by mode (user, system)', unit: 's' })
    .addCallback((result) => {
      const { user, system } = process.cpuUsage();
      result.observe(user / 1e6, { 'cpu.mode': 'user' });
      result.observe(system / 1e6, { 'cpu.mode': 'system' });
    });
  meter
    .createObservableUpDownCounter('process.memory.usage', { description: 'Resident set size of the process', unit: 'By' })
    .addCallback((result) => result.observe(process.memoryUsage.rss()));

  return () => runtime.disable();
}
