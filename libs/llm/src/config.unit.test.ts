import { ConfigError, baseEnvSchema, loadConfig } from '@hearth/config';
import { llmEnvSchema, loadLlmConfig, toLlmConfig } from './index.js';

function configErrorOf(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ConfigError) return err;
    throw err;
  }
  throw new Error('expected a ConfigError');
}

describe('loadLlmConfig', () => {
  it('has no chat model when LLM_BASE_URL is unset, whatever else is set', () => {
    const config = loadLlmConfig({ LLM_API_KEY: 'sk-test', LLM_CHAT_MODEL: 'm', LLM_BASE_URL: '' });

    expect(config).toEqual({ chat: null, embeddingModel: 'text-embedding-3-small', embeddings: null });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('applies the defaults around a base URL', () => {
    const config = loadLlmConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1' });

    expect(config.chat).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: null,
      model: 'gpt-4o-mini',
      timeoutMs: 20_000,
      maxRetries: 2,
      temperature: 0.7,
    });
  });

  it('parses set values and freezes them', () => {
    const config = loadLlmConfig({
      LLM_BASE_URL: 'https://api.openai.com/v1',
      LLM_API_KEY: 'sk-test',
      LLM_CHAT_MODEL: 'gpt-4.1-mini',
      LLM_EMBEDDING_MODEL: 'text-embedding-3-large',
      LLM_TIMEOUT_MS: '5s',
      LLM_MAX_RETRIES: '0',
      LLM_TEMPERATURE: '0.2',
    });

    expect(config).toEqual({
      chat: {
        baseUrl: 'https://api.openai.com/v1',
        apiKey: 'sk-test',
        model: 'gpt-4.1-mini',
        timeoutMs: 5_000,
        maxRetries: 0,
        temperature: 0.2,
      },
      embeddingModel: 'text-embedding-3-large',
      embeddings: {
        baseUrl: 'https://api.openai.com/v1',
        apiKey: 'sk-test',
        model: 'text-embedding-3-large',
        timeoutMs: 5_000,
        maxRetries: 0,
      },
    });
    expect(Object.isFrozen(config.chat)).toBe(true);
  });

  it.each([
    ['LLM_BASE_URL', 'not a url', /http\(s\) URL/],
    ['LLM_BASE_URL', 'ftp://models.example/v1', /http\(s\) URL/],
    ['LLM_MAX_RETRIES', '9', /0\.\.5/],
    ['LLM_MAX_RETRIES', '1.5', /0\.\.5/],
    ['LLM_MAX_RETRIES', 'two', /0\.\.5/],
    ['LLM_TEMPERATURE', '2.5', /0\.\.2/],
    ['LLM_TIMEOUT_MS', '0', /above 0/],
    ['LLM_TIMEOUT_MS', 'soon', /duration/],
  ])('rejects %s=%j, naming the variable', (variable, value, reason) => {
    const error = configErrorOf(() => loadLlmConfig({ LLM_BASE_URL: 'http://127.0.0.1:8000/v1', [variable]: value }));

    expect(error.variables).toEqual([variable]);
    expect(error.problems[0]?.problem).toMatch(reason);
    expect(error.message).toContain(`${variable}:`);
  });

  it('names every invalid variable at once', () => {
    const error = configErrorOf(() => loadLlmConfig({ LLM_BASE_URL: 'nope', LLM_MAX_RETRIES: '9' }));

    expect(error.variables).toEqual(['LLM_BASE_URL', 'LLM_MAX_RETRIES']);
  });

  it('extends a service schema, and toLlmConfig shapes the parsed result', () => {
    const env = loadConfig(baseEnvSchema.extend(llmEnvSchema.shape), {
      LLM_BASE_URL: 'http://vllm:8000/v1',
      LLM_TEMPERATURE: '0',
    });

    expect(env.HEARTH_ENV).toBe('production');
    expect(toLlmConfig(env).chat).toMatchObject({ baseUrl: 'http://vllm:8000/v1', temperature: 0 });
  });
});
