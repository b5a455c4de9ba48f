// How many first-person persona sentences the rule-based memory extractors turn
// into §12.3.1 memory keys: the heuristic extractor, and the offline stand-in for
// the LLM extractor, over every unique sentence of the Multi-Session Chat personas
// (LoCoMo's msc_personas_all.json: splits of {"Speaker 1": [...], "Speaker 2": [...]}).
//
//   pnpm eval:memory-keys [--data FILE] [--limit N] [--examples N] [--json]
//
// The data is read where it lies (../shared/data beside the repository) and never
// copied. Most persona sentences name things no key holds (pets, family, looks,
// wishes), so the keyed rate is a coverage figure, not an accuracy one: read the
// example hits for precision.
import { readFile, stat } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { intArg, log } from '../bench/lib/cli.js';
import { createProgress } from '../bench/lib/progress.js';
import { extractHeuristic, extractOffline } from '@hearth/memory-rules';
import type { Candidate, MemoryType } from '@hearth/memory-rules';

const REPO_ROOT = resolve(import.meta.dirname, '../..');
const DEFAULT_DATA = resolve(REPO_ROOT, '..', 'shared', 'data', 'locomo', 'msc_personas_all.json');
/** Every sentence is read as said at this turn time (events bucket by its month). */
const AT = new Date('2024-01-15T12:00:00Z');
const TYPES: readonly MemoryType[] = ['FACT', 'PREFERENCE', 'RELATIONSHIP_EVENT', 'EMOTIONAL_PATTERN'];

interface Options {
  data: string;
  limit?: number;
  examples: number;
  json?: boolean;
}

const program: Command = new Command('eval:memory-keys')
  .description('Runs the heuristic and offline memory extractors over MSC persona sentences and reports which §12.3.1 keys they yield')
  .option('--data <path>', 'msc_personas_all.json', DEFAULT_DATA)
  .option('--limit <n>', 'at most this many unique sentences, from the first (default: all)', intArg(1))
  .option('--examples <n>', 'example misses and hits to print', intArg(0), 10)
  .option('--json', 'print the report as JSON')
  .parse();

const opts = program.opts<Options>();

const personaSchema = z.looseObject({
  'Speaker 1': z.array(z.string()).optional(),
  'Speaker 2': z.array(z.string()).optional(),
});
const fileSchema = z.record(z.string(), z.array(personaSchema));

/** Unique trimmed sentences, in file order (split by split, persona by persona). */
async function loadSentences(file: string): Promise<{ splits: Record<string, number>; sentences: string[] }> {
  try {
    if (!(await stat(file)).isFile()) throw new Error('not a file');
  } catch {
    program.error(`--data ${file}: no such file (expected LoCoMo's msc_personas_all.json, e.g. ../shared/data/locomo/msc_personas_all.json)`, { exitCode: 2 });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    program.error(`--data ${file}: not JSON (${(err as Error).message})`, { exitCode: 2 });
  }
  const parsed = fileSchema.safeParse(raw);
  if (!parsed.success) program.error(`--data ${file}: not a dict of splits of personas with "Speaker 1"/"Speaker 2" lists (${parsed.error.issues[0]?.message ?? 'invalid'})`, { exitCode: 2 });
  const seen = new Set<string>();
  const splits: Record<string, number> = {};
  for (const [split, personas] of Object.entries(parsed.data)) {
    splits[split] = personas.length;
    for (const persona of personas) {
      for (const sentence of [...(persona['Speaker 1'] ?? []), ...(persona['Speaker 2'] ?? [])]) {
        const s = sentence.trim();
        if (s !== '') seen.add(s);
      }
    }
  }
  return { splits, sentences: [...seen] };
}

interface Tally {
  /** Sentences with at least one key. */
  keyed: number;
  candidates: number;
  /** Per memory type: candidates, and sentences with at least one of that type. */
  byType: Record<MemoryType, { candidates: number; sentences: number }>;
  /** Per key prefix (fact field, pref category, event domain, emotion pattern): candidates. */
  byPrefix: Record<string, number>;
}

function emptyTally(): Tally {
  return {
    keyed: 0,
    candidates: 0,
    byType: Object.fromEntries(TYPES.map((t) => [t, { candidates: 0, sentences: 0 }])) as Tally['byType'],
    byPrefix: {},
  };
}

/** `fact:current_city`, `pref:food`, `event:travel`, `emotion:social_energy`. */
function prefixOf(key: string): string {
  return key.split(':').slice(0, 2).join(':');
}

function count(tally: Tally, candidates: readonly Candidate[]): void {
  if (candidates.length === 0) return;
  tally.keyed++;
  tally.candidates += candidates.length;
  for (const type of new Set(candidates.map((c) => c.type))) tally.byType[type].sentences++;
  for (const c of candidates) {
    tally.byType[c.type].candidates++;
    const prefix = prefixOf(c.key);
    tally.byPrefix[prefix] = (tally.byPrefix[prefix] ?? 0) + 1;
  }
}

/** `n` items spread evenly over the list (deterministic, not the first persona's). */
function spread<T>(list: readonly T[], n: number): T[] {
  if (list.length <= n) return [...list];
  return Array.from({ length: n }, (_, i) => list[Math.floor((i * list.length) / n)]!);
}

interface Example {
  sentence: string;
  keys: string[];
}

interface Report {
  data: { file: string; splits: Record<string, number>; uniqueSentences: number; evaluated: number };
  at: string;
  heuristic: Tally;
  offline: Tally;
  /** Sentences keyed by the heuristic or the offline extractor. */
  union: { keyed: number };
  examples: { misses: string[]; heuristicHits: Example[]; offlineOnlyHits: Example[] };
}

const pct = (n: number, of: number): string => `${((100 * n) / Math.max(1, of)).toFixed(1)}%`;

function render(r: Report): string {
  const n = r.data.evaluated;
  const lines = [
    `memory keys over ${r.data.file}: ${n} sentences (${r.data.uniqueSentences} unique; splits ${Object.entries(r.data.splits).map(([k, v]) => `${k} ${v}`).join(', ')} personas)`,
    '',
    `keyed (≥1 key)      heuristic ${r.heuristic.keyed} (${pct(r.heuristic.keyed, n)})   offline ${r.offline.keyed} (${pct(r.offline.keyed, n)})   heuristic ∪ offline ${r.union.keyed} (${pct(r.union.keyed, n)})`,
    '',
    'by type              heuristic: sentences (rate) / keys       offline: sentences (rate) / keys',
  ];
  for (const t of TYPES) {
    const h = r.heuristic.byType[t];
    const o = r.offline.byType[t];
    lines.push(`  ${t.padEnd(19)} ${`${h.sentences} (${pct(h.sentences, n)}) / ${h.candidates}`.padEnd(30)} ${o.sentences} (${pct(o.sentences, n)}) / ${o.candidates}`);
  }
  lines.push('', 'by key prefix        heuristic   offline');
  const prefixes = [...new Set([...Object.keys(r.heuristic.byPrefix), ...Object.keys(r.offline.byPrefix)])].sort();
  for (const p of prefixes) lines.push(`  ${p.padEnd(30)} ${String(r.heuristic.byPrefix[p] ?? 0).padStart(6)} ${String(r.offline.byPrefix[p] ?? 0).padStart(9)}`);
  const show = (title: string, list: readonly Example[]): void => {
    lines.push('', title);
    for (const e of list) lines.push(`  ${JSON.stringify(e.sentence)}`, ...e.keys.map((k) => `      ${k}`));
  };
  lines.push('', `example misses (no key from either extractor)`);
  for (const s of r.examples.misses) lines.push(`  ${JSON.stringify(s)}`);
  show('example heuristic hits', r.examples.heuristicHits);
  show('example offline-only hits', r.examples.offlineOnlyHits);
  return lines.join('\n');
}

async function main(): Promise<number> {
  const file = resolve(opts.data);
  const { splits, sentences: all } = await loadSentences(file);
  const sentences = opts.limit ? all.slice(0, opts.limit) : all;
  log(`${file}: ${all.length} unique sentences, evaluating ${sentences.length}`);

  const heuristic = emptyTally();
  const offline = emptyTally();
  let union = 0;
  const misses: string[] = [];
  const heuristicHits: Example[] = [];
  const offlineOnlyHits: Example[] = [];
  const progress = createProgress(sentences.length, 'sentences', 'sentences');
  for (const sentence of sentences) {
    const h = extractHeuristic(sentence, AT);
    const o = extractOffline(sentence, AT);
    count(heuristic, h);
    count(offline, o);
    if (h.length > 0 || o.length > 0) union++;
    if (h.length > 0) heuristicHits.push({ sentence, keys: h.map((c) => `${c.key} = ${c.value}`) });
    else if (o.length > 0) offlineOnlyHits.push({ sentence, keys: o.map((c) => `${c.key} = ${c.value}`) });
    else misses.push(sentence);
    progress.tick(0);
  }
  progress.stop();

  const report: Report = {
    // Relative to the repository, as the default (../shared/…) reads.
    data: { file: relative(REPO_ROOT, file) || file, splits, uniqueSentences: all.length, evaluated: sentences.length },
    at: AT.toISOString(),
    heuristic,
    offline,
    union: { keyed: union },
    examples: {
      misses: spread(misses, opts.examples),
      heuristicHits: spread(heuristicHits, opts.examples),
      offlineOnlyHits: spread(offlineOnlyHits, opts.examples),
    },
  };
  process.stdout.write(opts.json ? `${JSON.stringify(report, null, 2)}\n` : `${render(report)}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  },
);
