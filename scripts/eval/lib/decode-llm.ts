// The LLM path of eval:decode: the same companion graph as InMemoryBeliefGraph,
// but each statement's atoms come from the §4.3 LLM atomizer (libs/beliefs
// prompts, JSON mode with one repair) and the vectors from the configured
// embeddings endpoint. When the atomizer gives no answer the rules stand, as in
// belief-graph. No verifier (§4.11) and no epistemics fallback (§4.8): the
// conflict engine only reads polarity, hash, vector and temporal scope.
import {
  nodeViewOf,
  ATOMIZER_SYSTEM_PROMPT,
  atomizerReplySchema,
  atomizerUserPrompt,
  BELIEF_CONFIG,
  decompose,
  rawAtomsFromReply,
  stepGraph,
  type NodeView,
} from '@hearth/beliefs';
import type { ChatClient, Embedder } from '@hearth/llm';
import type { AddInput, AddOutcome, CompanionGraph } from './decode-run.js';

export interface LlmGraphStats {
  atomizerCalls: number;
  /** Statements where the atomizer failed and the rules atomizer stood in. */
  atomizerFailures: number;
}

/** A fresh LLM-backed companion graph (one per dialogue); `stats` is shared across dialogues. */
export function createLlmGraph(chat: ChatClient, embedder: Embedder, stats: LlmGraphStats): CompanionGraph {
  const nodes: NodeView[] = [];
  let seq = 0;
  return {
    async add(input: AddInput): Promise<AddOutcome> {
      let decomposition = decompose({ text: input.text, conversationId: input.conversationId, holder: input.holder });
      if (decomposition.segments.length > 0) {
        stats.atomizerCalls++;
        try {
          const res = await chat.completeJson({
            purpose: 'belief-atomize',
            messages: [
              { role: 'system', content: ATOMIZER_SYSTEM_PROMPT },
              { role: 'user', content: atomizerUserPrompt(decomposition.segments) },
            ],
            schema: atomizerReplySchema,
            // A fixed seed per statement: a rerun asks the same question the same way.
            seed: stableSeed(input.sourceId),
            temperature: BELIEF_CONFIG.extractor.temperature,
          });
          decomposition = decompose({ text: input.text, conversationId: input.conversationId, holder: input.holder, rawAtoms: rawAtomsFromReply(res.value) });
        } catch {
          stats.atomizerFailures++;
        }
      }
      const vectors = decomposition.atoms.length ? await embedder.embed(decomposition.atoms.map((a) => a.embeddingText)) : [];
      const step = stepGraph({ atoms: decomposition.atoms, vectors, nodes, newId: () => `llm-${++seq}` });
      for (const d of step.atoms) {
        if (d.created) nodes.push(nodeViewOf(d.atom, d.vector, d.beliefId));
      }
      return { decomposition, step };
    },
  };
}

/** FNV-1a of the source id, as a uint32 seed. */
export function stableSeed(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
