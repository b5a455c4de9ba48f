import { LlmError, parseJsonReply, type ChatClient, type LlmExchange } from '@hearth/llm';
import { splitSentences } from '@hearth/text';
import { mayTag, TAGS, type Actor, type TagCandidate } from '@hearth/trust';
import { z } from 'zod';
import { SERVICE } from '../config.js';

/** The tag labeller's port: null when no LLM is configured (the lexicon rules decide). */
export interface TagLlm {
  readonly provider: string;
  readonly model: string;
  /** The tags of a turn's cue-bearing sentences; `candidates` null when the model did not answer in time or well. */
  label(turn: { userText: string; assistantText: string; seed: number }): Promise<{ candidates: TagCandidate[] | null; exchanges: LlmExchange[] }>;
}

export const TAG_LABEL_PROMPT = [
  'You read one turn of a chat between a user and their AI companion and label sentences that tag one of the companion\'s beliefs about itself.',
  'Tags: "+keep" affirms or validates the companion\'s trait or value (a user: "you really are so patient", "never change"; the companion reaffirming itself: "I still believe honesty matters most", "that\'s who I am").',
  '"+doubt" questions it (a user: "I\'m not sure you\'re really curious"; the companion: "maybe I\'m not really that calm").',
  '"+artifact" says it is only an artifact of generation, not genuine (a user: "you were programmed to say that", "you\'re just autocomplete"; the companion: "as an AI I don\'t really feel that").',
  '"none" for everything else: thanks, greetings, questions about availability, feelings about other people, anything not about the companion itself.',
  'A [user] sentence counts only when it is about the companion; a [companion] sentence only when it is about itself.',
  'Reply with only a JSON object: {"labels": [{"id": <sentence number>, "tag": "+keep" | "+doubt" | "+artifact" | "none"}]} with one label per sentence.',
].join('\n');

const labelReplySchema = z.object({
  labels: z.array(z.object({ id: z.number().int(), tag: z.enum([...TAGS, 'none']) })),
});

/** A text's sentences that carry a tag cue (the lexicon's pre-screen), at most a few: what the model is asked about. */
export function cueSentences(text: string, actor: Actor): string[] {
  return splitSentences(text)
    .filter((s) => mayTag(s, actor))
    .slice(0, SERVICE.llmSentencesPerText);
}

/**
 * The tag labeller through libs/llm: temperature 0, JSON mode, one attempt (the
 * client is built with the time box as its timeout and no retries, and a reply
 * that does not parse is not repaired): a late or wrong answer leaves the rules
 * to decide. Every exchange is returned to be recorded, failed ones too.
 */
export function createTagLlm(chat: ChatClient): TagLlm {
  return {
    provider: chat.provider,
    model: chat.model,
    async label({ userText, assistantText, seed }) {
      const sentences: { actor: Actor; text: string }[] = [
        ...cueSentences(userText, 'user').map((text) => ({ actor: 'user' as const, text })),
        ...cueSentences(assistantText, 'agent').map((text) => ({ actor: 'agent' as const, text })),
      ];
      if (sentences.length === 0) return { candidates: [], exchanges: [] };
      const listed = sentences.map((s, i) => `${i + 1}. [${s.actor === 'user' ? 'user' : 'companion'}] ${s.text}`).join('\n');
      let completion;
      try {
        completion = await chat.complete({
          purpose: 'trust-tags',
          seed,
          temperature: 0,
          json: true,
          messages: [
            { role: 'system', content: TAG_LABEL_PROMPT },
            { role: 'user', content: listed },
          ],
        });
      } catch (err) {
        if (!(err instanceof LlmError)) throw err;
        return { candidates: null, exchanges: err.exchanges };
      }
      const parsed = parseJsonReply(completion.text, labelReplySchema);
      if (!parsed.ok) return { candidates: null, exchanges: [{ ...completion.exchange, error: `LLM_INVALID_JSON: ${parsed.reason}` }] };
      const seen = new Set<number>();
      const candidates: TagCandidate[] = [];
      for (const l of [...parsed.value.labels].sort((a, b) => a.id - b.id)) {
        const s = sentences[l.id - 1];
        if (!s || seen.has(l.id) || l.tag === 'none') continue;
        seen.add(l.id);
        candidates.push({ tag: l.tag, actor: s.actor, cue: 'llm', text: s.text });
      }
      return { candidates, exchanges: [completion.exchange] };
    },
  };
}
