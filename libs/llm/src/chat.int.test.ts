import { createLogger } from '@hearth/telemetry';
import { z } from 'zod';
import {
  LlmError,
  createChatClient,
  createEmbeddingClient,
  startLlmStub,
  type ChatMessage,
  type LlmChatConfig,
  type LlmStub,
} from './index.js';

const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'You are Hearth.' },
  { role: 'user', content: 'My sister Ana moved to Lisbon.' },
];
const TEXT_SCHEMA = z.object({ text: z.string() });
const REPAIR_INSTRUCTION =
  /^Your previous reply was not valid: .+\. Reply with only the corrected JSON object, nothing else\.$/;

let stub: LlmStub;

beforeEach(async () => {
  stub = await startLlmStub();
});

afterEach(async () => {
  await stub.close();
});

function chatConfig(overrides: Partial<LlmChatConfig> = {}): LlmChatConfig {
  return {
    baseUrl: stub.url,
    apiKey: null,
    model: 'stub-chat-1',
    timeoutMs: 5_000,
    maxRetries: 0,
    temperature: 0.7,
    ...overrides,
  };
}

async function llmErrorOf(promise: Promise<unknown>): Promise<LlmError> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof LlmError) return err;
    throw err;
  }
  throw new Error('expected an LlmError');
}

describe('createChatClient against a local OpenAI-compatible server', () => {
  it('completes and records the exchange, sending the seed, model and temperature', async () => {
    stub.setHandler(() => ({ content: 'Lisbon! How is she finding it?' }));
    const client = createChatClient(chatConfig());

    const { text, exchange } = await client.complete({ purpose: 'reply', messages: MESSAGES, seed: 42 });

    expect(text).toBe('Lisbon! How is she finding it?');
    expect(exchange).toEqual({
      purpose: 'reply',
      provider: 'openai-compatible',
      model: 'stub-chat-1',
      attempt: 1,
      messages: MESSAGES,
      output: 'Lisbon! How is she finding it?',
      error: '',
      latencyMs: expect.any(Number),
      seed: 42,
    });
    expect(exchange.latencyMs).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(exchange.latencyMs)).toBe(true);
    expect(client).toMatchObject({ provider: 'openai-compatible', model: 'stub-chat-1' });

    expect(stub.requests).toHaveLength(1);
    const [request] = stub.requests;
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.body).toMatchObject({ model: 'stub-chat-1', seed: 42, temperature: 0.7, messages: MESSAGES });
    expect(request?.body).not.toHaveProperty('response_format');
    expect(request?.body).not.toHaveProperty('max_tokens');
    expect(request?.headers.authorization).toBe('Bearer not-needed');
  });

  it('sends the API key, and response_format in JSON mode, and the temperature and max_tokens asked for', async () => {
    const client = createChatClient(chatConfig({ apiKey: 'sk-local' }));

    const { text } = await client.complete({
      purpose: 'extract',
      messages: MESSAGES,
      seed: 7,
      json: true,
      temperature: 0,
      maxTokens: 64,
    });

    expect(text).toBe('{"text":"stub reply"}');
    expect(stub.requests[0]?.body).toMatchObject({
      response_format: { type: 'json_object' },
      temperature: 0,
      max_tokens: 64,
      seed: 7,
    });
    expect(stub.requests[0]?.headers.authorization).toBe('Bearer sk-local');
  });

  it('repairs malformed JSON once, sending back the bad output and the reason', async () => {
    const bad = '{"text": "hi"';
    stub.setHandler(({ count }) => ({ content: count === 1 ? bad : '{"text":"hi"}' }));
    const client = createChatClient(chatConfig());

    const { value, exchanges } = await client.completeJson({
      purpose: 'extract',
      messages: MESSAGES,
      seed: 3,
      schema: TEXT_SCHEMA,
    });

    expect(value).toEqual({ text: 'hi' });
    expect(stub.requests).toHaveLength(2);
    const repair = stub.requests[1]?.body;
    expect(repair.messages).toEqual([
      ...MESSAGES,
      { role: 'assistant', content: bad },
      { role: 'user', content: expect.stringMatching(REPAIR_INSTRUCTION) },
    ]);
    expect(repair.messages[3].content).toContain('not JSON');
    expect(repair.response_format).toEqual({ type: 'json_object' });
    expect(repair.seed).toBe(3);
    expect(exchanges.map((e) => e.attempt)).toEqual([1, 2]);
    expect(exchanges[0]).toMatchObject({
      output: bad,
      messages: MESSAGES,
      error: expect.stringMatching(/^LLM_INVALID_JSON: /),
    });
    expect(exchanges[1]).toMatchObject({ output: '{"text":"hi"}', messages: repair.messages, error: '' });
  });

  it('reads a fenced ```json block without a repair', async () => {
    stub.setHandler(() => ({ content: '```json\n{"text":"fenced"}\n```' }));
    const client = createChatClient(chatConfig());

    const { value, exchanges } = await client.completeJson({
      purpose: 'extract',
      messages: MESSAGES,
      seed: 1,
      schema: TEXT_SCHEMA,
    });

    expect(value).toEqual({ text: 'fenced' });
    expect(stub.requests).toHaveLength(1);
    expect(exchanges).toHaveLength(1);
    expect(exchanges[0]?.error).toBe('');
  });

  it('gives up with LLM_INVALID_JSON and both exchanges when the repair does not match the schema either', async () => {
    stub.setHandler(() => ({ content: '{"txt":"wrong key"}' }));
    const client = createChatClient(chatConfig());

    const error = await llmErrorOf(
      client.completeJson({ purpose: 'extract', messages: MESSAGES, seed: 1, schema: TEXT_SCHEMA }),
    );

    expect(error.code).toBe('LLM_INVALID_JSON');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('text');
    expect(stub.requests).toHaveLength(2);
    expect(stub.requests[1]?.body.messages.at(-1).content).toMatch(/does not match the schema \(text: /);
    expect(error.exchanges.map((e) => e.attempt)).toEqual([1, 2]);
    expect(error.exchanges.map((e) => e.output)).toEqual(['{"txt":"wrong key"}', '{"txt":"wrong key"}']);
    expect(error.exchanges.every((e) => e.error.startsWith('LLM_INVALID_JSON: '))).toBe(true);
  });

  it('keeps the first exchange when the repair request itself fails', async () => {
    stub.setHandler(({ count }) => (count === 1 ? { content: 'not json' } : { status: 400 }));
    const client = createChatClient(chatConfig());

    const error = await llmErrorOf(
      client.completeJson({ purpose: 'extract', messages: MESSAGES, seed: 1, schema: TEXT_SCHEMA }),
    );

    expect(error.code).toBe('LLM_HTTP_ERROR');
    expect(error.exchanges.map((e) => [e.attempt, e.output])).toEqual([
      [1, 'not json'],
      [2, ''],
    ]);
  });

  it('retries HTTP 500 maxRetries times with the client backoff, then fails retryable', async () => {
    stub.setHandler(() => ({ status: 500 }));
    const client = createChatClient(chatConfig({ maxRetries: 1 }));

    const error = await llmErrorOf(client.complete({ purpose: 'reply', messages: MESSAGES, seed: 1 }));

    expect(stub.requests).toHaveLength(2);
    expect(error.code).toBe('LLM_HTTP_ERROR');
    expect(error.status).toBe(500);
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('HTTP 500');
    expect(error.exchanges).toHaveLength(1);
    expect(error.exchanges[0]).toMatchObject({
      attempt: 1,
      output: '',
      error: expect.stringMatching(/^LLM_HTTP_ERROR: HTTP 500/),
    });
    // The client's own backoff (0.5 s less up to 25 % jitter) is inside the exchange.
    expect(error.exchanges[0]?.latencyMs).toBeGreaterThanOrEqual(350);
  });

  it('honours retry-after-ms on 429 and succeeds within maxRetries', async () => {
    stub.setHandler(({ count }) =>
      count <= 2 ? { status: 429, headers: { 'retry-after-ms': '1' } } : { content: 'third time lucky' },
    );
    const client = createChatClient(chatConfig({ maxRetries: 2 }));

    const { text, exchange } = await client.complete({ purpose: 'reply', messages: MESSAGES, seed: 1 });

    expect(text).toBe('third time lucky');
    expect(stub.requests).toHaveLength(3);
    expect(exchange.attempt).toBe(1);
    expect(exchange.latencyMs).toBeLessThan(300);
  });

  it('does not retry HTTP 401 and fails not retryable', async () => {
    stub.setHandler(() => ({
      status: 401,
      body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    }));
    const client = createChatClient(chatConfig({ maxRetries: 2 }));

    const error = await llmErrorOf(client.complete({ purpose: 'reply', messages: MESSAGES, seed: 1 }));

    expect(stub.requests).toHaveLength(1);
    expect(error.code).toBe('LLM_HTTP_ERROR');
    expect(error.status).toBe(401);
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/HTTP 401.*Incorrect API key/);
    expect(error.exchanges[0]).toMatchObject({ output: '', error: expect.stringMatching(/^LLM_HTTP_ERROR: HTTP 401/) });
  });

  it('fails with LLM_TIMEOUT when the reply is slower than the timeout', async () => {
    stub.setHandler(() => ({ delayMs: 1_000, content: 'too late' }));
    const client = createChatClient(chatConfig({ timeoutMs: 200, maxRetries: 0 }));

    const error = await llmErrorOf(client.complete({ purpose: 'reply', messages: MESSAGES, seed: 1 }));

    expect(error.code).toBe('LLM_TIMEOUT');
    expect(error.retryable).toBe(true);
    expect(stub.requests).toHaveLength(1);
    expect(error.exchanges[0]).toMatchObject({ output: '', error: 'LLM_TIMEOUT: no reply within 200 ms' });
    expect(error.exchanges[0]?.latencyMs).toBeGreaterThanOrEqual(150);
    expect(error.exchanges[0]?.latencyMs).toBeLessThan(1_000);
  });

  it('fails with LLM_UNAVAILABLE when nothing listens', async () => {
    const gone = await startLlmStub();
    await gone.close();
    const client = createChatClient(chatConfig({ baseUrl: gone.url }));

    const error = await llmErrorOf(client.complete({ purpose: 'reply', messages: MESSAGES, seed: 1 }));

    expect(error.code).toBe('LLM_UNAVAILABLE');
    expect(error.retryable).toBe(true);
    expect(error.exchanges[0]?.error).toMatch(/^LLM_UNAVAILABLE: /);
  });

  it('fails with LLM_EMPTY on a reply without content', async () => {
    stub.setHandler(() => ({ content: '' }));
    const client = createChatClient(chatConfig());

    const error = await llmErrorOf(client.complete({ purpose: 'reply', messages: MESSAGES, seed: 1 }));

    expect(error.code).toBe('LLM_EMPTY');
    expect(error.exchanges[0]).toMatchObject({ output: '', error: 'LLM_EMPTY: the reply has no content' });
  });

  it('logs purpose, model, attempt and latency at debug, and never the message contents', async () => {
    const lines: string[] = [];
    const destination = { write: (line: string) => void lines.push(line) };
    const logger = createLogger({ service: 'llm-test', level: 'debug', destination });
    stub.setHandler(({ count }) =>
      count === 1 ? { status: 503, headers: { 'retry-after-ms': '1' } } : { content: 'Ana in Lisbon' },
    );
    const client = createChatClient(chatConfig({ maxRetries: 1 }), { logger });

    await client.complete({ purpose: 'reply', messages: MESSAGES, seed: 1 });

    const entries = lines.map((l) => JSON.parse(l));
    expect(entries).toContainEqual(
      expect.objectContaining({
        level: 'debug',
        purpose: 'reply',
        model: 'stub-chat-1',
        attempt: 1,
        latencyMs: expect.any(Number),
      }),
    );
    expect(entries.filter((e) => e.component === 'openai').length).toBeGreaterThanOrEqual(2);
    expect(entries.every((e) => ['debug', 'warn'].includes(e.level))).toBe(true);
    expect(lines.join('\n')).not.toMatch(/Lisbon|Hearth\.|Ana/);
  });
});

describe('createEmbeddingClient', () => {
  it('asks the endpoint once for a batch and returns the vectors in input order', async () => {
    // given
    const client = createEmbeddingClient({ baseUrl: stub.url, apiKey: null, model: 'embed-test', timeoutMs: 2_000, maxRetries: 0 });

    // when
    const vectors = await client.embed(['current city: busan', 'likes food: sushi']);

    // then
    expect(stub.requests).toHaveLength(1);
    expect(stub.requests[0]!.path).toBe('/v1/embeddings');
    expect(stub.requests[0]!.body).toMatchObject({ model: 'embed-test', input: ['current city: busan', 'likes food: sushi'] });
    expect(vectors).toHaveLength(2);
    expect(vectors[0]).toHaveLength(32);
    expect(vectors[0]).not.toEqual(vectors[1]);
    expect(client.model).toBe('embed-test');
  });

  it('fails with an LlmError when the endpoint is down', async () => {
    // given
    const client = createEmbeddingClient({ baseUrl: 'http://127.0.0.1:9/v1', apiKey: null, model: 'm', timeoutMs: 500, maxRetries: 0 });

    // when / then
    await expect(client.embed(['x'])).rejects.toBeInstanceOf(LlmError);
  });
});
