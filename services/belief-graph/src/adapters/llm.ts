import type { ClaimCandidate, EpistemicsResult, RawAtom } from '@hearth/beliefs';
import type { LlmExchange } from '@hearth/llm';

/**
 * The LLM steps of the decomposer (§4.3 atomizer, §4.8 epistemics fallback,
 * §4.11 verifier). Each answer comes with every exchange it took, for the
 * event; null means "no answer" and the rules stand.
 */
export interface BeliefLlm {
  readonly provider: string;
  readonly model: string;
  atomize(candidates: readonly ClaimCandidate[], seed: number): Promise<{ atoms: RawAtom[] | null; exchanges: LlmExchange[]; error: string }>;
  epistemics(text: string, seed: number): Promise<{ result: EpistemicsResult | null; exchanges: LlmExchange[] }>;
  verify(a: string, b: string, seed: number): Promise<{ same: boolean | null; confidence: number; exchanges: LlmExchange[] }>;
}
