import { AsyncLocalStorage } from 'node:async_hooks';

/** The user and data key generation of the event a reaction is running for. */
export interface Cause {
  userId: string;
  keyGeneration: number;
}

const store = new AsyncLocalStorage<Cause>();

/**
 * Runs a reaction to `cause`: whatever it appends about the same user is sealed
 * only under the generation its cause was sealed with. A reply still in flight
 * when the user was erased and started anew is withheld, instead of being
 * sealed, readable, under the new user's key.
 */
export function withCause<T>(cause: Cause, fn: () => Promise<T>): Promise<T> {
  return store.run({ userId: cause.userId, keyGeneration: cause.keyGeneration }, fn);
}

/** The cause of the reaction running now, if any. */
export function currentCause(): Cause | undefined {
  return store.getStore();
}
