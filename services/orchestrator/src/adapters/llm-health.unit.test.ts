import { LlmError } from '@hearth/llm';
import { classifyLlmFailure, createLlmHealth } from './llm-health.js';

const err = (code: ConstructorParameters<typeof LlmError>[0], opts: { status?: number; retryable?: boolean } = {}) =>
  new LlmError(code, 'x', { retryable: opts.retryable ?? true, exchanges: [], ...(opts.status === undefined ? {} : { status: opts.status }) });

describe('classifyLlmFailure', () => {
  it('tells timeouts, rate limits, server errors, lost connections and unusable answers apart', () => {
    expect(classifyLlmFailure(err('LLM_TIMEOUT'))).toBe('timeout');
    expect(classifyLlmFailure(err('LLM_HTTP_ERROR', { status: 408 }))).toBe('timeout');
    expect(classifyLlmFailure(err('LLM_HTTP_ERROR', { status: 429 }))).toBe('rate_limited');
    expect(classifyLlmFailure(err('LLM_HTTP_ERROR', { status: 503 }))).toBe('server');
    expect(classifyLlmFailure(err('LLM_HTTP_ERROR', { status: 401, retryable: false }))).toBe('server');
    expect(classifyLlmFailure(err('LLM_UNAVAILABLE'))).toBe('transport');
    expect(classifyLlmFailure(err('LLM_UNAVAILABLE', { retryable: false }))).toBe('invalid');
    expect(classifyLlmFailure(err('LLM_INVALID_JSON', { retryable: false }))).toBe('invalid');
    expect(classifyLlmFailure(err('LLM_EMPTY', { retryable: false }))).toBe('invalid');
    expect(classifyLlmFailure(new TypeError('boom'))).toBe('invalid');
    expect(classifyLlmFailure(undefined)).toBe('invalid');
  });
});

describe('LLM health and circuit breaker', () => {
  function health() {
    let t = Date.parse('2026-11-22T09:00:00Z');
    const h = createLlmHealth({ openAfterFailures: 3, coolDownMs: 30_000, now: () => t });
    return { h, advance: (ms: number) => (t += ms) };
  }

  it('is up and lets every call through while calls succeed', () => {
    const { h } = health();
    expect(h.allow()).toBe(true);
    h.success();
    expect(h.up).toBe(true);
    expect(h.status()).toEqual({ ok: true, since: '2026-11-22T09:00:00.000Z' });
  });

  it('is down from the first failure, says why without the provider words, and still calls until the threshold', () => {
    const { h, advance } = health();
    advance(1_000);
    expect(h.failure(err('LLM_HTTP_ERROR', { status: 503 }))).toBe('server');
    expect(h.up).toBe(false);
    expect(h.allow()).toBe(true);
    advance(1_000);
    h.failure(err('LLM_HTTP_ERROR', { status: 429 }));
    expect(h.status()).toEqual({ ok: false, reason: '2 failed call(s) in a row, last: rate_limited (HTTP 429)', since: '2026-11-22T09:00:01.000Z' });
    expect(h.allow()).toBe(true);
  });

  it('opens after three failures in a row: skips the provider for the cool-down, then lets one probe through', () => {
    const { h, advance } = health();
    for (let i = 0; i < 3; i++) h.failure(err('LLM_TIMEOUT'));
    expect(h.allow()).toBe(false);
    expect(h.status().reason).toMatch(/circuit open, next probe after 2026-11-22T09:00:30.000Z/);
    advance(29_999);
    expect(h.allow()).toBe(false);
    advance(1);
    // One probe; the turns meanwhile keep skipping.
    expect(h.allow()).toBe(true);
    expect(h.allow()).toBe(false);
  });

  it('opens again when the probe fails, and closes when it succeeds', () => {
    const { h, advance } = health();
    for (let i = 0; i < 3; i++) h.failure(err('LLM_UNAVAILABLE'));
    advance(30_000);
    expect(h.allow()).toBe(true);
    h.failure(err('LLM_UNAVAILABLE'));
    expect(h.allow()).toBe(false);
    advance(30_000);
    expect(h.allow()).toBe(true);
    h.success();
    expect(h.up).toBe(true);
    expect(h.allow()).toBe(true);
    expect(h.allow()).toBe(true);
    expect(h.status()).toEqual({ ok: true, since: '2026-11-22T09:01:00.000Z' });
  });

  it('lets another probe through when one never reports back', () => {
    const { h, advance } = health();
    for (let i = 0; i < 3; i++) h.failure(err('LLM_TIMEOUT'));
    advance(30_000);
    expect(h.allow()).toBe(true);
    advance(29_999);
    expect(h.allow()).toBe(false);
    advance(1);
    expect(h.allow()).toBe(true);
  });

  it('a success resets the count: failures must be in a row to open', () => {
    const { h } = health();
    h.failure(err('LLM_TIMEOUT'));
    h.failure(err('LLM_TIMEOUT'));
    h.success();
    h.failure(err('LLM_TIMEOUT'));
    h.failure(err('LLM_TIMEOUT'));
    expect(h.allow()).toBe(true);
  });
});
