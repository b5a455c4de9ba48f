import { z } from 'zod';
import { baseEnvSchema, durationMs, loadConfig, port, type DeepReadonly, type Env } from '@hearth/config';

/** What the host reads from the environment: the base variables plus the HTTP edge. */
export const hostEnvSchema = baseEnvSchema.extend({
  /**
   * HTTP port of the process; 0 lets the OS pick a free one.
   * @default 8080
   */
  PORT: port(8080),
  /**
   * Interface the HTTP server binds to.
   * @default '127.0.0.1'
   */
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * Which proxies in front of the process to believe about the client address
   * (`X-Forwarded-For`): `false` none (direct exposure), `true` every one, a number
   * of hops, or a comma-separated list of proxy addresses/CIDRs. The address keys
   * the anonymous rate limit; behind a load balancer set it, or every anonymous
   * client shares one budget.
   * @default false
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((raw): boolean | number | string => {
      if (raw === 'false' || raw === '') return false;
      if (raw === 'true') return true;
      if (/^\d+$/.test(raw)) return Number(raw);
      return raw;
    }),
  /**
   * Largest accepted request body, in bytes; larger bodies get 413.
   * @default 65536
   */
  HTTP_BODY_LIMIT_BYTES: z.coerce.number().int().min(1).default(65_536),
  /**
   * Replicas of each JetStream stream (3 on a clustered NATS in production).
   * @default 1
   */
  NATS_STREAM_REPLICAS: z.coerce.number().int().min(1).max(5).default(1),
  /**
   * How long JetStream remembers an event id to drop a repeated append (Msg-Id dedup).
   * Idempotency that must outlive it is kept in projections (turns, app opens).
   * @default 120000
   */
  NATS_DUPLICATE_WINDOW_MS: durationMs(120_000),
  /**
   * Wait for a Postgres connection before a query fails (503 to a client, a paused consumer).
   * @default 5000
   */
  DATABASE_CONNECT_TIMEOUT_MS: durationMs(5_000),
  /**
   * Longest one SQL statement may run before Postgres cancels it (a hung query must
   * not wedge a consumer).
   * @default 30000
   */
  DATABASE_STATEMENT_TIMEOUT_MS: durationMs(30_000),
  /**
   * A consumer's handler running longer than this is abandoned: its events are left
   * for redelivery and readiness reports the consumer as stalled until it returns.
   * @default 120000
   */
  HANDLER_DEADLINE_MS: durationMs(120_000),
});

export type HostConfig = DeepReadonly<z.output<typeof hostEnvSchema>>;

/** Parses the host's environment once (frozen; throws a ConfigError naming each bad variable). */
export function loadHostConfig(env: Env = process.env): HostConfig {
  return loadConfig(hostEnvSchema, env);
}
