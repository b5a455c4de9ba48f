import { createLocalEmbedder, cosine } from '@hearth/llm';
import { BELIEF_CONFIG } from './config.js';
import { embeddingTextOf } from './embedding-text.js';

const embedder = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: 'hearth-local' });
const sim = (a: string, b: string) => cosine(embedder.embedSync(embeddingTextOf(a)), embedder.embedSync(embeddingTextOf(b)));

describe('embeddingTextOf', () => {
  it.each([
    ['i am really a patient person', 'patient'],
    ["I'm patient", 'patient'],
    ['i have cats', 'have cat'],
    ['i love hiking', 'like hiking'],
    ['my family disrespects me', 'my family disrespect me'],
    ['i am kind of a shy person', 'shy'],
    ['i am', 'i am'],
  ])('%j → %j', (text, expected) => {
    expect(embeddingTextOf(text)).toBe(expected);
  });

  it.each([
    ['i am really a patient person', 'i am patient'],
    ['i am a very patient person', "i'm patient"],
    ['i have two cats', 'i have cats'],
    ['i love hiking', 'i like hiking'],
    ['i always overthink things', 'i overthink things'],
  ])('near-paraphrases %j and %j embed at ≥ 0.9', (a, b) => {
    expect(sim(a, b)).toBeGreaterThanOrEqual(BELIEF_CONFIG.resolution.matchThreshold);
  });

  it.each([
    ['i am patient', 'i like hiking'],
    ['i am good at math', 'i am good at cooking'],
    ['i live in ohio', 'i have cats'],
    ['i value honesty', 'i feel lonely'],
    ['my family disrespects me', 'i am a nurse'],
  ])('unrelated %j and %j embed under 0.75', (a, b) => {
    expect(sim(a, b)).toBeLessThan(BELIEF_CONFIG.resolution.noMatchThreshold);
  });
});
