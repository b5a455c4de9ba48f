import { KmsUnavailableError, LocalKek, VaultTransitKek } from './kek.js';
import { newDataKey, openBytes, sealBytes } from './seal.js';

describe('AES-256-GCM sealing', () => {
  const key = newDataKey();

  it('round-trips and binds the associated data', () => {
    const sealed = sealBytes(key, Buffer.from('hello'), 'hearth-event:e1');
    expect(Buffer.from(openBytes(key, sealed, 'hearth-event:e1')).toString()).toBe('hello');
    expect(() => openBytes(key, sealed, 'hearth-event:e2')).toThrow();
    expect(() => openBytes(newDataKey(), sealed, 'hearth-event:e1')).toThrow();
  });

  it('uses a fresh nonce each time and refuses short input or a wrong key size', () => {
    const a = sealBytes(key, Buffer.from('same'), 'ad');
    const b = sealBytes(key, Buffer.from('same'), 'ad');
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(false);
    expect(a.length).toBe(12 + 4 + 16);
    expect(() => openBytes(key, new Uint8Array(10), 'ad')).toThrow(/too short/);
    expect(() => sealBytes(new Uint8Array(16), Buffer.from('x'), 'ad')).toThrow(/32-byte/);
  });

  it('seals an empty payload (an event with every field at its default)', () => {
    const sealed = sealBytes(key, new Uint8Array(0), 'ad');
    expect(openBytes(key, sealed, 'ad').length).toBe(0);
  });
});

describe('LocalKek', () => {
  it('wraps per key slot; another KEK or slot does not unwrap', async () => {
    const kek = LocalKek.fromBase64(Buffer.alloc(32, 1).toString('base64'));
    const dek = newDataKey();
    const wrapped = await kek.wrap(dek, 'hearth-data-key:u1:1');
    expect(Buffer.from(await kek.unwrap(wrapped, 'hearth-data-key:u1:1')).equals(Buffer.from(dek))).toBe(true);
    await expect(kek.unwrap(wrapped, 'hearth-data-key:u2:1')).rejects.toThrow();
    await expect(LocalKek.forDevelopment('hearth').unwrap(wrapped, 'hearth-data-key:u1:1')).rejects.toThrow();
  });

  it('names itself by a fingerprint, never the secret, and refuses a wrong length', () => {
    const secret = Buffer.alloc(32, 2);
    const kek = new LocalKek(secret);
    expect(kek.id).toMatch(/^local:[0-9a-f]{12}$/);
    expect(kek.id).not.toContain(secret.toString('base64'));
    expect(() => LocalKek.fromBase64(Buffer.alloc(16).toString('base64'))).toThrow(/32 bytes/);
  });
});

describe('VaultTransitKek', () => {
  /** Vault transit's encrypt/decrypt contract, with a real AES key behind it. */
  function fakeVault() {
    const inner = LocalKek.fromBase64(Buffer.alloc(32, 3).toString('base64'));
    const calls: { url: string; token: string | null; body: Record<string, string> }[] = [];
    const fetchFn = (async (url: string, init: RequestInit) => {
      const body = JSON.parse(init.body as string) as Record<string, string>;
      calls.push({ url, token: new Headers(init.headers).get('X-Vault-Token'), body });
      const ad = Buffer.from(body.associated_data ?? '', 'base64').toString();
      if (url.endsWith('/encrypt/hearth-kek')) {
        const sealed = await inner.wrap(Buffer.from(body.plaintext!, 'base64'), ad);
        return Response.json({ data: { ciphertext: `vault:v1:${Buffer.from(sealed).toString('base64')}` } });
      }
      if (url.endsWith('/decrypt/hearth-kek')) {
        try {
          const plain = await inner.unwrap(Buffer.from(body.ciphertext!.slice('vault:v1:'.length), 'base64'), ad);
          return Response.json({ data: { plaintext: Buffer.from(plain).toString('base64') } });
        } catch {
          return new Response(JSON.stringify({ errors: ['cipher: message authentication failed'] }), { status: 400 });
        }
      }
      return new Response('{"errors":["no handler"]}', { status: 404 });
    }) as unknown as typeof fetch;
    return { fetchFn, calls };
  }

  it('wraps and unwraps through the transit API with the slot as associated data', async () => {
    const { fetchFn, calls } = fakeVault();
    const kek = new VaultTransitKek({ address: 'https://vault.test:8200/', token: 's.token', key: 'hearth-kek', fetch: fetchFn });
    const dek = newDataKey();
    const wrapped = await kek.wrap(dek, 'hearth-data-key:u1:1');
    expect(Buffer.from(wrapped).toString()).toMatch(/^vault:v1:/);
    expect(Buffer.from(await kek.unwrap(wrapped, 'hearth-data-key:u1:1')).equals(Buffer.from(dek))).toBe(true);
    expect(calls[0]!.url).toBe('https://vault.test:8200/v1/transit/encrypt/hearth-kek');
    expect(calls[0]!.token).toBe('s.token');
    expect(kek.id).toBe('vault:transit/hearth-kek');
    await expect(kek.unwrap(wrapped, 'hearth-data-key:u2:1')).rejects.toThrow(/answered 400/);
  });

  it('reads a sealed or overloaded Vault as an outage to wait out, a refusal as an error', async () => {
    const answer = (status: number) => (async () => new Response('{"errors":["Vault is sealed"]}', { status })) as unknown as typeof fetch;
    await expect(new VaultTransitKek({ address: 'https://v', token: 't', key: 'k', fetch: answer(503) }).unwrap(Buffer.from('vault:v1:x'), 'c')).rejects.toBeInstanceOf(KmsUnavailableError);
    await expect(new VaultTransitKek({ address: 'https://v', token: 't', key: 'k', fetch: answer(429) }).wrap(new Uint8Array(32), 'c')).rejects.toBeInstanceOf(KmsUnavailableError);
    const denied = new VaultTransitKek({ address: 'https://v', token: 't', key: 'k', fetch: answer(403) }).wrap(new Uint8Array(32), 'c');
    await expect(denied).rejects.toThrow(/answered 403/);
    await expect(denied).rejects.not.toBeInstanceOf(KmsUnavailableError);
  });
});
