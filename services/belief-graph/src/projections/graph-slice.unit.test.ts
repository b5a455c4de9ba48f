import { activationOf, coreScoreOf, updateConfidence } from '@hearth/beliefs';
import { belief } from '@hearth/proto';
import { foldExtracted, occurrenceKey, pairKey, sliceQueryOf, type ExtractedEvent, type GraphSlice, type SliceNode, type SliceOccurrence } from './graph-slice.js';

const DAY = 86_400_000;
const T0 = new Date('2026-11-01T09:00:00Z');
const USER = '00000000-0000-4000-8000-000000000001';
const [A, B, C] = ['00000000-0000-4000-8000-00000000000a', '00000000-0000-4000-8000-00000000000b', '00000000-0000-4000-8000-00000000000c'];

const at = (days: number) => new Date(T0.getTime() + days * DAY);

function slice(over: Partial<GraphSlice> = {}): GraphSlice {
  return { nodes: new Map(), occurrences: new Map(), sourced: new Set(), reliability: new Map(), links: new Map(), conflictPairs: new Set(), recentConflicts: [], ...over };
}

const node = (over: Partial<SliceNode> = {}): SliceNode => ({ confidence: 0.5, createdAt: T0, deletedAt: null, stream: 'identity', migrationHistory: [], ...over });
const occurrence = (over: Partial<SliceOccurrence> = {}): SliceOccurrence => ({ sourceMessageId: 'm0', createdAt: T0, sourceWeight: 1, atomConfidence: 0.8, contextId: 'c0', ...over });

function atom(over: Partial<belief.ExtractedAtom>): belief.ExtractedAtom {
  return belief.ExtractedAtom.fromPartial({ occurrenceId: `o-${over.beliefId ?? ''}`, atomText: 'i am patient', canonicalText: 'i am patient', canonicalHash: 'h', beliefType: 'TRAIT', polarity: 'affirm', atomConfidence: 0.8, primaryStream: 'identity', ...over });
}

function extracted(days: number, value: Partial<belief.BeliefsExtracted>): ExtractedEvent {
  const x = belief.BeliefsExtracted.fromPartial({ holder: 'user', sourceMessageId: `m${days}`, sourceKind: 'user_message', sourceWeight: 1, contextId: `c${days}`, extractorVersion: 'v1', embeddingModel: 'e', ...value });
  return { x, userId: USER, at: at(days) };
}

describe('foldExtracted', () => {
  it('given nothing, when an atom creates a node and a second matches it, then one row is inserted, reinforced once, with one occurrence and its scores', () => {
    const w = foldExtracted(slice({ reliability: new Map([[pairKey(USER, A), 'uncertain']]) }), [extracted(0, { atoms: [atom({ beliefId: A, created: true }), atom({ beliefId: A, created: false, atomText: 'patient, me' })] })]);

    expect(w.nodeChanges).toEqual([]);
    expect(w.newNodes).toHaveLength(1);
    const occ = [{ at: T0, sourceWeight: 1, atomConfidence: 0.8, contextId: 'c0' }];
    expect(w.newNodes[0]).toMatchObject({
      belief_id: A,
      reliability: 'uncertain',
      raw_text: 'patient, me',
      confidence: updateConfidence(0.8, 'reinforced').confidence,
      activation: activationOf(occ, 'identity', T0),
      core_score: coreScoreOf(occ, 0, T0).coreScore,
    });
    expect(w.occurrences.map((o) => o.occurrence_id)).toEqual([`o-${A}`]);
    expect(w.sources).toEqual([expect.objectContaining({ source_message_id: 'm0', atoms: 2 })]);
  });

  it('given a node with evidence of this source already, when it is matched again, then it is reinforced without a second occurrence', () => {
    const s = slice({ nodes: new Map([[A, node()]]), occurrences: new Map([[A, [occurrence({ sourceMessageId: 'm1', createdAt: at(1) })]]]), sourced: new Set([occurrenceKey(A, 'm1', 'v1')]) });

    const w = foldExtracted(s, [extracted(1, { atoms: [atom({ beliefId: A })] })]);

    expect(w.occurrences).toEqual([]);
    expect(w.nodeChanges).toEqual([expect.objectContaining({ beliefId: A, confidence: 0.55, lastReinforcedAt: at(1), rawText: 'i am patient', conflictsAdded: 0 })]);
  });

  it('given an older node, when a new one conflicts with it twice in one event, then one conflict is recorded, counted on both, and only the older is contradicted', () => {
    const s = slice({ nodes: new Map([[A, node({ confidence: 0.6 })]]), occurrences: new Map([[A, [occurrence({ sourceMessageId: 'm0' })]]]) });
    const conflict = { conflictId: 'k', nodeAId: A, nodeBId: B, conflictType: 'contradiction', detectionMethod: 'polarity_flip', similarity: 1, occurrenceIds: [] };

    const w = foldExtracted(s, [extracted(2, { atoms: [atom({ beliefId: B, created: true, polarity: 'deny' })], conflicts: [conflict, conflict] })]);

    expect(w.conflicts).toEqual([expect.objectContaining({ conflict_id: 'k', source_message_ids: ['m0', 'm2'] })]);
    expect(w.nodeChanges).toEqual([expect.objectContaining({ beliefId: A, conflictsAdded: 1, confidence: updateConfidence(0.6, 'contradicted').confidence })]);
    expect(w.newNodes[0]).toMatchObject({ belief_id: B, conflict_count: 1, confidence: 0.8 });
  });

  it('given a pending link, when one event brings evidence for it twice, then it is written once with both signals and both counts', () => {
    const s = slice({ links: new Map([[pairKey(A, B), { linkId: 'l', supportBoth: 1, supportOne: 0, state: 'pending', createdAt: T0 }]]) });
    const evidence = { linkId: 'other', fromBeliefId: A, toBeliefId: B, similarity: 0.9, reason: 'r' };

    const w = foldExtracted(s, [extracted(1, { links: [{ ...evidence, support: 'both' }, { ...evidence, support: 'one' }] })]);

    expect(w.links).toHaveLength(1);
    expect(w.links[0]).toMatchObject({ link_id: 'l', support_both: 2, support_one: 1, created_at: T0, updated_at: at(1) });
    expect(JSON.parse(w.links[0]!.signals)).toEqual([expect.objectContaining({ support: 'both' }), expect.objectContaining({ support: 'one' })]);
  });

  it('given a run of events, when they are folded together, then each sees what the ones before it wrote', () => {
    const state = { primaryStream: 'state', canonicalHash: 's' };
    const run = [extracted(0, { atoms: [atom({ beliefId: C, created: true, ...state })] })];
    for (let d = 2; d <= 24; d += 2) run.push(extracted(d, { atoms: [atom({ beliefId: C, atomConfidence: 1 })] }));

    const w = foldExtracted(slice(), run);

    // §4.14: the state belief, said across weeks and contexts, migrated once; the ratchet keeps it.
    expect(w.newNodes).toHaveLength(1);
    expect(w.newNodes[0]).toMatchObject({ stream: 'identity', migrated_from: 'state', last_reinforced_at: at(24) });
    expect(JSON.parse(w.newNodes[0]!.migration_history)).toEqual([expect.objectContaining({ from: 'state', to: 'identity' })]);
    expect(w.occurrences).toHaveLength(13);
    expect(w.sources).toHaveLength(13);
  });

  it('reads, for a run, every id, created atom, occurrence key and pair once, and conflicts from the earliest window', () => {
    const q = sliceQueryOf([
      extracted(5, { atoms: [atom({ beliefId: A, created: true }), atom({ beliefId: A })], links: [{ linkId: 'l', fromBeliefId: A, toBeliefId: B, support: 'both', similarity: 1, reason: '' }] }),
      extracted(3, { sourceMessageId: 'm5', atoms: [atom({ beliefId: A })], conflicts: [{ conflictId: 'k', nodeAId: B, nodeBId: C, conflictType: '', detectionMethod: '', similarity: 1, occurrenceIds: [] }] }),
    ]);
    expect(q).toEqual({
      beliefIds: [A, B, C],
      created: [[USER, A]],
      occurrenceKeys: [[A, 'm5', 'v1']],
      linkPairs: [[A, B]],
      conflictPairs: [[B, C]],
      conflictsSince: new Date(at(3).getTime() - 30 * DAY),
    });
  });
});
