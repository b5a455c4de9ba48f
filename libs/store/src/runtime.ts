import type { Kysely, QueryCreator } from 'kysely';

/** The runner's own tables, present in every schema (see migrate.ts). */
export interface RuntimeDb {
  projection_checkpoints: { projection: string; stream: string; last_seq: number };
  projection_positions: { projection: string; subject: string; last_seq: number };
  quarantined_events: {
    projection: string;
    stream: string;
    seq: number;
    subject: string;
    event_id: string;
    type: string;
    consumer: string;
    error: string;
    deliveries: number;
    quarantined_at: Date;
    redriven_at: Date | null;
  };
  erased_users: { user_id: string; key_generation: number; erasure_id: string; erased_at: Date };
}

/**
 * A kysely bound to some service schema, whatever its tables: the runner's
 * code is schema-agnostic, kysely's documented use of `Kysely<any>`.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDb = Kysely<any>;

export function runtimeDb(db: AnyDb): Kysely<RuntimeDb> {
  return db as unknown as Kysely<RuntimeDb>;
}

/** Moves a projection's checkpoint on a stream up to `seq` (never back), inside the caller's transaction. */
export async function advanceCheckpoint(db: AnyDb, projection: string, stream: string, seq: number): Promise<void> {
  await checkpointsUpsert(runtimeDb(db), projection, new Map([[stream, seq]])).execute();
}

/** The statement that moves positions (per subject) up to the given sequences, never back: to run, or to embed. */
export function positionsUpsert(q: QueryCreator<RuntimeDb>, projection: string, moved: ReadonlyMap<string, number>) {
  return q
    .insertInto('projection_positions')
    .values([...moved].map(([subject, seq]) => ({ projection, subject, last_seq: seq })))
    .onConflict((oc) =>
      oc.columns(['projection', 'subject']).doUpdateSet((eb) => ({
        last_seq: eb.fn('greatest', [eb.ref('projection_positions.last_seq'), eb.ref('excluded.last_seq')]),
      })),
    );
}

/** The statement that moves checkpoints (per stream) up to the given sequences, never back. */
export function checkpointsUpsert(q: QueryCreator<RuntimeDb>, projection: string, moved: ReadonlyMap<string, number>) {
  return q
    .insertInto('projection_checkpoints')
    .values([...moved].map(([stream, seq]) => ({ projection, stream, last_seq: seq })))
    .onConflict((oc) =>
      oc.columns(['projection', 'stream']).doUpdateSet((eb) => ({
        last_seq: eb.fn('greatest', [eb.ref('projection_checkpoints.last_seq'), eb.ref('excluded.last_seq')]),
      })),
    );
}
