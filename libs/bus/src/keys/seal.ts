import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM as the event layer uses it (ARCHITECTURE.md "Personal data,
 * export and erasure"): `nonce (12) ‖ ciphertext ‖ tag (16)`, with associated
 * data binding the ciphertext to where it belongs (an event id, a user's key
 * slot), so a payload copied onto another event does not open.
 */
const NONCE_BYTES = 12;
const TAG_BYTES = 16;
export const KEY_BYTES = 32;

export function sealBytes(key: Uint8Array, plaintext: Uint8Array, associatedData: string): Uint8Array {
  if (key.length !== KEY_BYTES) throw new Error(`AES-256-GCM needs a ${KEY_BYTES}-byte key, got ${key.length}`);
  const nonce = randomBytes(NONCE_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, nonce);
  cipher.setAAD(Buffer.from(associatedData, 'utf8'));
  const body = cipher.update(plaintext);
  const rest = cipher.final();
  const out = new Uint8Array(NONCE_BYTES + body.length + rest.length + TAG_BYTES);
  out.set(nonce, 0);
  out.set(body, NONCE_BYTES);
  out.set(rest, NONCE_BYTES + body.length);
  out.set(cipher.getAuthTag(), NONCE_BYTES + body.length + rest.length);
  return out;
}

/** Opens what {@link sealBytes} sealed; throws when the key, the data or the associated data do not match. */
export function openBytes(key: Uint8Array, sealed: Uint8Array, associatedData: string): Uint8Array {
  if (sealed.length < NONCE_BYTES + TAG_BYTES) throw new Error('sealed payload too short');
  const decipher = createDecipheriv('aes-256-gcm', key, sealed.subarray(0, NONCE_BYTES));
  decipher.setAAD(Buffer.from(associatedData, 'utf8'));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
  const body = decipher.update(sealed.subarray(NONCE_BYTES, sealed.length - TAG_BYTES));
  const rest = decipher.final();
  return rest.length === 0 ? new Uint8Array(body.buffer, body.byteOffset, body.length) : Buffer.concat([body, rest]);
}

/** A fresh data key. */
export function newDataKey(): Uint8Array {
  return randomBytes(KEY_BYTES);
}
