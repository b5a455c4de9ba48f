import { QueryError, queryRpc, type Bus } from '@hearth/bus';
import { CHECK_MESSAGE, CHECK_RELIABILITY } from '@hearth/events';
import { uncertainty } from '@hearth/proto';
import type { Logger } from '@hearth/telemetry';

/** How an ask went: answered, not answered in time, or not answerable (not deployed, failed). */
export type UncertaintyStatus = 'ok' | 'unavailable' | 'timeout';

export interface UncertaintyCheck {
  status: UncertaintyStatus;
  /** The service's answer; every field at its default (verdict "", no surface) when it did not answer. */
  response: uncertainty.CheckMessageResponse;
  error: string;
}

export interface ReliabilityLookup {
  status: UncertaintyStatus;
  /** Each asked memory's state, as uncertainty holds it; [] when it did not answer. */
  reliability: uncertainty.MemoryReliability[];
  error: string;
}

/**
 * The uncertainty service as the orchestrator uses it (issue 17): Context 1 for
 * a chat turn before the reply, Context 3 before a retention nudge names a
 * memory. Neither ever throws: a turn goes on without the answer.
 */
export interface UncertaintyPort {
  check(req: uncertainty.CheckMessageRequest): Promise<UncertaintyCheck>;
  reliability(req: uncertainty.CheckReliabilityRequest): Promise<ReliabilityLookup>;
}

export { CHECK_MESSAGE, CHECK_RELIABILITY };

/** No verdict, nothing contradicted, no surface. */
export function emptyCheck(): uncertainty.CheckMessageResponse {
  return uncertainty.CheckMessageResponse.decode(new Uint8Array());
}

/**
 * timeout: the request went out and no answer came within the budget (the
 * bus's QUERY_UNANSWERED with the client's TimeoutError as cause); unavailable:
 * nobody serves the query, or it answered with an error.
 */
export function statusOf(err: unknown): Exclude<UncertaintyStatus, 'ok'> {
  const cause = err instanceof QueryError ? (err.cause as { name?: unknown } | undefined) : undefined;
  return err instanceof QueryError && err.code === 'QUERY_UNANSWERED' && cause?.name === 'TimeoutError' ? 'timeout' : 'unavailable';
}

/**
 * Asks the uncertainty service over the bus within the given budgets
 * (UNCERTAINTY.timeoutMs, reliabilityTimeoutMs). When it does not answer the
 * turn goes on without its verdict and surface, and the event says why: a reply
 * on time beats a woven question, and the turn's own guard still withholds what
 * the message contradicts.
 */
export function createUncertaintyClient(bus: Bus, opts: { timeoutMs: number; reliabilityTimeoutMs: number; logger?: Logger }): UncertaintyPort {
  // Two budgets: the check is on the turn's critical path, the reliability ask is not.
  const checker = new uncertainty.UncertaintyQueriesClientImpl(queryRpc(bus, { timeoutMs: opts.timeoutMs }));
  const reliabilities = new uncertainty.UncertaintyQueriesClientImpl(queryRpc(bus, { timeoutMs: opts.reliabilityTimeoutMs }));
  const warned = new Set<string>();
  const failed = (query: string, err: unknown) => {
    const status = statusOf(err);
    const error = err instanceof Error ? err.message : String(err);
    // Once per kind: a service that is down would otherwise log every turn.
    if (!warned.has(`${query}/${status}`)) {
      warned.add(`${query}/${status}`);
      opts.logger?.warn({ query, status, err: error }, 'uncertainty did not answer: turns go on without its verdict');
    }
    return { status, error };
  };
  return {
    async check(req) {
      try {
        return { status: 'ok', response: await checker.CheckMessage(req), error: '' };
      } catch (err) {
        return { ...failed(CHECK_MESSAGE, err), response: emptyCheck() };
      }
    },
    async reliability(req) {
      try {
        return { status: 'ok', reliability: (await reliabilities.CheckReliability(req)).reliability, error: '' };
      } catch (err) {
        return { ...failed(CHECK_RELIABILITY, err), reliability: [] };
      }
    },
  };
}
