import {
  ATOMIZER_SYSTEM_PROMPT,
  atomizerReplySchema,
  atomizerUserPrompt,
  BELIEF_CONFIG,
  EPISTEMICS_FALLBACK_PROMPT,
  epistemicsFromReply,
  epistemicsReplySchema,
  epistemicsUserPrompt,
  rawAtomsFromReply,
  REPAIR_JSON_PROMPT,
  repairJsonUserPrompt,
  VERIFIER_PROMPT,
  verifierReplySchema,
  verifierUserPrompt,
} from '@hearth/beliefs';
import { LlmError, parseJsonReply, type ChatClient, type LlmExchange } from '@hearth/llm';
import type { z } from 'zod';
import type { BeliefLlm } from './llm.js';

type Asked<T> = { value: T | null; exchanges: LlmExchange[]; error: string };

/**
 * The decomposer's LLM steps through libs/llm, at temperature 0 (§5.1). A reply
 * that is not the JSON asked for is sent once through the repair prompt
 * (§4.3, max_json_repair_attempts 1); every exchange is returned for the event.
 */
export function createChatBeliefLlm(chat: ChatClient): BeliefLlm {
  async function ask<T>(purpose: string, system: string, user: string, schema: z.ZodType<T>, example: string, seed: number): Promise<Asked<T>> {
    const exchanges: LlmExchange[] = [];
    try {
      const first = await chat.complete({ purpose, seed, temperature: BELIEF_CONFIG.extractor.temperature, json: true, messages: [{ role: 'system', content: system }, { role: 'user', content: user }] });
      exchanges.push(first.exchange);
      let parsed = parseJsonReply(first.text, schema);
      for (let i = 0; !parsed.ok && i < BELIEF_CONFIG.extractor.maxJsonRepairAttempts; i++) {
        const repaired = await chat.complete({
          purpose: `${purpose}-repair`,
          seed,
          temperature: BELIEF_CONFIG.extractor.temperature,
          json: true,
          messages: [{ role: 'system', content: REPAIR_JSON_PROMPT }, { role: 'user', content: repairJsonUserPrompt(example, first.text) }],
        });
        exchanges.push(repaired.exchange);
        parsed = parseJsonReply(repaired.text, schema);
      }
      return parsed.ok ? { value: parsed.value, exchanges, error: '' } : { value: null, exchanges, error: `LLM_INVALID_JSON: ${parsed.reason}` };
    } catch (err) {
      if (!(err instanceof LlmError)) throw err;
      return { value: null, exchanges: [...exchanges, ...err.exchanges], error: `${err.code}: ${err.message}` };
    }
  }
  return {
    provider: chat.provider,
    model: chat.model,
    async atomize(candidates, seed) {
      const r = await ask('belief-atomize', ATOMIZER_SYSTEM_PROMPT, atomizerUserPrompt(candidates), atomizerReplySchema, '{"atoms":[{"atom_text":"i am patient","belief_type":"TRAIT","polarity":"affirm","confidence":0.9,"source_idx":0}]}', seed);
      return { atoms: r.value ? rawAtomsFromReply(r.value) : null, exchanges: r.exchanges, error: r.error };
    },
    async epistemics(text, seed) {
      const r = await ask('belief-epistemics', EPISTEMICS_FALLBACK_PROMPT, epistemicsUserPrompt(text), epistemicsReplySchema, '{"temporal_scope":"habitual","modality":"certain","degree":0.5,"conditional":"","polarity":"affirm","confidence":0.8}', seed);
      return { result: r.value ? epistemicsFromReply(r.value) : null, exchanges: r.exchanges };
    },
    async verify(a, b, seed) {
      const r = await ask('belief-verify', VERIFIER_PROMPT, verifierUserPrompt(a, b), verifierReplySchema, '{"is_same_belief":true,"confidence":0.9,"reasoning":"…"}', seed);
      return { same: r.value ? r.value.is_same_belief : null, confidence: r.value?.confidence ?? 0, exchanges: r.exchanges };
    },
  };
}
