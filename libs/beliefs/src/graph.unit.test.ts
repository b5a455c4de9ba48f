import { InMemoryBeliefGraph } from './graph.js';

const T0 = new Date('2025-03-01T09:00:00Z');
const day = (n: number) => new Date(T0.getTime() + n * 86_400_000);

describe('InMemoryBeliefGraph (the spec examples end to end)', () => {
  let g: InMemoryBeliefGraph;
  let n = 0;
  const say = (text: string, holder: 'user' | 'companion' = 'user', at = day(0)) => g.add({ text, holder, conversationId: 'conv-1', at, sourceId: `m${++n}` });
  beforeEach(() => {
    g = new InMemoryBeliefGraph();
    n = 0;
  });

  it('"i am patient" affirmed then denied is a contradiction', () => {
    say('I am patient.');
    say("I'm not patient.");
    expect(g.conflictsOf('user')).toEqual([expect.objectContaining({ conflictType: 'contradiction', detectionMethod: 'polarity_flip' })]);
  });

  it('"i love mornings" vs "i hate mornings" is a contradiction of "i like mornings" (affirmative-form design)', () => {
    say('I love mornings.');
    say('I hate mornings.');
    const nodes = g.nodesOf('user');
    expect(nodes.map((x) => [x.canonicalText, x.polarity])).toEqual([
      ['i like mornings', 'affirm'],
      ['i like mornings', 'deny'],
    ]);
    expect(g.conflictsOf('user')).toEqual([expect.objectContaining({ conflictType: 'contradiction' })]);
  });

  it('"i am really patient" vs "i am not patient at all" is a contradiction: degree words leave the atom', () => {
    say('I am really patient');
    say('I am not patient at all');
    expect(g.conflictsOf('user').map((c) => c.conflictType)).toEqual(['contradiction']);
  });

  it('an opposite-polarity near-paraphrase is a tension', () => {
    say('I am a patient person');
    say('I am not patient');
    const [c] = g.conflictsOf('user');
    expect(c).toEqual(expect.objectContaining({ conflictType: 'tension', detectionMethod: 'semantic_opposition' }));
    expect(c!.similarity).toBeGreaterThan(0.88);
  });

  it('two momentary states never conflict', () => {
    say('I feel happy right now');
    say("I don't feel happy right now", 'user', day(1));
    expect(g.nodesOf('user')).toHaveLength(2);
    expect(g.conflictsOf('user')).toEqual([]);
  });

  it('a momentary state against a habit does conflict', () => {
    say('I always feel happy');
    say("I don't feel happy right now", 'user', day(1));
    expect(g.conflictsOf('user')).toHaveLength(1);
  });

  it('a repeated belief adds occurrences to one node, one per source (§9.2)', () => {
    say('I am patient.', 'user', day(0));
    say('I am patient. I am really patient!', 'user', day(3));
    const [node] = g.nodesOf('user');
    expect(g.nodesOf('user')).toHaveLength(1);
    expect(g.occurrencesOf(node!.beliefId).map((o) => [o.sourceId, o.at.toISOString()])).toEqual([
      ['m1', day(0).toISOString()],
      ['m2', day(3).toISOString()],
    ]);
  });

  it('keeps holders apart', () => {
    say('I am patient', 'companion');
    say('I am not patient', 'user');
    expect(g.conflictsOf('user')).toEqual([]);
    expect(g.conflictsOf('companion')).toEqual([]);
    expect(g.nodesOf('companion')).toHaveLength(1);
  });

  it('flags a chit-chat bot contradicting itself', () => {
    say('i have two cats. what about you?', 'companion');
    say('i love hiking', 'companion');
    say("i don't have any cats. i am allergic.", 'companion');
    expect(g.conflictsOf('companion')).toEqual([expect.objectContaining({ conflictType: 'contradiction' })]);
  });

  it('stores conflict pairs ordered and link pairs ordered (§9.3)', () => {
    say('I am patient');
    say('I am not patient');
    for (const c of g.conflictsOf('user')) expect(c.nodeAId < c.nodeBId).toBe(true);
    for (const l of g.linksOf()) expect(l.fromBeliefId < l.toBeliefId).toBe(true);
  });
});
