// Decision replay: runs today's pure deciders over the recorded turns and
// reports which recorded decisions would come out differently, by field — "what
// changes if we ship this?" before a release. Reads the event log only; no LLM.
// Replayed today: the router's decisions (TurnRouted records every input it
// decides from) and the orchestrator's relationship rules (§11, from the
// recorded previous state and evidence). The persona constraints, the gates and
// memory's decisions are not replayed yet.
//
//   pnpm audit:replay                                  every recorded turn
//   pnpm audit:replay --from 2026-11-01 --to 2026-11-08
//   pnpm audit:replay --topic-lexicon trial.json      a lexicon not shipped yet
//   pnpm audit:replay --json out.json --fail-on-change
import { readFile, writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import cliProgress from 'cli-progress';
import { Bus, payloadOf, type ServiceName, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import { loadHostConfig } from '@hearth/host';
import { reRelate } from '@hearth/svc-orchestrator';
import { reRoute, type FieldChange, type RouteOptions } from '@hearth/svc-router';
import { createLogger } from '@hearth/telemetry';
import { parseTopicLexicon } from '@hearth/text';

function isoDate(value: string): Date {
  const d = new Date(value);
  if (Number.isNaN(d.getTime())) throw new InvalidArgumentError(`not a date: '${value}' (ISO 8601, e.g. 2026-11-01 or 2026-11-01T12:00:00Z)`);
  return d;
}

function count(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('expected a whole number');
  return n;
}

const program = new Command('audit:replay')
  .description("Run today's deciders over recorded turns and report the decisions that would differ, by field")
  .option('--from <date>', 'only turns that occurred at or after this time', isoDate)
  .option('--to <date>', 'only turns that occurred before this time', isoDate)
  .option('-s, --service <name>', 'whose decisions to replay: router, orchestrator (relationship rules) or all', 'all')
  .option('--topic-lexicon <file>', 'decide with this topic lexicon (JSON, the format of libs/text/src/topic-keywords.json)')
  .option('--samples <n>', 'turn ids with before/after kept per field', count, 5)
  .option('--json <file>', 'write every differing turn with its changes as JSON')
  .option('--fail-on-change', 'exit 1 when any decision differs', false)
  .parse();

const opts = program.opts<{ from?: Date; to?: Date; service: string; topicLexicon?: string; samples: number; json?: string; failOnChange: boolean }>();
if (!['router', 'orchestrator', 'all'].includes(opts.service)) {
  program.error(`replaying ${opts.service}'s decisions is not built; today: router, orchestrator (relationship rules), all`);
}
const options: RouteOptions = {};
if (opts.topicLexicon) {
  try {
    options.lexicon = parseTopicLexicon(JSON.parse(await readFile(opts.topicLexicon, 'utf8')));
  } catch (err) {
    program.error(`--topic-lexicon ${opts.topicLexicon}: ${(err as Error).message}`);
  }
}

const config = loadHostConfig();
const log = createLogger({ service: 'audit-replay', level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL });
const bus = await Bus.connect({
  url: config.NATS_URL,
  name: 'hearth-audit-replay',
  user: config.NATS_USER,
  pass: config.NATS_PASSWORD,
  namespace: config.HEARTH_NAMESPACE,
  logger: log,
});

interface Differing {
  message_id: string;
  user_id: string;
  occurred_at: string;
  changes: FieldChange[];
}

/** A decider replayed: which recorded events it re-decides, and how. */
interface Decider {
  name: string;
  stream: ServiceName;
  type: string;
  replay(e: StoredEvent): { id: string; changes: FieldChange[] };
}

const DECIDERS: Decider[] = [
  {
    name: 'router',
    stream: 'router',
    type: Events.TurnRouted.name,
    replay: (e) => {
      const routed = payloadOf(e, Events.TurnRouted);
      return { id: routed.messageId, changes: reRoute(routed, options) };
    },
  },
  {
    name: 'orchestrator.relationship',
    stream: 'orchestrator',
    type: Events.RelationshipUpdated.name,
    replay: (e) => {
      const update = payloadOf(e, Events.RelationshipUpdated);
      return { id: update.messageId, changes: reRelate(update) };
    },
  },
];

const byField = new Map<string, { turns: number; samples: { message_id: string; before: unknown; after: unknown }[] }>();
const differing: Differing[] = [];
const examinedBy: Record<string, number> = {};
let examined = 0;
const started = performance.now();
try {
  for (const d of DECIDERS.filter((x) => opts.service === 'all' || x.stream === opts.service)) {
    const last = await bus.lastSeq(d.stream);
    const bar = new cliProgress.SingleBar(
      { format: `${d.name} [{bar}] {value}/{total} events | {turns} decisions, {differ} differ`, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    let seen = 0;
    let differ = 0;
    bar.start(last, 0, { turns: 0, differ: 0 });
    for await (const e of bus.read(d.stream)) {
      bar.update(e.seq, { turns: seen, differ });
      if (e.type !== d.type) continue;
      if ((opts.from && e.occurredAt < opts.from) || (opts.to && e.occurredAt >= opts.to)) continue;
      seen++;
      const { id, changes } = d.replay(e);
      if (changes.length === 0) continue;
      differ++;
      differing.push({ message_id: id, user_id: e.userId, occurred_at: e.occurredAt.toISOString(), changes: changes.map((c) => ({ ...c, field: `${d.name}:${c.field}` })) });
      for (const c of changes) {
        const key = `${d.name}:${c.field}`;
        const f = byField.get(key) ?? { turns: 0, samples: [] };
        f.turns++;
        if (f.samples.length < opts.samples) f.samples.push({ message_id: id, before: c.before, after: c.after });
        byField.set(key, f);
      }
    }
    bar.update(last, { turns: seen, differ });
    bar.stop();
    examinedBy[d.name] = seen;
    examined += seen;
  }
} finally {
  await bus.close();
}

const seconds = (performance.now() - started) / 1000;
const report = {
  service: opts.service,
  namespace: config.HEARTH_NAMESPACE,
  from: opts.from?.toISOString() ?? null,
  to: opts.to?.toISOString() ?? null,
  topic_lexicon: opts.topicLexicon ?? null,
  decisions: examined,
  decisions_by_decider: examinedBy,
  differing_decisions: differing.length,
  decisions_per_second: Math.round(examined / Math.max(seconds, 1e-3)),
  by_field: Object.fromEntries([...byField].sort((a, b) => b[1].turns - a[1].turns)),
};
console.log(
  `${examined} recorded decisions (${Object.entries(examinedBy).map(([k, v]) => `${k} ${v}`).join(', ')}) replayed through today's deciders in ${seconds.toFixed(1)} s (${report.decisions_per_second}/s), no LLM`,
);
console.log(`${differing.length} would be decided differently`);
for (const [field, f] of Object.entries(report.by_field)) {
  console.log(`  ${field}: ${f.turns} decisions`);
  for (const s of f.samples) console.log(`    ${s.message_id}: ${JSON.stringify(s.before)} → ${JSON.stringify(s.after)}`);
}
if (opts.json) {
  await writeFile(opts.json, `${JSON.stringify({ ...report, differing }, null, 2)}\n`);
  console.log(`written to ${opts.json}`);
}
if (opts.failOnChange && differing.length > 0) process.exitCode = 1;
