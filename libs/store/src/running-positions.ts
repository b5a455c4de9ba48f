import type { KnownPositions } from './known-positions.js';

/**
 * The positions the projection runners of this process know, per database
 * handle and projection, while they run: a wait for a projection to reach a
 * sequence (read-your-writes) is answered without a statement when a runner
 * here committed it already. Only projections register: their known positions
 * are never ahead of the database (a reactor's may be, until its batch's
 * positions are written). Keyed by the handle the runner was started with
 * (`schemaDb` gives one per schema), so a handle of another database or schema
 * never sees them.
 */
const running = new WeakMap<object, Map<string, Set<KnownPositions>>>();

/** Registers a runner's positions until the returned function is called (its consumer stopped). */
export function registerRunning(db: object, projection: string, known: KnownPositions): () => void {
  let byProjection = running.get(db);
  if (!byProjection) running.set(db, (byProjection = new Map<string, Set<KnownPositions>>()));
  let set = byProjection.get(projection);
  if (!set) byProjection.set(projection, (set = new Set<KnownPositions>()));
  set.add(known);
  return () => {
    set.delete(known);
    // Only this registration's set: a stop called twice must not drop a later runner's.
    if (set.size === 0 && byProjection.get(projection) === set) byProjection.delete(projection);
  };
}

/** Whether a runner of this projection runs in this process on this handle. */
export function isRunningHere(db: object, projection: string): boolean {
  return running.get(db)?.has(projection) ?? false;
}

/**
 * True when a runner of this process committed the subject up to `seq` (or
 * read it so from the database); undefined when none runs here, false when
 * one runs but does not know it yet.
 */
export function runningAtLeast(db: object, projection: string, subject: string, seq: number): boolean | undefined {
  const set = running.get(db)?.get(projection);
  if (!set) return undefined;
  for (const known of set) if ((known.get(subject) ?? 0) >= seq) return true;
  return false;
}
