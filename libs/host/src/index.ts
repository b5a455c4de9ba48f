// Nest's decorators read and write metadata through the Reflect API.
import 'reflect-metadata';

export { runHearth, type RunHearthOptions, type HearthProcess } from './hearth.js';
export { schemaFor, type ServiceContext, type ServiceDefinition, type ServiceRuntime, type HttpSurface, type DependencyStatus } from './service.js';
export { hostEnvSchema, loadHostConfig, eventEncryption, type HostConfig } from './config.js';
export { JetStreamTransport, type HostedRuntime, type JetStreamTransportStatus } from './transport.js';
export {
  HealthController,
  HEALTH_PROBE,
  createHealthProbe,
  type HealthProbe,
  type ReadinessReport,
  type CheckResult,
  type ConsumersCheck,
} from './health.js';
export { ApiErrorFilter, ApiHttpException, toApiError, type ApiErrorBody } from './http-errors.js';
export { PinoNestLogger } from './nest-logger.js';
