import { z } from 'zod';
import { valueWords } from './describe.js';
import type { HeldMemory, StatedCandidate } from './types.js';

// ContradictionClassifierService (uncertainty-engine.md): the LLM's reading of a
// stated value against a stored one, when an LLM is configured. Its answer and
// the exchange are recorded in MessageChecked; a replay reads them, never asks.

export const CLASSIFIER_PROMPT = [
  'You compare what a user just said with something a friend remembers about them.',
  'Core question: can these both be true simultaneously?',
  'Classify as one of:',
  '- compatible: both can be true at once (likes Honda, likes Toyota).',
  '- temporal_change: it was true, and it changed (moved city, switched jobs, tastes changed).',
  '- true_contradiction: both cannot be true and nothing says it changed (likes Honda, hates Honda; lives in Canada, lives in China).',
  '- context_dependent: true in some situations, not others.',
  '- figurative: not meant literally.',
  'Weigh the temporal evidence: how old the memory is, how often it was reinforced and when.',
  'Reply with JSON only: {"classification": "...", "confidence": 0.0-1.0, "reasoning": "one sentence", "recommended_resolution": "supersede_old | ask_user | keep_both"}',
].join('\n');

export const classifierReplySchema = z.object({
  classification: z.enum(['compatible', 'temporal_change', 'true_contradiction', 'context_dependent', 'figurative']),
  confidence: z.number().min(0).max(1),
  reasoning: z.string().max(500),
  recommended_resolution: z.string().max(40).optional(),
});
export type ClassifierReply = z.infer<typeof classifierReplySchema>;

/** The classifier's input: the new statement, the matched memory and its metadata, the time. */
export function classifierUserPrompt(text: string, stated: StatedCandidate, held: HeldMemory, at: Date): string {
  return JSON.stringify({
    new_statement: text,
    new_value: { key: stated.key, value: valueWords(stated.value), stance: stated.value.split('|')[0] },
    remembered: {
      key: held.key,
      value: valueWords(held.value),
      stance: held.value.split('|')[0],
      created_at: held.createdAt.toISOString(),
      last_reinforced_at: held.lastConfirmedAt.toISOString(),
      reinforcement_count: held.statements,
      source: held.extractor === 'heuristic' ? 'explicit' : 'inferred',
      confidence: held.confidence,
    },
    now: at.toISOString(),
  });
}
