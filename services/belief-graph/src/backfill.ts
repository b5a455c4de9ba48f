import { GLOBAL_KEYS, type ServiceName, type StoredEvent } from '@hearth/bus';
import { positionOf, reactOnce } from '@hearth/store';
import type { Kysely } from 'kysely';
import type { BeliefDb } from './db.js';
import { createBeliefReactor, type BeliefReactorDeps } from './handlers/reactor.js';

export interface BackfillProgress {
  source: ServiceName;
  seq: number;
  total: number;
}

export interface BackfillResult {
  /** Events read from the ingress and orchestrator logs. */
  events: number;
  /** Events the reactor had not read before under this version's name (the rest were done). */
  reacted: number;
}

/** The sources whose events the belief graph reads, in the order a backfill reads them. */
const SOURCES: readonly ServiceName[] = ['ingress', 'orchestrator'];

/**
 * Runs the live reactor over the log as it stands (issue 16: a backfill gives
 * the graph live would): every user message, reply and persona assignment, in
 * each stream's order, under a position name of its own per extractor version,
 * so a run stopped half way resumes where it was and a second run reads and
 * decides nothing. The caller runs the `beliefs` projection the decisions wait on.
 */
export async function backfill(
  deps: BeliefReactorDeps & { db: Kysely<BeliefDb> },
  opts: { userId?: string; onProgress?: (p: BackfillProgress) => void } = {},
): Promise<BackfillResult> {
  const reactor = { ...createBeliefReactor(deps), name: `backfill-${deps.extractorVersion}` };
  const result: BackfillResult = { events: 0, reacted: 0 };
  for (const source of SOURCES) {
    const total = await deps.bus.lastSeq(source);
    // One user's subject, and for the orchestrator the persona assignments, which live on a subject of their own.
    const keys = opts.userId ? [opts.userId, ...(source === 'orchestrator' ? [GLOBAL_KEYS.personaAssignments] : [])] : [undefined];
    for (const key of keys) {
      for await (const e of deps.bus.read(source, key ? { key } : {})) {
        result.events++;
        if (e.userId && (!opts.userId || e.userId === opts.userId)) result.reacted += (await reactUntilDone(deps.db, reactor, e)) ? 1 : 0;
        opts.onProgress?.({ source, seq: e.seq, total });
      }
    }
  }
  return result;
}

/** One event through the reactor; false when its position says an earlier run did it. */
async function reactUntilDone(db: Kysely<BeliefDb>, reactor: ReturnType<typeof createBeliefReactor>, e: StoredEvent): Promise<boolean> {
  if (e.seq <= (await positionOf(db, reactor.name, e.subject))) return false;
  const outcome = await reactOnce(db, reactor, e);
  // The log is read in order: a gap would be a log that changed under the read.
  if (outcome.kind === 'nak') throw new Error(`backfill out of order at ${e.subject}#${e.seq}: ${outcome.reason ?? 'nak'}`);
  return true;
}
