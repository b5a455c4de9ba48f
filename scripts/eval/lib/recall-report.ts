// eval:recall's report: one row per conversation and the total, one row per
// QA category, the temporal breakdown, and a last line that sums it up.
import { fmt, table } from '../../bench/lib/report.js';
import type { EvalTarget } from './hearth-process.js';
import { CATEGORIES } from './recall-items.js';
import { headline, share, TARGETS, type ConversationRecall, type RecallTotals, type Tally } from './recall-metrics.js';
import type { CalendarShift } from './recall-dates.js';
import type { Skipped } from './recall-items.js';

export interface RecallConversationReport extends ConversationRecall {
  plannedTurns: number;
  /** Replayed lines that got their reply and trail. */
  turnsOk: number;
  /** Items not asked, by reason; `notReplayed`: an evidence turn was not sent (--turns) or failed. */
  skipped: Skipped & { notReplayed: number };
  /** Where the stated dates came from. */
  datesFrom: 'memories' | 'timeline' | 'none';
  /** How far the replay's virtual calendar ran ahead of the dataset's (the clock aligned to the first session's date). */
  shift: CalendarShift;
  /** Every replayed line: its message_id (for GET /v1/admin/turns/{message_id}), the reply and what it surfaced; named by dia_id, not by its text. */
  turns: { diaId: string; messageId: string; reply: string; surfaced: { memoryId: string; value: string | null }[] }[];
  aborted?: string;
}

/** Everything one run measured; also what `--json` writes. */
export interface RecallReport {
  startedAt: string;
  target: EvalTarget;
  data: { file: string; conversations: number[]; maxTurns: number | null; lineGapSeconds: number; questionGapSeconds: number };
  wallMs: number;
  interrupted: boolean;
  conversations: RecallConversationReport[];
  totals: RecallTotals;
  http: { requests: number; errors: number; rateLimited: number; byKind: Record<string, number> };
}

const pct = (v: number | undefined): string => (v === undefined ? 'n/a' : `${fmt(100 * v, 1)} %`);
const frac = (n: number, of: number): string => `${pct(share(n, of))} (${n}/${of})`;

/** "FACT 12, PREFERENCE 3": types in the spec's order, then any other. */
export function typesText(byType: Record<string, number>): string {
  const order = ['FACT', 'PREFERENCE', 'RELATIONSHIP_EVENT', 'EMOTIONAL_PATTERN'];
  const keys = [...order.filter((k) => byType[k]), ...Object.keys(byType).filter((k) => !order.includes(k)).sort()];
  return keys.map((k) => `${k} ${byType[k]}`).join(', ') || '—';
}

function rowOf(name: string, user: string, turns: string, c: Pick<ConversationRecall, 'memories' | 'precision' | 'total' | 'temporal'>): string[] {
  const h = headline(c);
  const p = c.precision;
  return [
    name,
    user,
    turns,
    String(c.memories.active),
    String(c.total.items),
    frac(c.total.covered, c.total.items),
    frac(c.total.surfacedCiting, c.total.items),
    frac(c.total.retrievedCiting, c.total.items),
    `${pct(h.surfacedPrecision)} (${p.sharing}/${p.surfaced - p.unknownValue})`,
    frac(c.temporal.match, c.temporal.datable),
    frac(c.total.answerPresent, c.total.answerChecked),
  ];
}

function categoryRow(name: string, t: Tally, temporal?: RecallTotals['temporal']): string[] {
  return [
    name,
    String(t.items),
    frac(t.covered, t.items),
    frac(t.surfacedCiting, t.items),
    frac(t.retrievedCiting, t.items),
    frac(t.answerPresent, t.answerChecked),
    temporal ? frac(temporal.match, temporal.datable) : '',
  ];
}

/** The summary line that ends the output. */
export function summaryLine(r: Pick<RecallReport, 'data' | 'totals' | 'interrupted'>): string {
  const h = headline(r.totals);
  const t = r.totals;
  return (
    `eval:recall conversations ${r.data.conversations.join(',')}: ` +
    `extraction coverage ${pct(h.coverage)}, surfaced recall ${pct(h.surfacedRecall)} of ${t.total.items} questions; ` +
    `surfaced precision ${pct(h.surfacedPrecision)} of ${t.precision.surfaced} surfaced in ${t.precision.turns} turns; ` +
    `temporal dates ${pct(h.temporalDates)} of ${t.temporal.datable}; answer presence ${pct(h.answerPresence)}; ` +
    `${t.memories.active} memories kept` +
    (r.interrupted ? ' (INTERRUPTED)' : '')
  );
}

export function renderRecallReport(r: RecallReport): string {
  const out: string[] = [];
  const where =
    r.target.mode === 'started'
      ? `Hearth started by the eval (scripts/start, namespace ${r.target.namespace}; ${r.target.database}; NATS ${r.target.nats})`
      : `Hearth at ${r.target.url}`;
  out.push(`Hearth memory recall — LoCoMo ${r.data.file}, conversations ${r.data.conversations.join(',')}`);
  out.push(
    `${where}; ${r.data.maxTurns === null ? 'all' : `at most ${r.data.maxTurns}`} user turns each, ${r.data.lineGapSeconds} s between lines, ` +
      `${r.data.questionGapSeconds} s between questions` +
      (r.interrupted ? ' — INTERRUPTED: the figures cover what ran' : ''),
  );
  out.push('');

  const t = r.totals;
  out.push(
    ...table([
      ['Conversation', 'user', 'user turns', 'memories', 'questions', 'extraction coverage', 'surfaced recall', 'retrieved (not always surfaced)', 'surfaced precision (ordinary turns)', 'temporal dates', 'answer presence'],
      ...r.conversations.map((c) =>
        rowOf(c.sampleId, c.user, c.turnsOk === c.plannedTurns ? String(c.turnsOk) : `${c.turnsOk} of ${c.plannedTurns}`, c),
      ),
      rowOf(
        'total',
        '',
        String(r.conversations.reduce((n, c) => n + c.turnsOk, 0)),
        t,
      ),
      ['target (issue 15, conversations 6–10)', '', '', '', '', `≥ ${pct(TARGETS.coverage)}`, `≥ ${pct(TARGETS.surfacedRecall)}`, '', `≥ ${pct(TARGETS.surfacedPrecision)}`, `≥ ${pct(TARGETS.temporalDates)}`, 'reported'],
    ]),
  );
  out.push('');

  const cats = Object.keys(CATEGORIES)
    .map(Number)
    .map((n) => CATEGORIES[n]!)
    .filter((name) => t.byCategory[name]);
  out.push(
    ...table([
      ['Category', 'questions', 'extraction coverage', 'surfaced recall', 'retrieved', 'answer presence', 'temporal dates'],
      ...cats.map((name) => categoryRow(`${name}`, t.byCategory[name]!, name === CATEGORIES[2] ? t.temporal : undefined)),
      categoryRow('all', t.total),
    ]),
  );
  out.push('');

  out.push(`memories kept (ACTIVE after the replay): ${t.memories.active} — ${typesText(t.memories.byType)}`);
  for (const c of r.conversations) out.push(`  ${c.sampleId}: ${c.memories.active} — ${typesText(c.memories.byType)}`);
  const tp = t.temporal;
  out.push(
    `temporal (covered category-2 questions): ${tp.covered} covered; ${tp.notDatable} not datable (a duration or no date in the answer), ` +
      `${tp.datable} datable: ${tp.match} match, ${tp.coarser} right period at a coarser grain, ${tp.wrong} wrong date, ${tp.undated} without a stated date`,
  );
  const sources = [...new Set(r.conversations.map((c) => c.datesFrom))];
  out.push(
    `stated dates read from: ${sources.join(', ') || 'n/a'}; compared as stored and moved back to the dataset's calendar ` +
      `(the virtual clock set to each first session's date, ${[...new Set(r.conversations.map((c) => c.shift.years))].join('/')} years ahead)`,
  );
  const p = t.precision;
  out.push(
    `ordinary turns: ${p.turns}, of which ${p.turnsSurfacing} surfaced something; ${p.surfaced} surfaced, ${p.sharing} sharing content with the message` +
      (p.unknownValue > 0 ? `, ${p.unknownValue} whose value the eval could not read` : ''),
  );
  const examples = r.conversations.flatMap((c) => c.offTopic.map((e) => ({ ...e, sampleId: c.sampleId }))).slice(0, 5);
  for (const e of examples) out.push(`  off topic: ${e.sampleId} ${e.diaId} ${JSON.stringify(e.text.slice(0, 80))} surfaced ${JSON.stringify(e.memory.slice(0, 80))}`);
  const skipped = r.conversations.reduce(
    (s, c) => {
      for (const k of Object.keys(s) as (keyof typeof s)[]) s[k] += c.skipped[k];
      return s;
    },
    { adversarial: 0, noEvidence: 0, notUsersTurns: 0, audited: 0, notReplayed: 0 },
  );
  out.push(
    `questions not asked: ${skipped.notUsersTurns} with evidence not all the user's own turns, ${skipped.adversarial} adversarial, ` +
      `${skipped.audited} found wrong by the audit, ${skipped.noEvidence} without evidence, ${skipped.notReplayed} whose evidence was not replayed`,
  );
  for (const c of r.conversations) if (c.aborted) out.push(`  ${c.sampleId}: ${c.aborted}`);
  out.push(
    `HTTP: ${r.http.requests} requests, ${r.http.errors} failed (expected 0)` +
      (r.http.errors > 0 ? `: ${Object.entries(r.http.byKind).map(([k, v]) => `${k} ×${v}`).join(', ')}` : '') +
      (r.http.rateLimited > 0 ? `; ${r.http.rateLimited} answered 429 and sent again` : '') +
      `; ${fmt(r.wallMs / 1000, 1)} s`,
  );
  out.push('');
  out.push(summaryLine(r));
  return out.join('\n');
}
