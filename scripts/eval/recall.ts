// Memory recall on real conversations: each LoCoMo sample (speaker_a as the
// user) lived through the HTTP API on the virtual clock as eval:conversations
// does; then, in the same conversation, every question whose evidence is the
// user's own turns asked back in the first person ("Do you remember: when did I
// go to the beekeeping workshop?"). Reports, per conversation and QA category,
// the memories kept, extraction coverage, surfaced recall, surfaced precision in
// ordinary turns, temporal date accuracy and answer presence (issue 15).
//
//   pnpm eval:recall [--conversations 1-5|6-10|1,3] [--turns N] [--data DIR] [--url BASE] [--json FILE]
//
// Without --url it starts Hearth (scripts/start) under a fresh namespace on
// NATS_URL and DATABASE_URL, with the rate limits off, and removes that
// namespace's streams and schemas at the end, also after Ctrl-C. The data is
// read where it lies (../shared/data beside the repository) and never copied.
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { intArg, log } from '../bench/lib/cli.js';
import { createProgress, type Progress } from '../bench/lib/progress.js';
import { CountingApi } from './lib/api.js';
import { baseUrlArg, checkVirtualClock, handleInterrupts, openTarget, type HearthChild } from './lib/hearth-process.js';
import { LOCOMO_FILE, loadLocomo, planConversation, type PlannedConversation } from './lib/locomo.js';
import { alignmentAdvance, isPrecision, type CalendarShift, type StatedDate } from './lib/recall-dates.js';
import { AUDIT_FILE, loadAudit, parseConversationList, selectItems, sessionDateOf, type RecallItem, type Skipped } from './lib/recall-items.js';
import { evaluateConversation, totals, type AskedItem, type MemoryView, type OrdinaryTurn } from './lib/recall-metrics.js';
import { toRecallQuestion } from './lib/recall-question.js';
import { renderRecallReport, type RecallConversationReport, type RecallReport } from './lib/recall-report.js';
import { replayConversation, type ReplaySession, type TurnExchange } from './lib/replay.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** The shared data directory beside the repository (../shared/data/README.md). */
const DEFAULT_DATA_DIR = resolve(REPO_ROOT, '..', 'shared', 'data');
/** LoCoMo has ten conversations. */
const DEFAULT_CONVERSATIONS = '1-10';

interface Options {
  data: string;
  conversations: string;
  turns?: number;
  lineGap: number;
  questionGap: number;
  url?: string;
  json?: string;
}

const program: Command = new Command('eval:recall')
  .description(
    "Replays LoCoMo conversations through Hearth's HTTP API on the virtual clock, asks the questions about the user's own turns as recall questions, " +
      'and reports extraction coverage, surfaced recall and precision, temporal dates and answer presence',
  )
  .option('--data <path>', `the shared data directory holding ${LOCOMO_FILE} and ${AUDIT_FILE} (or locomo10.json itself)`, DEFAULT_DATA_DIR)
  .option('--conversations <list>', 'LoCoMo conversations, 1-based: a range or a list (1-5, 6-10, 1,3,7)', DEFAULT_CONVERSATIONS)
  .option('--turns <n>', 'at most this many user turns per conversation (default: all)', intArg(1))
  .option('--line-gap <seconds>', 'virtual seconds between two lines of one session', intArg(0, 3600), 30)
  // Well inside the 4 h that start a new session (turn-pipeline §11), even for LoCoMo's ~90 questions of one conversation.
  .option('--question-gap <seconds>', 'virtual seconds before each recall question', intArg(0, 120), 30)
  .option('--url <base>', 'use a Hearth already running there in dev mode instead of starting one')
  .option('--json <file>', 'also write the full report (every question) as JSON')
  .parse();

const opts = program.opts<Options>();
if (opts.url) opts.url = baseUrlArg(opts.url);


/** locomo10.json and the audit beside it, from --data (the shared data directory, or locomo10.json itself). */
function dataPaths(data: string): { locomo: string; audit: string } {
  const p = resolve(data);
  try {
    if (statSync(p).isDirectory()) return { locomo: join(p, LOCOMO_FILE), audit: join(p, AUDIT_FILE) };
    return { locomo: p, audit: join(dirname(p), basename(AUDIT_FILE)) };
  } catch {
    return program.error(`--data ${data}: no such file or directory (expected the shared data directory holding ${LOCOMO_FILE})`);
  }
}

const memoriesBody = z.object({
  memories: z.array(
    z.looseObject({
      memory_id: z.string(),
      type: z.string(),
      memory_key: z.string(),
      memory_value: z.string().nullable(),
      status: z.string(),
      source_message_ids: z.array(z.string()),
      occurred_on: z.string().nullable().optional(),
      occurred_precision: z.string().nullable().optional(),
    }),
  ),
});
const timelineBody = z.object({ events: z.array(z.looseObject({ type: z.string(), payload: z.unknown() })) });
const recordedPayload = z.looseObject({ memoryId: z.string(), occurredOn: z.string().optional(), occurredPrecision: z.string().optional() });

async function memories(session: ReplaySession, all: boolean): Promise<MemoryView[]> {
  return memoriesBody.parse(await session.get(`/v1/me/memories${all ? '?status=all' : ''}`)).memories;
}

/**
 * Stated dates from the MemoryRecorded events of the user's admin timeline: read
 * when GET /v1/me/memories does not carry occurred_on.
 */
async function statedDatesFromTimeline(session: ReplaySession): Promise<Map<string, StatedDate>> {
  const out = new Map<string, StatedDate>();
  const { events } = timelineBody.parse(await session.get(`/v1/admin/users/${session.userId}/timeline`, 'admin'));
  for (const e of events) {
    if (!e.type.endsWith('.MemoryRecorded')) continue;
    const p = recordedPayload.safeParse(e.payload);
    if (p.success && p.data.occurredOn && p.data.occurredPrecision && isPrecision(p.data.occurredPrecision)) {
      out.set(p.data.memoryId, { on: p.data.occurredOn, precision: p.data.occurredPrecision });
    }
  }
  return out;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const tokenBody = z.object({ token: z.string() });
const clockBody = z.object({ now: z.string() });

/**
 * Moves the virtual clock to the conversation's first session date and time of
 * day, some whole years ahead (the clock only moves forward), so that what the
 * user says ("in May", "last Saturday", "yesterday") falls on the dataset's
 * month and weekday pattern; returns how far the two calendars then differ.
 */
async function alignClock(api: CountingApi, firstSessionMs: number): Promise<CalendarShift> {
  // Any dev token may move the clock.
  const { token } = tokenBody.parse(await api.call('POST', '/v1/dev/token', { body: {} }));
  const now = Date.parse(clockBody.parse(await api.call('GET', '/v1/dev/clock', { token })).now);
  const { seconds, years } = alignmentAdvance(now, firstSessionMs);
  const moved = Date.parse(clockBody.parse(await api.call('POST', '/v1/dev/clock', { token, body: { advance_seconds: seconds } })).now);
  return { years, days: Math.round((moved - firstSessionMs) / DAY_MS) };
}

interface Planned {
  number: number;
  sample: Awaited<ReturnType<typeof loadLocomo>>[number];
  plan: PlannedConversation;
  items: RecallItem[];
  skipped: Skipped;
  /** Items whose evidence lies within the planned turns: the questions expected. */
  expectedQuestions: number;
}

/** One conversation: replay, memories, questions, then every figure. */
async function runConversation(p: Planned, api: CountingApi, progress: Progress, interrupted: () => boolean): Promise<RecallConversationReport> {
  const turns: (OrdinaryTurn & { exchange: TurnExchange })[] = [];
  const messageIdOf = new Map<string, string>();
  let kept: MemoryView[] = [];
  let all: MemoryView[] = [];
  let statedDates = new Map<string, StatedDate>();
  let datesFrom: RecallConversationReport['datesFrom'] = 'none';
  const asked: AskedItem[] = [];
  let notReplayed = 0;
  const shift = await alignClock(api, p.plan.sessions[0]!.dateMs);

  const result = await replayConversation(p.plan, {
    api,
    lineGapSeconds: opts.lineGap,
    stopRequested: interrupted,
    onTurn: (rec, exchange) => {
      progress.tick(api.errorCount);
      if (!exchange) return;
      messageIdOf.set(rec.diaId, exchange.messageId);
      turns.push({ diaId: rec.diaId, text: exchange.text, surfaced: [], exchange });
    },
    afterSessions: async (session) => {
      kept = await memories(session, false);
      const lastSession = p.plan.sessions.at(-1)?.number ?? 0;
      for (const item of p.items) {
        const evidenceIds = item.evidence.map((d) => messageIdOf.get(d));
        if (evidenceIds.some((id) => id === undefined)) {
          notReplayed++;
          continue;
        }
        if (interrupted()) break;
        await session.advance(opts.questionGap);
        const question = toRecallQuestion(item.question, p.plan.user);
        const { rec, exchange } = await session.send(question, { diaId: item.id, session: lastSession });
        asked.push({
          item,
          question,
          evidenceMessageIds: evidenceIds as string[],
          refMs: sessionDateOf(p.sample, item.evidence[0]!) ?? p.plan.sessions[0]!.dateMs,
          ok: rec.ok,
          ...(rec.outcome !== undefined ? { outcome: rec.outcome, draftFailures: rec.draftFailures } : {}),
          ...(exchange ? { reply: exchange.reply } : {}),
          surfacedMemoryIds: exchange?.surfacedMemoryIds ?? [],
          retrievedMemoryIds: exchange?.retrieved.map((m) => m.memoryId) ?? [],
          relevanceOf: Object.fromEntries(exchange?.retrieved.map((m) => [m.memoryId, m.relevance]) ?? []),
        });
        progress.tick(api.errorCount);
      }
      all = await memories(session, true);
      if (kept.some((m) => 'occurred_on' in m)) {
        datesFrom = 'memories';
      } else {
        statedDates = await statedDatesFromTimeline(session);
        datesFrom = 'timeline';
      }
    },
  });

  // A surfaced memory's value: what the turn retrieved, else the memory list's (null once invalidated).
  const valueOf = new Map(all.map((m) => [m.memory_id, m.memory_value] as const));
  const ordinary: OrdinaryTurn[] = turns.map(({ exchange, ...t }) => ({
    ...t,
    surfaced: exchange.surfacedMemoryIds.map((id) => ({
      memoryId: id,
      value: exchange.retrieved.find((m) => m.memoryId === id && m.memoryValue !== '')?.memoryValue ?? valueOf.get(id) ?? null,
    })),
  }));
  const recall = evaluateConversation({ sampleId: p.plan.sampleId, user: p.plan.user, turns: ordinary, kept, all, statedDates, shift, asked });
  return {
    ...recall,
    shift,
    plannedTurns: p.plan.userTurns,
    turnsOk: result.turnsOk,
    skipped: { ...p.skipped, notReplayed },
    datesFrom,
    turns: turns.map(({ diaId, exchange }, i) => ({ diaId, messageId: exchange.messageId, reply: exchange.reply, surfaced: ordinary[i]!.surfaced })),
    ...(result.aborted ? { aborted: result.aborted } : {}),
  };
}

const interrupts = handleInterrupts();
let hearth: HearthChild | undefined;

async function main(): Promise<number> {
  const paths = dataPaths(opts.data);
  const samples = await loadLocomo(paths.locomo);
  let numbers: number[];
  try {
    numbers = parseConversationList(opts.conversations, samples.length);
  } catch (err) {
    throw new InvalidArgumentError(`--conversations: ${(err as Error).message}`);
  }
  const audited = await loadAudit(paths.audit, samples);
  const planned: Planned[] = numbers.map((n) => {
    const sample = samples[n - 1]!;
    const plan = planConversation(sample, opts.turns);
    const { items, skipped } = selectItems(sample, n - 1, audited);
    const replayed = new Set(plan.sessions.flatMap((s) => s.lines.map((l) => l.diaId)));
    return { number: n, sample, plan, items, skipped, expectedQuestions: items.filter((i) => i.evidence.every((d) => replayed.has(d))).length };
  });
  const turnsTotal = planned.reduce((n, p) => n + p.plan.userTurns, 0);
  const questionsTotal = planned.reduce((n, p) => n + p.expectedQuestions, 0);
  const shownFile = relative(REPO_ROOT, paths.locomo).startsWith('..') ? paths.locomo : relative(REPO_ROOT, paths.locomo);
  log(`LoCoMo ${paths.locomo}: conversation(s) ${numbers.join(',')}, ${turnsTotal} user turns, ${questionsTotal} recall questions`);

  let target: RecallReport['target'];
  try {
    ({ target, hearth } = await openTarget(opts.url, (m) => program.error(m), interrupts));
    const api = new CountingApi(target.url);
    await checkVirtualClock(api);

    const startedAt = new Date().toISOString();
    const progress = createProgress(turnsTotal + questionsTotal, 'turns and questions');
    const conversations: RecallConversationReport[] = [];
    const t0 = performance.now();
    // One conversation at a time: the virtual clock is shared by every user.
    for (const p of planned) {
      if (interrupts.requested()) break;
      conversations.push(await runConversation(p, api, progress, interrupts.requested));
    }
    progress.stop();
    const wallMs = performance.now() - t0;

    const byKind = Object.fromEntries(api.errors);
    const report: RecallReport = {
      startedAt,
      target,
      data: { file: shownFile, conversations: numbers, maxTurns: opts.turns ?? null, lineGapSeconds: opts.lineGap, questionGapSeconds: opts.questionGap },
      wallMs,
      interrupted: interrupts.requested(),
      conversations,
      totals: totals(conversations),
      http: { requests: api.requests, errors: api.errorCount, rateLimited: api.rateLimited, byKind },
    };
    process.stdout.write(`${renderRecallReport(report)}\n`);
    if (opts.json) {
      await writeFile(opts.json, `${JSON.stringify(report, null, 2)}\n`);
      log(`full report written to ${opts.json}`);
    }
    log(`done in ${(wallMs / 1000).toFixed(1)} s of replay and questions`);
    if (report.interrupted) return 130;
    return report.http.errors > 0 || conversations.some((c) => c.aborted) ? 1 : 0;
  } finally {
    await hearth?.stop();
  }
}

// Exit explicitly: keep-alive sockets must not hold the process.
main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);
