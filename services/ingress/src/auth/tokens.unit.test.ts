import { ManualClock } from '@hearth/clock';
import { SignJWT } from 'jose';
import { AuthError, createTokenVerifier, signDevToken } from './tokens.js';

const secret = 'a-test-secret-that-is-long-enough-000000';
const clock = new ManualClock(new Date('2026-11-22T00:00:00Z'));
const opts = { issuer: 'hearth-dev', audience: 'hearth', devSecret: secret, clock };
const userId = '0b7e2b8e-3f4a-4c1d-9e2a-1c2d3e4f5a6b';

describe('token verification', () => {
  const verify = createTokenVerifier(opts);

  it('accepts a dev token and reads roles', async () => {
    const token = await signDevToken({ userId, roles: ['admin'] }, { ...opts, ttlSeconds: 60 });
    await expect(verify(token)).resolves.toEqual({ userId, roles: ['admin'] });
  });

  it('rejects an expired token by the injected clock', async () => {
    const token = await signDevToken({ userId, roles: [] }, { ...opts, ttlSeconds: 60 });
    const later = createTokenVerifier({ ...opts, clock: new ManualClock(new Date('2026-11-22T00:02:00Z')) });
    await expect(later(token)).rejects.toThrow(AuthError);
  });

  it('rejects the wrong issuer, audience, secret or algorithm', async () => {
    const sign = (iss: string, aud: string, key = secret, alg = 'HS256') =>
      new SignJWT({})
        .setProtectedHeader({ alg })
        .setSubject(userId)
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt(Math.floor(clock.now().getTime() / 1000))
        .setExpirationTime(Math.floor(clock.now().getTime() / 1000) + 60)
        .sign(new TextEncoder().encode(key));
    await expect(verify(await sign('evil', 'hearth'))).rejects.toThrow(/iss/);
    await expect(verify(await sign('hearth-dev', 'other'))).rejects.toThrow(/aud/);
    await expect(verify(await sign('hearth-dev', 'hearth', 'another-secret-that-is-long-enough-0000'))).rejects.toThrow(AuthError);
    await expect(verify(await sign('hearth-dev', 'hearth', secret + secret, 'HS512'))).rejects.toThrow(/alg/);
  });

  it('rejects a subject that is not a uuid', async () => {
    const token = await signDevToken({ userId: 'not-a-uuid', roles: [] }, { ...opts, ttlSeconds: 60 });
    await expect(verify(token)).rejects.toThrow(/uuid/);
  });
});
