import { uncertainty } from '@hearth/proto';
import { uncertaintiesView } from './uncertainties-view.js';

const MEM_A = '00000000-0000-4000-8000-0000000000a1';
const MEM_B = '00000000-0000-4000-8000-0000000000a2';
const BELIEF = '00000000-0000-4000-8000-0000000000b1';
const MSG_1 = '00000000-0000-4000-8000-0000000000f1';
const MSG_2 = '00000000-0000-4000-8000-0000000000f2';
const U_OPEN = '00000000-0000-4000-8000-0000000000c1';
const U_RESOLVED = '00000000-0000-4000-8000-0000000000c2';
const U_SOLO = '00000000-0000-4000-8000-0000000000c3';

/**
 * Three uncertainties of one user: an open contradiction between two facts, a
 * temporal change resolved silently, and a solo (stale) one about a belief; the
 * fields API.md leaves out are set, so the test sees they stay out.
 */
function response(): uncertainty.GetUncertaintiesResponse {
  return uncertainty.GetUncertaintiesResponse.fromPartial({
    tolerance: 0.47,
    uncertainties: [
      {
        uncertaintyId: U_OPEN,
        uncertaintyType: 'contradiction',
        subjects: [
          { kind: 'memory', id: MEM_A, store: 'trait', memoryKey: 'fact:pet', value: 'a grey rabbit', confidence: 0.75, source: 'explicit', sourceMessageId: MSG_1, statements: 2 },
          { kind: 'memory', id: MEM_B, store: 'trait', memoryKey: 'fact:pet', value: 'a parrot', confidence: 0.75, source: 'explicit', sourceMessageId: MSG_2, statements: 1 },
        ],
        severity: 'critical',
        state: 'surfaced',
        detectionContext: 'ingestion',
        temporalSignal: false,
        resolutionStrategy: '',
        surfacedCount: 1,
        sourceMessageIds: [MSG_1, MSG_2],
        createdAt: new Date('2026-11-10T08:30:00Z'),
        reasoning: 'both cannot hold',
        surfaceContext: 'when pets come up',
        lastSurfacedAt: new Date('2026-11-11T09:00:00Z'),
      },
      {
        uncertaintyId: U_RESOLVED,
        uncertaintyType: 'contradiction',
        subjects: [
          { kind: 'memory', id: MEM_A, store: 'trait' },
          { kind: 'memory', id: '', store: 'trait', memoryKey: 'fact:current_city', value: 'lisbon', sourceMessageId: MSG_2 },
        ],
        severity: 'critical',
        state: 'resolved',
        detectionContext: 'ingestion',
        temporalSignal: true,
        resolutionStrategy: 'temporal_supersede',
        surfacedCount: 0,
        sourceMessageIds: [MSG_2],
        createdAt: new Date('2026-11-12T19:00:00Z'),
        resolvedAt: new Date('2026-11-12T19:00:00.250Z'),
        resolutionDetail: 'moved',
      },
      {
        uncertaintyId: U_SOLO,
        uncertaintyType: 'stale',
        subjects: [{ kind: 'belief', id: BELIEF, store: 'concept' }],
        severity: 'low',
        state: 'open',
        detectionContext: 'drift',
        temporalSignal: false,
        resolutionStrategy: '',
        surfacedCount: 0,
        sourceMessageIds: [],
        createdAt: new Date('2026-11-20T00:00:00Z'),
      },
    ],
  });
}

describe('uncertaintiesView', () => {
  it("shows every uncertainty in API.md's snake_case shape, timestamps as ISO, the tolerance beside them", () => {
    // when
    const view = uncertaintiesView(response());

    // then
    expect(view).toEqual({
      uncertainties: [
        {
          uncertainty_id: U_OPEN,
          uncertainty_type: 'contradiction',
          subjects: [
            { kind: 'memory', id: MEM_A },
            { kind: 'memory', id: MEM_B },
          ],
          severity: 'critical',
          state: 'surfaced',
          detection_context: 'ingestion',
          temporal_signal: false,
          resolution_strategy: null,
          surfaced_count: 1,
          source_message_ids: [MSG_1, MSG_2],
          created_at: '2026-11-10T08:30:00.000Z',
          resolved_at: null,
        },
        {
          uncertainty_id: U_RESOLVED,
          uncertainty_type: 'contradiction',
          subjects: [{ kind: 'memory', id: MEM_A }],
          severity: 'critical',
          state: 'resolved',
          detection_context: 'ingestion',
          temporal_signal: true,
          resolution_strategy: 'temporal_supersede',
          surfaced_count: 0,
          source_message_ids: [MSG_2],
          created_at: '2026-11-12T19:00:00.000Z',
          resolved_at: '2026-11-12T19:00:00.250Z',
        },
        {
          uncertainty_id: U_SOLO,
          uncertainty_type: 'stale',
          subjects: [{ kind: 'belief', id: BELIEF }],
          severity: 'low',
          state: 'open',
          detection_context: 'drift',
          temporal_signal: false,
          resolution_strategy: null,
          surfaced_count: 0,
          source_message_ids: [],
          created_at: '2026-11-20T00:00:00.000Z',
          resolved_at: null,
        },
      ],
      tolerance: 0.47,
    });
  });

  it('keeps the field names and their order exactly as API.md lists them, and nothing more', () => {
    const view = uncertaintiesView(response());

    expect(Object.keys(view)).toEqual(['uncertainties', 'tolerance']);
    expect(Object.keys(view.uncertainties[0]!)).toEqual([
      'uncertainty_id',
      'uncertainty_type',
      'subjects',
      'severity',
      'state',
      'detection_context',
      'temporal_signal',
      'resolution_strategy',
      'surfaced_count',
      'source_message_ids',
      'created_at',
      'resolved_at',
    ]);
    expect(Object.keys(view.uncertainties[0]!.subjects[0]!)).toEqual(['kind', 'id']);
    // The reasoning, surfacing context and values stay with the service.
    expect(JSON.stringify(view)).not.toMatch(/both cannot hold|when pets come up|grey rabbit|lisbon|moved/);
  });

  it('leaves out a subject whose memory is not written yet (empty id)', () => {
    const view = uncertaintiesView(
      uncertainty.GetUncertaintiesResponse.fromPartial({
        uncertainties: [{ uncertaintyId: U_OPEN, subjects: [{ kind: 'memory', id: '' }], createdAt: new Date(0) }],
      }),
    );

    expect(view.uncertainties[0]!.subjects).toEqual([]);
  });

  it('shows a user with no uncertainties as an empty list and the tolerance', () => {
    expect(uncertaintiesView(uncertainty.GetUncertaintiesResponse.fromPartial({ tolerance: 0.5 }))).toEqual({ uncertainties: [], tolerance: 0.5 });
  });

  it('survives the wire: what the service encodes is what the view shows', () => {
    const decoded = uncertainty.GetUncertaintiesResponse.decode(uncertainty.GetUncertaintiesResponse.encode(response()).finish());

    expect(uncertaintiesView(decoded)).toEqual(uncertaintiesView(response()));
  });

  it('shows a created_at the answer lacks as an empty string rather than failing', () => {
    const view = uncertaintiesView(uncertainty.GetUncertaintiesResponse.fromPartial({ uncertainties: [{ uncertaintyId: U_SOLO }] }));

    expect(view.uncertainties[0]).toMatchObject({ created_at: '', resolved_at: null, resolution_strategy: null });
  });

  it('does not share arrays with the answer it maps', () => {
    const r = response();
    const view = uncertaintiesView(r);
    view.uncertainties[0]!.source_message_ids.push('x');

    expect(r.uncertainties[0]!.sourceMessageIds).toEqual([MSG_1, MSG_2]);
  });
});
