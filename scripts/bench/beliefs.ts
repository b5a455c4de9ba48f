// The belief graph's cost, offline and in-process (issue 16 "Cost"):
//   (a) statements/s through the whole offline pipeline — decompose (phases 1–6,
//       rules atomizer), local embeddings (phase 7), stepGraph (phases 8–11:
//       resolve, links, conflicts) — over generated first-person statements,
//       each user's graph growing to --per-user statements;
//   (b) the conflict check at --nodes nodes of one holder: detectConflicts of one
//       new node, and the whole stepGraph of one new atom, many samples;
//   (c) raw figures of the same run, the floor under (b): a plain cosine scan
//       over as many vectors of the same size, and a sha256 of a short string.
// No NATS, no Postgres, no LLM: decomposition and the conflict check run off the
// reply path in belief-graph, and this is their CPU cost.
//
//   pnpm bench:beliefs [--statements 4000] [--per-user 1000] [--nodes 10000] [--samples 500] [--json FILE]
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import { BELIEF_CONFIG, decompose, detectConflicts, extractorVersion, nodeViewOf, stepGraph, type NodeView, type PreparedAtom } from '@hearth/beliefs';
import { cosine, createLocalEmbedder } from '@hearth/llm';
import { LOCAL_EMBEDDING } from '../../services/belief-graph/src/config.js';
import { generateNodeTexts, generateStatements } from './lib/beliefs-corpus.js';
import { intArg, log } from './lib/cli.js';
import { createProgress } from './lib/progress.js';
import { fmt, table } from './lib/report.js';
import { perSecond, summarize, type Summary } from './lib/stats.js';

interface Options {
  statements: number;
  perUser: number;
  nodes: number;
  samples: number;
  json?: string;
}

const opts = new Command('bench:beliefs')
  .description('Offline cost of the belief graph: pipeline throughput, the conflict check at 10k nodes, and their raw floor')
  .option('--statements <n>', 'statements through the whole pipeline (a)', intArg(10, 1_000_000), 4_000)
  .option('--per-user <n>', "statements per user graph in (a): each user's graph starts empty", intArg(1, 1_000_000), 1_000)
  .option('--nodes <n>', 'nodes of the one holder in (b) and vectors in the raw scan (c)', intArg(10, 1_000_000), 10_000)
  .option('--samples <n>', 'timed samples of each operation in (b) and (c)', intArg(10, 1_000_000), 500)
  .option('--json <file>', 'also write the figures as JSON')
  .parse()
  .opts<Options>();

const embedder = createLocalEmbedder(LOCAL_EMBEDDING);
/** §6, as belief-graph computes it offline (rules atomizer, local embedder). */
const version = extractorVersion({ models: ['rules', embedder.model] });
const WARMUP = 50;

/** A series in milliseconds. */
interface Series {
  name: string;
  what: string;
  ms: Summary;
  /** Operations per second of the series' own wall time. */
  perSec: number;
}

function timed(name: string, what: string, n: number, op: (i: number) => unknown): Series {
  for (let i = 0; i < Math.min(WARMUP, n); i++) op(i);
  const ms: number[] = new Array<number>(n);
  const progress = createProgress(n, name, 'ops');
  const started = performance.now();
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    op(i);
    ms[i] = performance.now() - t0;
    progress.tick(0);
  }
  const wall = performance.now() - started;
  progress.stop();
  return { name, what, ms: summarize(ms), perSec: perSecond(n, wall) };
}

/** An operation too short for one clock reading: timed in batches of `batch`, reported per operation. */
function timedBatched(name: string, what: string, n: number, batch: number, op: (i: number) => unknown): Series {
  const s = timed(name, what, n, (i) => {
    for (let k = 0; k < batch; k++) op(i * batch + k);
  });
  const per = (v: number) => v / batch;
  return { ...s, ms: { ...s.ms, mean: per(s.ms.mean), p50: per(s.ms.p50), p90: per(s.ms.p90), p99: per(s.ms.p99), max: per(s.ms.max) }, perSec: s.perSec * batch };
}

const nodeOf = nodeViewOf;

/** (a) every statement through decompose → embed → stepGraph, one user graph per `perUser` statements. */
function pipeline(statements: readonly string[], perUser: number) {
  const phases = { decompose: [] as number[], embed: [] as number[], step: [] as number[], total: [] as number[] };
  let atoms = 0;
  let conflicts = 0;
  let nodes: NodeView[] = [];
  let seq = 0;
  const progress = createProgress(statements.length, 'pipeline', 'statements');
  const started = performance.now();
  statements.forEach((text, i) => {
    if (i % perUser === 0) nodes = [];
    const t0 = performance.now();
    const d = decompose({ text, holder: 'companion', conversationId: `bench-${Math.floor(i / perUser)}` });
    const t1 = performance.now();
    const vectors = d.atoms.map((a) => embedder.embedSync(a.embeddingText));
    const t2 = performance.now();
    const step = stepGraph({ atoms: d.atoms, vectors, nodes, newId: () => `n${++seq}` });
    for (const a of step.atoms) if (a.created) nodes.push(nodeOf(a.atom, a.vector, a.beliefId));
    const t3 = performance.now();
    phases.decompose.push(t1 - t0);
    phases.embed.push(t2 - t1);
    phases.step.push(t3 - t2);
    phases.total.push(t3 - t0);
    atoms += d.atoms.length;
    conflicts += step.conflicts.length;
    progress.tick(0);
  });
  const wallMs = performance.now() - started;
  progress.stop();
  return {
    statements: statements.length,
    atoms,
    conflicts,
    wallMs,
    statementsPerSec: perSecond(statements.length, wallMs),
    atomsPerSec: perSecond(atoms, wallMs),
    ms: { decompose: summarize(phases.decompose), embed: summarize(phases.embed), step: summarize(phases.step), total: summarize(phases.total) },
  };
}

/** (b) a graph of `n` companion nodes of one holder from distinct generated texts, every other one denied. */
function buildGraph(n: number): NodeView[] {
  const nodes: NodeView[] = [];
  const progress = createProgress(n, 'graph', 'nodes');
  for (const [i, text] of generateNodeTexts(n).entries()) {
    // Every other node denied, so the polarity filter keeps about half of them in play.
    const atom = decompose({ text: i % 2 ? text.replace(/^I /, "I don't ") : text, holder: 'companion', conversationId: 'bench-graph' }).atoms[0];
    if (!atom) throw new Error(`bench:beliefs: the generated node text "${text}" gave no atom`);
    nodes.push(nodeOf(atom, embedder.embedSync(atom.embeddingText), `g${i}`));
    progress.tick(0);
  }
  progress.stop();
  return nodes;
}

async function main(): Promise<void> {
  const started = performance.now();
  log(`(a) ${opts.statements} generated statements, ${opts.perUser} per user graph`);
  const a = pipeline(generateStatements(opts.statements), opts.perUser);

  log(`(b) building a graph of ${opts.nodes} companion nodes`);
  const nodes = buildGraph(opts.nodes);
  // Probes, each checked as a new node: every other one denies a node of the graph ("I don't love quiet
  // trains at night" against its affirmed twin: a contradiction to find), the rest are unrelated statements.
  const nodeTexts = generateNodeTexts(opts.nodes);
  const unrelated = generateStatements(opts.samples);
  const probeAtoms = Array.from({ length: opts.samples }, (_, i) => {
    const text = i % 2 === 0 ? nodeTexts[(2 * i) % nodeTexts.length]!.replace(/^I /, "I don't ") : unrelated[i]!;
    return decompose({ text, holder: 'companion', conversationId: 'bench-probe' }).atoms[0];
  }).filter((x): x is PreparedAtom => x !== undefined);
  const probes = probeAtoms.map((atom, i) => {
    const vector = embedder.embedSync(atom.embeddingText);
    return { atom, vector, node: nodeOf(atom, vector, `probe${i}`) };
  });
  const probe = (i: number) => probes[i % probes.length]!;
  let found = 0;
  const conflict = timed('detectConflicts', `one new node against ${opts.nodes} nodes (§4.15)`, opts.samples, (i) => (found += detectConflicts(probe(i).node, nodes).length));
  const step = timed('stepGraph (1 atom)', `resolve + links + conflicts of one new atom against ${opts.nodes} nodes`, opts.samples, (i) =>
    stepGraph({ atoms: [probe(i).atom], vectors: [probe(i).vector], nodes, newId: () => 'new' }),
  );

  log(`(c) raw figures: cosine scan over ${opts.nodes} vectors of ${BELIEF_CONFIG.embeddings.localDimensions}, sha256 of a short string`);
  const vectors = nodes.map((n) => n.vector);
  let sink = 0;
  const scan = timed('raw cosine scan', `cosine of one vector against ${opts.nodes} vectors, no sort`, opts.samples, (i) => {
    const q = probe(i).vector;
    for (const v of vectors) sink += cosine(q, v);
  });
  const shortText = 'i am patient with people';
  const sha = timedBatched('raw sha256', `sha256 hex of "${shortText}" (${shortText.length} chars)`, opts.samples, 100, () =>
    createHash('sha256').update(shortText, 'utf8').digest('hex'),
  );
  const series = [conflict, step, scan, sha];
  const wallMs = performance.now() - started;

  const pct = (n: number, of: number) => `${fmt((100 * n) / Math.max(1, of), 0)}%`;
  console.log(`\nbench:beliefs — offline, in-process; local ${LOCAL_EMBEDDING.dimensions}-d embeddings; extractor ${version}\n`);
  console.log(`(a) whole offline pipeline: ${a.statements} statements (${a.atoms} atoms, ${a.conflicts} conflict edges), ${opts.perUser} per user graph`);
  console.log(`    ${fmt(a.statementsPerSec, 0)} statements/s, ${fmt(a.atomsPerSec, 0)} atoms/s, one thread\n`);
  const phaseRows = [['per statement', 'p50 ms', 'p99 ms', 'mean ms', 'share'], ...(['decompose', 'embed', 'step', 'total'] as const).map((k) => [k, fmt(a.ms[k].p50, 3), fmt(a.ms[k].p99, 3), fmt(a.ms[k].mean, 3), pct(a.ms[k].mean, a.ms.total.mean)])];
  for (const line of table(phaseRows)) console.log(`    ${line}`);
  console.log(`\n(b) conflict check at ${opts.nodes} nodes of one holder, beside (c) the raw floor of the same run (${opts.samples} samples each)\n`);
  const rows = [['operation', 'p50 ms', 'p99 ms', 'max ms', 'ops/s', 'what'], ...series.map((s) => [s.name, fmt(s.ms.p50, 4), fmt(s.ms.p99, 4), fmt(s.ms.max, 4), fmt(s.perSec, 0), s.what])];
  for (const line of table(rows)) console.log(`    ${line}`);
  console.log(`\n    detectConflicts / raw cosine scan at p50: ${fmt(conflict.ms.p50 / scan.ms.p50, 2)}×; conflict edges found per probe ${fmt(found / (opts.samples + Math.min(WARMUP, opts.samples)), 2)} (every other probe denies a node of the graph)`);
  console.log(`    wall ${fmt(wallMs / 1000, 1)} s${sink === 42 ? ' ' : ''}`);
  if (opts.json) {
    await writeFile(
      opts.json,
      JSON.stringify({ extractorVersion: version, embedding: LOCAL_EMBEDDING, options: opts, pipeline: a, conflictCheck: { nodes: opts.nodes, detectConflicts: conflict, stepGraph: step }, raw: { cosineScan: scan, sha256: sha }, wallMs }, null, 2),
    );
  }
}

main().catch((err: unknown) => {
  log(`bench:beliefs failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
