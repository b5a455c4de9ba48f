// §7 pilot_annotation_export / pilot_annotation_metrics: what the offline
// extractor makes of real sentences, for a human to correct, and how far it is
// from that correction.
//
//   pnpm beliefs:annotate export --input lines.txt --out pilot.jsonl [--holder user|companion] [--sample N --seed S]
//   pnpm beliefs:annotate metrics --gold pilot.jsonl [--json FILE]
//
// export: each non-blank line becomes {text, holder, atoms, gold: null}, `atoms`
// the extractor's prediction [{atom_text, belief_type, polarity}], `gold` for the
// annotator to fill with the atoms the line really holds (affirmative atom text,
// negation in polarity, as §4.3's schema: "i am patient" + deny). metrics: runs
// the CURRENT extractor on every annotated line (the file's `atoms` are ignored,
// so one gold file measures every later version), matches predicted and gold
// atoms on (canonical hash, polarity) and prints precision / recall / F1, overall
// and per belief type, the type accuracy of matched atoms, and the extractor
// version (§6) the figures belong to.
import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Command, InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { BELIEF_TYPES, canonicalize, decompose, extractorVersion, type BeliefType, type Holder, type Polarity } from '@hearth/beliefs';
import { createLocalEmbedder } from '@hearth/llm';
import { seededRandom } from '@hearth/testing';
import { LOCAL_EMBEDDING } from '../services/belief-graph/src/config.js';

// ---------------------------------------------------------------- pure helpers

export interface AnnotatedAtom {
  atom_text: string;
  belief_type: BeliefType;
  polarity: Polarity;
}

export interface AnnotationRecord {
  text: string;
  holder: Holder;
  /** The extractor's prediction at export time. */
  atoms: AnnotatedAtom[];
  /** Filled by the annotator; null until then. */
  gold: AnnotatedAtom[] | null;
}

const atomSchema = z.object({
  atom_text: z.string().min(1),
  belief_type: z.enum(BELIEF_TYPES),
  polarity: z.enum(['affirm', 'deny']),
});

export const goldLineSchema = z.looseObject({
  text: z.string(),
  holder: z.enum(['user', 'companion']).default('user'),
  gold: z.array(atomSchema).nullable(),
});
export type GoldLine = z.infer<typeof goldLineSchema>;

/** An atom as matching sees it. */
export interface AtomKey {
  hash: string;
  polarity: Polarity;
  beliefType: BeliefType;
}

export function keyOfGold(a: AnnotatedAtom): AtomKey {
  return { hash: canonicalize(a.atom_text).canonicalHash, polarity: a.polarity, beliefType: a.belief_type };
}

export interface Matching {
  /** [predicted, gold] pairs with equal (hash, polarity). */
  pairs: [AtomKey, AtomKey][];
  unmatchedPredicted: AtomKey[];
  unmatchedGold: AtomKey[];
}

/**
 * One-to-one matching of one line's atoms on (canonical hash, polarity). Among
 * gold atoms of the same key, one of the same belief type is taken first, so a
 * duplicate key never costs type accuracy by the order it was written in.
 */
export function matchAtoms(predicted: readonly AtomKey[], gold: readonly AtomKey[]): Matching {
  const free = [...gold];
  const pairs: [AtomKey, AtomKey][] = [];
  const unmatchedPredicted: AtomKey[] = [];
  for (const p of predicted) {
    const same = (g: AtomKey) => g.hash === p.hash && g.polarity === p.polarity;
    let i = free.findIndex((g) => same(g) && g.beliefType === p.beliefType);
    if (i < 0) i = free.findIndex(same);
    if (i < 0) unmatchedPredicted.push(p);
    else pairs.push([p, free.splice(i, 1)[0]!]);
  }
  return { pairs, unmatchedPredicted, unmatchedGold: free };
}

export interface Prf {
  /** Matched predicted atoms / matched gold atoms (equal overall; per type they may differ). */
  matchedPredicted: number;
  matchedGold: number;
  predicted: number;
  gold: number;
  /** NaN when nothing was predicted / nothing is gold. */
  precision: number;
  recall: number;
  /**
   * The harmonic mean of P and R. When one of them is undefined (nothing predicted, or no gold):
   * 0 if the other is 0, else NaN — a type only ever predicted for atoms gold typed otherwise has no F1.
   */
  f1: number;
}

const div = (a: number, b: number): number => (b === 0 ? Number.NaN : a / b);

export function prf(c: { matchedPredicted: number; matchedGold: number; predicted: number; gold: number }): Prf {
  const precision = div(c.matchedPredicted, c.predicted);
  const recall = div(c.matchedGold, c.gold);
  let f1: number;
  if (Number.isFinite(precision) && Number.isFinite(recall)) f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  else f1 = precision === 0 || recall === 0 ? 0 : Number.NaN;
  return { ...c, precision, recall, f1 };
}

export interface TypeFigures extends Prf {
  /** Of the gold atoms of this type that matched, how many the extractor typed the same. */
  typeCorrect: number;
  typeAccuracy: number;
}

export interface Scores {
  lines: number;
  overall: Prf & { typeCorrect: number; typeAccuracy: number };
  /** Precision by the PREDICTED type, recall and type accuracy by the GOLD type. */
  byType: Record<BeliefType, TypeFigures>;
}

/** Sums the matchings of every annotated line into overall and per-type figures. */
export function score(matchings: readonly Matching[]): Scores {
  const count = () => ({ predicted: 0, gold: 0, matchedPredicted: 0, matchedGold: 0, typeCorrect: 0 });
  const all = count();
  const per = Object.fromEntries(BELIEF_TYPES.map((t) => [t, count()])) as Record<BeliefType, ReturnType<typeof count>>;
  for (const m of matchings) {
    for (const [p, g] of m.pairs) {
      all.predicted++;
      all.gold++;
      all.matchedPredicted++;
      all.matchedGold++;
      per[p.beliefType].predicted++;
      per[p.beliefType].matchedPredicted++;
      per[g.beliefType].gold++;
      per[g.beliefType].matchedGold++;
      if (p.beliefType === g.beliefType) {
        all.typeCorrect++;
        per[g.beliefType].typeCorrect++;
      }
    }
    for (const p of m.unmatchedPredicted) {
      all.predicted++;
      per[p.beliefType].predicted++;
    }
    for (const g of m.unmatchedGold) {
      all.gold++;
      per[g.beliefType].gold++;
    }
  }
  const withType = (c: ReturnType<typeof count>) => ({ ...prf(c), typeCorrect: c.typeCorrect, typeAccuracy: div(c.typeCorrect, c.matchedGold) });
  return {
    lines: matchings.length,
    overall: withType(all),
    byType: Object.fromEntries(BELIEF_TYPES.map((t) => [t, withType(per[t])])) as Record<BeliefType, TypeFigures>,
  };
}

/** `n` items drawn without replacement by a seeded shuffle, returned in their original order. */
export function sample<T>(items: readonly T[], n: number, seed: number): T[] {
  if (n >= items.length) return [...items];
  const rand = seededRandom(seed);
  const idx = items.map((_, i) => i);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [idx[i], idx[j]] = [idx[j]!, idx[i]!];
  }
  return idx
    .slice(0, n)
    .sort((a, b) => a - b)
    .map((i) => items[i]!);
}

/** Distinct non-blank trimmed lines, in file order. */
export function inputLines(text: string): string[] {
  return [...new Set(text.split('\n').map((l) => l.trim()).filter((l) => l !== ''))];
}

// ---------------------------------------------------------------- extractor

/** The conversation every annotated line is read in (it only names the §4.1 context id). */
const ANNOTATION_CONVERSATION = 'annotation';

/** The offline extractor's version (§6), as belief-graph computes it without an LLM: the rules atomizer and the local embedder. */
export const OFFLINE_EXTRACTOR_VERSION = extractorVersion({ models: ['rules', createLocalEmbedder(LOCAL_EMBEDDING).model] });

/** The current extractor's atoms of one text (phases 1–6, offline rules). */
export function predict(text: string, holder: Holder): { atoms: AnnotatedAtom[]; keys: AtomKey[] } {
  const d = decompose({ text, holder, conversationId: ANNOTATION_CONVERSATION });
  return {
    atoms: d.atoms.map((a) => ({ atom_text: a.atomText, belief_type: a.beliefType, polarity: a.polarity })),
    keys: d.atoms.map((a) => ({ hash: a.canonicalHash, polarity: a.polarity, beliefType: a.beliefType })),
  };
}

// ---------------------------------------------------------------- report

const pct = (v: number): string => (Number.isFinite(v) ? `${(100 * v).toFixed(1)}%` : 'n/a');

export function renderScores(s: Scores, version: string, file: string, skipped: number): string {
  const o = s.overall;
  const lines = [
    `extraction F1 over ${file}: ${s.lines} annotated lines${skipped ? ` (${skipped} without gold, skipped)` : ''}; extractor version ${version}`,
    '',
    `overall   predicted ${o.predicted}   gold ${o.gold}   matched ${o.matchedGold}   precision ${pct(o.precision)}   recall ${pct(o.recall)}   F1 ${pct(o.f1)}   type accuracy on matched ${pct(o.typeAccuracy)} (${o.typeCorrect}/${o.matchedGold})`,
    '',
    `${'belief type'.padEnd(18)} ${'pred'.padStart(5)} ${'gold'.padStart(5)} ${'P'.padStart(7)} ${'R'.padStart(7)} ${'F1'.padStart(7)} ${'type acc'.padStart(9)}`,
  ];
  for (const t of BELIEF_TYPES) {
    const f = s.byType[t];
    if (f.predicted === 0 && f.gold === 0) continue;
    lines.push(`${t.padEnd(18)} ${String(f.predicted).padStart(5)} ${String(f.gold).padStart(5)} ${pct(f.precision).padStart(7)} ${pct(f.recall).padStart(7)} ${pct(f.f1).padStart(7)} ${pct(f.typeAccuracy).padStart(9)}`);
  }
  lines.push('', 'matched on (canonical hash, polarity); P by predicted type, R and type accuracy by gold type');
  return lines.join('\n');
}

// ---------------------------------------------------------------- CLI

function log(msg: string): void {
  process.stderr.write(`[beliefs-annotate] ${msg}\n`);
}

function intArg(min: number): (v: string) => number {
  return (v) => {
    const n = Number(v);
    if (v.trim() === '' || !Number.isInteger(n) || n < min) throw new InvalidArgumentError(`expected an integer ≥ ${min}`);
    return n;
  };
}

async function readText(file: string, what: string, fail: (m: string) => never): Promise<string> {
  try {
    return await readFile(resolve(file), 'utf8');
  } catch (err) {
    return fail(`${what} ${file}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (err as Error).message}`);
  }
}

async function exportCommand(opts: { input: string; out: string; holder: Holder; sample?: number; seed: number }, fail: (m: string) => never): Promise<void> {
  const all = inputLines(await readText(opts.input, '--input', fail));
  const lines = opts.sample === undefined ? all : sample(all, opts.sample, opts.seed);
  const records: AnnotationRecord[] = lines.map((text) => ({ text, holder: opts.holder, atoms: predict(text, opts.holder).atoms, gold: null }));
  await writeFile(resolve(opts.out), records.map((r) => JSON.stringify(r)).join('\n') + (records.length ? '\n' : ''));
  const withAtoms = records.filter((r) => r.atoms.length > 0).length;
  log(`${records.length} of ${all.length} lines → ${opts.out} (${withAtoms} with at least one predicted atom); extractor version ${OFFLINE_EXTRACTOR_VERSION}`);
}

async function metricsCommand(opts: { gold: string; json?: string }, fail: (m: string) => never): Promise<void> {
  const text = await readText(opts.gold, '--gold', fail);
  const matchings: Matching[] = [];
  let skipped = 0;
  const rows = text.split('\n');
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!.trim();
    if (row === '') continue;
    let raw: unknown;
    try {
      raw = JSON.parse(row);
    } catch (err) {
      fail(`--gold ${opts.gold}:${i + 1}: not JSON (${(err as Error).message})`);
    }
    const parsed = goldLineSchema.safeParse(raw);
    if (!parsed.success) fail(`--gold ${opts.gold}:${i + 1}: ${parsed.error.issues.map((x) => `${x.path.join('.')}: ${x.message}`).join('; ')}`);
    const line = parsed.data;
    if (line.gold === null) {
      skipped++;
      continue;
    }
    matchings.push(matchAtoms(predict(line.text, line.holder).keys, line.gold.map(keyOfGold)));
  }
  if (matchings.length === 0) fail(`--gold ${opts.gold}: no line has a gold annotation yet`);
  const s = score(matchings);
  process.stdout.write(`${renderScores(s, OFFLINE_EXTRACTOR_VERSION, opts.gold, skipped)}\n`);
  if (opts.json) await writeFile(resolve(opts.json), JSON.stringify({ extractorVersion: OFFLINE_EXTRACTOR_VERSION, file: opts.gold, skipped, ...s }, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? null : v), 2));
}

function main(): void {
  const program = new Command('beliefs:annotate').description('§7 pilot annotation: export the extractor’s atoms for a human to correct, and score the extractor against the corrections');
  const fail = (m: string): never => program.error(m, { exitCode: 2 });
  program
    .command('export')
    .description('one JSON line per input line: {text, holder, atoms (predicted), gold: null}')
    .requiredOption('--input <file>', 'a text file, one statement a line')
    .requiredOption('--out <file>', 'the JSONL to write')
    .option('--holder <holder>', 'whose statements these are: user or companion', (v) => {
      if (v !== 'user' && v !== 'companion') throw new InvalidArgumentError('expected user or companion');
      return v;
    }, 'user')
    .option('--sample <n>', 'only n lines, drawn with --seed (kept in file order)', intArg(1))
    .option('--seed <s>', 'seed of the sample', intArg(0), 1)
    .action((o: { input: string; out: string; holder: Holder; sample?: number; seed: number }) => exportCommand(o, fail));
  program
    .command('metrics')
    .description('precision / recall / F1 of the current extractor against the gold atoms, overall and per belief type')
    .requiredOption('--gold <file>', 'an exported JSONL whose `gold` fields are filled')
    .option('--json <file>', 'also write the figures as JSON')
    .action((o: { gold: string; json?: string }) => metricsCommand(o, fail));
  program.parseAsync().catch((err: unknown) => {
    log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exit(1);
  });
}

// Run only as a script (tsx scripts/beliefs-annotate.ts), not when a test imports the helpers.
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) main();
