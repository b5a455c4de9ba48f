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
