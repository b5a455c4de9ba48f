import { createLocalEmbedder } from '@hearth/llm';
import { BELIEF_CONFIG } from './config.js';
import { decompose } from './decompose.js';
import { selfConsistency } from './self-consistency.js';
import type { NodeView } from './types.js';

const embedder = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: 'hearth-local' });
const embed = (t: string) => embedder.embedSync(t);
const coreOf = (text: string, id: string): NodeView => {
  const [a] = decompose({ text, conversationId: 'seed', holder: 'companion' }).atoms;
  return { beliefId: id, canonicalText: a!.canonicalText, canonicalHash: a!.canonicalHash, polarity: a!.polarity, beliefType: a!.beliefType, temporalScope: a!.epistemics.frame.temporalScope, stream: a!.stream.primary, vector: embed(a!.embeddingText) };
};

describe('selfConsistency (the orchestrator gate)', () => {
  const core = [coreOf('I love rainy days', 'core-rain'), coreOf('I am a patient person', 'core-patient'), coreOf('I value honesty', 'core-honest')];

  it('flags a draft that contradicts a core belief', () => {
    expect(selfConsistency('Honestly, I hate rainy days.', core, embed)).toEqual([{ atomText: 'i like rainy days', beliefId: 'core-rain', conflictType: 'contradiction' }]);
  });

  it('flags a near-paraphrase of opposite polarity as a tension', () => {
    expect(selfConsistency("I'm not patient, sorry.", core, embed)).toEqual([{ atomText: 'i am patient', beliefId: 'core-patient', conflictType: 'tension' }]);
  });

  it('passes a consistent draft and one about the user', () => {
    expect(selfConsistency('I love rainy days too! Do you like them?', core, embed)).toEqual([]);
    expect(selfConsistency('You seem impatient today.', core, embed)).toEqual([]);
  });
});
