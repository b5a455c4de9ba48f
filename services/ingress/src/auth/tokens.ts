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
  /** `aud` of ID tokens (and of dev tokens): for a Cognito user pool, the app client id. */
  audience: string;
  /**
   * `client_id` an access token (`token_use: "access"`, which has no `aud`) must
   * carry. Unset: access tokens are refused.
   * @default undefined
   */
  clientId?: string;
  /** Production: the identity provider's JWKS (RS256/ES256). */
  jwksUrl?: string;
  /**
   * The provider's keys given directly (tests, embedders); takes the place of `jwksUrl`.
   * @default undefined
   */
  jwks?: JWTVerifyGetKey;
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
 * Who a verified token is for. Cognito issues two kinds (the `token_use` claim):
 * an ID token names its app client in `aud`; an access token has no `aud` and
 * names it in `client_id`. Tokens without `token_use` (dev tokens, other
 * providers) are held to `aud` like ID tokens.
 */
function checkAudience(payload: JWTPayload, opts: Pick<TokenVerifierOptions, 'audience' | 'clientId'>): void {
  const use = payload.token_use;
  if (use === 'access') {
    if (!opts.clientId) throw new AuthError('access tokens are not accepted (AUTH_CLIENT_ID is not configured)');
    if (payload.client_id !== opts.clientId) throw new AuthError('invalid token: unexpected "client_id" claim value');
    return;
  }
  if (use !== undefined && use !== 'id') throw new AuthError('invalid token: unexpected "token_use" claim value');
  const aud = payload.aud;
  if (!(Array.isArray(aud) ? aud.includes(opts.audience) : aud === opts.audience)) {
    throw new AuthError('invalid token: unexpected "aud" claim value');
  }
}

/**
 * Verifies bearer tokens: algorithm, issuer, expiry (against the injected
 * clock, so dev tokens follow the virtual clock), and audience: `aud` for ID
 * tokens, `client_id` for access tokens.
 */
export function createTokenVerifier(opts: TokenVerifierOptions) {
  const secret = opts.devSecret ? new TextEncoder().encode(opts.devSecret) : undefined;
  const jwks: JWTVerifyGetKey | undefined = opts.jwks ?? (opts.jwksUrl ? createRemoteJWKSet(new URL(opts.jwksUrl)) : undefined);
  return async function verify(token: string): Promise<Principal> {
    let payload: JWTPayload;
    try {
      const common = { issuer: opts.issuer, currentDate: opts.clock.now(), requiredClaims: ['sub', 'exp'] };
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
    checkAudience(payload, opts);
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
