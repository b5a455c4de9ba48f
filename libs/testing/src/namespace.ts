import { randomBytes } from 'node:crypto';

const PREFIX = /^[a-z][a-z0-9_]*$/;
const NAMESPACE = /^[a-z][a-z0-9_]*$/;

/**
 * A fresh namespace `${prefix}_${8 hex}`: lowercase, so it is at once a NATS
 * subject token, a stream-name prefix (upper-cased) and a Postgres identifier prefix.
 * @param prefix lowercase letters, digits and `_`, starting with a letter.
 */
export function testNamespace(prefix = 't'): string {
  if (!PREFIX.test(prefix) || prefix.length > 40) {
    throw new Error(`invalid namespace prefix '${prefix}': a lowercase letter, then lowercase letters, digits or _`);
  }
  return `${prefix}_${randomBytes(4).toString('hex')}`;
}

/** Guards the cleanup helpers: an empty or odd namespace must never match everything. */
export function assertNamespace(namespace: string): void {
  if (!NAMESPACE.test(namespace)) {
    throw new Error(`invalid namespace '${namespace}': expected what testNamespace() returns`);
  }
}
