export { TelemetryError, type TelemetryErrorCode } from './errors.js';
export { createLogger, type Logger, type LoggerOptions } from './logger.js';
export { recordHttpServerRequest, type HttpServerRequest } from './http.js';
export {
  counter,
  histogram,
  observableGauge,
  type GaugeRegistration,
  type HistogramOptions,
} from './metrics.js';
export { initTelemetry, type Telemetry, type TelemetryOptions } from './telemetry.js';
export {
  currentTraceId,
  extractTraceContext,
  injectTraceContext,
  withSpan,
  type WithSpanOptions,
} from './tracing.js';
export { SpanKind, type Context, type Span } from '@opentelemetry/api';
