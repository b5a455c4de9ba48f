import { z } from 'zod';

const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/;
const DURATION_UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const NATS_SCHEMES = new Set(['nats:', 'tls:', 'ws:', 'wss:']);
const POSTGRES_SCHEMES = new Set(['postgres:', 'postgresql:']);

/**
 * A TCP port, coerced from its string form.
 * @param defaultPort used when the variable is unset; 0 lets the OS pick.
 */
export function port(defaultPort: number) {
  return z.coerce
    .number({ error: 'expected a port number' })
    .int('expected an integer port')
    .min(0, 'expected a port in 0..65535')
    .max(65535, 'expected a port in 0..65535')
    .default(defaultPort);
}

/**
 * A boolean flag: `true`/`false`/`1`/`0`, case-insensitive.
 * @param defaultValue used when the variable is unset.
 */
export function bool(defaultValue: boolean) {
  return z
    .stringbool({ truthy: ['true', '1'], falsy: ['false', '0'], error: 'expected true, false, 1 or 0' })
    .default(defaultValue);
}

/**
 * A duration in milliseconds. Accepts a bare number of milliseconds (`1500`) or a
 * number with a unit: `ms`, `s`, `m`, `h`, `d` (`250ms`, `30s`, `1.5h`).
 * @param defaultMs used when the variable is unset, in milliseconds.
 */
export function durationMs(defaultMs: number) {
  return z
    .string()
    .trim()
    .transform((raw, ctx) => {
      const match = DURATION.exec(raw);
      if (!match) {
        ctx.addIssue({ code: 'custom', message: 'expected a duration like 1500, 250ms, 30s, 5m, 2h or 1d' });
        return z.NEVER;
      }
      const unit = (match[2] ?? 'ms') as keyof typeof DURATION_UNIT_MS;
      return Math.round(Number(match[1]) * DURATION_UNIT_MS[unit]);
    })
    .default(defaultMs);
}

function isNatsServerList(value: string): boolean {
  return value.split(',').every((entry) => {
    const trimmed = entry.trim();
    const withScheme = trimmed.includes('://') ? trimmed : `nats://${trimmed}`;
    try {
      const url = new URL(withScheme);
      return NATS_SCHEMES.has(url.protocol) && url.hostname !== '';
    } catch {
      return false;
    }
  });
}

function isPostgresUrl(value: string): boolean {
  try {
    return POSTGRES_SCHEMES.has(new URL(value).protocol);
  } catch {
    return false;
  }
}

/** Pino's level names. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

/** The deployment flavours. `dev` and `test` enable the shared virtual clock. */
export const HEARTH_ENVS = ['dev', 'test', 'production'] as const;

/**
 * Variables every Hearth service reads. Extend it per service:
 * `loadConfig(baseEnvSchema.extend({ HTTP_PORT: port(8080) }))`.
 */
export const baseEnvSchema = z.object({
  /**
   * Deployment flavour; `production` disables dev-only tools such as the virtual clock
   * and the dev token route. Production unless said otherwise, so an image started
   * without its ConfigMap is safe; `scripts/start` and the test harnesses say `dev`/`test`.
   * @default 'production'
   */
  HEARTH_ENV: z.enum(HEARTH_ENVS).default('production'),
  /**
   * This build's label (an image tag or a commit; deploy/Dockerfile's HEARTH_BUILD
   * argument), recorded in every event this process appends (`producer_build`).
   * @default ''
   */
  HEARTH_BUILD: z.string().max(128).default(''),
  /**
   * Root of every NATS subject, stream and KV bucket name (`<ns>.<service>.v1.<user>`),
   * so test runs and deployments can share one server without colliding.
   * @default 'hearth'
   */
  HEARTH_NAMESPACE: z
    .string()
    .regex(/^[a-z0-9_]+$/, 'expected lowercase letters, digits and _ only')
    .default('hearth'),
  /**
   * NATS server URL, or a comma-separated list of them (`nats://`, `tls://`, `ws://`,
   * `wss://`, or bare `host:port`).
   * @default 'nats://127.0.0.1:4222'
   */
  NATS_URL: z
    .string()
    .refine(isNatsServerList, 'expected nats://host:port (comma-separated for several servers)')
    .default('nats://127.0.0.1:4222'),
  /**
   * NATS user and password (deploy/: one user per service, each allowed to publish
   * only its own stream). Never logged.
   * @default undefined
   */
  NATS_USER: z.string().min(1).optional(),
  NATS_PASSWORD: z.string().min(1).optional(),
  /**
   * Postgres connection string. When unset, the embedded PGlite under `PGLITE_DIR` is used.
   * @default undefined
   */
  DATABASE_URL: z
    .string()
    .refine(isPostgresUrl, 'expected a postgres:// or postgresql:// URL')
    .optional(),
  /**
   * Directory of the embedded PGlite database, used when `DATABASE_URL` is unset.
   * @default '.data/pglite'
   */
  PGLITE_DIR: z.string().min(1).default('.data/pglite'),
  /**
   * Minimum pino log level.
   * @default 'info'
   */
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  /**
   * Base URL of an OTLP/HTTP collector (traces go to `<url>/v1/traces`). When unset,
   * spans stay in-process (trace ids still reach logs and NATS headers).
   * @default undefined
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/, error: 'expected an http(s) URL' }).optional(),
});

/** The parsed {@link baseEnvSchema}. */
export type BaseEnv = z.output<typeof baseEnvSchema>;
