import { baseEnvSchema, durationMs, loadConfig } from '@hearth/config';
import { z } from 'zod';

function rateLimit(defaultValue: number) {
  return z.coerce.number({ error: 'expected a whole number of requests (0 turns the limit off)' }).int().min(0).default(defaultValue);
}

/** Ingress settings from the environment (parsed once, frozen). */
export const ingressEnvSchema = baseEnvSchema.extend({
  /** Expected `iss` of access tokens. @default 'hearth-dev' */
  AUTH_ISSUER: z.string().min(1).default('hearth-dev'),
  /** Expected `aud` of ID tokens (for a Cognito user pool: the app client id). @default 'hearth' */
  AUTH_AUDIENCE: z.string().min(1).default('hearth'),
  /**
   * `client_id` that Cognito access tokens (`token_use: "access"`, no `aud`) must carry;
   * unset refuses access tokens. @default undefined
   */
  AUTH_CLIENT_ID: z.string().min(1).optional(),
  /** JWKS of the identity provider (e.g. a Cognito user pool); required in production. */
  AUTH_JWKS_URL: z.url().optional(),
  /** HS256 secret of dev tokens (dev and test only). */
  DEV_AUTH_SECRET: z.string().min(32).default('hearth-dev-secret-not-for-production-use!!'),
  /** How long a chat request waits for its reply before answering 504. @default 30000 */
  TURN_TIMEOUT_MS: durationMs(30_000),
  /** Chat messages a user may send a minute (API.md); 0 turns the limit off. @default 30 */
  RATE_LIMIT_CHAT_PER_MINUTE: rateLimit(30),
  /** Chat messages a user may send at once (API.md; see INGRESS.rateLimits); 0 turns it off. @default 10 */
  RATE_LIMIT_CHAT_BURST: rateLimit(10),
  /** Other requests a user may make a minute (API.md); 0 turns the limit off. @default 300 */
  RATE_LIMIT_PER_MINUTE: rateLimit(300),
  /** Requests without a valid token a client address may make a minute (API.md); 0 turns it off. @default 30 */
  RATE_LIMIT_ANON_PER_MINUTE: rateLimit(30),
});

export type IngressConfig = z.infer<typeof ingressEnvSchema>;

export function loadIngressConfig(env: Readonly<Record<string, string | undefined>> = process.env): Readonly<IngressConfig> {
  const cfg = loadConfig(ingressEnvSchema, env);
  if (cfg.HEARTH_ENV === 'production' && !cfg.AUTH_JWKS_URL) {
    throw new Error('AUTH_JWKS_URL is required when HEARTH_ENV=production');
  }
  return cfg;
}

/** Numbers of the ingress contract (../shared/API.md, turn-pipeline §4.1, §4.1.1). */
export const INGRESS = {
  /** Longest chat message accepted, in characters. */
  maxMessageChars: 4_000,
  /** Longest preferred name, in characters. */
  maxPreferredNameChars: 64,
  /** History page size: default and cap. */
  historyDefaultLimit: 50,
  historyMaxLimit: 200,
  /** Lifetime of a dev token. */
  devTokenTtlSeconds: 24 * 3600,
  /** How long onboarding waits for the persona before answering without it. */
  personaWaitMs: 10_000,
  /** How long a query to another service may take before the API answers 503. */
  queryTimeoutMs: 5_000,
  /**
   * Windows of the rate limits (API.md; the counts are RATE_LIMIT_* of the config).
   * "30 a minute, burst 10" is two fixed windows, each starting at a key's first
   * request: at most RATE_LIMIT_CHAT_PER_MINUTE per minute, and at most
   * RATE_LIMIT_CHAT_BURST per burst window, the time the per-minute rate takes to
   * earn a burst (60 s × 10 / 30 = 20 s). So 11 messages at once get the 11th
   * limited, while one every 2 s all pass. Not spec numbers: implementation choices.
   */
  rateLimits: {
    windowMs: 60_000,
    /** Burst window when the per-minute chat limit is off. */
    defaultBurstWindowMs: 20_000,
    /** A store (NATS KV) call taking longer than this lets the request through. */
    storeTimeoutMs: 1_000,
    /** After a store failure, requests pass uncounted this long before the store is tried again. */
    storePauseMs: 5_000,
  },
} as const;
