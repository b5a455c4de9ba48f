// The eval:decode report: Hearth's conflict engine on DECODE beside the paper's
// anchor figure. Text only; the JSON report is the same object.
import { fmt } from '../../bench/lib/report.js';
import type { BinaryMetrics } from './decode-metrics.js';
import type { SetSummary } from './decode-run.js';

/** The published figure Hearth is compared with, and where it comes from. */
export interface Anchor {
  model: string;
  humanBotAccuracy: number | null;
  source: string;
  note: string;
}

export interface DecodeReport {
  startedAt: string;
  data: { dir: string; humanBot: string; rct: string; limit: number | null; skipped: Record<string, Record<string, number>> };
  path: { atomizer: 'rules' | 'llm'; embedder: string; extractorVersion: string; llm: string };
  humanBot: SetSummary | null;
  rct: SetSummary | null;
  anchor: Anchor;
  wallMs: number;
}

const pct = (v: number): string => (Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : 'n/a');

function metricRow(name: string, m: BinaryMetrics): string {
  return `  ${name.padEnd(26)} acc ${pct(m.accuracy).padStart(6)}   P ${pct(m.precision).padStart(6)}   R ${pct(m.recall).padStart(6)}   F1 ${pct(m.f1).padStart(6)}   [tp ${m.tp}  fp ${m.fp}  fn ${m.fn}  tn ${m.tn}]`;
}

function timingRows(s: SetSummary): string[] {
  const t = s.timing.msPerStatement;
  return [`  timing: ${s.statements} statements in ${fmt(s.timing.totalMs / 1000, 1)} s; ms per statement by dialogue p50 ${fmt(t.p50, 3)}  p90 ${fmt(t.p90, 3)}  p99 ${fmt(t.p99, 3)}  max ${fmt(t.max, 3)}`];
}

export function renderDecodeReport(r: DecodeReport): string {
  const lines = [`eval:decode — companion self-contradiction on DECODE (${r.data.dir})`, `path: ${r.path.atomizer} atomizer, ${r.path.embedder} embeddings, extractor ${r.path.extractorVersion}; LLM path: ${r.path.llm}`, ''];
  const hb = r.humanBot;
  if (hb) {
    lines.push(`human-bot: ${hb.dialogues} dialogues (${hb.anyConflict.tp + hb.anyConflict.fn} labelled contradiction), the bot's turns fed as companion statements; flagged = the LAST turn makes a conflict edge`);
    lines.push(metricRow('contradiction or tension', hb.anyConflict));
    lines.push(metricRow('contradiction only', hb.contradictionOnly));
    lines.push(
      `  last turns with no atom: ${hb.lastWithoutAtom.all} of ${hb.dialogues} (${pct(hb.lastWithoutAtom.all / Math.max(1, hb.dialogues))}; ${hb.lastWithoutAtom.labelledContradiction} labelled contradiction, ${hb.lastWithoutAtom.labelledConsistent} consistent)`,
      `  dialogues with a conflict edge before the last turn: ${hb.earlierConflicts}`,
      ...timingRows(hb),
      '',
    );
  }
  const rct = r.rct;
  if (rct) {
    lines.push(`rct: ${rct.dialogues} dialogues, none contradictory; the last speaker's persona lines then turns fed as companion statements`);
    lines.push(`  false-positive rate  contradiction or tension ${pct(rct.anyConflict.falsePositiveRate)} (${rct.anyConflict.fp})   contradiction only ${pct(rct.contradictionOnly.falsePositiveRate)} (${rct.contradictionOnly.fp})`);
    lines.push(`  last turns with no atom: ${rct.lastWithoutAtom.all} of ${rct.dialogues} (${pct(rct.lastWithoutAtom.all / Math.max(1, rct.dialogues))})`, ...timingRows(rct), '');
  }
  const a = r.anchor;
  lines.push('anchor (Nie et al., ACL 2021, DECODE):');
  lines.push(`  ${a.model}: human-bot accuracy ${a.humanBotAccuracy === null ? 'not confirmed' : `${fmt(a.humanBotAccuracy, 1)}%`}  — ${a.source}`);
  if (hb) {
    const positives = hb.anyConflict.tp + hb.anyConflict.fn;
    // The full human-bot set is balanced (382 / 382): there, always answering one way scores 50%.
    const chance = positives * 2 === hb.dialogues ? '; 50.0% is what always answering one way scores on this balanced set' : '';
    const how = r.path.atomizer === 'llm' ? 'LLM atomizer' : 'offline rules atomizer';
    lines.push(`  Hearth (${how}, conflict engine, no training): human-bot accuracy ${pct(hb.anyConflict.accuracy)} (contradiction or tension), ${pct(hb.contradictionOnly.accuracy)} (contradiction only)${chance}`);
  }
  if (a.note) lines.push(`  ${a.note}`);
  const skipped = Object.entries(r.data.skipped).flatMap(([set, m]) => Object.entries(m).map(([why, n]) => `${set}: ${n} × ${why}`));
  if (skipped.length) lines.push('', `skipped records: ${skipped.join('; ')}`);
  lines.push('', `wall ${fmt(r.wallMs / 1000, 1)} s`);
  return lines.join('\n');
}
