import type { DialoguePlan } from './decode-data.js';
import { EVAL_EPOCH, runDialogue, summarizeSet, TURN_GAP_MS, type AddInput, type AddOutcome, type CompanionGraph, type DialogueResult } from './decode-run.js';

/** A fake graph that records what it was fed and answers from a script keyed by text. */
function scripted(answers: Record<string, Partial<{ atoms: number; kinds: ('contradiction' | 'tension')[] }>>): CompanionGraph & { fed: AddInput[] } {
  const fed: AddInput[] = [];
  return {
    fed,
    add(input): AddOutcome {
      fed.push(input);
      const a = answers[input.text] ?? {};
      return { decomposition: { atoms: Array.from({ length: a.atoms ?? 1 }) }, step: { conflicts: (a.kinds ?? []).map((conflictType) => ({ conflictType })) } };
    },
  };
}

const plan = (over: Partial<DialoguePlan>): DialoguePlan => ({ set: 'human-bot', id: 'd1', companionAgent: '1', persona: [], turns: ['a', 'b'], label: true, ...over });

describe('runDialogue', () => {
  it('feeds persona lines first, then turns, each a minute later, as the companion', async () => {
    const g = scripted({});
    await runDialogue(plan({ set: 'rct', persona: ['p0'], turns: ['t0', 't1'] }), g);
    expect(g.fed.map((f) => [f.text, f.sourceId, f.at.getTime() - EVAL_EPOCH.getTime()])).toEqual([
      ['p0', 'd1:persona:0', 0],
      ['t0', 'd1:turn:0', TURN_GAP_MS],
      ['t1', 'd1:turn:1', 2 * TURN_GAP_MS],
    ]);
    expect(new Set(g.fed.map((f) => `${f.holder}/${f.conversationId}`))).toEqual(new Set(['companion/d1']));
  });

  it("judges only the last turn's conflicts, by kind", async () => {
    const g = scripted({ a: { kinds: ['tension'] }, b: { atoms: 2, kinds: ['contradiction', 'tension', 'tension'] } });
    let t = 0;
    const r = await runDialogue(plan({}), g, () => (t += 5));
    expect(r).toMatchObject({ statements: 2, lastAtoms: 2, lastContradictions: 1, lastTensions: 2, allConflicts: 4, ms: 5, msPerStatement: 2.5 });
  });
});

describe('summarizeSet', () => {
  const result = (label: boolean, lastContradictions: number, lastTensions: number, lastAtoms = 1, allConflicts = lastContradictions + lastTensions): DialogueResult => ({
    set: 'human-bot',
    id: 'x',
    label,
    statements: 4,
    lastAtoms,
    lastContradictions,
    lastTensions,
    allConflicts,
    ms: 8,
    msPerStatement: 2,
  });

  it('scores any-conflict and contradiction-only predictions separately', () => {
    const s = summarizeSet('human-bot', [
      result(true, 1, 0), // both kinds: tp
      result(true, 0, 1), // any: tp, contradiction-only: fn
      result(false, 0, 1), // any: fp, contradiction-only: tn
      result(false, 0, 0, 0), // tn, no atom
      result(true, 0, 0, 0, 2), // fn, no atom, earlier conflicts
    ]);
    expect([s.anyConflict.tp, s.anyConflict.fp, s.anyConflict.fn, s.anyConflict.tn]).toEqual([2, 1, 1, 1]);
    expect([s.contradictionOnly.tp, s.contradictionOnly.fp, s.contradictionOnly.fn, s.contradictionOnly.tn]).toEqual([1, 0, 2, 2]);
    expect(s.anyConflict.accuracy).toBeCloseTo(0.6, 10);
    expect(s.lastWithoutAtom).toEqual({ all: 2, labelledContradiction: 1, labelledConsistent: 1 });
    expect(s.earlierConflicts).toBe(1);
    expect(s.statements).toBe(20);
    expect(s.timing.msPerStatement.p50).toBe(2);
    expect(s.timing.totalMs).toBe(40);
  });
});
