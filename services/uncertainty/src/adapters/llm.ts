import { LlmError, type ChatClient, type LlmExchange } from '@hearth/llm';
import { CLASSIFIER_PROMPT, classifierReplySchema, classifierUserPrompt, type Classification, type HeldMemory, type StatedCandidate } from '@hearth/uncertainty';

/** The contradiction classifier's port: null when no LLM is configured (the offline rules decide). */
export interface ClassifierLlm {
  readonly provider: string;
  readonly model: string;
  classify(text: string, stated: StatedCandidate, held: HeldMemory, at: Date, seed: number): Promise<{ reading: { classification: Classification; reasoning: string } | null; exchanges: LlmExchange[] }>;
}

/**
 * ContradictionClassifierService through libs/llm at temperature 0, JSON mode.
 * The client is built with the check's time box as its timeout and no retries, so
 * a slow model leaves the rules to decide in time; every exchange is returned to
 * be recorded, failed ones too.
 */
export function createClassifierLlm(chat: ChatClient): ClassifierLlm {
  return {
    provider: chat.provider,
    model: chat.model,
    async classify(text, stated, held, at, seed) {
      try {
        const r = await chat.completeJson({
          purpose: 'uncertainty-classify',
          seed,
          temperature: 0,
          schema: classifierReplySchema,
          messages: [
            { role: 'system', content: CLASSIFIER_PROMPT },
            { role: 'user', content: classifierUserPrompt(text, stated, held, at) },
          ],
        });
        return { reading: { classification: r.value.classification, reasoning: r.value.reasoning }, exchanges: r.exchanges };
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        return { reading: null, exchanges: err.exchanges };
      }
    },
  };
}
