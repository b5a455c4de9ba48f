import { LlmError, type LlmExchange } from '@hearth/llm';
import { createLlmHealth } from '../adapters/llm-health.js';
import type { GateVerdict } from '../gates/index.js';
import { composeReply, type Candidate, type Responder } from '../turn/compose.js';
import type { ResponsePlan } from '../turn/plan.js';
import { CIRCUIT_OPEN_ERROR, failoverResponder } from './failover.js';

const PLAN = {} as ResponsePlan;
const SAFE = 'safe fallback';

const exchange = (provider: string, purpose: string, output: string, error = ''): LlmExchange => ({
  purpose,
  provider,
  model: provider === 'llm' ? 'm' : 'template-v0',
  attempt: 1,
  messages: [],
  output,
  error,
  latencyMs: 0,
  seed: 7,
});

/** A responder whose draft and rewrite give these texts, or throw these errors. */
function fake(provider: string, draft: string | Error, rewrite: string | Error = 'rewritten'): Responder & { calls: string[] } {
  const calls: string[] = [];
  const answer = (purpose: string, r: string | Error): Promise<Candidate> => {
    calls.push(purpose);
    if (r instanceof Error) return Promise.reject(r);
    return Promise.resolve({ text: r, surfacedMemoryIds: [], exchanges: [exchange(provider, purpose, r)] });
  };
  return {
    provider,
    model: 'm',
    calls,
    draft: () => answer('reply', draft),
    rewrite: () => answer('rewrite', rewrite),
    fallback: () => ({ text: SAFE, surfacedMemoryIds: [], exchanges: [] }),
  };
}

const outage = (status: number) =>
  new LlmError('LLM_HTTP_ERROR', `HTTP ${status}`, { retryable: true, status, exchanges: [exchange('llm', 'reply', '', `LLM_HTTP_ERROR: HTTP ${status}`)] });

// A gate that fails any text containing "bad".
const evaluate = (c: { text: string }): GateVerdict[] => [{ gate: 'safety', pass: !c.text.includes('bad'), detail: '' } as GateVerdict];

function clockedHealth() {
  let t = 0;
  return { health: createLlmHealth({ openAfterFailures: 2, coolDownMs: 1_000, now: () => t }), advance: (ms: number) => (t += ms) };
}

describe('failoverResponder', () => {
  it('answers a failed LLM draft with the offline draft of the same plan, the failed exchange recorded first', async () => {
    const { health } = clockedHealth();
    const offline = fake('offline', 'offline hello');
    const kinds: string[] = [];
    const r = failoverResponder(fake('llm', outage(503)), offline, health, (_e, kind) => kinds.push(kind));

    const composed = await composeReply({ plan: PLAN, seed: 7, responder: r, evaluate });

    expect(composed).toMatchObject({ text: 'offline hello', outcome: 'draft' });
    expect(composed.exchanges.map((x) => [x.provider, x.purpose, x.error])).toEqual([
      ['llm', 'reply', 'LLM_HTTP_ERROR: HTTP 503'],
      ['offline', 'reply', ''],
    ]);
    expect(composed.final?.provider).toBe('offline');
    expect(kinds).toEqual(['server']);
    expect(health.up).toBe(false);
  });

  it('stays offline for the rest of the turn: a failing offline draft is rewritten offline, not by the LLM', async () => {
    const { health } = clockedHealth();
    const llm = fake('llm', outage(429));
    const offline = fake('offline', 'bad draft', 'good rewrite');
    const composed = await composeReply({ plan: PLAN, seed: 7, responder: failoverResponder(llm, offline, health), evaluate });
    expect(composed).toMatchObject({ text: 'good rewrite', outcome: 'rewrite' });
    expect(llm.calls).toEqual(['reply']);
    expect(offline.calls).toEqual(['reply', 'rewrite']);
  });

  it('hands a failed LLM rewrite to the offline rewrite', async () => {
    const { health } = clockedHealth();
    const llm = fake('llm', 'bad llm draft', outage(500));
    const offline = fake('offline', 'unused', 'offline rewrite');
    const composed = await composeReply({ plan: PLAN, seed: 7, responder: failoverResponder(llm, offline, health), evaluate });
    expect(composed).toMatchObject({ text: 'offline rewrite', outcome: 'rewrite' });
    expect(composed.exchanges.map((x) => [x.provider, x.purpose])).toEqual([
      ['llm', 'reply'],
      ['llm', 'reply'],
      ['offline', 'rewrite'],
    ]);
  });

  it('keeps the safe fallback for replies that fail the gates, whoever wrote them', async () => {
    const { health } = clockedHealth();
    const composed = await composeReply({ plan: PLAN, seed: 7, responder: failoverResponder(fake('llm', outage(503)), fake('offline', 'bad', 'bad again'), health), evaluate });
    expect(composed).toMatchObject({ text: SAFE, outcome: 'fallback', final: undefined });
  });

  it('marks the provider up again after a good answer', async () => {
    const { health } = clockedHealth();
    health.failure(outage(503));
    const composed = await composeReply({ plan: PLAN, seed: 7, responder: failoverResponder(fake('llm', 'llm hello'), fake('offline', 'x'), health), evaluate });
    expect(composed.final?.provider).toBe('llm');
    expect(health.up).toBe(true);
  });

  it('skips the provider while the breaker is open, and records the skipped call', async () => {
    const { health, advance } = clockedHealth();
    health.failure(outage(503));
    health.failure(outage(503));
    const llm = fake('llm', 'llm hello');
    const composed = await composeReply({ plan: PLAN, seed: 7, responder: failoverResponder(llm, fake('offline', 'offline hello'), health), evaluate });
    expect(llm.calls).toEqual([]);
    expect(composed.text).toBe('offline hello');
    expect(composed.exchanges.map((x) => [x.provider, x.error])).toEqual([
      ['llm', CIRCUIT_OPEN_ERROR],
      ['offline', ''],
    ]);

    // After the cool-down one turn probes the provider, and its answer closes the breaker.
    advance(1_000);
    const probe = await composeReply({ plan: PLAN, seed: 7, responder: failoverResponder(llm, fake('offline', 'x'), health), evaluate });
    expect(probe.text).toBe('llm hello');
    expect(health.allow()).toBe(true);
  });

  it('records a failure that carries no exchange (not an LlmError) as a failed exchange of its own', async () => {
    const { health } = clockedHealth();
    const composed = await composeReply({ plan: PLAN, seed: 7, responder: failoverResponder(fake('llm', new TypeError('boom')), fake('offline', 'offline hello'), health), evaluate });
    expect(composed.exchanges.map((x) => [x.provider, x.error])).toEqual([
      ['llm', 'LLM_FAILED: invalid'],
      ['offline', ''],
    ]);
  });
});
