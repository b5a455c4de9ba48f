/** One message of a chat prompt. */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

/**
 * One request to the LLM and what came back, stored in events so that replay never
 * calls the LLM again (mirrors `hearth.orchestrator.v1.LlmExchange`).
 */
export interface LlmExchange {
  /** What the call was for, e.g. `reply`, `rewrite`, `memory-extraction`. */
  purpose: string;
  /** Which adapter answered, e.g. `openai-compatible`. */
  provider: string;
  model: string;
  /** 1-based try within one call; 2 is the JSON repair attempt. */
  attempt: number;
  /** The prompt exactly as sent. */
  messages: ChatMessage[];
  /** The reply text; `''` when the request failed. */
  output: string;
  /** `''` when the exchange succeeded, else `<code>: <message>`. */
  error: string;
  /** Wall time of the request, client retries included, in whole milliseconds. */
  latencyMs: number;
  /** Seed sent with the request (a uint32, as the event stores it). */
  seed: number;
}
