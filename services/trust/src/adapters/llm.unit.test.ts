import { LlmError, type ChatClient, type ChatRequest, type LlmExchange } from '@hearth/llm';
import { createTagLlm, cueSentences } from './llm.js';

function exchangeOf(req: ChatRequest, output: string, error = ''): LlmExchange {
  return { purpose: req.purpose, provider: 'openai-compatible', model: 'fake', attempt: 1, messages: [...req.messages], output, error, latencyMs: 5, seed: req.seed };
}

/** A chat client that answers every request with `reply` (or throws it). */
function fakeChat(reply: string | LlmError): ChatClient & { asked: ChatRequest[] } {
  const asked: ChatRequest[] = [];
  return {
    provider: 'openai-compatible',
    model: 'fake',
    asked,
    async complete(req) {
      asked.push(req);
      if (reply instanceof LlmError) throw reply;
      return { text: reply, exchange: exchangeOf(req, reply) };
    },
    async completeJson() {
      throw new Error('the labeller makes one attempt, never a JSON repair');
    },
  };
}

const turn = { userText: 'Long day. You really are so patient with me. Anyway!', assistantText: 'Thanks. I really am a patient person, that is who I am.', seed: 7 };

describe('the LLM tag labeller', () => {
  it('asks only about the sentences with a tag cue, numbered, and no more than a few per text', () => {
    expect(cueSentences(turn.userText, 'user')).toEqual(['You really are so patient with me.']);
    expect(cueSentences('You really are so patient. '.repeat(20), 'user').length).toBeLessThanOrEqual(6);
    expect(cueSentences('what a long day', 'user')).toEqual([]);
  });

  it('given labels, then the tagged sentences become candidates with cue "llm" in sentence order, "none" and unknown ids dropped', async () => {
    const chat = fakeChat(JSON.stringify({ labels: [{ id: 2, tag: '+keep' }, { id: 1, tag: '+doubt' }, { id: 9, tag: '+keep' }, { id: 1, tag: '+keep' }] }));
    const r = await createTagLlm(chat).label(turn);
    expect(r.candidates).toEqual([
      { tag: '+doubt', actor: 'user', cue: 'llm', text: 'You really are so patient with me.' },
      { tag: '+keep', actor: 'agent', cue: 'llm', text: 'I really am a patient person, that is who I am.' },
    ]);
    expect(r.exchanges).toHaveLength(1);
    expect(chat.asked[0]).toMatchObject({ purpose: 'trust-tags', temperature: 0, json: true, seed: 7 });
    expect(chat.asked[0]!.messages[1]!.content).toBe('1. [user] You really are so patient with me.\n2. [companion] I really am a patient person, that is who I am.');
  });

  it('given a reply that does not parse, then the rules decide and the exchange is recorded with its error', async () => {
    const r = await createTagLlm(fakeChat('{"labels": "yes"}')).label(turn);
    expect(r.candidates).toBeNull();
    expect(r.exchanges[0]!.error).toMatch(/^LLM_INVALID_JSON/);
  });

  it('given a timeout, then the rules decide and the failed exchange is recorded', async () => {
    const failed: LlmExchange = { purpose: 'trust-tags', provider: 'openai-compatible', model: 'fake', attempt: 1, messages: [], output: '', error: 'LLM_TIMEOUT: late', latencyMs: 450, seed: 7 };
    const r = await createTagLlm(fakeChat(new LlmError('LLM_TIMEOUT', 'late', { retryable: true, exchanges: [failed] }))).label(turn);
    expect(r).toEqual({ candidates: null, exchanges: [failed] });
  });

  it('given a turn with no cue, then the model is not asked', async () => {
    const chat = fakeChat('{}');
    expect(await createTagLlm(chat).label({ userText: 'what a long day', assistantText: 'Want to talk about it?', seed: 1 })).toEqual({ candidates: [], exchanges: [] });
    expect(chat.asked).toEqual([]);
  });
});
