import { createRemoteJWKSet, jwtVerify, SignJWT, type JWTPayload, type JWTVerifyGetKey } from 'jose';
import type { Clock } from '@hearth/clock';

export interface Principal {
  userId: string;
  roles: string[];
}

export class AuthError extends Error {
  readonly code = 'UNAUTHENTICATED';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthError';
  }
}

export interface TokenVerifierOptions {
  issuer: string;
  audience: string;
  /** Production: the identity provider's JWKS (RS256/ES256). */
  jwksUrl?: string;
  /** Dev and test: HS256 secret of the tokens POST /v1/dev/token mints. */
  devSecret?: string;
  clock: Clock;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;

/** Roles from `roles` or Cognito's `cognito:groups`. */
function rolesOf(payload: JWTPayload): string[] {
  const raw = payload.roles ?? payload['cognito:groups'];
  return Array.isArray(raw) ? raw.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * Verifies bearer tokens: algorithm, issuer, audience and expiry (against the
 * injected clock, so dev tokens follow the virtual clock).
 */
export function createTokenVerifier(opts: TokenVerifierOptions) {
  const secret = opts.devSecret ? new TextEncoder().encode(opts.devSecret) : undefined;
  const jwks: JWTVerifyGetKey | undefined = opts.jwksUrl ? createRemoteJWKSet(new URL(opts.jwksUrl)) : undefined;
  return async function verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      const common = { issuer: opts.issuer, audience: opts.audience, currentDate: opts.clock.now(), requiredClaims: ['sub', 'exp'] };
      if (jwks) {
        ({ payload } = await jwtVerify(token, jwks, { ...common, algorithms: ['RS256', 'ES256'] }));
      } else if (secret) {
        ({ payload } = await jwtVerify(token, secret, { ...common, algorithms: ['HS256'] }));
      } else {
        throw new AuthError('no token verification key configured');
      }
    } catch (err) {
      if (err instanceof AuthError) throw err;
      throw new AuthError(`invalid token: ${(err as Error).message}`, { cause: err });
    }
    if (!payload.sub || !UUID.test(payload.sub)) throw new AuthError('token subject must be a user uuid');
    return { userId: payload.sub.toLowerCase(), roles: rolesOf(payload) };
  };
}

export type TokenVerifier = ReturnType<typeof createTokenVerifier>;

/** Mints a dev token (dev and test only). */
export async function signDevToken(
  principal: Principal,
  opts: { issuer: string; audience: string; devSecret: string; clock: Clock; ttlSeconds: number },
): Promise<string> {
  const now = Math.floor(opts.clock.now().getTime() / 1000);
  return new SignJWT({ roles: principal.roles })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(principal.userId)
    .setIssuer(opts.issuer)
    .setAudience(opts.audience)
    .setIssuedAt(now)
    .setExpirationTime(now + opts.ttlSeconds)
    .sign(new TextEncoder().encode(opts.devSecret));
}
