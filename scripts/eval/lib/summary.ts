import { fmt, table } from '../../bench/lib/report.js';
import type { EvalTarget } from './hearth-process.js';
import { perSecond, summarize, type Summary } from '../../bench/lib/stats.js';
import { OUTCOMES, type ConversationResult, type TurnRecord } from './replay.js';

/** Everything one run measured; also what `--json` writes. */
export interface EvalReport {
  startedAt: string;
  target: EvalTarget;
  data: { file: string; conversations: number; maxTurns: number | null; lineGapSeconds: number };
  wallMs: number;
  interrupted: boolean;
  conversations: Omit<ConversationResult, 'turns'>[];
  overall: Overall;
  turns: TurnRecord[];
}

export interface Overall {
  turns: number;
  ok: number;
  failed: number;
  providers: Record<string, number>;
  outcomes: Record<string, number>;
  pipelines: Record<string, number>;
  drafts: { judged: number; withFailure: number; byGate: Record<string, { failed: number; example: string }> };
  latencyMs: Summary;
  trailMs: Summary;
  /** Replayed turns per second of the whole replay's wall time (setup, clock and trail reads included). */
  turnsPerSec: number;
  style: {
    checked: number;
    emojiOut: number;
    sentencesOut: number;
    /** Replies out of either band. */
    outOfBand: number;
    /** Of those, fixed replies (refusal, crisis_safe) that the orchestrator exempts from the style gates. */
    outOfBandFixed: number;
    strictSentencesOut: number;
    /** Replies where the eval's band verdict differs from the orchestrator's on the sent pass. */
    gateDisagreements: number;
    examples: { sampleId: string; diaId: string; outcome: string; why: string; reply: string }[];
  };
  promotionBlockedBy: Record<string, number>;
  truncations: number;
  clampedGaps: number;
  http: { requests: number; errors: number; byKind: Record<string, number> };
}

const EXAMPLES = 8;

function inc(map: Record<string, number>, key: string, by = 1): void {
  map[key] = (map[key] ?? 0) + by;
}

export function aggregate(
  conversations: readonly ConversationResult[],
  wallMs: number,
  http: { requests: number; errors: ReadonlyMap<string, number> },
): Overall {
  const turns = conversations.flatMap((c) => c.turns);
  const ok = turns.filter((t) => t.ok);
  const outcomes: Record<string, number> = Object.fromEntries(OUTCOMES.map((o) => [o, 0]));
  const pipelines: Record<string, number> = {};
  const providers: Record<string, number> = {};
  const byGate: Record<string, { failed: number; example: string }> = {};
  const blocked: Record<string, number> = {};
  let judged = 0;
  let withFailure = 0;
  const style: Overall['style'] = { checked: 0, emojiOut: 0, sentencesOut: 0, outOfBand: 0, outOfBandFixed: 0, strictSentencesOut: 0, gateDisagreements: 0, examples: [] };
  for (const t of ok) {
    inc(outcomes, t.outcome ?? 'unknown');
    inc(pipelines, t.pipeline ?? 'unknown');
    if (t.provider) inc(providers, t.provider);
    if (t.draftJudged) {
      judged++;
      if (t.draftFailures.length > 0) withFailure++;
      for (const f of t.draftFailures) {
        byGate[f.gate] ??= { failed: 0, example: f.detail };
        byGate[f.gate]!.failed++;
      }
    }
    for (const reason of blockedReasons(t.relationship?.promotionBlockedBy)) inc(blocked, reason);
    if (!t.style) continue;
    style.checked++;
    const why: string[] = [];
    if (!t.style.emojiOk) {
      style.emojiOut++;
      why.push(`emoji_count ${t.style.emojiCount}`);
    }
    if (!t.style.sentencesOk) {
      style.sentencesOut++;
      why.push(`${t.style.sentences.sentenceCount} sentences, avg ${fmt(t.style.sentences.avgWordsPerSentence, 1)} words`);
    }
    if (!t.style.strictSentencesOk) style.strictSentencesOut++;
    const out = !t.style.emojiOk || !t.style.sentencesOk;
    if (out) {
      style.outOfBand++;
      if (!t.draftJudged) style.outOfBandFixed++;
    }
    const disagree =
      (t.sentGate?.emoji !== undefined && t.sentGate.emoji !== t.style.emojiOk) || (t.sentGate?.sentences !== undefined && t.sentGate.sentences !== t.style.sentencesOk);
    if (disagree) {
      style.gateDisagreements++;
      why.push('orchestrator gate disagrees');
    }
    if ((out || disagree) && style.examples.length < EXAMPLES) {
      style.examples.push({ sampleId: t.sampleId, diaId: t.diaId, outcome: t.outcome ?? '?', why: why.join('; '), reply: t.reply ?? '' });
    }
  }
  const byKind = Object.fromEntries(http.errors);
  return {
    turns: turns.length,
    ok: ok.length,
    failed: turns.length - ok.length,
    providers,
    outcomes,
    pipelines,
    drafts: { judged, withFailure, byGate },
    latencyMs: summarize(ok.map((t) => t.latencyMs ?? Number.NaN)),
    trailMs: summarize(ok.map((t) => t.trailMs ?? Number.NaN)),
    turnsPerSec: perSecond(ok.length, wallMs),
    style,
    promotionBlockedBy: blocked,
    truncations: conversations.reduce((n, c) => n + c.truncations, 0),
    clampedGaps: conversations.reduce((n, c) => n + c.clampedGaps, 0),
    http: { requests: http.requests, errors: Object.values(byKind).reduce((a, b) => a + b, 0), byKind },
  };
}

/**
 * The conditions of a `promotionBlockedBy` ("rapport 31 < 40; cooldown") without
 * the turn's own numbers ("rapport < 40", "cooldown"), so turns can be counted by them.
 */
export function blockedReasons(text: string | undefined): string[] {
  if (!text) return [];
  return text
    .split(';')
    .map((part) => part.trim().replace(/^(\w+) \d+ </, '$1 <'))
    .filter((part) => part !== '');
}

const pct = (n: number, of: number): string => (of > 0 ? `${fmt((100 * n) / of, 1)} %` : 'n/a');

function promotionText(c: Omit<ConversationResult, 'turns'>): string {
  if (c.promotions.length === 0) return 'none';
  return c.promotions.map((p) => `${p.to} @ turn ${p.turn}, day ${fmt(p.day, 1)}`).join('; ');
}

export function renderReport(r: EvalReport): string {
  const o = r.overall;
  const out: string[] = [];
  const where =
    r.target.mode === 'started'
      ? `Hearth started by the eval (scripts/start, namespace ${r.target.namespace}; ${r.target.database}; NATS ${r.target.nats})`
      : `Hearth at ${r.target.url}`;
  out.push(`Hearth conversation replay — LoCoMo ${r.data.file}`);
  out.push(
    `${where}; ${r.conversations.length} conversation(s), ${r.data.maxTurns === null ? 'all' : `at most ${r.data.maxTurns}`} user turns each, ` +
      `${r.data.lineGapSeconds} s between lines; replies by ${Object.keys(o.providers).join(', ') || 'n/a'}` +
      (r.interrupted ? ' — INTERRUPTED: the figures cover the turns that ran' : ''),
  );
  out.push('');

  out.push(
    ...table([
      ['Conversation', 'user', 'persona (length/emoji)', 'user turns', 'LoCoMo sessions', 'days', 'final stage', 'rapport', 'sessions_count', 'promotions (stage @ user turn, virtual day)', 'blocked at the end by'],
      ...r.conversations.map((c) => [
        c.sampleId,
        c.user,
        c.persona ? `${c.persona.templateId} ${c.persona.archetype} (${c.persona.msgLengthPref}/${c.persona.emojiFreq})` : 'n/a',
        c.turnsOk === c.plannedTurns ? String(c.turnsOk) : `${c.turnsOk} of ${c.plannedTurns}`,
        String(c.sessions),
        fmt(c.days, 1),
        c.final?.stage ?? 'n/a',
        c.final ? String(c.final.rapport) : 'n/a',
        c.final ? String(c.final.sessions) : 'n/a',
        promotionText(c) + (c.finalMismatch ? ' (trail ≠ /v1/me/relationship!)' : '') + (c.aborted ? ` [${c.aborted}]` : ''),
        c.blockedAtEnd || '—',
      ]),
    ]),
  );
  out.push('');
  // What trust learned from each conversation (outcome-driven-trust.md), from the admin trust view at its end.
  out.push(
    ...table([
      ['Trust', 'T_user (updates)', 'T_agent (updates)', 'outcomes', 'mean reward', 'tags (counted)', 'tags by actor'],
      ...r.conversations.map((c) => {
        const t = c.trust;
        const actor = (a: string) => (t?.actors[a] ? `${fmt(t.actors[a].trust, 3)} (${t.actors[a].updates})` : 'n/a');
        const all = t ? Object.values(t.tags).reduce((n, v) => n + v, 0) : 0;
        return [
          c.sampleId,
          actor('user'),
          actor('agent'),
          t ? String(t.outcomes) : 'n/a',
          t ? fmt(t.meanReward, 3) : 'n/a',
          t ? `${all} (${t.counted})` : 'n/a',
          t ? Object.entries(t.tags).map(([k, v]) => `${k} ${v}`).join(', ') || '—' : 'n/a',
        ];
      }),
    ]),
  );
  out.push('');

  const outcomeRows = Object.entries(o.outcomes).map(([k, v]) => [k, String(v), pct(v, o.ok)]);
  const pipelineRows = Object.entries(o.pipelines)
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => [k, String(v), pct(v, o.ok)]);
  out.push(...table([['Outcome', 'turns', 'share'], ...outcomeRows]));
  out.push('');
  out.push(...table([['Pipeline', 'turns', 'share'], ...pipelineRows]));
  out.push('');

  const gateRows = Object.entries(o.drafts.byGate)
    .sort((a, b) => b[1].failed - a[1].failed)
    .map(([g, v]) => [g, String(v.failed), pct(v.failed, o.drafts.judged), v.example]);
  out.push(
    ...table([
      [`Draft failures by gate (${o.drafts.judged} composed drafts)`, 'failed', 'rate', 'first detail'],
      ['any gate', String(o.drafts.withFailure), pct(o.drafts.withFailure, o.drafts.judged), ''],
      ...(gateRows.length > 0 ? gateRows : [['(no gate failed on a draft)', '0', pct(0, o.drafts.judged), '']]),
    ]),
  );
  out.push('');

  const lat = (name: string, s: Summary): string[] => [name, fmt(s.p50, 1), fmt(s.p90, 1), fmt(s.p99, 1), fmt(s.max, 1), fmt(s.mean, 1)];
  out.push(
    ...table([
      ['Latency (ms)', 'p50', 'p90', 'p99', 'max', 'mean'],
      lat(`chat turn, POST …/messages (${o.latencyMs.count} turns)`, o.latencyMs),
      lat('admin turn trail, GET /v1/admin/turns/{id}', o.trailMs),
    ]),
  );
  out.push(
    `throughput: ${o.ok} turns in ${fmt(r.wallMs / 1000, 1)} s of replay = ${fmt(o.turnsPerSec, 1)} turns/s ` +
      '(sequential: one user at a time, as the virtual clock is shared; onboarding, clock moves and trail reads included)',
  );
  out.push('');

  const s = o.style;
  out.push(
    ...table([
      ['Persona bands, measured by the eval (§10.4, §10.5)', 'replies', 'share'],
      ['replies checked', String(s.checked), ''],
      ['emoji_count out of the emoji_freq band', String(s.emojiOut), pct(s.emojiOut, s.checked)],
      ['sentences out of the msg_length_pref band', String(s.sentencesOut), pct(s.sentencesOut, s.checked)],
      ['OUT OF BAND (either; expected 0)', String(s.outOfBand), pct(s.outOfBand, s.checked)],
      ['  of which fixed replies (refusal, crisis_safe; gate-exempt)', String(s.outOfBandFixed), ''],
      ['sentences out of band, strict reading (blank-only empty, every token a word)', String(s.strictSentencesOut), pct(s.strictSentencesOut, s.checked)],
      ["eval's verdict ≠ orchestrator's gate on the sent reply", String(s.gateDisagreements), pct(s.gateDisagreements, s.checked)],
    ]),
  );
  for (const e of s.examples) out.push(`  ${e.sampleId} ${e.diaId} (${e.outcome}; ${e.why}): ${JSON.stringify(e.reply)}`);
  out.push('');

  const blocked = Object.entries(o.promotionBlockedBy).sort((a, b) => b[1] - a[1]);
  out.push(`turns whose promotion (§11.5) each condition blocked: ${blocked.map(([k, v]) => `${k} ×${v}`).join(', ') || 'none'}`);
  out.push(`messages truncated to 4,000 chars: ${o.truncations}; session dates earlier than the previous one (gap clamped to 0): ${o.clampedGaps}`);
  out.push(
    `HTTP: ${o.http.requests} requests, ${o.http.errors} failed (expected 0)` +
      (o.http.errors > 0 ? `: ${Object.entries(o.http.byKind).map(([k, v]) => `${k} ×${v}`).join(', ')}` : '') +
      (o.failed > 0 ? `; ${o.failed} turn(s) without a reply` : ''),
  );
  return out.join('\n');
}
