// The fault suite's table: one row per scenario, the invariants and the recovery times.
import type { FaultOutcome, ScenarioResult } from './scenarios.js';

function seconds(ms: number | undefined): string {
  return ms === undefined ? '—' : `${(ms / 1000).toFixed(1)} s`;
}

function recoveryCell(f: FaultOutcome): string {
  return `${seconds(f.firstOkMs)} / ${seconds(f.allServedMs)}`;
}

function pad(cells: string[], widths: number[]): string {
  return cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
}

/** A plain-text table (Markdown-compatible) of the scenarios. */
export function formatTable(results: readonly ScenarioResult[]): string {
  const header = ['scenario', 'turns', 'lost', 'doubled', 'reply≠history', 'timeline', '5xx', 'exits', 'recovery (first 200 / all users)', 'replay', 'verdict'];
  const rows = results.map((r) => [
    `${r.id} ${r.title}`,
    String(r.turns),
    String(r.lost),
    String(r.doubled),
    String(r.mismatched),
    r.timelineViolations === 0 ? 'ok' : `${r.timelineViolations} bad`,
    String(r.http5xx),
    String(r.unexpectedExits.length),
    r.faults.length === 0 ? '—' : r.faults.map(recoveryCell).join('; '),
    r.replay.projections === 0 ? 'failed' : `${r.replay.equal}/${r.replay.projections} equal`,
    r.problems.length === 0 ? 'PASS' : 'FAIL',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const line = (cells: string[]): string => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

/** Per scenario: what failed, the faults with their restore times, the statuses seen, (d)'s answers. */
export function formatDetails(results: readonly ScenarioResult[]): string {
  const out: string[] = [];
  for (const r of results) {
    out.push(`${r.id} ${r.title}: ${r.answered200}/${r.turns} answered 200, ${r.retriedMessages} needed retries, ${seconds(r.durationMs)} in all`);
    out.push(`  statuses seen: ${Object.entries(r.statuses).map(([k, v]) => `${k} ×${v}`).join(', ')}`);
    for (const f of r.faults) {
      out.push(pad([`  fault: ${f.label} at turn ${f.atTurn}`, `restored after ${seconds(f.restoreMs)}`, `first 200 ${seconds(f.firstOkMs)}`, `all users served ${seconds(f.allServedMs)}`], [40, 24, 18, 0]));
    }
    if (r.poison) {
      const q = r.poison;
      out.push(`  poisoned turn: ${q.status ?? '—'} ${q.code ?? ''} ${q.details !== undefined ? JSON.stringify(q.details) : ''} after ${seconds(q.answerMs)}; next message ${q.nextStatus ?? '—'} after ${seconds(q.nextMs)}`);
      out.push(`  dead letters: ${q.deadLettersStatus ?? '—'}, ${q.listed ? 'listed' : 'not listed'}; timeline of the poisoned message: ${q.timelineTypes?.map((t) => t.split('.').pop()).join(', ') || 'nothing'}`);
    }
    for (const e of r.unexpectedExits) out.push(`  Hearth exited at ${seconds(e.atMs)}; its last output:\n${e.output.replace(/^/gm, '    ')}`);
    if (r.replay.error) out.push(`  replay failed (exit ${r.replay.exitCode}):\n${r.replay.error.replace(/^/gm, '    ')}`);
    for (const p of r.problems) out.push(`  FAIL: ${p}`);
  }
  return out.join('\n');
}
