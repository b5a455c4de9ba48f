// Real conversations through the real system: each LoCoMo sample (speaker_a as
// the user) lived through the HTTP API on the virtual clock, session by session,
// weeks apart as in the data; every turn read back from its admin decision trail.
//
//   pnpm eval:conversations [--conversations 10] [--turns N] [--data DIR] [--url BASE] [--json FILE]
//
// Without --url it starts Hearth as the README does (scripts/start) under a fresh
// namespace on NATS_URL and DATABASE_URL, and removes that namespace's streams
// and schemas at the end, also after Ctrl-C. The data is read where it lies
// (../shared/data beside the repository) and never copied.
import { statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { Command } from 'commander';
import { intArg, log } from '../bench/lib/cli.js';
import { createProgress } from '../bench/lib/progress.js';
import { CountingApi } from './lib/api.js';
import { baseUrlArg, checkVirtualClock, handleInterrupts, openTarget, type HearthChild } from './lib/hearth-process.js';
import { LOCOMO_FILE, loadLocomo, planConversation } from './lib/locomo.js';
import { replayConversation, type ConversationResult } from './lib/replay.js';
import { aggregate, renderReport, type EvalReport } from './lib/summary.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** The shared data directory beside the repository (../shared/data/README.md). */
const DEFAULT_DATA_DIR = resolve(REPO_ROOT, '..', 'shared', 'data');

interface Options {
  data: string;
  conversations: number;
  turns?: number;
  lineGap: number;
  url?: string;
  json?: string;
}

const program: Command = new Command('eval:conversations')
  .description("Replays LoCoMo's multi-session conversations through Hearth's HTTP API on the virtual clock, and reports outcomes, gates, relationship and style bands")
  .option('--data <path>', `the shared data directory holding ${LOCOMO_FILE} (or that file itself)`, DEFAULT_DATA_DIR)
  .option('--conversations <n>', 'LoCoMo samples to replay, from the first', intArg(1), 10)
  .option('--turns <n>', 'at most this many user turns per conversation (default: all)', intArg(1))
  .option('--line-gap <seconds>', 'virtual seconds between two lines of one session', intArg(0, 3600), 30)
  .option('--url <base>', 'use a Hearth already running there in dev mode instead of starting one')
  .option('--json <file>', 'also write the full report (every turn) as JSON')
  .parse();

const opts = program.opts<Options>();
if (opts.url) opts.url = baseUrlArg(opts.url);


function locomoPath(data: string): string {
  const p = resolve(data);
  try {
    return statSync(p).isDirectory() ? join(p, LOCOMO_FILE) : p;
  } catch {
    return program.error(`--data ${data}: no such file or directory (expected the shared data directory holding ${LOCOMO_FILE})`);
  }
}

const interrupts = handleInterrupts();
let hearth: HearthChild | undefined;

async function main(): Promise<number> {
  const file = locomoPath(opts.data);
  const samples = (await loadLocomo(file)).slice(0, opts.conversations);
  const plans = samples.map((s) => planConversation(s, opts.turns));
  const total = plans.reduce((n, p) => n + p.userTurns, 0);
  const shownFile = relative(REPO_ROOT, file).startsWith('..') ? file : relative(REPO_ROOT, file);
  log(`LoCoMo ${file}: ${plans.length} conversation(s), ${total} user turns`);

  let target: EvalReport['target'];
  try {
    ({ target, hearth } = await openTarget(opts.url, (m) => program.error(m), interrupts));
    const api = new CountingApi(target.url);
    await checkVirtualClock(api);

    const startedAt = new Date().toISOString();
    const progress = createProgress(total, 'user turns');
    const results: ConversationResult[] = [];
    const t0 = performance.now();
    // One conversation at a time: the virtual clock is shared by every user.
    for (const plan of plans) {
      if (interrupts.requested()) break;
      results.push(
        await replayConversation(plan, {
          api,
          lineGapSeconds: opts.lineGap,
          onTurn: () => progress.tick(api.errorCount),
          stopRequested: interrupts.requested,
        }),
      );
    }
    progress.stop();
    const wallMs = performance.now() - t0;

    const report: EvalReport = {
      startedAt,
      target,
      data: { file: shownFile, conversations: plans.length, maxTurns: opts.turns ?? null, lineGapSeconds: opts.lineGap },
      wallMs,
      interrupted: interrupts.requested(),
      conversations: results.map(({ turns: _t, ...c }) => c),
      overall: aggregate(results, wallMs, { requests: api.requests, errors: api.errors }),
      turns: results.flatMap((c) => c.turns),
    };
    process.stdout.write(`${renderReport(report)}\n`);
    if (opts.json) {
      await writeFile(opts.json, `${JSON.stringify(report, null, 2)}\n`);
      log(`full report written to ${opts.json}`);
    }
    log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s of replay`);
    if (interrupts.requested()) return 130;
    return report.overall.http.errors > 0 || report.overall.failed > 0 ? 1 : 0;
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
