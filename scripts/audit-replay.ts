// Decision replay: runs today's pure deciders over the recorded turns and
// reports which recorded decisions would come out differently, by field — "what
// changes if we ship this?" before a release. Reads the event log only; no LLM.
// Replayed, each from what the log recorded:
//   router                    every TurnRouted (it records every input the router decides from)
//   orchestrator.relationship every RelationshipUpdated (§11, from the recorded previous state and evidence)
//   orchestrator.constraints  the persona constraint engine (§8.2) of every TurnCompleted,
//   orchestrator.plan         its plan (§8.1) and emotion reading (chat turns), and
//   orchestrator.gates        the §10 gates on each recorded candidate (the LLM output or offline
//                             render of the draft and rewrite, the fallback), and the outcome they lead to
//   memory                    every write-back (§12.2–§12.4): corrections, the §12.2 gate, the
//                             recorded extractor output through dedup, against memory's state before it
// Inputs a turn's events do not hold are folded from the log as the projections
// fold them: the persona (PersonaAssigned), the conversation's earlier replies,
// memory's records, and the user's suppressed topics from ingress's log as of
// the turn's TurnReceived (a proactive turn: as of its time) — the profiles
// projection the live decision read is not recorded, so a controls change that
// landed between receipt and decision shows here as a difference. Not replayed:
// the vector-search triggers (the router's full topic matches are not on
// TurnCompleted), which reply is fixed (refusal, crisis, correction: taken as
// recorded), and an LLM extraction today's §12.2 gate would ask for but the log
// has no output of (reported as such, never guessed).
//
//   pnpm audit:replay                                  every recorded turn, every decider
//   pnpm audit:replay --service memory                 router | orchestrator | memory | all
//   pnpm audit:replay --from 2026-11-01 --to 2026-11-08
//   pnpm audit:replay --topic-lexicon trial.json      a lexicon not shipped yet (router)
//   pnpm audit:replay --json out.json --fail-on-change
import { readFile, writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import cliProgress from 'cli-progress';
import { Bus, payloadOf, type ServiceName, type StoredEvent } from '@hearth/bus';
import { Events } from '@hearth/events';
import { eventEncryption, loadHostConfig } from '@hearth/host';
import { createWritebackReplay } from '@hearth/svc-memory';
import { createTurnReplay, reRelate } from '@hearth/svc-orchestrator';
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

const SERVICES = ['router', 'orchestrator', 'memory'] as const;
type Replayed = (typeof SERVICES)[number];

const program = new Command('audit:replay')
  .description("Run today's deciders over recorded turns and report the decisions that would differ, by field")
  .option('--from <date>', 'only decisions that occurred at or after this time', isoDate)
  .option('--to <date>', 'only decisions that occurred before this time', isoDate)
  .option('-s, --service <name>', `whose decisions to replay: ${SERVICES.join(', ')} or all`, 'all')
  .option('--topic-lexicon <file>', "decide the router's topics with this lexicon (JSON, the format of libs/text/src/topic-keywords.json)")
  .option('--samples <n>', 'turn ids with before/after kept per field', count, 5)
  .option('--json <file>', 'write every differing decision with its changes as JSON')
  .option('--fail-on-change', 'exit 1 when any decision differs', false)
  .parse();

const opts = program.opts<{ from?: Date; to?: Date; service: string; topicLexicon?: string; samples: number; json?: string; failOnChange: boolean }>();
if (opts.service !== 'all' && !(SERVICES as readonly string[]).includes(opts.service)) {
  program.error(`no replay of ${opts.service}'s decisions; choose ${SERVICES.join(', ')} or all`);
}
const options: RouteOptions = {};
if (opts.topicLexicon) {
  try {
    options.lexicon = parseTopicLexicon(JSON.parse(await readFile(opts.topicLexicon, 'utf8')));
  } catch (err) {
    program.error(`--topic-lexicon ${opts.topicLexicon}: ${(err as Error).message}`);
  }
}

/** One recorded decision re-decided. */
interface Decided {
  decider: string;
  id: string;
  changes: FieldChange[];
}

/** A service's replay: the streams it folds, in the order they are read, and what it re-decides from each event. */
interface Replay {
  service: Replayed;
  streams: ServiceName[];
  feed(stream: ServiceName, e: StoredEvent, decide: boolean): Decided[];
}

function routerReplay(): Replay {
  return {
    service: 'router',
    streams: ['router'],
    feed(_stream, e, decide) {
      if (!decide || e.type !== Events.TurnRouted.name) return [];
      const routed = payloadOf(e, Events.TurnRouted);
      return [{ decider: 'router', id: routed.messageId, changes: reRoute(routed, options) }];
    },
  };
}

function orchestratorReplay(): Replay {
  const turns = createTurnReplay();
  return {
    service: 'orchestrator',
    streams: ['ingress', 'orchestrator'],
    feed(stream, e, decide) {
      if (stream === 'ingress') {
        turns.ingress(e);
        return [];
      }
      if (e.type === Events.RelationshipUpdated.name) {
        if (!decide) return [];
        const update = payloadOf(e, Events.RelationshipUpdated);
        return [{ decider: 'orchestrator.relationship', id: update.messageId, changes: reRelate(update) }];
      }
      const turn = turns.orchestrator(e, decide);
      if (!turn) return [];
      const { messageId: id, changes } = turn;
      const decided: Decided[] = [{ decider: 'orchestrator.constraints', id, changes: changes.constraints }];
      // A proactive turn's plan is the renderer's record, not §8.1's: nothing to re-plan.
      if (!turn.retention) decided.push({ decider: 'orchestrator.plan', id, changes: changes.plan });
      decided.push({ decider: 'orchestrator.gates', id, changes: changes.gates });
      return decided;
    },
  };
}

function memoryReplay(): Replay {
  const writebacks = createWritebackReplay();
  return {
    service: 'memory',
    streams: ['orchestrator', 'memory'],
    feed(stream, e, decide) {
      if (stream === 'orchestrator') {
        writebacks.turn(e);
        return [];
      }
      const w = writebacks.memory(e, decide);
      return w ? [{ decider: 'memory', id: w.messageId, changes: w.changes }] : [];
    },
  };
}

const replays = [routerReplay(), orchestratorReplay(), memoryReplay()].filter((r) => opts.service === 'all' || r.service === opts.service);
// Ingress first (the controls), the orchestrator's log before memory's (each write-back's turn).
const STREAM_ORDER: ServiceName[] = ['ingress', 'orchestrator', 'memory', 'router'];
const streams = STREAM_ORDER.filter((s) => replays.some((r) => r.streams.includes(s)));

const config = loadHostConfig();
const log = createLogger({ service: 'audit-replay', level: config.LOG_LEVEL === 'info' ? 'warn' : config.LOG_LEVEL, stderr: true });
const bus = await Bus.connect({
  url: config.NATS_URL,
  name: 'hearth-audit-replay',
  user: config.NATS_USER,
  pass: config.NATS_PASSWORD,
  namespace: config.HEARTH_NAMESPACE,
  logger: log,
  encryption: eventEncryption(config, log),
});

interface Differing {
  decider: string;
  message_id: string;
  user_id: string;
  occurred_at: string;
  changes: FieldChange[];
}

const byField = new Map<string, { decisions: number; samples: { message_id: string; before: unknown; after: unknown }[] }>();
const differing: Differing[] = [];
const examinedBy: Record<string, number> = {};
const eventsBy: Record<string, number> = {};
const turnIds = new Set<string>();
let examined = 0;
let replaySeconds = 0;
const started = performance.now();
try {
  // One cut of a log that may still be growing: each stream's end is taken before
  // the streams whose events cause its own (memory's before the orchestrator's
  // before ingress's), so every write-back read has its turn, every turn its receipt.
  const ends = new Map<ServiceName, number>();
  for (const stream of [...streams].reverse()) ends.set(stream, await bus.lastSeq(stream));
  for (const stream of streams) {
    const readers = replays.filter((r) => r.streams.includes(stream));
    const last = ends.get(stream)!;
    const bar = new cliProgress.SingleBar(
      { format: `${stream} [{bar}] {value}/{total} events | {decisions} decisions, {differ} differ`, stream: process.stderr },
      cliProgress.Presets.shades_classic,
    );
    let decisions = 0;
    let differ = 0;
    let events = 0;
    bar.start(last, 0, { decisions, differ });
    for await (const e of last === 0 ? [] : bus.read(stream, { toSeq: last })) {
      events++;
      if (events % 200 === 0) bar.update(e.seq, { decisions, differ });
      // An erased user's payloads are unreadable: nothing to decide from, as in replay.
      if (e.erased) continue;
      const decide = !(opts.from && e.occurredAt < opts.from) && !(opts.to && e.occurredAt >= opts.to);
      const t0 = performance.now();
      const decided = readers.flatMap((r) => r.feed(stream, e, decide));
      replaySeconds += (performance.now() - t0) / 1000;
      for (const d of decided) {
        decisions++;
        examined++;
        examinedBy[d.decider] = (examinedBy[d.decider] ?? 0) + 1;
        turnIds.add(d.id);
        if (d.changes.length === 0) continue;
        differ++;
        const changes = d.changes.map((c) => ({ ...c, field: `${d.decider}:${c.field}` }));
        differing.push({ decider: d.decider, message_id: d.id, user_id: e.userId, occurred_at: e.occurredAt.toISOString(), changes });
        for (const c of changes) {
          const f = byField.get(c.field) ?? { decisions: 0, samples: [] };
          f.decisions++;
          if (f.samples.length < opts.samples) f.samples.push({ message_id: d.id, before: c.before, after: c.after });
          byField.set(c.field, f);
        }
      }
    }
    eventsBy[stream] = events;
    bar.update(last, { decisions, differ });
    bar.stop();
  }
} finally {
  await bus.close();
}

const seconds = (performance.now() - started) / 1000;
const perSecond = (n: number, s: number) => Math.round(n / Math.max(s, 1e-3));
const report = {
  service: opts.service,
  namespace: config.HEARTH_NAMESPACE,
  from: opts.from?.toISOString() ?? null,
  to: opts.to?.toISOString() ?? null,
  topic_lexicon: opts.topicLexicon ?? null,
  events_read: eventsBy,
  turns: turnIds.size,
  decisions: examined,
  decisions_by_decider: examinedBy,
  differing_decisions: differing.length,
  seconds: Number(seconds.toFixed(3)),
  decisions_per_second: perSecond(examined, seconds),
  turns_per_second: perSecond(turnIds.size, seconds),
  // The deciders and folds alone, without reading and decoding the log.
  replay_seconds: Number(replaySeconds.toFixed(3)),
  replay_decisions_per_second: perSecond(examined, replaySeconds),
  by_field: Object.fromEntries([...byField].sort((a, b) => b[1].decisions - a[1].decisions)),
};
console.log(
  `${examined} recorded decisions of ${turnIds.size} turns (${Object.entries(examinedBy).map(([k, v]) => `${k} ${v}`).join(', ')}) replayed through today's deciders in ${seconds.toFixed(1)} s ` +
    `(${report.decisions_per_second} decisions/s, ${report.turns_per_second} turns/s; deciders alone ${report.replay_decisions_per_second}/s), no LLM`,
);
console.log(`${differing.length} would be decided differently`);
for (const [field, f] of Object.entries(report.by_field)) {
  console.log(`  ${field}: ${f.decisions} decisions`);
  for (const s of f.samples) console.log(`    ${s.message_id}: ${JSON.stringify(s.before)} → ${JSON.stringify(s.after)}`);
}
if (opts.json) {
  await writeFile(opts.json, `${JSON.stringify({ ...report, differing }, null, 2)}\n`);
  console.log(`written to ${opts.json}`);
}
if (opts.failOnChange && differing.length > 0) process.exitCode = 1;
