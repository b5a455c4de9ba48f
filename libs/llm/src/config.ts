import { durationMs, loadConfig, type Env } from '@hearth/config';
import { z } from 'zod';

/**
 * The LLM variables. Parse alone with {@link loadLlmConfig}, or extend a service's
 * schema with them (`baseEnvSchema.extend(llmEnvSchema.shape)`) and pass the parsed
 * result to {@link toLlmConfig}.
 */
export const llmEnvSchema = z.object({
  /**
   * Base URL of any OpenAI-compatible API, including its version segment
   * (`https://api.openai.com/v1`, a local vLLM or Ollama `http://127.0.0.1:11434/v1`).
   * When unset there is no LLM and callers use their offline provider.
   * @default undefined
   */
  LLM_BASE_URL: z
    .url({ protocol: /^https?$/, error: 'expected an http(s) URL such as https://api.openai.com/v1' })
    .optional(),
  /**
   * API key sent as a bearer token. Local servers often need none.
   * @default undefined
   */
  LLM_API_KEY: z.string().min(1).optional(),
  /**
   * Model of chat completions.
   * @default 'gpt-4o-mini'
   */
  LLM_CHAT_MODEL: z.string().trim().min(1).default('gpt-4o-mini'),
  /**
   * Model of embeddings.
   * @default 'text-embedding-3-small'
   */
  LLM_EMBEDDING_MODEL: z.string().trim().min(1).default('text-embedding-3-small'),
  /**
   * How long one HTTP attempt may take (each retry gets the same budget again).
   * @default 20000
   */
  LLM_TIMEOUT_MS: durationMs(20_000).pipe(z.number().int().positive('expected a duration above 0')),
  /**
   * How many times the client retries a connection failure, a timeout, or an HTTP
   * 408, 409, 429 or 5xx, with its own exponential backoff.
   * @default 2
   */
  LLM_MAX_RETRIES: z.coerce
    .number({ error: 'expected an integer in 0..5' })
    .int('expected an integer in 0..5')
    .min(0, 'expected an integer in 0..5')
    .max(5, 'expected an integer in 0..5')
    .default(2),
  /**
   * Sampling temperature of requests that do not set their own.
   * @default 0.7
   */
  LLM_TEMPERATURE: z.coerce
    .number({ error: 'expected a number in 0..2' })
    .min(0, 'expected a number in 0..2')
    .max(2, 'expected a number in 0..2')
    .default(0.7),
});

/** The parsed {@link llmEnvSchema}. */
export type LlmEnv = z.output<typeof llmEnvSchema>;

/** How to reach the chat model. */
export interface LlmChatConfig {
  /** Base URL of the OpenAI-compatible API, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string;
  /** Bearer token; `null` when the server needs none. */
  readonly apiKey: string | null;
  readonly model: string;
  /** Budget of one HTTP attempt, in milliseconds. */
  readonly timeoutMs: number;
  /** Retries of the client on connection errors, timeouts, 408, 409, 429 and 5xx. */
  readonly maxRetries: number;
  /** Temperature of requests that do not set their own. */
  readonly temperature: number;
}

/** The LLM settings of a service. */
export interface LlmConfig {
  /** `null` when `LLM_BASE_URL` is unset: no LLM, use the offline provider. */
  readonly chat: LlmChatConfig | null;
  readonly embeddingModel: string;
  /** The embeddings endpoint (the same server as chat); `null` when `LLM_BASE_URL` is unset: embed locally. */
  readonly embeddings: (Omit<LlmChatConfig, 'temperature'>) | null;
}

/** Shapes already parsed LLM variables (e.g. from a service's extended schema). */
export function toLlmConfig(env: Readonly<LlmEnv>): LlmConfig {
  const chat: LlmChatConfig | null =
    env.LLM_BASE_URL === undefined
      ? null
      : Object.freeze({
          baseUrl: env.LLM_BASE_URL,
          apiKey: env.LLM_API_KEY ?? null,
          model: env.LLM_CHAT_MODEL,
          timeoutMs: env.LLM_TIMEOUT_MS,
          maxRetries: env.LLM_MAX_RETRIES,
          temperature: env.LLM_TEMPERATURE,
        });
  const embeddings = chat === null ? null : Object.freeze({ baseUrl: chat.baseUrl, apiKey: chat.apiKey, model: env.LLM_EMBEDDING_MODEL, timeoutMs: chat.timeoutMs, maxRetries: chat.maxRetries });
  return Object.freeze({ chat, embeddingModel: env.LLM_EMBEDDING_MODEL, embeddings });
}

/**
 * Parses the LLM variables once and returns them frozen.
 * @default env `process.env`
 * @throws {ConfigError} naming every invalid variable.
 */
export function loadLlmConfig(env: Env = process.env): LlmConfig {
  return toLlmConfig(loadConfig(llmEnvSchema, env));
}
