import {
  metrics,
  type Attributes,
  type Counter,
  type Histogram,
  type MeterProvider,
  type ObservableCallback,
  type ObservableGauge,
} from '@opentelemetry/api';

const METER_NAME = 'hearth';

/*
 * @opentelemetry/api has no proxy meter provider: an instrument created before
 * initTelemetry() registers the SDK stays a no-op forever. Libraries create their
 * instruments at module load, so these wrappers resolve the real instrument from the
 * current global provider whenever it changes.
 */

function bindTo<I>(create: (provider: MeterProvider) => I): () => I {
  let bound: { provider: MeterProvider; instrument: I } | undefined;
  return () => {
    const provider = metrics.getMeterProvider();
    if (bound?.provider !== provider) bound = { provider, instrument: create(provider) };
    return bound.instrument;
  };
}

/** A monotonic counter on the `hearth` meter (exported as `<name>_total` by Prometheus). */
export function counter(name: string, description: string): Counter {
  const current = bindTo((p) => p.getMeter(METER_NAME).createCounter(name, { description }));
  return { add: (value, attributes, ctx) => current().add(value, attributes, ctx) };
}

export interface HistogramOptions {
  /**
   * Explicit bucket boundaries, in `unit`.
   * @default SECONDS_BUCKETS for unit `s`, else the SDK's defaults (0, 5, 10, 25, … 10000)
   */
  buckets?: number[];
}

/**
 * Boundaries for durations in seconds, from a millisecond to two minutes. The SDK's
 * defaults (0, 5, 10 … 10000) suit milliseconds and put every sub-5 s sample in one bucket.
 */
export const SECONDS_BUCKETS: readonly number[] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

/** A histogram on the `hearth` meter; `unit` is UCUM, e.g. `ms`, `s`, `By`. */
export function histogram(name: string, description: string, unit: string, options: HistogramOptions = {}): Histogram {
  const buckets = options.buckets ?? (unit === 's' ? [...SECONDS_BUCKETS] : undefined);
  const advice = buckets ? { advice: { explicitBucketBoundaries: buckets } } : {};
  const current = bindTo((p) => p.getMeter(METER_NAME).createHistogram(name, { description, unit, ...advice }));
  return { record: (value, attributes, ctx) => current().record(value, attributes, ctx) };
}

/** Stops an observable gauge's callback. */
export interface GaugeRegistration {
  remove(): void;
}

interface LiveGauge {
  readonly name: string;
  readonly description: string;
  readonly callback: ObservableCallback<Attributes>;
  bound?: { provider: MeterProvider; gauge: ObservableGauge };
}

const liveGauges = new Set<LiveGauge>();

/**
 * An observable gauge on the `hearth` meter; `callback` runs at each collection
 * (each Prometheus scrape) and reports values with `result.observe(value, attributes)`.
 */
export function observableGauge(
  name: string,
  description: string,
  callback: ObservableCallback<Attributes>,
): GaugeRegistration {
  const live: LiveGauge = { name, description, callback };
  liveGauges.add(live);
  bindGauge(live);
  return {
    remove() {
      liveGauges.delete(live);
      live.bound?.gauge.removeCallback(live.callback);
      delete live.bound;
    },
  };
}

/** Moves every gauge's callback to the current global meter provider. */
export function rebindGauges(): void {
  for (const live of liveGauges) bindGauge(live);
}

function bindGauge(live: LiveGauge): void {
  const provider = metrics.getMeterProvider();
  if (live.bound?.provider === provider) return;
  live.bound?.gauge.removeCallback(live.callback);
  const gauge = provider.getMeter(METER_NAME).createObservableGauge(live.name, { description: live.description });
  gauge.addCallback(live.callback);
  live.bound = { provider, gauge };
}
