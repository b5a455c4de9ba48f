// The figures of a fuzz run as text: endpoint × status class, then what failed.
import type { FuzzResult, Violation } from './engine.js';

function statusColumns(figures: FuzzResult['figures']): string[] {
  const codes = new Set<string>();
  for (const row of Object.values(figures)) for (const s of Object.keys(row)) if (s.startsWith('4')) codes.add(s);
  return ['2xx', '3xx', ...[...codes].sort(), '5xx', 'none'];
}

function classOf(status: string): string {
  if (status === '0') return 'none';
  if (status.startsWith('4')) return status;
  return `${status[0]}xx`;
}

/** Rows of route → column → count, with a totals row. */
export function figureTable(figures: FuzzResult['figures']): { columns: string[]; rows: [string, Record<string, number>][] } {
  const columns = statusColumns(figures);
  const rows: [string, Record<string, number>][] = [];
  const totals: Record<string, number> = {};
  for (const [route, byStatus] of Object.entries(figures).sort(([a], [b]) => routeOrder(a).localeCompare(routeOrder(b)))) {
    const row: Record<string, number> = {};
    for (const [status, n] of Object.entries(byStatus)) {
      const c = classOf(status);
      row[c] = (row[c] ?? 0) + n;
      row.total = (row.total ?? 0) + n;
    }
    for (const [c, n] of Object.entries(row)) totals[c] = (totals[c] ?? 0) + n;
    rows.push([route, row]);
  }
  rows.push(['total', totals]);
  return { columns: [...columns, 'total'], rows };
}

/** By path, then method, so each endpoint's methods sit together. */
function routeOrder(route: string): string {
  const [method, path] = route.split(' ');
  return `${path ?? route} ${method}`;
}

function renderTable(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' | ')} |`;
  return [line(header), `|${widths.map((w, i) => (i === 0 ? `${'-'.repeat(w + 1)}-` : `${'-'.repeat(w + 1)}:`)).join('|')}|`, ...rows.map(line)].join('\n');
}

function describeViolation(v: Violation): string {
  const lines = [`- [${v.kind}] ${v.key}${v.count > 1 ? ` (×${v.count})` : ''}${v.index !== undefined ? ` — request #${v.index}` : ''}`];
  if (v.detail) lines.push(...v.detail.split('\n').map((l) => `    ${l}`));
  if (v.request) lines.push(`    request:  ${v.request}`);
  if (v.response) lines.push(`    response: ${v.response}`);
  return lines.join('\n');
}

/** The whole report, in Markdown (the table pastes into a closing note as it is). */
export function renderReport(r: FuzzResult): string {
  const { columns, rows } = figureTable(r.figures);
  const table = renderTable(
    ['endpoint', ...columns],
    rows.map(([route, row]) => [route, ...columns.map((c) => (row[c] ? String(row[c]) : '·'))]),
  );
  const sent = Object.values(r.sent).reduce((a, b) => a + b, 0);
  const out = [
    `## Fuzz run, seed ${r.seed}: ${r.passed ? 'PASSED' : 'FAILED'}`,
    '',
    `${r.generated} generated requests; ${sent} sent in all (setup ${r.sent.setup}, forged tokens ${r.sent.forged}, fuzz ${r.sent.fuzz}, checks ${r.sent.checks}).`,
    `Time: ${Object.entries(r.timings)
      .map(([k, ms]) => `${k} ${(ms / 1000).toFixed(1)} s`)
      .join(', ')}.`,
    '',
    table,
    '',
    `- 5xx or no response: ${r.violations.filter((v) => v.kind === '5xx' || v.kind === 'no response').reduce((n, v) => n + v.count, 0)}`,
    `- BOLA attempts refused: ${r.bola.refused}/${r.bola.attempts}; victims unchanged: ${r.violations.some((v) => v.kind === 'victim changed') ? 'NO' : 'yes'}`,
    `- forged tokens: ${r.forged.tokens} tokens, ${r.forged.refused}/${r.forged.attempts} requests answered 401`,
    `- users chatting normally afterwards: ${r.chatAfter.ok}/${r.chatAfter.users}`,
  ];
  if (r.wedged.users.length) out.push(`- wedged users (a chat answered 504; their ${r.wedged.skipped} later messages were not sent): ${r.wedged.users.join(', ')}`);
  if (r.notServed.length) out.push(`- API.md routes not served (every answer a router 404): ${r.notServed.join(', ')}`);
  if (r.unfuzzed.length) out.push(`- served routes the table does not cover: ${r.unfuzzed.join(', ')}`);
  const attacks = Object.entries(r.bola.byAttack).map(([a, byStatus]) => `${a}: ${Object.entries(byStatus).map(([s, n]) => `${s}×${n}`).join(' ')}`);
  if (attacks.length) out.push('', 'BOLA attempts by kind (status×count):', ...attacks.map((a) => `- ${a}`));
  if (r.violations.length) out.push('', `### Violations (${r.violations.length} kinds)`, ...r.violations.map(describeViolation));
  if (r.warnings.length) out.push('', '### Warnings (reported, not failed): error answers not in the API shape, answers API.md does not name', ...r.warnings.map(describeViolation));
  return out.join('\n');
}
