import { BELIEF_CONFIG, embeddingTextOf } from '@hearth/beliefs';
import { createLocalEmbedder } from '@hearth/llm';
import type { BeliefView, FeedbackEntry, TagCandidate } from '@hearth/trust';
import { LOCAL_EMBEDDING } from '../config.js';
import { decideTurn, type TurnInput } from './turn.js';

const local = createLocalEmbedder({ dimensions: BELIEF_CONFIG.embeddings.localDimensions, model: LOCAL_EMBEDDING.model });
const AT = new Date('2026-11-01T09:00:00Z');
const HOUR = 3_600_000;

function held(beliefId: string, text: string, opts: Partial<BeliefView> = {}): BeliefView {
  return { beliefId, canonicalText: text, embedding: local.embedSync(embeddingTextOf(text)), embeddingModel: local.model, stream: 'identity', activation: 0.6, confidence: 0.6, seeded: true, level: 0, openConflicts: 0, ...opts };
}

const PATIENT = held('b-patient', 'i am a patient person', { openConflicts: 2 });
const PUNS = held('b-puns', 'i love bad puns');

function input(candidates: TagCandidate[], opts: Partial<TurnInput> = {}): TurnInput {
  return {
    at: AT,
    messageId: 'm1',
    assistantMessageId: 'a1',
    candidates,
    vectors: candidates.map((c) => local.embedSync(embeddingTextOf(c.text))),
    model: local.model,
    beliefs: [PATIENT, PUNS],
    history: [],
    trust: { user: 0.5, agent: 0.5 },
    tagId: (i) => `t${i}`,
    decisionId: (b) => `d-${b}`,
    ...opts,
  };
}

const userKeep: TagCandidate = { tag: '+keep', actor: 'user', cue: 'really are', text: 'You really are so patient with me.' };
const agentKeep: TagCandidate = { tag: '+keep', actor: 'agent', cue: 'i really am', text: 'I really am a patient person, that is who I am.' };

describe('decideTurn (a turn through the aggregator and the gardener)', () => {
  it('given a user and an agent +keep on a held belief, when decided, then both count and the belief is promoted with its outcomes due at 2 h and 24 h', () => {
    const d = decideTurn(input([userKeep, agentKeep]));
    expect(d.tags.map((t) => [t.feedbackId, t.actor, t.beliefId, t.reason, t.sourceMessageId])).toEqual([
      ['t0', 'user', 'b-patient', 'counted', 'm1'],
      ['t1', 'agent', 'b-patient', 'counted', 'a1'],
    ]);
    expect(d.tags.every((t) => t.weight > 0 && t.weighting.gTrust === 1)).toBe(true);
    expect(d.decisions).toHaveLength(1);
    expect(d.decisions[0]).toMatchObject({ decisionId: 'd-b-patient', beliefId: 'b-patient', verdict: { action: 'promote' }, conflicts: 2, confidence: 0.6 });
    expect(d.decisions[0]!.shortDueAt).toEqual(new Date(AT.getTime() + 2 * HOUR));
    expect(d.decisions[0]!.longDueAt).toEqual(new Date(AT.getTime() + 24 * HOUR));
  });

  it('given the same tag twice in one turn, then the second is a duplicate of the first', () => {
    const d = decideTurn(input([userKeep, { ...userKeep, text: 'You really are so patient with me, truly.' }]));
    expect(d.tags.map((t) => [t.reason, t.applied])).toEqual([
      ['counted', true],
      ['duplicate', false],
    ]);
  });

  it('given a hold, then the decision is recorded with no due times', () => {
    const d = decideTurn(input([userKeep]));
    expect(d.decisions).toHaveLength(1);
    expect(d.decisions[0]).toMatchObject({ verdict: { action: 'hold' }, shortDueAt: null, longDueAt: null });
  });

  it('given a counted +keep 60 s earlier in the history, then the same +keep now is a duplicate and nothing is decided', () => {
    const earlier: FeedbackEntry = { feedbackId: 'old', tag: '+keep', actor: 'user', beliefId: 'b-patient', alignment: 0.6, weight: 0.7, applied: true, reason: 'counted', at: new Date(AT.getTime() - 60_000) };
    const d = decideTurn(input([userKeep], { history: [earlier] }));
    expect(d.tags[0]).toMatchObject({ reason: 'duplicate', applied: false });
    expect(d.decisions).toEqual([]);
  });

  it('given no companion beliefs, then every tag is no_belief with weight 0 and nothing is decided', () => {
    const d = decideTurn(input([userKeep, agentKeep], { beliefs: [] }));
    expect(d.tags.map((t) => [t.beliefId, t.reason, t.weight])).toEqual([
      ['', 'no_belief', 0],
      ['', 'no_belief', 0],
    ]);
    expect(d.decisions).toEqual([]);
    expect(d.coherence).toBe(0);
  });

  it('given beliefs embedded by another model, then no tag aligns with them', () => {
    const other = { ...PATIENT, embeddingModel: 'text-embedding-3-small' };
    const d = decideTurn(input([userKeep], { beliefs: [other] }));
    expect(d.tags[0]).toMatchObject({ beliefId: '', reason: 'no_belief' });
  });

  it('given a higher T_user, then the same tag weighs more (g_trust = 0.5 + T)', () => {
    const low = decideTurn(input([userKeep], { trust: { user: 0.2, agent: 0.5 } })).tags[0]!;
    const high = decideTurn(input([userKeep], { trust: { user: 0.9, agent: 0.5 } })).tags[0]!;
    expect(high.weighting.gTrust).toBeCloseTo(1.4);
    expect(low.weighting.gTrust).toBeCloseTo(0.7);
    expect(high.weight).toBeGreaterThan(low.weight);
  });
});
