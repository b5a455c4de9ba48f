// Companion self-consistency on real data (issue 16): for every DECODE human–bot
// dialogue, the bot's turns go in order as companion statements into a fresh
// in-memory belief graph, and the dialogue is flagged when the LAST bot turn
// makes a conflict edge (§4.15). Accuracy, precision, recall and F1 against
// is_contradiction, for "contradiction or tension" and "contradiction only";
// the RCT set (all consistent, persona lines seeded first) gives the
// false-positive rate. Beside it, the anchor: the best structured model of the
// DECODE paper on the same human–bot set.
//
//   pnpm eval:decode [--data DIR] [--set both|human-bot|rct] [--limit N] [--json FILE]
//
// Offline by default (rules atomizer, local embeddings). With LLM_BASE_URL set,
// the LLM atomizer and the configured embeddings are used instead. The data is
// read where it lies (../shared/data/decode beside the repository) and never
// copied; the report names dialogues by id only.
import { statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import { extractorVersion, InMemoryBeliefGraph } from '@hearth/beliefs';
import { ConfigError } from '@hearth/config';
import { createChatClient, createEmbeddingClient, createLocalEmbedder, loadLlmConfig, type LlmConfig } from '@hearth/llm';
import { LOCAL_EMBEDDING } from '../../services/belief-graph/src/config.js';
import { intArg, log } from '../bench/lib/cli.js';
import { createProgress } from '../bench/lib/progress.js';
import { DecodeFormatError, HUMAN_BOT_FILE, parseJsonl, planAll, RCT_FILE, type DecodeSet, type DialoguePlan } from './lib/decode-data.js';
import { createLlmGraph, type LlmGraphStats } from './lib/decode-llm.js';
import { renderDecodeReport, type Anchor, type DecodeReport } from './lib/decode-report.js';
import { runDialogue, summarizeSet, type CompanionGraph, type DialogueResult, type SetSummary } from './lib/decode-run.js';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
/** DECODE beside the repository (../shared/data/README.md). */
const DEFAULT_DATA_DIR = resolve(REPO_ROOT, '..', 'shared', 'data', 'decode');

/**
 * The anchor of issue 16: the DECODE paper's best structured (utterance-based)
 * detector on its Human-Bot test set. See ANCHOR.note for what could and could
 * not be confirmed from the paper here.
 */
export const ANCHOR: Anchor = {
  model: 'best structured (utterance-based) detector trained on DECODE',
  // Not confirmed: the paper's results table could not be read from here (see note). Fill in with its table and page once checked.
  humanBotAccuracy: null,
  source: 'Nie, Williamson, Bansal, Kiela, Weston: "I like fish, especially dolphins: Addressing Contradictions in Dialogue Modeling", ACL-IJCNLP 2021, pp. 1699–1713 (arXiv 2012.13391)',
  note: 'Only the abstract could be read (arXiv / ACL Anthology / ParlAI projects/contradiction): the structured utterance-based approach "is more robust and transferable" on out-of-distribution (Human-Bot) dialogues than the unstructured one; its Human-Bot accuracy figure was not confirmed.',
};

interface Options {
  data: string;
  set: 'both' | DecodeSet;
  limit?: number;
  json?: string;
}

const program: Command = new Command('eval:decode')
  .description("Feeds each DECODE dialogue's companion turns into a fresh belief graph and scores whether the conflict engine flags the last turn")
  .option('--data <dir>', `the DECODE directory holding ${HUMAN_BOT_FILE} and ${RCT_FILE}`, DEFAULT_DATA_DIR)
  .option(
    '--set <set>',
    'which set: both, human-bot or rct',
    (v) => {
      if (v !== 'both' && v !== 'human-bot' && v !== 'rct') throw new InvalidArgumentError('expected both, human-bot or rct');
      return v;
    },
    'both',
  )
  .option('--limit <n>', 'at most this many dialogues of each set, from the first (default: all)', intArg(1))
  .option('--json <file>', 'also write the report (with every dialogue’s result) as JSON')
  .parse();

const opts = program.opts<Options>();

/** The data directory, or a clear exit when it is not there. */
function dataDir(dir: string): string {
  const p = resolve(dir);
  try {
    if (statSync(p).isDirectory()) return p;
  } catch {
    // fall through
  }
  return program.error(
    `--data ${dir}: no such directory. eval:decode reads DECODE's ${HUMAN_BOT_FILE} and ${RCT_FILE} from ../shared/data/decode beside the repository (see ../shared/data/README.md); pass --data <dir> if they live elsewhere.`,
    { exitCode: 2 },
  );
}

async function loadPlans(dir: string, set: DecodeSet): Promise<{ file: string; plans: DialoguePlan[]; skipped: Record<string, number> }> {
  const file = join(dir, set === 'human-bot' ? HUMAN_BOT_FILE : RCT_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    return program.error(`${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message} (expected DECODE's ${set} set in --data)`, { exitCode: 2 });
  }
  try {
    const { plans, skipped } = planAll(parseJsonl(text, file), set);
    return { file, plans: opts.limit ? plans.slice(0, opts.limit) : plans, skipped };
  } catch (err) {
    if (err instanceof DecodeFormatError) return program.error(err.message, { exitCode: 2 });
    throw err;
  }
}

function llmConfig(): LlmConfig | null {
  try {
    const cfg = loadLlmConfig();
    return cfg.chat ? cfg : null;
  } catch (err) {
    if (err instanceof ConfigError) return program.error(`LLM configuration: ${err.message}`, { exitCode: 2 });
    throw err;
  }
}

async function main(): Promise<number> {
  const started = performance.now();
  const dir = dataDir(opts.data);
  const sets: DecodeSet[] = opts.set === 'both' ? ['human-bot', 'rct'] : [opts.set];

  const llm = llmConfig();
  const stats: LlmGraphStats = { atomizerCalls: 0, atomizerFailures: 0 };
  let newGraph: () => CompanionGraph;
  let path: DecodeReport['path'];
  if (llm?.chat && llm.embeddings) {
    const chat = createChatClient(llm.chat);
    const embedder = createEmbeddingClient(llm.embeddings);
    newGraph = () => createLlmGraph(chat, embedder, stats);
    path = { atomizer: 'llm', embedder: embedder.model, extractorVersion: extractorVersion({ models: [`${chat.provider}/${chat.model}`, embedder.model] }), llm: `${chat.model} at ${llm.chat.baseUrl}` };
  } else {
    newGraph = () => new InMemoryBeliefGraph();
    const local = createLocalEmbedder(LOCAL_EMBEDDING);
    path = { atomizer: 'rules', embedder: local.model, extractorVersion: extractorVersion({ models: ['rules', local.model] }), llm: 'not configured (LLM_BASE_URL unset): offline rules atomizer and local embeddings' };
  }
  log(`eval:decode: ${path.atomizer} atomizer, ${path.embedder} embeddings; LLM path: ${path.llm}`);

  const summaries: Partial<Record<DecodeSet, SetSummary>> = {};
  const results: DialogueResult[] = [];
  const files: Partial<Record<DecodeSet, string>> = {};
  const skipped: Record<string, Record<string, number>> = {};
  for (const set of sets) {
    const { file, plans, skipped: why } = await loadPlans(dir, set);
    files[set] = relative(REPO_ROOT, file) || file;
    if (Object.keys(why).length) skipped[set] = why;
    log(`${set}: ${plans.length} dialogues from ${files[set]}`);
    const progress = createProgress(plans.length, set, 'dialogues');
    const setResults: DialogueResult[] = [];
    for (const plan of plans) {
      // One graph per dialogue (holder companion): no belief leaks between dialogues.
      setResults.push(await runDialogue(plan, newGraph()));
      progress.tick(0);
    }
    progress.stop();
    summaries[set] = summarizeSet(set, setResults);
    results.push(...setResults);
  }
  if (path.atomizer === 'llm') path.llm += `; atomizer calls ${stats.atomizerCalls}, failures (rules stood in) ${stats.atomizerFailures}`;

  const report: DecodeReport = {
    startedAt: new Date(Date.now() - (performance.now() - started)).toISOString(),
    data: { dir: relative(REPO_ROOT, dir) || dir, humanBot: files['human-bot'] ?? '', rct: files.rct ?? '', limit: opts.limit ?? null, skipped },
    path,
    humanBot: summaries['human-bot'] ?? null,
    rct: summaries.rct ?? null,
    anchor: ANCHOR,
    wallMs: performance.now() - started,
  };
  process.stdout.write(`${renderDecodeReport(report)}\n`);
  if (opts.json) {
    await writeFile(resolve(opts.json), JSON.stringify({ ...report, dialogues: results }, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2));
    log(`wrote ${opts.json}`);
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`eval:decode failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
