import { belief } from '@hearth/proto';
import { beliefGraphView, BELIEF_HOLDERS, exportBeliefsView } from './beliefs-view.js';

const NODE_A = '00000000-0000-4000-8000-0000000000a1';
const NODE_B = '00000000-0000-4000-8000-0000000000a2';
const NODE_C = '00000000-0000-4000-8000-0000000000a3';
const MSG_1 = '00000000-0000-4000-8000-0000000000f1';
const MSG_2 = '00000000-0000-4000-8000-0000000000f2';
const MSG_3 = '00000000-0000-4000-8000-0000000000f3';

/** A graph of two user beliefs in contradiction, a companion belief, a pending link and a challenge. */
function response(): belief.GetBeliefsResponse {
  return belief.GetBeliefsResponse.fromPartial({
    nodes: [
      {
        beliefId: NODE_A,
        holder: 'user',
        canonicalText: 'i am bad at keeping plants alive',
        beliefType: 'TRAIT',
        polarity: 'affirm',
        stream: 'identity',
        status: 'developing',
        confidence: 0.55,
        activation: 0.8125,
        coreScore: 0.4,
        occurrenceCount: 3,
        sourceMessageIds: [MSG_1, MSG_2],
        createdAt: new Date('2026-11-10T08:30:00Z'),
      },
      {
        beliefId: NODE_B,
        holder: 'user',
        canonicalText: 'i am bad at keeping plants alive',
        beliefType: 'TRAIT',
        polarity: 'deny',
        stream: 'identity',
        status: 'surface',
        confidence: 0.3,
        activation: 1,
        coreScore: 0,
        occurrenceCount: 1,
        sourceMessageIds: [MSG_3],
        createdAt: new Date('2026-11-12T19:00:00Z'),
      },
      {
        beliefId: NODE_C,
        holder: 'companion',
        canonicalText: 'i love early morning walks',
        beliefType: 'PREFERENCE',
        polarity: 'affirm',
        stream: 'identity',
        status: 'core',
        confidence: 0.9,
        activation: 0.5,
        coreScore: 0.85,
        occurrenceCount: 7,
        sourceMessageIds: [],
        createdAt: new Date('2026-11-01T00:00:00Z'),
      },
    ],
    links: [{ linkId: 'l1', fromBeliefId: NODE_A, toBeliefId: NODE_B, confidence: 0.72, state: 'pending' }],
    conflicts: [
      {
        conflictId: 'k1',
        beliefIds: [NODE_A, NODE_B],
        conflictType: 'contradiction',
        sourceMessageIds: [MSG_2, MSG_3],
        createdAt: new Date('2026-11-12T19:00:01Z'),
      },
    ],
    challenges: [{ challengeId: 'ch1', beliefId: NODE_A, style: 'curious', messageId: MSG_3, createdAt: new Date('2026-11-20T10:15:00Z') }],
  });
}

describe('beliefGraphView', () => {
  it('shows every part of the graph in the snake_case shape of API.md, timestamps as ISO', () => {
    // when
    const view = beliefGraphView(response());

    // then
    expect(view).toEqual({
      nodes: [
        {
          belief_id: NODE_A,
          holder: 'user',
          canonical_text: 'i am bad at keeping plants alive',
          belief_type: 'TRAIT',
          polarity: 'affirm',
          stream: 'identity',
          status: 'developing',
          confidence: 0.55,
          activation: 0.8125,
          core_score: 0.4,
          occurrence_count: 3,
          source_message_ids: [MSG_1, MSG_2],
          created_at: '2026-11-10T08:30:00.000Z',
        },
        {
          belief_id: NODE_B,
          holder: 'user',
          canonical_text: 'i am bad at keeping plants alive',
          belief_type: 'TRAIT',
          polarity: 'deny',
          stream: 'identity',
          status: 'surface',
          confidence: 0.3,
          activation: 1,
          core_score: 0,
          occurrence_count: 1,
          source_message_ids: [MSG_3],
          created_at: '2026-11-12T19:00:00.000Z',
        },
        {
          belief_id: NODE_C,
          holder: 'companion',
          canonical_text: 'i love early morning walks',
          belief_type: 'PREFERENCE',
          polarity: 'affirm',
          stream: 'identity',
          status: 'core',
          confidence: 0.9,
          activation: 0.5,
          core_score: 0.85,
          occurrence_count: 7,
          source_message_ids: [],
          created_at: '2026-11-01T00:00:00.000Z',
        },
      ],
      links: [{ link_id: 'l1', from_belief_id: NODE_A, to_belief_id: NODE_B, confidence: 0.72, state: 'pending' }],
      conflicts: [
        {
          conflict_id: 'k1',
          belief_ids: [NODE_A, NODE_B],
          conflict_type: 'contradiction',
          source_message_ids: [MSG_2, MSG_3],
          created_at: '2026-11-12T19:00:01.000Z',
        },
      ],
      challenges: [{ challenge_id: 'ch1', belief_id: NODE_A, style: 'curious', message_id: MSG_3, created_at: '2026-11-20T10:15:00.000Z' }],
    });
  });

  it('keeps the field names and their order exactly as API.md lists them', () => {
    const view = beliefGraphView(response());

    expect(Object.keys(view)).toEqual(['nodes', 'links', 'conflicts', 'challenges']);
    expect(Object.keys(view.nodes[0]!)).toEqual([
      'belief_id',
      'holder',
      'canonical_text',
      'belief_type',
      'polarity',
      'stream',
      'status',
      'confidence',
      'activation',
      'core_score',
      'occurrence_count',
      'source_message_ids',
      'created_at',
    ]);
    expect(Object.keys(view.links[0]!)).toEqual(['link_id', 'from_belief_id', 'to_belief_id', 'confidence', 'state']);
    expect(Object.keys(view.conflicts[0]!)).toEqual(['conflict_id', 'belief_ids', 'conflict_type', 'source_message_ids', 'created_at']);
    expect(Object.keys(view.challenges[0]!)).toEqual(['challenge_id', 'belief_id', 'style', 'message_id', 'created_at']);
  });

  it('shows an empty graph (a user the belief graph knows nothing of) as four empty lists', () => {
    expect(beliefGraphView(belief.GetBeliefsResponse.fromPartial({}))).toEqual({ nodes: [], links: [], conflicts: [], challenges: [] });
  });

  it('survives the wire: what the graph encodes is what the view shows', () => {
    const decoded = belief.GetBeliefsResponse.decode(belief.GetBeliefsResponse.encode(response()).finish());

    expect(beliefGraphView(decoded)).toEqual(beliefGraphView(response()));
  });

  it('shows a timestamp the answer lacks as an empty string rather than failing', () => {
    const view = beliefGraphView(belief.GetBeliefsResponse.fromPartial({ challenges: [{ challengeId: 'ch2', beliefId: NODE_A, style: 'gentle', messageId: MSG_1 }] }));

    expect(view.challenges).toEqual([{ challenge_id: 'ch2', belief_id: NODE_A, style: 'gentle', message_id: MSG_1, created_at: '' }]);
  });

  it('does not share arrays with the answer it maps', () => {
    const r = response();
    const view = beliefGraphView(r);
    view.nodes[0]!.source_message_ids.push('x');
    view.conflicts[0]!.belief_ids.pop();

    expect(r.nodes[0]!.sourceMessageIds).toEqual([MSG_1, MSG_2]);
    expect(r.conflicts[0]!.beliefIds).toEqual([NODE_A, NODE_B]);
  });
});

describe('exportBeliefsView', () => {
  it('is the admin view without links: nodes, conflicts and challenges, in that order', () => {
    const full = beliefGraphView(response());

    const exported = exportBeliefsView(response());

    expect(Object.keys(exported)).toEqual(['nodes', 'conflicts', 'challenges']);
    expect(exported).toEqual({ nodes: full.nodes, conflicts: full.conflicts, challenges: full.challenges });
    expect(exported).not.toHaveProperty('links');
  });
});

describe('belief holders', () => {
  it('are user and companion', () => {
    expect(BELIEF_HOLDERS).toEqual(['user', 'companion']);
  });
});
