// The Hearths a fuzz run talks to, started as the e2e tests start them
// (scripts/start on Postgres, a fresh namespace each): one in test mode with dev
// tokens, and one in production mode trusting a local JWKS, with rate limits on.
import { randomBytes } from 'node:crypto';
import { startHearth, type RunningHearth } from '../../test-e2e/support/process.js';
import { jwksTarget, makeKeys, startJwksServer, type JwksServer } from './forged.js';
import type { FuzzOptions, RateLimits } from './engine.js';

/** The ingress defaults (services/ingress/src/config.ts) the dev target keeps. */
export const DEV_AUTH = { devSecret: 'hearth-dev-secret-not-for-production-use!!', issuer: 'hearth-dev', audience: 'hearth' } as const;
/** The HTTP body limit both targets keep (HTTP_BODY_LIMIT_BYTES' default). */
export const BODY_LIMIT = 65_536;
/** What the production-mode target's tokens must carry. */
const JWKS_AUTH = { issuer: 'https://idp.fuzz.invalid/pool', audience: 'hearth-fuzz-client', clientId: 'hearth-fuzz-access-client' } as const;
/** Small limits for the burst check (the fuzzed Hearth runs with them off). */
export const BURST_LIMITS: RateLimits = { perMinute: 20, chatPerMinute: 3, chatBurst: 3 };

export interface Targets {
  dev: RunningHearth;
  jwks?: RunningHearth;
  options: Pick<FuzzOptions, 'dev' | 'jwks'>;
  /** Stops both Hearths (and the JWKS server); resolves with their exit codes. */
  stop(): Promise<(number | null)[]>;
}

/**
 * Starts the dev target and, with `jwks`, the production one beside it.
 * A chat request waits at most 10 s for its reply (TURN_TIMEOUT_MS), so a wedged
 * user costs seconds, not the default 30 s, per message.
 */
export async function startTargets(opts: { jwks: boolean }): Promise<Targets> {
  let server: JwksServer | undefined;
  const keys = opts.jwks ? await makeKeys() : undefined;
  if (keys) server = await startJwksServer(keys);
  const started = await Promise.allSettled([
    startHearth({ mode: 'all', database: 'postgres', env: { RETENTION_POLL_MS: '200', TURN_TIMEOUT_MS: '10000' } }),
    ...(server
      ? [
          startHearth({
            mode: 'all',
            database: 'postgres',
            env: {
              HEARTH_ENV: 'production',
              // Production needs a KEK: a fresh one for this throwaway target.
              HEARTH_KEK: randomBytes(32).toString('base64'),
              AUTH_JWKS_URL: server.url,
              AUTH_ISSUER: JWKS_AUTH.issuer,
              AUTH_AUDIENCE: JWKS_AUTH.audience,
              AUTH_CLIENT_ID: JWKS_AUTH.clientId,
              RATE_LIMIT_PER_MINUTE: String(BURST_LIMITS.perMinute),
              RATE_LIMIT_CHAT_PER_MINUTE: String(BURST_LIMITS.chatPerMinute),
              RATE_LIMIT_CHAT_BURST: String(BURST_LIMITS.chatBurst),
              // Forged tokens are unauthenticated requests: an address limit would answer them 429, not 401.
              RATE_LIMIT_ANON_PER_MINUTE: '0',
            },
          }),
        ]
      : []),
  ]);
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const stopAll = async () => {
    const codes = (await Promise.all(running.map((h) => h.stop()))).flat();
    await server?.close();
    return codes;
  };
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await stopAll();
    throw failed.reason;
  }
  const [dev, jwks] = running as [RunningHearth, RunningHearth | undefined];
  return {
    dev,
    jwks,
    options: {
      dev: { url: dev.url, ...DEV_AUTH, bodyLimit: BODY_LIMIT },
      jwks: jwks && keys && server ? { url: jwks.url, target: jwksTarget(keys, server, JWKS_AUTH, DEV_AUTH.devSecret), limits: BURST_LIMITS } : undefined,
    },
    stop: stopAll,
  };
}
