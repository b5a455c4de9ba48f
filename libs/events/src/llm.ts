import type { LlmExchange } from '@hearth/llm';
import type { orchestrator } from '@hearth/proto';

/**
 * An LLM exchange as events record it (`hearth.orchestrator.v1.LlmExchange`),
 * whichever service made the call: the prompt also as one role-prefixed text,
 * the seed as a uint32, the latency in whole milliseconds.
 */
export function llmExchangeToProto(x: LlmExchange): orchestrator.LlmExchange {
  return {
    provider: x.provider,
    model: x.model,
    seed: x.seed >>> 0,
    prompt: x.messages.map((m) => `[${m.role}] ${m.content}`).join('\n'),
    output: x.output,
    purpose: x.purpose,
    attempt: x.attempt,
    messages: x.messages.map((m) => ({ role: m.role, content: m.content })),
    error: x.error,
    latencyMs: Math.max(0, Math.round(x.latencyMs)),
  };
}
