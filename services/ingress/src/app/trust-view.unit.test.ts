import { trust } from '@hearth/proto';
import { trustView } from './trust-view.js';

const BELIEF = '00000000-0000-4000-8000-0000000000b1';
const DECISION = '00000000-0000-4000-8000-0000000000d1';
const OUTCOME_SHORT = '00000000-0000-4000-8000-0000000000e1';
const OUTCOME_LONG = '00000000-0000-4000-8000-0000000000e2';

/**
 * One user's trust state: the user's T after two updates, the agent's never
 * updated; a decision judged at both horizons; a counted +keep, a duplicate of
 * it and a +doubt that aligned with nothing. The fields API.md leaves out are
 * set, so the test sees they stay out.
 */
function response(): trust.GetTrustResponse {
  return trust.GetTrustResponse.fromPartial({
    actors: [
      { actor: 'user', trust: 0.5361, updates: 2, updatedAt: new Date('2026-11-20T12:00:00Z') },
      { actor: 'agent', trust: 0.5, updates: 0 },
    ],
    outcomes: [
      {
        outcomeId: OUTCOME_SHORT,
        horizon: '2h',
        reward: 0.42,
        components: { coherence: 0.5, confidence: 0, stability: 1, validation: 0.35 },
        evaluatedAt: new Date('2026-11-20T12:00:00Z'),
        decisionId: DECISION,
        beliefId: BELIEF,
      },
      {
        outcomeId: OUTCOME_LONG,
        horizon: '24h',
        reward: -0.12,
        components: { coherence: -0.3, confidence: -0.2, stability: 0, validation: 0 },
        evaluatedAt: new Date('2026-11-21T10:00:00.250Z'),
        decisionId: DECISION,
        beliefId: BELIEF,
      },
    ],
    feedback: [
      { tag: '+keep', actor: 'user', beliefId: BELIEF, weight: 0.81, applied: true, reason: 'counted', createdAt: new Date('2026-11-20T10:00:00Z') },
      { tag: '+keep', actor: 'user', beliefId: BELIEF, weight: 0.8, applied: false, reason: 'duplicate', createdAt: new Date('2026-11-20T10:01:00Z') },
      { tag: '+doubt', actor: 'agent', beliefId: '', weight: 0, applied: false, reason: 'no_belief', createdAt: new Date('2026-11-20T10:01:00Z') },
    ],
  });
}

describe('trustView', () => {
  it("shows actors, outcomes and feedback in API.md's snake_case shape, timestamps as ISO", () => {
    // when
    const view = trustView(response());

    // then
    expect(view).toEqual({
      actors: [
        { actor: 'user', trust: 0.5361, updates: 2, updated_at: '2026-11-20T12:00:00.000Z' },
        { actor: 'agent', trust: 0.5, updates: 0, updated_at: null },
      ],
      outcomes: [
        { outcome_id: OUTCOME_SHORT, horizon: '2h', reward: 0.42, components: { coherence: 0.5, confidence: 0, stability: 1, validation: 0.35 }, evaluated_at: '2026-11-20T12:00:00.000Z' },
        { outcome_id: OUTCOME_LONG, horizon: '24h', reward: -0.12, components: { coherence: -0.3, confidence: -0.2, stability: 0, validation: 0 }, evaluated_at: '2026-11-21T10:00:00.250Z' },
      ],
      feedback: [
        { tag: '+keep', actor: 'user', belief_id: BELIEF, weight: 0.81, applied: true, reason: 'counted', created_at: '2026-11-20T10:00:00.000Z' },
        { tag: '+keep', actor: 'user', belief_id: BELIEF, weight: 0.8, applied: false, reason: 'duplicate', created_at: '2026-11-20T10:01:00.000Z' },
        { tag: '+doubt', actor: 'agent', belief_id: null, weight: 0, applied: false, reason: 'no_belief', created_at: '2026-11-20T10:01:00.000Z' },
      ],
    });
  });

  it('keeps the field names and their order exactly as API.md lists them, and nothing more', () => {
    const view = trustView(response());

    expect(Object.keys(view)).toEqual(['actors', 'outcomes', 'feedback']);
    expect(Object.keys(view.actors[0]!)).toEqual(['actor', 'trust', 'updates', 'updated_at']);
    expect(Object.keys(view.outcomes[0]!)).toEqual(['outcome_id', 'horizon', 'reward', 'components', 'evaluated_at']);
    expect(Object.keys(view.outcomes[0]!.components)).toEqual(['coherence', 'confidence', 'stability', 'validation']);
    expect(Object.keys(view.feedback[0]!)).toEqual(['tag', 'actor', 'belief_id', 'weight', 'applied', 'reason', 'created_at']);
    // The decision and belief of an outcome stay with the service.
    expect(JSON.stringify(view.outcomes)).not.toContain(DECISION);
    expect(JSON.stringify(view.outcomes)).not.toContain(BELIEF);
  });

  it('shows a user with no trust state yet as empty lists', () => {
    expect(trustView(trust.GetTrustResponse.fromPartial({}))).toEqual({ actors: [], outcomes: [], feedback: [] });
  });

  it('survives the wire: what the service encodes is what the view shows', () => {
    const decoded = trust.GetTrustResponse.decode(trust.GetTrustResponse.encode(response()).finish());

    expect(trustView(decoded)).toEqual(trustView(response()));
  });

  it('shows components and times the answer lacks as zeros and empty strings rather than failing', () => {
    const view = trustView(trust.GetTrustResponse.fromPartial({ outcomes: [{ outcomeId: OUTCOME_SHORT, horizon: '2h' }], feedback: [{ tag: '+keep' }] }));

    expect(view.outcomes[0]).toEqual({ outcome_id: OUTCOME_SHORT, horizon: '2h', reward: 0, components: { coherence: 0, confidence: 0, stability: 0, validation: 0 }, evaluated_at: '' });
    expect(view.feedback[0]).toMatchObject({ belief_id: null, created_at: '' });
  });
});
