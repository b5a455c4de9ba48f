import { ApiHttpException } from '@hearth/host';
import { ProjectionBehindError } from '@hearth/store';
import type { FastifyRequest } from 'fastify';
import { AuthError, type Principal, type TokenVerifier } from '../auth/tokens.js';
import { IngressError } from '../app/errors.js';

/** The auth edge: bearer token → principal, admin role check, dev-only gate. */
export interface IngressAuth {
  verify: TokenVerifier;
  devMode: boolean;
  signDevToken(p: Principal): Promise<string>;
  advanceClock?: (seconds: number) => Promise<Date>;
  now(): Date;
}

// One verification per request: the rate-limit hook and the controller share it.
const verified = new WeakMap<object, Promise<Principal>>();

/**
 * The principal of a request's bearer token, verified once per request; a
 * missing or invalid token is a 401.
 */
export function principalOf(auth: IngressAuth, req: FastifyRequest): Promise<Principal> {
  let p = verified.get(req.raw);
  if (!p) {
    p = verifyHeader(auth, req.headers.authorization);
    verified.set(req.raw, p);
  }
  return p;
}

/** The verified user id of a request, or null when it has no valid token (for the rate limits). */
export function verifiedUserOf(auth: IngressAuth, req: FastifyRequest): Promise<string | null> {
  if (!req.headers.authorization) return Promise.resolve(null);
  return principalOf(auth, req).then(
    (p) => p.userId,
    () => null,
  );
}

/** The principal of an `Authorization` header; a missing or invalid token is a 401. */
export async function verifyHeader(auth: IngressAuth, header: string | undefined): Promise<Principal> {
  if (!header || !/^Bearer\s+\S+$/i.test(header)) {
    throw new ApiHttpException(401, 'UNAUTHENTICATED', 'missing bearer token (Authorization: Bearer <JWT>)');
  }
  try {
    return await auth.verify(header.replace(/^Bearer\s+/i, ''));
  } catch (err) {
    if (err instanceof AuthError) throw new ApiHttpException(401, 'UNAUTHENTICATED', err.message);
    throw err;
  }
}

export async function adminOf(auth: IngressAuth, req: FastifyRequest): Promise<Principal> {
  const p = await principalOf(auth, req);
  if (!p.roles.includes('admin')) throw new ApiHttpException(403, 'FORBIDDEN', 'admin role required');
  return p;
}

/**
 * Maps application errors to API errors; everything else stays as is (a 500,
 * or the host's 503 for a dependency that is away).
 */
export async function api<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof IngressError) throw new ApiHttpException(err.status, err.code, err.message, err.details);
    // Ingress waits only on projections of the caller's own chain (read-your-writes).
    if (err instanceof ProjectionBehindError) throw new ApiHttpException(503, 'UNAVAILABLE', 'user state is catching up; retry shortly');
    throw err;
  }
}
