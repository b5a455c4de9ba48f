import type { ChatClient, LlmExchange } from '@hearth/llm';
import { LlmError } from '@hearth/llm';
import { z } from 'zod';
import { MEMORY_KEYS, OFFLINE_EXTRACTOR } from '../config.js';
import { extractOffline } from '@hearth/memory-rules';
import { acceptLlmCandidates } from '../domain/llm-candidates.js';
import type { Candidate } from '../domain/types.js';

/** The LLM extractor's answer: candidates and every exchange, for the event. */
export interface Extraction {
  candidates: Candidate[];
  exchanges: LlmExchange[];
  /** "" or why the extractor gave nothing (the LLM failed). */
  error: string;
}

export interface LlmExtractor {
  readonly provider: string;
  extract(input: { text: string; at: Date; seed: number }): Promise<Extraction>;
}

export const REPLY = z.object({
  memories: z.array(z.object({ type: z.string(), memory_key: z.string(), memory_value: z.string() })).max(20),
});

function systemPrompt(at: Date): string {
  const month = `${at.getUTCFullYear()}_${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
  return [
    'You extract durable memories about the user from one chat message. Reply with a JSON object {"memories": [...]}, each item {"type", "memory_key", "memory_value"}.',
    'Only what the user states about themselves. Every memory_key MUST be exactly one of these formats, or leave the item out:',
    `- FACT: fact:<field>, field one of ${MEMORY_KEYS.factFields.join(', ')}; memory_value the value (e.g. "busan").`,
    `- PREFERENCE: pref:<category>:<item_slug>, category one of ${MEMORY_KEYS.preferenceCategories.join(', ')}; memory_value "like|<item>" or "dislike|<item>".`,
    `- RELATIONSHIP_EVENT: event:<domain>:${month}:<event_slug>, domain one of ${MEMORY_KEYS.eventDomains.join(', ')}; memory_value a short summary.`,
    `- EMOTIONAL_PATTERN: emotion:<pattern>, pattern one of ${MEMORY_KEYS.emotionPatterns.join(', ')} (social_energy only if stated explicitly); memory_value a short summary.`,
    'Slugs: lowercase, spaces as underscores, no punctuation, keep non-Latin letters, at most 48 characters. No guesses; {"memories": []} when nothing qualifies.',
  ].join('\n');
}

/** The LLM extractor through libs/llm (§12.2), JSON mode with its one repair. */
export function createLlmExtractor(chat: ChatClient): LlmExtractor {
  return {
    provider: chat.provider,
    async extract({ text, at, seed }) {
      try {
        const res = await chat.completeJson({
          purpose: 'memory-extraction',
          seed,
          temperature: 0,
          schema: REPLY,
          messages: [
            { role: 'system', content: systemPrompt(at) },
            { role: 'user', content: text },
          ],
        });
        return { candidates: acceptLlmCandidates(res.value.memories).accepted, exchanges: res.exchanges, error: '' };
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        // The heuristic's candidates still stand; the failed exchanges are on the record.
        return { candidates: [], exchanges: err.exchanges, error: `${err.code}: ${err.message}` };
      }
    },
  };
}

/** The offline rules' candidates as their exchange records them, each stated time included: the audit re-decides from it. */
export function offlineOutput(candidates: readonly Candidate[]): string {
  return JSON.stringify({ memories: candidates.map((c) => ({ type: c.type, memory_key: c.key, memory_value: c.value, ...(c.occurred ? { occurred: c.occurred } : {}) })) });
}

/**
 * The offline provider when no LLM is configured: broader rules than the
 * heuristic's, recorded as an exchange like any other. Its candidates count as
 * rule-based (0.60), not as LLM-extracted (0.75): no model read the message.
 */
export function createOfflineExtractor(): LlmExtractor {
  return {
    provider: OFFLINE_EXTRACTOR.provider,
    extract({ text, at, seed }) {
      const candidates = extractOffline(text, at);
      const exchange: LlmExchange = {
        purpose: 'memory-extraction',
        provider: OFFLINE_EXTRACTOR.provider,
        model: OFFLINE_EXTRACTOR.model,
        attempt: 1,
        messages: [{ role: 'user', content: text }],
        output: offlineOutput(candidates),
        error: '',
        latencyMs: 0,
        seed,
      };
      return Promise.resolve({ candidates, exchanges: [exchange], error: '' });
    },
  };
}
