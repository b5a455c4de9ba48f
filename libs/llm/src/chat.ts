import type { Logger } from '@hearth/telemetry';
import { APIConnectionError, APIConnectionTimeoutError, APIError, OpenAI } from 'openai';
import type { z } from 'zod';
import type { LlmChatConfig } from './config.js';
import { LlmError } from './errors.js';
import type { ChatMessage, LlmExchange } from './types.js';

/** Sent as the bearer token when the configuration has no API key (local servers). */
const NO_API_KEY = 'not-needed';
/** HTTP statuses worth trying again later; the client already retried them. */
const PASSING_STATUSES = new Set([408, 409, 429]);
/** Longest reason quoted back to the model in the repair prompt. */
const MAX_REASON_CHARS = 300;
const JSON_FENCE = /^```(?:json)?[^\S\n]*\n([\s\S]*?)\n?[^\S\n]*```$/i;
const MAX_SEED = 0xffff_ffff;
const REPAIR_REQUEST = 'Reply with only the corrected JSON object, nothing else.';

export interface ChatRequest {
  /** What the call is for, recorded in the exchange (`reply`, `rewrite`, ...). */
  purpose: string;
  messages: readonly ChatMessage[];
  /** Sent as the OpenAI `seed`; a uint32 so the event can store it. */
  seed: number;
  /** @default the configured `LLM_TEMPERATURE` */
  temperature?: number;
  /** Sent as `max_tokens` (what OpenAI-compatible servers accept). @default no limit */
  maxTokens?: number;
  /** Ask for a JSON object (`response_format: { type: 'json_object' }`). @default false */
  json?: boolean;
}

export interface JsonChatRequest<T> extends Omit<ChatRequest, 'json'> {
  /** What the reply must parse to; a mismatch earns one repair attempt. */
  schema: z.ZodType<T>;
}

export interface ChatCompletion {
  text: string;
  exchange: LlmExchange;
}

export interface JsonChatCompletion<T> {
  value: T;
  /** One exchange, or two when the first reply needed repair. */
  exchanges: LlmExchange[];
}

/** A chat model behind an OpenAI-compatible API. */
export interface ChatClient {
  readonly provider: 'openai-compatible';
  readonly model: string;
  /**
   * One chat completion.
   * @throws {LlmError} with the failed exchange (its `output` empty, its `error` set).
   */
  complete(req: ChatRequest): Promise<ChatCompletion>;
  /**
   * A JSON object checked against `schema`, in JSON mode. An invalid reply is sent back
   * once with the reason and a request for the corrected object.
   * @throws {LlmError} `LLM_INVALID_JSON` with both exchanges when the repair fails too.
   */
  completeJson<T>(req: JsonChatRequest<T>): Promise<JsonChatCompletion<T>>;
}

export interface ChatClientDeps {
  /** @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Gets one debug line per exchange (never the message contents). @default silent */
  logger?: Logger;
  /** Monotonic milliseconds, for latencies. @default performance.now */
  now?: () => number;
}

/** The official client against one OpenAI-compatible endpoint, as chat and embeddings both use it. */
export function openaiClient(
  cfg: Pick<LlmChatConfig, 'baseUrl' | 'apiKey' | 'timeoutMs' | 'maxRetries'>,
  deps: Pick<ChatClientDeps, 'fetch' | 'logger'> = {},
): OpenAI {
  const logger = deps.logger;
  return new OpenAI({
    baseURL: cfg.baseUrl,
    apiKey: cfg.apiKey ?? NO_API_KEY,
    // Explicit, so the client does not pick them up from OPENAI_* variables.
    organization: null,
    project: null,
    timeout: cfg.timeoutMs,
    maxRetries: cfg.maxRetries,
    fetch: realmSafeFetch(deps.fetch ?? globalThis.fetch),
    // The client's info lines (one per attempt, with status and retry count) go to our
    // debug level; its debug lines carry request bodies, so they are never enabled.
    logLevel: logger ? 'info' : 'off',
    ...(logger ? { logger: clientLogger(logger) } : {}),
  });
}

/** A {@link ChatClient} over the official `openai` client; HTTP retries are its own. */
export function createChatClient(cfg: LlmChatConfig, deps: ChatClientDeps = {}): ChatClient {
  const logger = deps.logger;
  const now = deps.now ?? (() => performance.now());
  const openai = openaiClient(cfg, deps);

  async function exchange(req: ChatRequest, attempt: number): Promise<ChatCompletion> {
    if (!Number.isInteger(req.seed) || req.seed < 0 || req.seed > MAX_SEED) {
      throw new RangeError(`seed must be an integer in 0..${MAX_SEED}, got ${req.seed}`);
    }
    const messages = req.messages.map((m) => ({ role: m.role, content: m.content }));
    const record = (output: string, error: string, started: number): LlmExchange => ({
      purpose: req.purpose,
      provider: 'openai-compatible',
      model: cfg.model,
      attempt,
      messages,
      output,
      error,
      latencyMs: Math.max(0, Math.round(now() - started)),
      seed: req.seed,
    });

    const started = now();
    let text: string | null | undefined;
    try {
      const completion = await openai.chat.completions.create({
        model: cfg.model,
        messages: messages.map((m) => ({ ...m })),
        seed: req.seed,
        temperature: req.temperature ?? cfg.temperature,
        ...(req.maxTokens === undefined ? {} : { max_tokens: req.maxTokens }),
        ...(req.json ? { response_format: { type: 'json_object' as const } } : {}),
      });
      text = completion.choices[0]?.message.content;
    } catch (err) {
      const failure = describeFailure(err, cfg.timeoutMs);
      const ex = record('', `${failure.code}: ${failure.message}`, started);
      logExchange(ex, failure.code);
      throw new LlmError(failure.code, failure.message, {
        retryable: failure.retryable,
        exchanges: [ex],
        ...(failure.status === undefined ? {} : { status: failure.status }),
        cause: err,
      });
    }

    if (!text?.trim()) {
      const message = 'the reply has no content';
      const ex = record('', `LLM_EMPTY: ${message}`, started);
      logExchange(ex, 'LLM_EMPTY');
      throw new LlmError('LLM_EMPTY', message, { retryable: false, exchanges: [ex] });
    }
    const ex = record(text, '', started);
    logExchange(ex, null);
    return { text, exchange: ex };
  }

  function logExchange(ex: LlmExchange, code: string | null): void {
    logger?.debug(
      { purpose: ex.purpose, model: ex.model, attempt: ex.attempt, latencyMs: ex.latencyMs, error: code },
      'llm exchange',
    );
  }

  return {
    provider: 'openai-compatible',
    model: cfg.model,

    complete: (req) => exchange(req, 1),

    async completeJson<T>(req: JsonChatRequest<T>): Promise<JsonChatCompletion<T>> {
      const { schema, ...rest } = req;
      const first = await exchange({ ...rest, json: true }, 1);
      const firstParse = parseJsonReply(first.text, schema);
      if (firstParse.ok) return { value: firstParse.value, exchanges: [first.exchange] };

      const rejected: LlmExchange = { ...first.exchange, error: `LLM_INVALID_JSON: ${firstParse.reason}` };
      const repairMessages: ChatMessage[] = [
        ...rest.messages,
        { role: 'assistant', content: first.text },
        {
          role: 'user',
          content: `Your previous reply was not valid: ${firstParse.reason}. ${REPAIR_REQUEST}`,
        },
      ];
      let second: ChatCompletion;
      try {
        second = await exchange({ ...rest, messages: repairMessages, json: true }, 2);
      } catch (err) {
        if (err instanceof LlmError) throw withEarlierExchanges(err, [rejected]);
        throw err;
      }
      const secondParse = parseJsonReply(second.text, schema);
      if (secondParse.ok) return { value: secondParse.value, exchanges: [rejected, second.exchange] };

      const message = `the reply is not valid JSON for the schema, even after one repair: ${secondParse.reason}`;
      throw new LlmError('LLM_INVALID_JSON', message, {
        retryable: false,
        exchanges: [rejected, { ...second.exchange, error: `LLM_INVALID_JSON: ${secondParse.reason}` }],
      });
    },
  };
}

export type JsonParse<T> = { ok: true; value: T } | { ok: false; reason: string };

/** A model's JSON reply (bare, or in one ``` fence) read against a schema, as `completeJson` reads it; audit replays read recorded outputs with it. */
export function parseJsonReply<T>(text: string, schema: z.ZodType<T>): JsonParse<T> {
  const trimmed = text.trim();
  const candidate = JSON_FENCE.exec(trimmed)?.[1] ?? trimmed;
  let json: unknown;
  try {
    json = JSON.parse(candidate);
  } catch (err) {
    return { ok: false, reason: shorten(`it is not JSON (${(err as Error).message})`) };
  }
  const result = schema.safeParse(json);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.length ? issue.path.join('.') : '(root)'}: ${issue.message}`);
  return { ok: false, reason: shorten(`it does not match the schema (${issues.join('; ')})`) };
}

function shorten(reason: string): string {
  return reason.length <= MAX_REASON_CHARS ? reason : `${reason.slice(0, MAX_REASON_CHARS - 1)}…`;
}

export interface Failure {
  code: 'LLM_TIMEOUT' | 'LLM_UNAVAILABLE' | 'LLM_HTTP_ERROR';
  message: string;
  retryable: boolean;
  status?: number;
}

export function describeFailure(err: unknown, timeoutMs: number): Failure {
  // Subclass first: a timeout is also an APIConnectionError, which is also an APIError.
  if (err instanceof APIConnectionTimeoutError) {
    return { code: 'LLM_TIMEOUT', message: `no reply within ${timeoutMs} ms`, retryable: true };
  }
  if (err instanceof APIConnectionError) {
    return { code: 'LLM_UNAVAILABLE', message: `cannot reach the LLM: ${err.message}`, retryable: true };
  }
  if (err instanceof APIError && typeof err.status === 'number') {
    const status = err.status;
    return {
      code: 'LLM_HTTP_ERROR',
      message: `HTTP ${status} from the LLM: ${err.message}`,
      retryable: status >= 500 || PASSING_STATUSES.has(status),
      status,
    };
  }
  // E.g. a 200 whose body is not JSON: the server is not the API we expect.
  const message = err instanceof Error ? err.message : String(err);
  return { code: 'LLM_UNAVAILABLE', message: `unexpected failure: ${message}`, retryable: false };
}

function withEarlierExchanges(err: LlmError, earlier: readonly LlmExchange[]): LlmError {
  return new LlmError(err.code, err.message, {
    retryable: err.retryable,
    exchanges: [...earlier, ...err.exchanges],
    ...(err.status === null ? {} : { status: err.status }),
    cause: err.cause,
  });
}

/**
 * The client tells its own timeout from other failures by an `AbortError` that is
 * `instanceof Error`. fetch's DOMException fails that test when it comes from another
 * realm (as under jest's VM modules), and every timeout would read as a connection
 * error; so an abort is re-thrown as an Error of this realm.
 */
function realmSafeFetch(inner: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await inner(input, init);
    } catch (err) {
      if (!(err instanceof Error) && isAbortError(err)) {
        const abort = new Error('The operation was aborted', { cause: err });
        abort.name = 'AbortError';
        throw abort;
      }
      throw err;
    }
  };
}

function isAbortError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'name' in err && err.name === 'AbortError';
}

function clientLogger(logger: Logger) {
  return {
    error: (message: string) => logger.warn({ component: 'openai' }, message),
    warn: (message: string) => logger.warn({ component: 'openai' }, message),
    info: (message: string) => logger.debug({ component: 'openai' }, message),
    debug: () => undefined,
  };
}
