export { ConfigError, type ConfigProblem } from './errors.js';
export { loadConfig, type DeepReadonly, type Env } from './load.js';
export {
  baseEnvSchema,
  bool,
  durationMs,
  port,
  HEARTH_ENVS,
  LOG_LEVELS,
  type BaseEnv,
} from './schema.js';
