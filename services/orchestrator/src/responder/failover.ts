import type { LlmExchange } from '@hearth/llm';
import type { LlmFailureKind, LlmHealth } from '../adapters/llm-health.js';
import { exchangesOf, type Candidate, type Responder } from '../turn/compose.js';
import type { ResponsePlan } from '../turn/plan.js';

/** The error of the exchange recorded for a call the open breaker skipped. */
export const CIRCUIT_OPEN_ERROR = 'LLM_CIRCUIT_OPEN: the provider is failing; not called this turn';

/**
 * The LLM with the offline responder behind it, for one turn. When a call to the
 * provider fails (timeout, 429, 5xx, no connection, no usable JSON), or the
 * breaker skips it, the offline responder writes the candidate for the same plan
 * and seed instead, and does so for the rest of the turn; the §10 gates judge it
 * like any other. The failed (or skipped) exchange stays in the candidate's
 * exchanges, before the offline render that became the text, so the turn's
 * event says what happened and replay needs neither.
 */
export function failoverResponder(
  primary: Responder,
  standby: Responder,
  health: LlmHealth,
  onFailure?: (err: unknown, kind: LlmFailureKind, stage: 'draft' | 'rewrite') => void,
): Responder {
  let offline = false;

  const skipped = (purpose: string, seed: number): LlmExchange => ({
    purpose,
    provider: primary.provider,
    model: primary.model,
    attempt: 1,
    messages: [],
    output: '',
    error: CIRCUIT_OPEN_ERROR,
    latencyMs: 0,
    seed,
  });

  async function attempt(stage: 'draft' | 'rewrite', seed: number, call: () => Promise<Candidate>, instead: () => Promise<Candidate>): Promise<Candidate> {
    if (offline) return instead();
    if (!health.allow()) {
      offline = true;
      const c = await instead();
      return { ...c, exchanges: [skipped(stage === 'draft' ? 'reply' : 'rewrite', seed), ...c.exchanges] };
    }
    try {
      const c = await call();
      health.success();
      return c;
    } catch (err) {
      offline = true;
      const kind = health.failure(err);
      onFailure?.(err, kind, stage);
      const failed = exchangesOf(err);
      const c = await instead();
      return {
        ...c,
        exchanges: [
          // An error that is no LlmError carries no exchange: record one, so the failure shows.
          ...(failed.length > 0 ? failed : [{ ...skipped(stage === 'draft' ? 'reply' : 'rewrite', seed), error: `LLM_FAILED: ${kind}` }]),
          ...c.exchanges,
        ],
      };
    }
  }

  return {
    provider: primary.provider,
    model: primary.model,
    draft: (plan: ResponsePlan, seed: number) =>
      attempt(
        'draft',
        seed,
        () => primary.draft(plan, seed),
        () => standby.draft(plan, seed),
      ),
    rewrite: (plan, seed, previous, failures) =>
      attempt(
        'rewrite',
        seed,
        () => primary.rewrite(plan, seed, previous, failures),
        () => standby.rewrite(plan, seed, previous, failures),
      ),
    fallback: (plan) => standby.fallback(plan),
  };
}
