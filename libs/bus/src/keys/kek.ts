import { createHash } from 'node:crypto';
import { KEY_BYTES, openBytes, sealBytes } from './seal.js';

/**
 * The key-encryption key that wraps every user's data key at rest. Locally a
 * 32-byte secret from configuration (`HEARTH_KEK`); in production a KMS holds
 * it and only wraps/unwraps (see {@link VaultTransitKek}). `context` names the
 * key slot (user and generation), so a wrapped key moved to another slot does
 * not unwrap.
 */
export interface KeyEncryptionKey {
  /** Names the KEK (never the secret): stored beside each wrapped key so a rotation can tell them apart. */
  readonly id: string;
  wrap(dataKey: Uint8Array, context: string): Promise<Uint8Array>;
  unwrap(wrapped: Uint8Array, context: string): Promise<Uint8Array>;
}

/** The KMS is briefly not there (5xx, 429): retry later, as for any outage. */
export class KmsUnavailableError extends Error {
  override readonly name = 'KmsUnavailableError';
  readonly code = 'KMS_UNAVAILABLE';
}

/** A KEK held in process memory, from configuration. */
export class LocalKek implements KeyEncryptionKey {
  readonly id: string;
  readonly #secret: Uint8Array;

  constructor(secret: Uint8Array) {
    if (secret.length !== KEY_BYTES) throw new Error(`HEARTH_KEK must be ${KEY_BYTES} bytes (base64), got ${secret.length}`);
    this.#secret = secret;
    // A fingerprint, not the key: enough to tell two KEKs apart.
    this.id = `local:${createHash('sha256').update('hearth-kek-id').update(secret).digest('hex').slice(0, 12)}`;
  }

  /** From base64 (`openssl rand -base64 32`). */
  static fromBase64(value: string): LocalKek {
    return new LocalKek(Buffer.from(value.trim(), 'base64'));
  }

  /**
   * A KEK derived from the namespace: dev and test only, so the embedded run
   * needs no secret. Anyone with the namespace name can derive it.
   */
  static forDevelopment(namespace: string): LocalKek {
    return new LocalKek(createHash('sha256').update(`hearth-development-kek:${namespace}`).digest());
  }

  async wrap(dataKey: Uint8Array, context: string): Promise<Uint8Array> {
    return sealBytes(this.#secret, dataKey, context);
  }

  async unwrap(wrapped: Uint8Array, context: string): Promise<Uint8Array> {
    return openBytes(this.#secret, wrapped, context);
  }
}

export interface VaultTransitOptions {
  /** e.g. `https://vault.internal:8200` */
  address: string;
  token: string;
  /** The transit key's name (type aes256-gcm96). */
  key: string;
  /** Transit mount path. @default 'transit' */
  mount?: string;
  /** @default 5000 */
  timeoutMs?: number;
  /** Injected for tests. @default globalThis.fetch */
  fetch?: typeof fetch;
}

/**
 * KMS adapter for HashiCorp Vault's transit engine (or OpenBao): the KEK never
 * leaves Vault; Hearth sends a data key to be wrapped or unwrapped, with the
 * key slot as associated data. Any other KMS (AWS KMS Encrypt/Decrypt with an
 * encryption context, GCP KMS with additional authenticated data) fits the same
 * three members.
 */
export class VaultTransitKek implements KeyEncryptionKey {
  readonly id: string;

  constructor(private readonly opts: VaultTransitOptions) {
    this.id = `vault:${opts.mount ?? 'transit'}/${opts.key}`;
  }

  async wrap(dataKey: Uint8Array, context: string): Promise<Uint8Array> {
    const body = await this.call('encrypt', { plaintext: Buffer.from(dataKey).toString('base64'), associated_data: b64(context) });
    const ciphertext = (body as { data?: { ciphertext?: unknown } }).data?.ciphertext;
    if (typeof ciphertext !== 'string') throw new Error('vault transit encrypt: no ciphertext in the answer');
    return Buffer.from(ciphertext, 'utf8');
  }

  async unwrap(wrapped: Uint8Array, context: string): Promise<Uint8Array> {
    const body = await this.call('decrypt', { ciphertext: Buffer.from(wrapped).toString('utf8'), associated_data: b64(context) });
    const plaintext = (body as { data?: { plaintext?: unknown } }).data?.plaintext;
    if (typeof plaintext !== 'string') throw new Error('vault transit decrypt: no plaintext in the answer');
    return Buffer.from(plaintext, 'base64');
  }

  private async call(op: 'encrypt' | 'decrypt', payload: object): Promise<unknown> {
    const url = `${this.opts.address.replace(/\/$/, '')}/v1/${this.opts.mount ?? 'transit'}/${op}/${encodeURIComponent(this.opts.key)}`;
    const res = await (this.opts.fetch ?? fetch)(url, {
      method: 'POST',
      headers: { 'X-Vault-Token': this.opts.token, 'Content-Type': 'application/json' },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(this.opts.timeoutMs ?? 5_000),
    });
    // Vault's error bodies hold no key material, but keep the log short.
    const why = () => res.text().then((t) => t.slice(0, 200));
    // Sealed, overloaded, or rate-limiting: an outage to wait out, not a bad key.
    if (res.status >= 500 || res.status === 429) throw new KmsUnavailableError(`vault transit ${op} answered ${res.status}: ${await why()}`);
    if (!res.ok) throw new Error(`vault transit ${op} answered ${res.status}: ${await why()}`);
    return res.json();
  }
}

function b64(s: string): string {
  return Buffer.from(s, 'utf8').toString('base64');
}
