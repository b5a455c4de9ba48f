import { createLocalEmbedder } from '@hearth/llm';
import { BELIEF_CONFIG } from './config.js';
import { decompose } from './decompose.js';
import { stepGraph } from './step.js';
import type { NodeView, PreparedAtom } from './types.js';

const embedder = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: 'hearth-local' });
const atomsOf = (text: string) => decompose({ text, conversationId: 'c', holder: 'user' }).atoms;
const vecs = (atoms: readonly PreparedAtom[]) => atoms.map((a) => embedder.embedSync(a.embeddingText));
const ids = (prefix: string) => (i: number) => `${prefix}${i}`;
const at = (cos: number) => [cos, Math.sqrt(1 - cos * cos), 0];
const nodeFrom = (id: string, a: PreparedAtom, vector: number[]): NodeView => ({
  beliefId: id, canonicalText: a.canonicalText, canonicalHash: a.canonicalHash, polarity: a.polarity, beliefType: a.beliefType,
  temporalScope: a.epistemics.frame.temporalScope, stream: a.stream.primary, vector,
});

describe('stepGraph (phases 8–11)', () => {
  it('creates a node per new belief and finds a contradiction within one source', () => {
    const atoms = atomsOf("I'm patient. Honestly I'm not patient at all.");
    const step = stepGraph({ atoms, vectors: vecs(atoms), nodes: [], newId: ids('n') });
    expect(step.atoms.map((d) => [d.beliefId, d.created, d.resolution.outcome])).toEqual([
      ['n0', true, 'no_match'],
      ['n1', true, 'no_match'],
    ]);
    expect(step.conflicts).toEqual([expect.objectContaining({ nodeAId: 'n0', nodeBId: 'n1', conflictType: 'contradiction', detectionMethod: 'polarity_flip' })]);
  });

  it('joins a repeated belief to the existing node and adds no new conflict', () => {
    const [first] = atomsOf('I am patient');
    const [deny] = atomsOf('I am not patient');
    const nodes = [nodeFrom('a', first!, embedder.embedSync(first!.embeddingText)), nodeFrom('b', deny!, embedder.embedSync(deny!.embeddingText))];
    const atoms = atomsOf('I am really patient');
    const step = stepGraph({ atoms, vectors: vecs(atoms), nodes, newId: ids('n') });
    expect(step.atoms[0]).toEqual(expect.objectContaining({ beliefId: 'a', created: false }));
    expect(step.atoms[0]!.resolution.matchConfidence).toBe(1);
    expect(step.conflicts).toEqual([]);
  });

  it('keeps one node per (hash, polarity) within a step (§9.1)', () => {
    const [atom] = atomsOf('I am patient');
    const twin: PreparedAtom = { ...atom!, beliefType: 'BELIEF_ABOUT_SELF' };
    const step = stepGraph({ atoms: [atom!, twin], vectors: vecs([atom!, twin]), nodes: [], newId: ids('n') });
    expect(step.atoms.map((d) => d.beliefId)).toEqual(['n0', 'n0']);
    expect(step.atoms.map((d) => d.created)).toEqual([true, false]);
  });

  describe('the verifier band', () => {
    const [atom] = atomsOf('I am calm');
    const existing = { ...nodeFrom('m', atom!, at(0.8)), canonicalHash: 'other' };
    const run = (verdict?: 'same' | 'different' | 'failed') =>
      stepGraph({ atoms: [atom!], vectors: [[1, 0, 0]], nodes: [existing], newId: ids('n'), ...(verdict ? { verdicts: new Map([[0, verdict]]) } : {}) });

    it('creates a node and a both-link, ordered, when uncertain', () => {
      const step = run();
      expect(step.atoms[0]).toEqual(expect.objectContaining({ beliefId: 'n0', created: true, verifier: '' }));
      expect(step.atoms[0]!.resolution.outcome).toBe('uncertain');
      expect(step.links).toEqual([expect.objectContaining({ fromBeliefId: 'm', toBeliefId: 'n0', support: 'both' })]);
    });
    it('upgrades to a match on "same"', () => {
      const step = run('same');
      expect(step.atoms[0]).toEqual(expect.objectContaining({ beliefId: 'm', created: false, verifier: 'same' }));
      expect(step.links).toEqual([]);
    });
    it('downgrades to no_match on "different", with no link', () => {
      const step = run('different');
      expect(step.atoms[0]).toEqual(expect.objectContaining({ beliefId: 'n0', created: true, verifier: 'different' }));
      expect(step.atoms[0]!.resolution.outcome).toBe('no_match');
      expect(step.links).toEqual([]);
    });
    it('stays uncertain on "failed"', () => {
      expect(run('failed').links).toEqual([expect.objectContaining({ support: 'both', reason: 'uncertain match, verifier failed' })]);
    });
  });

  it('gives a pending link a one-sided support when a definite match hits one side', () => {
    const [atom] = atomsOf('I am calm');
    const node = nodeFrom('z', atom!, embedder.embedSync(atom!.embeddingText));
    const step = stepGraph({ atoms: [atom!], vectors: vecs([atom!]), nodes: [node], links: [{ fromBeliefId: 'z', toBeliefId: 'q' }, { fromBeliefId: 'x', toBeliefId: 'y' }], newId: ids('n') });
    expect(step.links).toEqual([expect.objectContaining({ fromBeliefId: 'q', toBeliefId: 'z', support: 'one' })]);
  });

  it('is deterministic', () => {
    const atoms = atomsOf('I love mornings. I hate mornings. I am kind.');
    const a = stepGraph({ atoms, vectors: vecs(atoms), nodes: [], newId: ids('n') });
    const b = stepGraph({ atoms, vectors: vecs(atoms), nodes: [], newId: ids('n') });
    expect(a).toEqual(b);
  });
});
