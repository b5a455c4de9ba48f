// Forged bearer tokens, and the local JWKS server a production-mode Hearth trusts.
// Every forgery must be answered 401 on every route it is sent to; the valid
// controls beside them must pass, or the 401s would prove nothing.
import { createHmac, KeyObject, randomUUID, sign as cryptoSign } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, exportSPKI, generateKeyPair, type JWK } from 'jose';
import { freePort } from '@hearth/testing';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

/** Signs the `header.payload` of a JWS with one key and algorithm. */
interface Signer {
  alg: 'RS256' | 'ES256' | 'HS256';
  kid?: string;
  sign(data: string): Buffer;
}

const b64 = (v: unknown): string => Buffer.from(typeof v === 'string' ? v : JSON.stringify(v)).toString('base64url');

function rsSigner(pair: KeyPair, kid?: string): Signer {
  const key = KeyObject.from(pair.privateKey);
  return { alg: 'RS256', kid, sign: (data) => cryptoSign('sha256', Buffer.from(data), key) };
}

function esSigner(pair: KeyPair, kid?: string): Signer {
  const key = KeyObject.from(pair.privateKey);
  return { alg: 'ES256', kid, sign: (data) => cryptoSign('sha256', Buffer.from(data), { key, dsaEncoding: 'ieee-p1363' }) };
}

function hsSigner(secret: string | Buffer, kid?: string): Signer {
  return { alg: 'HS256', kid, sign: (data) => createHmac('sha256', secret).update(data).digest() };
}

/** A compact JWS with any header and payload (jose refuses to make most of these, which is the point). */
function jws(signer: Signer | 'none', payload: Record<string, unknown>, header: Record<string, unknown> = {}): string {
  const h = signer === 'none' ? { alg: 'none', typ: 'JWT', ...header } : { alg: signer.alg, typ: 'JWT', ...(signer.kid ? { kid: signer.kid } : {}), ...header };
  const input = `${b64(h)}.${b64(payload)}`;
  return `${input}.${signer === 'none' ? '' : signer.sign(input).toString('base64url')}`;
}

/** What a real token of the target carries. */
export interface TokenTarget {
  issuer: string;
  audience: string;
  /** The `client_id` its Cognito access tokens carry (AUTH_CLIENT_ID); unset: it takes no access tokens. */
  clientId?: string;
  /** The target's clock, in seconds. */
  now: number;
  /** The key(s) the target trusts. */
  trusted: Signer[];
  /** Keys it must not trust. */
  untrusted: Signer[];
  /** Secrets it must not accept HS256 tokens under (its public key, the dev secret in production…). */
  wrongSecrets: { name: string; secret: string }[];
  /** A URL serving a JWKS of the untrusted key (for `jku` injection), when there is one. */
  attackerJwksUrl?: string;
  attackerJwk?: JWK;
}

/** A user id and an admin role: what a forger would claim. */
export function claimsFor(t: TokenTarget, sub: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { sub, iss: t.issuer, aud: t.audience, iat: t.now - 5, exp: t.now + 3_600, roles: ['admin'], 'cognito:groups': ['admin'], ...extra };
}

/** A valid token of the target, for the controls. */
export function validToken(t: TokenTarget, sub: string, signer = t.trusted[0]!): string {
  return jws(signer, claimsFor(t, sub, { roles: [], 'cognito:groups': [] }));
}

/** Tokens the target must accept: one per trusted key, and a Cognito access token when it takes them. */
export function controlTokens(t: TokenTarget, sub: () => string): { name: string; token: string }[] {
  const tokens = t.trusted.map((signer) => ({ name: `a valid ${signer.alg} token`, token: validToken(t, sub(), signer) }));
  if (t.clientId) {
    const access = without(claimsFor(t, sub(), { roles: [], 'cognito:groups': [], token_use: 'access', client_id: t.clientId }), 'aud');
    tokens.push({ name: 'a valid Cognito access token', token: jws(t.trusted[0]!, access) });
  }
  return tokens;
}

export interface Forgery {
  name: string;
  /** The whole Authorization header (undefined: none sent). */
  authorization: string | undefined;
}

function without(o: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _gone, ...rest } = o;
  return rest;
}

/** Every forgery of the brief (and a few more) against one target. */
export function forgeries(t: TokenTarget, sub: string): Forgery[] {
  const real = t.trusted[0]!;
  const claims = claimsFor(t, sub);
  const valid = jws(real, claims);
  const [head, payload, sig] = valid.split('.') as [string, string, string];
  const tokens: [string, string][] = [
    ['alg none', jws('none', claims)],
    ['alg None', jws('none', claims, { alg: 'None' })],
    ['alg none with a trusted kid', jws('none', claims, { kid: real.kid ?? 'k' })],
    ...t.wrongSecrets.map(({ name, secret }): [string, string] => [`HS256 keyed with ${name}`, jws(hsSigner(secret, real.kid), claims)]),
    ...t.untrusted.map((u): [string, string] => [`${u.alg} by an untrusted key with a trusted kid`, jws({ ...u, kid: real.kid }, claims)]),
    ...t.untrusted.map((u): [string, string] => [`${u.alg} by an untrusted key, no kid`, jws({ ...u, kid: undefined }, claims)]),
    ...(t.attackerJwk ? [['untrusted key embedded as a jwk header', jws(t.untrusted[0]!, claims, { jwk: t.attackerJwk })] as [string, string]] : []),
    ...(t.attackerJwksUrl ? [['untrusted key behind a jku header', jws(t.untrusted[0]!, claims, { jku: t.attackerJwksUrl })] as [string, string]] : []),
    ['expired', jws(real, { ...claims, iat: t.now - 7_200, exp: t.now - 600 })],
    ['nbf in the future', jws(real, { ...claims, nbf: t.now + 3_600 })],
    ['wrong iss', jws(real, { ...claims, iss: `${t.issuer}-evil` })],
    ['wrong aud', jws(real, { ...claims, aud: `${t.audience}-evil` })],
    ['aud list without ours', jws(real, { ...claims, aud: ['other', `${t.audience}x`] })],
    ['missing sub', jws(real, without(claims, 'sub'))],
    ['non-uuid sub', jws(real, { ...claims, sub: 'admin' })],
    ['nil-uuid sub', jws(real, { ...claims, sub: '00000000-0000-0000-0000-000000000000' })],
    ['numeric sub', jws(real, { ...claims, sub: 12345 })],
    ['missing exp', jws(real, without(claims, 'exp'))],
    // Cognito's two kinds of token (token_use): an access token is held to client_id, an ID token to aud.
    ['access token of another client', jws(real, { ...without(claims, 'aud'), token_use: 'access', client_id: `${t.clientId ?? t.audience}-evil` })],
    ['access token without client_id', jws(real, { ...without(claims, 'aud'), token_use: 'access' })],
    ['access token with our aud but another client_id', jws(real, { ...claims, token_use: 'access', client_id: 'another-client' })],
    ['refresh token_use', jws(real, { ...claims, token_use: 'refresh' })],
    ['ID token for another audience', jws(real, { ...claims, token_use: 'id', aud: `${t.audience}-evil` })],
    ...(t.clientId ? [] : [['access token where none are taken', jws(real, { ...without(claims, 'aud'), token_use: 'access', client_id: t.audience })] as [string, string]]),
    ['unknown critical header', jws(real, claims, { crit: ['x-fuzz'], 'x-fuzz': true })],
    // A kid names a key only where keys have ids (a JWKS); an HS256 dev token ignores it.
    ...(real.kid ? [['unknown kid', jws({ ...real, kid: 'no-such-kid' }, claims)] as [string, string]] : []),
    ['truncated signature', valid.slice(0, -6)],
    ['one signature bit flipped', `${head}.${payload}.${flipBit(sig)}`],
    ['no signature', `${head}.${payload}.`],
    ['payload swapped under a real signature', `${head}.${b64({ ...claims, sub: randomUUID() })}.${jws(real, claimsFor(t, randomUUID(), { roles: [] })).split('.')[2]}`],
    ['garbage', 'not-a-jwt'],
    ['three empty parts', '..'],
    ['random segments', `${b64('{"alg":"RS256"')}.${b64('x')}.${b64('y')}`],
    ['JWE-shaped', `${head}.${payload}.x.y.z`],
    ['huge', `${head}.${'A'.repeat(12_000)}.${sig}`],
  ];
  return [
    ...tokens.map(([name, token]) => ({ name, authorization: `Bearer ${token}` })),
    { name: 'no Authorization header', authorization: undefined },
    { name: 'empty bearer', authorization: 'Bearer ' },
    { name: 'bare Bearer', authorization: 'Bearer' },
    { name: 'Basic scheme', authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` },
    { name: 'Basic scheme with a real token', authorization: `Basic ${valid}` },
    { name: 'real token without a scheme', authorization: valid },
    { name: 'Token scheme with a real token', authorization: `Token ${valid}` },
    { name: 'two tokens', authorization: `Bearer ${valid} ${valid}` },
  ];
}

function flipBit(b64url: string): string {
  const bytes = Buffer.from(b64url, 'base64url');
  bytes[0] = bytes[0]! ^ 1;
  return bytes.toString('base64url');
}

/** The keys of a production-mode run: an RSA and an EC key the JWKS serves, and an attacker's RSA and EC keys. */
export interface JwksKeys {
  trusted: Signer[];
  untrusted: Signer[];
  publicPem: string;
  publicJwk: JWK;
  attackerJwk: JWK;
  jwks: { keys: JWK[] };
  attackerJwks: { keys: JWK[] };
}

export async function makeKeys(): Promise<JwksKeys> {
  const [rsa, ec, evilRsa, evilEc] = await Promise.all([
    generateKeyPair('RS256', { extractable: true }),
    generateKeyPair('ES256', { extractable: true }),
    generateKeyPair('RS256', { extractable: true }),
    generateKeyPair('ES256', { extractable: true }),
  ]);
  const publicJwk = { ...(await exportJWK(rsa.publicKey)), kid: 'fuzz-rsa', alg: 'RS256', use: 'sig' };
  const ecJwk = { ...(await exportJWK(ec.publicKey)), kid: 'fuzz-ec', alg: 'ES256', use: 'sig' };
  const attackerJwk = { ...(await exportJWK(evilRsa.publicKey)), kid: 'fuzz-rsa', alg: 'RS256', use: 'sig' };
  return {
    trusted: [rsSigner(rsa, 'fuzz-rsa'), esSigner(ec, 'fuzz-ec')],
    untrusted: [rsSigner(evilRsa), esSigner(evilEc)],
    publicPem: await exportSPKI(rsa.publicKey),
    publicJwk,
    attackerJwk,
    jwks: { keys: [publicJwk, ecJwk] },
    attackerJwks: { keys: [attackerJwk] },
  };
}

export interface JwksServer {
  /** The JWKS the Hearth under test is configured with (AUTH_JWKS_URL). */
  url: string;
  /** A JWKS of the attacker's key, named by forged `jku` headers. */
  attackerUrl: string;
  /** How many times the trusted JWKS was fetched. */
  fetches(): number;
  close(): Promise<void>;
}

/** A JWKS endpoint on 127.0.0.1, as an identity provider (a Cognito user pool) serves one. */
export async function startJwksServer(keys: JwksKeys): Promise<JwksServer> {
  let fetches = 0;
  const server: Server = createServer((req, res) => {
    const body = req.url === '/jwks.json' ? (fetches++, keys.jwks) : req.url === '/attacker.json' ? keys.attackerJwks : undefined;
    res.writeHead(body ? 200 : 404, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { error: 'not found' }));
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: `${base}/jwks.json`,
    attackerUrl: `${base}/attacker.json`,
    fetches: () => fetches,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The target of a production-mode Hearth trusting `keys` through the JWKS server. */
export function jwksTarget(keys: JwksKeys, server: JwksServer, auth: { issuer: string; audience: string; clientId: string }, devSecret: string): TokenTarget {
  return {
    ...auth,
    now: Math.floor(Date.now() / 1000),
    trusted: keys.trusted,
    untrusted: keys.untrusted,
    wrongSecrets: [
      { name: 'the RSA public key (PEM)', secret: keys.publicPem },
      { name: 'the RSA public key (JWK)', secret: JSON.stringify(keys.publicJwk) },
      { name: 'the dev secret', secret: devSecret },
    ],
    attackerJwksUrl: server.attackerUrl,
    attackerJwk: keys.attackerJwk,
  };
}

/** The target of a dev-mode Hearth: HS256 under its dev secret, on its virtual clock. */
export async function devTarget(devSecret: string, issuer: string, audience: string, now: number): Promise<TokenTarget> {
  const keys = await makeKeys();
  return {
    issuer,
    audience,
    now,
    trusted: [hsSigner(devSecret)],
    untrusted: keys.untrusted,
    wrongSecrets: [
      { name: 'another secret', secret: 'another-secret-of-the-same-length-as-dev!!' },
      { name: 'the dev secret plus one character', secret: `${devSecret}!` },
      { name: 'an empty secret', secret: '' },
    ],
  };
}
