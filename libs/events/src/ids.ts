import { v5 as uuidv5 } from 'uuid';

/** Namespace of Hearth's derived ids (a fixed, random uuid). */
const HEARTH_ID_NAMESPACE = '5b0f3c1e-7a52-4c1e-9f0e-2d6b8a4e9c11';

/**
 * A deterministic id from its parts, e.g. `deriveId('router', event.id, 0)`:
 * deciding again after a crash gives the same ids, so Msg-Id dedup makes the
 * retry a no-op (ARCHITECTURE, exactly-once recipe step 1).
 */
export function deriveId(...parts: (string | number)[]): string {
  return uuidv5(parts.join(':'), HEARTH_ID_NAMESPACE);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for the 8-4-4-4-12 hex form of any uuid (version not checked): what ids in events and queries must be. */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
