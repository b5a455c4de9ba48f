import type { LlmExchange } from '@hearth/llm';
import type { GateVerdict } from '../gates/index.js';
import type { ResponsePlan } from './plan.js';

/** One candidate reply and the exchanges that produced it. */
export interface Candidate {
  text: string;
  surfacedMemoryIds: string[];
  exchanges: LlmExchange[];
}

/** What writes replies: the LLM, or the offline template responder. */
export interface Responder {
  readonly provider: string;
  readonly model: string;
  draft(plan: ResponsePlan, seed: number): Promise<Candidate>;
  /** The single constrained rewrite of §10, told which gates failed. */
  rewrite(plan: ResponsePlan, seed: number, previous: Candidate, failures: readonly GateVerdict[]): Promise<Candidate>;
  fallback(plan: ResponsePlan): Candidate;
}

/** A gate verdict on one candidate: 0 the draft, 1 the rewrite, 2 the fallback. */
export interface PassVerdict extends GateVerdict {
  passNumber: number;
}

export interface Composed {
  text: string;
  surfacedMemoryIds: string[];
  outcome: 'draft' | 'rewrite' | 'fallback';
  verdicts: PassVerdict[];
  exchanges: LlmExchange[];
  /** The exchange whose output became the reply (absent for the fallback). */
  final: LlmExchange | undefined;
}

/** A responder failure that still carries what was tried (an LlmError has `exchanges`). */
export function exchangesOf(err: unknown): LlmExchange[] {
  const ex = (err as { exchanges?: unknown }).exchanges;
  return Array.isArray(ex) ? (ex as LlmExchange[]) : [];
}

/**
 * Stage F (turn-pipeline §10): the draft goes through every gate; on any failure
 * one constrained rewrite, through every gate again; still failing, the safe
 * shorter fallback. A responder error counts as a failed pass. Every verdict
 * and exchange is kept for the turn's event.
 */
export async function composeReply(args: {
  plan: ResponsePlan;
  seed: number;
  responder: Responder;
  evaluate: (c: Pick<Candidate, 'text' | 'surfacedMemoryIds'>) => GateVerdict[];
  onError?: (err: unknown, stage: 'draft' | 'rewrite') => void;
}): Promise<Composed> {
  const { plan, seed, responder, evaluate } = args;
  const verdicts: PassVerdict[] = [];
  const exchanges: LlmExchange[] = [];
  const judge = (c: Candidate, passNumber: number) => {
    const v = evaluate(c).map((x) => ({ ...x, passNumber }));
    verdicts.push(...v);
    return v.filter((x) => !x.pass);
  };
  let previous: Candidate | null = null;
  let failures: GateVerdict[] = [];
  try {
    previous = await responder.draft(plan, seed);
    exchanges.push(...previous.exchanges);
    failures = judge(previous, 0);
    if (failures.length === 0) return done(previous, 'draft');
  } catch (err) {
    exchanges.push(...exchangesOf(err));
    args.onError?.(err, 'draft');
  }
  if (previous) {
    try {
      const rewritten = await responder.rewrite(plan, seed, previous, failures);
      exchanges.push(...rewritten.exchanges);
      if (judge(rewritten, 1).length === 0) return done(rewritten, 'rewrite');
    } catch (err) {
      exchanges.push(...exchangesOf(err));
      args.onError?.(err, 'rewrite');
    }
  }
  const fb = responder.fallback(plan);
  judge(fb, 2);
  return { text: fb.text, surfacedMemoryIds: fb.surfacedMemoryIds, outcome: 'fallback', verdicts, exchanges, final: undefined };

  function done(c: Candidate, outcome: 'draft' | 'rewrite'): Composed {
    return { text: c.text, surfacedMemoryIds: c.surfacedMemoryIds, outcome, verdicts, exchanges, final: c.exchanges.at(-1) };
  }
}
