/** Stable codes of {@link TelemetryError}. */
export type TelemetryErrorCode =
  /** Another SDK already registered a global tracer/meter provider, context manager or propagator. */
  'TELEMETRY_GLOBAL_CONFLICT';

export class TelemetryError extends Error {
  override readonly name = 'TelemetryError';
  readonly code: TelemetryErrorCode;

  constructor(code: TelemetryErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
  }
}
