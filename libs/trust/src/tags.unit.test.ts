import { BELIEF_CONFIG, embeddingTextOf } from '@hearth/beliefs';
import { createLocalEmbedder } from '@hearth/llm';
import { TRUST_CONFIG } from './config.js';
import { alignTag, cosine, detectTags, mayTag } from './tags.js';
import type { BeliefView } from './types.js';

const embedder = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: 'hearth-local' });
const vec = (text: string) => embedder.embedSync(embeddingTextOf(text));

function belief(beliefId: string, canonicalText: string, over: Partial<BeliefView> = {}): BeliefView {
  return { beliefId, canonicalText, embedding: vec(canonicalText), embeddingModel: embedder.model, stream: 'identity', activation: 1, confidence: 0.6, seeded: true, level: 0, openConflicts: 0, ...over };
}

const BELIEFS = [belief('b-patient', 'i am a patient person'), belief('b-honesty', 'i value honesty'), belief('b-music', 'i love music'), belief('b-curious', 'i am curious about the world')];

describe('detectTags (Tag Injection)', () => {
  it('given a user message when detected then each tagging sentence is a candidate with its own text', () => {
    const found = detectTags("Honestly? You're so patient with me. But I doubt you really care about music. Anyway, what's for dinner?", 'user');
    expect(found).toEqual([
      { tag: '+keep', actor: 'user', cue: '+keep:you_are_so', text: "You're so patient with me." },
      { tag: '+doubt', actor: 'user', cue: '+doubt:doubt_you_do', text: 'But I doubt you really care about music.' },
    ]);
  });

  it('given a companion reply when detected then its own reaffirmations, doubts and disclaimers are tagged as the agent', () => {
    expect(detectTags("I'm glad you asked! I still believe honesty matters most. As an AI, I don't really have feelings though.", 'agent')).toEqual([
      { tag: '+keep', actor: 'agent', cue: '+keep:still_believe', text: 'I still believe honesty matters most.' },
      { tag: '+artifact', actor: 'agent', cue: '+artifact:as_an_ai', text: "As an AI, I don't really have feelings though." },
    ]);
  });

  it('given the same words from the other speaker then the subject rule keeps them apart', () => {
    expect(detectTags('I really am a patient person', 'user')).toEqual([]);
    expect(detectTags("you're so patient", 'agent')).toEqual([]);
  });

  it('given ordinary chat when screened then mayTag fails it and nothing is detected', () => {
    for (const text of ["you're welcome!", 'are you there?', "I'm tired. Long day.", 'I still believe in you', 'what do you think about jazz?']) {
      expect(detectTags(text, 'user')).toEqual([]);
    }
    expect(mayTag('are you there?', 'user')).toBe(false);
    expect(mayTag("that's so you", 'user')).toBe(true);
  });
});

describe('alignTag', () => {
  it('given a precise tag when aligned then the belief it names has the highest cosine', () => {
    const [c] = detectTags("I'm not sure how you're patient", 'user');
    const hit = alignTag(vec(c!.text), BELIEFS, embedder.model);
    expect(hit?.beliefId).toBe('b-patient');
    expect(hit!.alignment).toBeGreaterThan(0.5);
    expect(alignTag(vec('I love that you value honesty'), BELIEFS, embedder.model)?.beliefId).toBe('b-honesty');
  });

  it('given a tag that names no belief when aligned then there is none (below minAlignment)', () => {
    expect(alignTag(vec("you're just autocomplete"), BELIEFS.slice(0, 2), embedder.model)).toBeNull();
    expect(alignTag(vec('you are so patient'), [], embedder.model)).toBeNull();
  });

  it('given beliefs of another model or without a vector when aligned then they are skipped', () => {
    const other = [belief('b-a', 'i am a patient person', { embeddingModel: 'text-embedding-3-small' }), belief('b-b', 'i am a patient person', { embedding: [] })];
    expect(alignTag(vec('you are so patient'), other, embedder.model)).toBeNull();
    expect(alignTag(vec('you are so patient'), [...other, ...BELIEFS], embedder.model)?.beliefId).toBe('b-patient');
  });

  it('given two beliefs with the same vector when aligned then the smaller id wins, so a replay aligns the same', () => {
    const twins = [belief('b-2', 'i am a patient person'), belief('b-1', 'i am a patient person')];
    expect(alignTag(vec('you are so patient'), twins, embedder.model)?.beliefId).toBe('b-1');
  });

  it('given a deprecated belief then it can still be named (a +keep may bring it back)', () => {
    expect(alignTag(vec('you are so patient'), [belief('b-p', 'i am a patient person', { level: TRUST_CONFIG.levels.min })], embedder.model)?.beliefId).toBe('b-p');
  });
});

describe('cosine', () => {
  it('is 0 for empty, zero or mismatched vectors, and the cosine otherwise', () => {
    expect(cosine([], [])).toBe(0);
    expect(cosine([0, 0], [1, 0])).toBe(0);
    expect(cosine([1, 0], [1, 0, 0])).toBe(0);
    expect(cosine([1, 0], [2, 0])).toBeCloseTo(1, 12);
    expect(cosine([1, 0], [-1, 0])).toBeCloseTo(-1, 12);
    expect(cosine([1, 1], [1, 0])).toBeCloseTo(Math.SQRT1_2, 12);
  });
});
