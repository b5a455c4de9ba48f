import { baseEnvSchema, durationMs, loadConfig } from '@hearth/config';
import { z } from 'zod';

/** Ingress settings from the environment (parsed once, frozen). */
export const ingressEnvSchema = baseEnvSchema.extend({
  /** Expected `iss` of access tokens. @default 'hearth-dev' */
  AUTH_ISSUER: z.string().min(1).default('hearth-dev'),
  /** Expected `aud` of access tokens. @default 'hearth' */
  AUTH_AUDIENCE: z.string().min(1).default('hearth'),
  /** JWKS of the identity provider (e.g. a Cognito user pool); required in production. */
  AUTH_JWKS_URL: z.url().optional(),
  /** HS256 secret of dev tokens (dev and test only). */
  DEV_AUTH_SECRET: z.string().min(32).default('hearth-dev-secret-not-for-production-use!!'),
  /** How long a chat request waits for its reply before answering 504. @default 30000 */
  TURN_TIMEOUT_MS: durationMs(30_000),
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
} as const;
