import { ManualClock } from '@hearth/clock';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT } from 'jose';
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

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

describe('Cognito tokens (RS256 from a JWKS)', () => {
  const issuer = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_TEST';
  const appClient = '4k2example0client0id0abc';
  let privateKey: PrivateKey;
  let jwks: ReturnType<typeof createLocalJWKSet>;

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256');
    privateKey = pair.privateKey;
    jwks = createLocalJWKSet({ keys: [{ ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256' }] });
  });

  const now = () => Math.floor(clock.now().getTime() / 1000);
  function cognito(claims: Record<string, unknown>, key: PrivateKey | Uint8Array = privateKey, alg = 'RS256') {
    return new SignJWT({ 'cognito:groups': ['admin'], ...claims })
      .setProtectedHeader({ alg, kid: 'k1' })
      .setSubject(userId)
      .setIssuer(issuer)
      .setIssuedAt(now())
      .setExpirationTime(now() + 300)
      .sign(key);
  }
  const idToken = () => cognito({ token_use: 'id', aud: appClient });
  const accessToken = (clientId = appClient) => cognito({ token_use: 'access', client_id: clientId, scope: 'aws.cognito.signin.user.admin' });

  const verifier = (clientId?: string) => createTokenVerifier({ issuer, audience: appClient, clientId, jwks, clock });

  it('accepts an ID token whose aud is the app client', async () => {
    await expect(verifier(appClient)(await idToken())).resolves.toEqual({ userId, roles: ['admin'] });
  });

  it('accepts an access token whose client_id is AUTH_CLIENT_ID (it has no aud)', async () => {
    await expect(verifier(appClient)(await accessToken())).resolves.toEqual({ userId, roles: ['admin'] });
  });

  it('refuses an access token of another app client', async () => {
    await expect(verifier(appClient)(await accessToken('another-client'))).rejects.toThrow(/client_id/);
  });

  it('refuses every access token when AUTH_CLIENT_ID is not configured', async () => {
    await expect(verifier(undefined)(await accessToken())).rejects.toThrow(/AUTH_CLIENT_ID/);
    // ID tokens still pass.
    await expect(verifier(undefined)(await idToken())).resolves.toMatchObject({ userId });
  });

  it('refuses an ID token for another audience, one without aud, and an unknown token_use', async () => {
    const v = verifier(appClient);
    await expect(v(await cognito({ token_use: 'id', aud: 'another-client' }))).rejects.toThrow(/aud/);
    await expect(v(await cognito({ token_use: 'id' }))).rejects.toThrow(/aud/);
    // An ID token does not pass as an access token by naming client_id.
    await expect(v(await cognito({ token_use: 'id', client_id: appClient }))).rejects.toThrow(/aud/);
    await expect(v(await cognito({ token_use: 'refresh', aud: appClient }))).rejects.toThrow(/token_use/);
  });

  it('refuses a token signed by another key, or HS256 with the public key as secret, or alg none', async () => {
    const v = verifier(appClient);
    const other = await generateKeyPair('RS256');
    await expect(v(await cognito({ token_use: 'access', client_id: appClient }, other.privateKey))).rejects.toThrow(AuthError);
    const hs = await cognito({ token_use: 'access', client_id: appClient }, new TextEncoder().encode(JSON.stringify(await exportJWK(other.publicKey))), 'HS256');
    await expect(v(hs)).rejects.toThrow(AuthError);
    const none = `${Buffer.from(JSON.stringify({ alg: 'none' })).toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: userId, iss: issuer, token_use: 'access', client_id: appClient, exp: now() + 60 }),
    ).toString('base64url')}.`;
    await expect(v(none)).rejects.toThrow(AuthError);
  });

  it('refuses an expired access token by the injected clock', async () => {
    const token = await accessToken();
    const later = createTokenVerifier({ issuer, audience: appClient, clientId: appClient, jwks, clock: new ManualClock(new Date('2026-11-22T00:10:00Z')) });
    await expect(later(token)).rejects.toThrow(/exp/);
  });
});
