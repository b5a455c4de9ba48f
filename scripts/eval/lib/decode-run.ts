// One DECODE dialogue through a fresh companion belief graph: persona seed
// statements first (rct), then the companion's turns in order, each at its own
// time; the dialogue is flagged when the LAST turn's graph step makes a conflict
// edge (§4.15: contradiction = same hash, opposite polarity; tension = similarity
// over the threshold, opposite polarity).
import { summarize, type Summary } from '../../bench/lib/stats.js';
import type { DecodeSet, DialoguePlan } from './decode-data.js';
import { emptyConfusion, metricsOf, tally, type BinaryMetrics, type Confusion } from './decode-metrics.js';

/** What the evaluation needs of one `add` of InMemoryBeliefGraph (libs/beliefs graph.ts). */
export interface AddOutcome {
  decomposition: { atoms: readonly unknown[] };
  step: { conflicts: readonly { conflictType: 'contradiction' | 'tension' }[] };
}

export interface AddInput {
  text: string;
  holder: 'companion';
  conversationId: string;
  at: Date;
  sourceId: string;
}

export interface CompanionGraph {
  add(input: AddInput): AddOutcome | Promise<AddOutcome>;
}

/** Dialogues start here on the evaluation's own clock; statements are TURN_GAP_MS apart. */
export const EVAL_EPOCH = new Date('2024-03-01T09:00:00Z');
export const TURN_GAP_MS = 60_000;

export interface DialogueResult {
  set: DecodeSet;
  id: string;
  label: boolean;
  /** Persona seeds + turns fed. */
  statements: number;
  /** Atoms the last turn yielded. */
  lastAtoms: number;
  lastContradictions: number;
  lastTensions: number;
  /** Conflict edges of any kind over the whole dialogue (earlier turns included). */
  allConflicts: number;
  ms: number;
  msPerStatement: number;
}

/** Feeds one dialogue into `graph` (fresh, one per dialogue) and reports its last step. */
export async function runDialogue(plan: DialoguePlan, graph: CompanionGraph, now: () => number = () => performance.now()): Promise<DialogueResult> {
  const statements = [...plan.persona.map((text, i) => ({ text, sourceId: `${plan.id}:persona:${i}` })), ...plan.turns.map((text, i) => ({ text, sourceId: `${plan.id}:turn:${i}` }))];
  let last: AddOutcome | undefined;
  let allConflicts = 0;
  const started = now();
  for (let i = 0; i < statements.length; i++) {
    const s = statements[i]!;
    last = await graph.add({ text: s.text, holder: 'companion', conversationId: plan.id, at: new Date(EVAL_EPOCH.getTime() + i * TURN_GAP_MS), sourceId: s.sourceId });
    allConflicts += last.step.conflicts.length;
  }
  const ms = now() - started;
  const conflicts = last?.step.conflicts ?? [];
  return {
    set: plan.set,
    id: plan.id,
    label: plan.label,
    statements: statements.length,
    lastAtoms: last?.decomposition.atoms.length ?? 0,
    lastContradictions: conflicts.filter((c) => c.conflictType === 'contradiction').length,
    lastTensions: conflicts.filter((c) => c.conflictType === 'tension').length,
    allConflicts,
    ms,
    msPerStatement: statements.length === 0 ? 0 : ms / statements.length,
  };
}

export interface SetSummary {
  set: DecodeSet;
  dialogues: number;
  statements: number;
  /** Predicted "contradiction" when the last turn made a contradiction OR a tension edge. */
  anyConflict: BinaryMetrics;
  /** Predicted "contradiction" only when the last turn made a contradiction edge. */
  contradictionOnly: BinaryMetrics;
  /** Last turns that yielded no atom at all (so could never be flagged), overall and by label. */
  lastWithoutAtom: { all: number; labelledContradiction: number; labelledConsistent: number };
  /** Dialogues where some earlier turn already made a conflict edge (not counted as a prediction). */
  earlierConflicts: number;
  timing: { msPerStatement: Summary; msPerDialogue: Summary; totalMs: number };
}

export function summarizeSet(set: DecodeSet, results: readonly DialogueResult[]): SetSummary {
  const any: Confusion = emptyConfusion();
  const contra: Confusion = emptyConfusion();
  const noAtom = { all: 0, labelledContradiction: 0, labelledConsistent: 0 };
  let earlier = 0;
  for (const r of results) {
    tally(any, r.lastContradictions + r.lastTensions > 0, r.label);
    tally(contra, r.lastContradictions > 0, r.label);
    if (r.lastAtoms === 0) {
      noAtom.all++;
      if (r.label) noAtom.labelledContradiction++;
      else noAtom.labelledConsistent++;
    }
    if (r.allConflicts > r.lastContradictions + r.lastTensions) earlier++;
  }
  return {
    set,
    dialogues: results.length,
    statements: results.reduce((s, r) => s + r.statements, 0),
    anyConflict: metricsOf(any),
    contradictionOnly: metricsOf(contra),
    lastWithoutAtom: noAtom,
    earlierConflicts: earlier,
    timing: {
      msPerStatement: summarize(results.map((r) => r.msPerStatement)),
      msPerDialogue: summarize(results.map((r) => r.ms)),
      totalMs: results.reduce((s, r) => s + r.ms, 0),
    },
  };
}
