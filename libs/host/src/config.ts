import { z } from 'zod';
import { LocalKek, VaultTransitKek, type BusOptions, type KeyEncryptionKey } from '@hearth/bus';
import { baseEnvSchema, ConfigError, durationMs, loadConfig, port, type DeepReadonly, type Env } from '@hearth/config';

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
   * Send parameterised statements to Postgres as named prepared statements,
   * parsed and planned once per connection. `off` behind a pooler in
   * transaction mode that does not carry them (PgBouncer before 1.21).
   * @default 'on'
   */
  DATABASE_PREPARED_STATEMENTS: z.enum(['on', 'off']).default('on'),
  /**
   * A consumer's handler running longer than this is abandoned: its events are left
   * for redelivery and readiness reports the consumer as stalled until it returns.
   * @default 120000
   */
  HANDLER_DEADLINE_MS: durationMs(120_000),
  /**
   * Seal every event payload about a user with the user's data key
   * (crypto-shredding, ARCHITECTURE.md "Personal data, export and erasure").
   * `off` exists for the turn benchmark's comparison only: erasure then cannot
   * make the log unreadable.
   * @default 'on'
   */
  EVENT_ENCRYPTION: z.enum(['on', 'off']).default('on'),
  /**
   * Where the key-encryption key lives: `local` (HEARTH_KEK) or `vault` (the
   * transit engine of HashiCorp Vault / OpenBao, VAULT_*).
   * @default 'local'
   */
  KMS_PROVIDER: z.enum(['local', 'vault']).default('local'),
  /**
   * The local KEK: 32 random bytes in base64 (`openssl rand -base64 32`).
   * Required in production with KMS_PROVIDER=local; dev and test derive one
   * from the namespace when it is absent. Never logged.
   */
  HEARTH_KEK: z
    .string()
    .trim()
    .refine((v) => Buffer.from(v, 'base64').length === 32, 'must be 32 bytes in base64 (openssl rand -base64 32)')
    .optional(),
  /**
   * Earlier local KEKs (comma-separated base64), for unwrapping only, while
   * `pnpm keys:rotate` re-wraps every data key with the current KEK (a new
   * HEARTH_KEK, or Vault when moving to it). Remove once the rotation reported
   * no key left under them. Never logged.
   */
  HEARTH_KEK_PREVIOUS: z
    .string()
    .trim()
    .refine((v) => v.split(',').every((k) => Buffer.from(k.trim(), 'base64').length === 32), 'each must be 32 bytes in base64')
    .optional(),
  /** Vault address, e.g. https://vault.internal:8200 (KMS_PROVIDER=vault). */
  VAULT_ADDR: z.string().url().optional(),
  /** Vault token allowed to encrypt/decrypt with the transit key (KMS_PROVIDER=vault). Never logged. */
  VAULT_TOKEN: z.string().min(1).optional(),
  /**
   * Transit key name (type aes256-gcm96).
   * @default 'hearth-kek'
   */
  VAULT_TRANSIT_KEY: z.string().min(1).default('hearth-kek'),
  /**
   * Transit engine mount path.
   * @default 'transit'
   */
  VAULT_TRANSIT_MOUNT: z.string().min(1).default('transit'),
  /**
   * How long a process keeps a user's unwrapped data key in memory; an erasure
   * drops it at once everywhere (a watch on the key store).
   * @default 60000
   */
  DATA_KEY_CACHE_MS: durationMs(60_000),
});

export type HostConfig = DeepReadonly<z.output<typeof hostEnvSchema>>;

/** Parses the host's environment once (frozen; throws a ConfigError naming each bad variable). */
export function loadHostConfig(env: Env = process.env): HostConfig {
  const config = loadConfig(hostEnvSchema, env);
  if (config.EVENT_ENCRYPTION === 'on' && config.HEARTH_ENV === 'production') {
    if (config.KMS_PROVIDER === 'local' && !config.HEARTH_KEK) {
      throw new ConfigError([{ variable: 'HEARTH_KEK', problem: 'required in production with KMS_PROVIDER=local (32 bytes in base64: openssl rand -base64 32)' }]);
    }
  }
  if (config.KMS_PROVIDER === 'vault' && (!config.VAULT_ADDR || !config.VAULT_TOKEN)) {
    throw new ConfigError([{ variable: config.VAULT_ADDR ? 'VAULT_TOKEN' : 'VAULT_ADDR', problem: 'required with KMS_PROVIDER=vault' }]);
  }
  return config;
}

/**
 * The bus's encryption from configuration: the KEK (local or Vault), or
 * undefined with EVENT_ENCRYPTION=off. Every process that reads payloads
 * (services, replay and audit scripts) opens its bus with it.
 */
export function eventEncryption(config: HostConfig, log?: { warn(obj: object, msg?: string): void }): BusOptions['encryption'] {
  if (config.EVENT_ENCRYPTION === 'off') {
    log?.warn({}, 'EVENT_ENCRYPTION=off: payloads are written clear and erasure cannot shred them (benchmarks only)');
    return undefined;
  }
  let kek: KeyEncryptionKey;
  if (config.KMS_PROVIDER === 'vault') {
    kek = new VaultTransitKek({ address: config.VAULT_ADDR!, token: config.VAULT_TOKEN!, key: config.VAULT_TRANSIT_KEY, mount: config.VAULT_TRANSIT_MOUNT });
  } else if (config.HEARTH_KEK) {
    kek = LocalKek.fromBase64(config.HEARTH_KEK);
  } else {
    // loadHostConfig refused this in production.
    log?.warn({ namespace: config.HEARTH_NAMESPACE }, 'no HEARTH_KEK: using a development KEK derived from the namespace (dev and test only)');
    kek = LocalKek.forDevelopment(config.HEARTH_NAMESPACE);
  }
  const previousKeks = (config.HEARTH_KEK_PREVIOUS ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '')
    .map((k) => LocalKek.fromBase64(k));
  return { kek, previousKeks, keyCacheTtlMs: config.DATA_KEY_CACHE_MS };
}
