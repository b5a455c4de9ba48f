// Outcome-driven trust at scale (issue 18, outcome-driven-trust.md §2 Delayed
// Outcome Evaluation): a day of scheduled outcomes for N users comes due at once
// and R scheduler replicas evaluate them together — the work of a day on the
// virtual clock, or the catch-up after an outage. Reports outcomes evaluated per
// second (OutcomeEvaluated appended), trust updates per second (TrustUpdated),
// users per second, the cost of an idle poll, and checks that every outcome was
// judged exactly once; beside the raw JetStream and Postgres figures measured in
// the same run.
//
// Seeded straight into the tables (batched inserts, no events), per user:
//   trust        a day of tags (feedback), two hold decisions
//                earlier in the day, 1–3 promote/deprecate decisions in the two
//                hours before the clock with their pending 2 h and 24 h outcomes,
//                T_user / T_agent for two users in three, the schedule row;
//   belief-graph the companion's beliefs (--beliefs nodes: ⅔ seeded from the
//                persona a month ago, the rest grown in the last days; identity
//                stream, local-embedder vectors), their occurrences, an open
//                conflict for one user in four and a resolved one for one in ten;
//   challenges   for one user in five, a belief challenge the companion wove in
//                an hour ago (belief-challenge.md) on one of two user-held
//                beliefs, answered by the user for four in five of them: the
//                challenge decision with its two pending outcomes in trust, the
//                user's nodes, their conflict and the challenge in belief-graph.
// belief-graph's real GetCompanionBeliefs and GetBeliefs answer over the bus from
// this process; the trust projection runs here, folding what the scheduler
// appends (it waits on it, as in the service). Then the clock jumps 24 h + 1 min and the R replicas run
// evaluateDueOutcomes at once. evaluateDueOutcomes has no per-user hook, so there
// is no per-user latency here; the catch-up's progress is read from the table.
//
//   NATS_URL=… DATABASE_URL=… pnpm bench:trust [--users 10000] [--replicas 3] [--beliefs 6] [--json FILE]
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import pg from 'pg';
import { sql, type Insertable, type Kysely } from 'kysely';
import { embeddingTextOf } from '@hearth/beliefs';
import { Bus, serveSomeQueries, type BusLogger, type RunningConsumer } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { deriveId, Events, queryClients } from '@hearth/events';
import { belief } from '@hearth/proto';
import { createLocalEmbedder } from '@hearth/llm';
import { migrateSchema, openDatabase, schemaDb, startProjection, waitForCheckpoint, type Database } from '@hearth/store';
import type { Logger } from '@hearth/telemetry';
import { cleanupNamespace, dropSchemas, testNamespace } from '@hearth/testing';
import { HORIZONS, TRUST_CONFIG, type Actor, type GardenerAction, type Tag } from '@hearth/trust';
import { LOCAL_EMBEDDING } from '../../services/belief-graph/src/config.js';
import type { BeliefDb, ChallengesTable as GraphChallengesTable, ConflictsTable, NodesTable, OccurrencesTable } from '../../services/belief-graph/src/db.js';
import { service as beliefGraph } from '../../services/belief-graph/src/index.js';
import { createGetCompanionBeliefsQuery } from '../../services/belief-graph/src/queries/companion-beliefs.js';
import { createGetBeliefsQuery } from '../../services/belief-graph/src/queries/get-beliefs.js';
import type { ActorsTable, ChallengesTable, DecisionsTable, FeedbackTable, OutcomesTable, ScheduleTable, TrustDb } from '../../services/trust/src/db.js';
import { beliefGraph as beliefGraphClient } from '../../services/trust/src/adapters/beliefs.js';
import { challengeDecisionId, decisionId, outcomeId, tagId } from '../../services/trust/src/ids.js';
import { evaluateDueOutcomes, service as trust, trustProjection, type PassReport } from '../../services/trust/src/index.js';
import { intArg, isLoopback, log, requiredServerEnv, withTimeout } from './lib/cli.js';
import { createProgress } from './lib/progress.js';
import { measureDatabase, measureJetStream } from './lib/raw-costs.js';
import { fmt, table } from './lib/report.js';
import { perSecond, summarize } from './lib/stats.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
/** The clock when seeding: every outcome is due in the day after it. */
const T0 = new Date('2026-11-23T09:00:00Z');
/** Users per batch of inserts (the widest batch, feedback, stays under Postgres' 65,535 parameters). */
const BATCH = 250;
const IDLE_POLLS = 200;

// The companion's beliefs about itself (invented, first person), embedded once each.
const COMPANION = [
  'i am a patient listener',
  'i love bad puns',
  'i value honesty over comfort',
  'i get curious about small details',
  'i prefer calm conversations',
  'i care about the people i talk to',
  'i enjoy rainy mornings',
  'i am a little shy at first',
  'i believe kindness matters most',
  'i like learning new words',
  'i am stubborn about good manners',
  'i find the night sky calming',
  'i enjoy thinking out loud',
  'i am bad at remembering song titles',
  'i feel at home in small cafes',
  'i value quiet time alone',
  'i love old black and white films',
  'i am optimistic about people',
];
// The user's beliefs about themselves a companion would gently challenge (invented).
const USER_BELIEFS = ['i am bad at everything i try', 'nobody really likes me', 'i always mess things up', 'i am not a creative person', 'i can never finish anything', 'i am too old to learn new things'];
const ANSWERS = ['questioned', 'questioned', 'reinforced', 'contradicted'] as const;
const USER_KEEP = ['you really are so patient', 'never change, that is so you', 'you always care, aren\'t you'];
const USER_DOUBT = ['are you really that patient?', 'i am not sure you mean that', 'you do not actually care'];
const AGENT_KEEP = ['i really do love this about myself', 'that is just who i am'];

const quiet: BusLogger = { info: () => undefined, warn: (o, m) => log(`${m ?? ''} ${JSON.stringify(o)}`), error: (o, m) => log(`${m ?? ''} ${JSON.stringify(o)}`) };
const silent = { ...quiet, debug: () => undefined } as unknown as Logger;

interface Options {
  users: number;
  replicas: number;
  beliefs: number;
  json?: string;
}

/** A deterministic number in [0, 1) per (user, salt): varied rows, the same on every run. */
function frac(j: number, salt: number): number {
  return (((j + 1) * 2_654_435_761 + salt * 40_503) % 1_000_003) / 1_000_003;
}

const uuidOf = (...parts: (string | number)[]): string => deriveId('bench-trust', ...parts);

interface Seeded {
  outcomes: Set<string>;
  decisions: number;
  challenges: number;
  feedback: number;
  nodes: number;
  occurrences: number;
  conflicts: number;
}

interface UserRows {
  nodes: Insertable<NodesTable>[];
  occurrences: Insertable<OccurrencesTable>[];
  conflicts: Insertable<ConflictsTable>[];
  feedback: Insertable<FeedbackTable>[];
  decisions: Insertable<DecisionsTable>[];
  outcomes: Insertable<OutcomesTable>[];
  actors: Insertable<ActorsTable>[];
  schedule: Insertable<ScheduleTable>[];
  challenges: Insertable<ChallengesTable>[];
  graphChallenges: Insertable<GraphChallengesTable>[];
}

/** Pushes the 2 h and 24 h outcomes a decision opens (pending); returns the first due time. */
function openOutcomes(out: UserRows, userId: string, decision: string, beliefId: string, at: Date): Date {
  for (const horizon of HORIZONS) {
    out.outcomes.push({ outcome_id: outcomeId(decision, horizon), user_id: userId, decision_id: decision, belief_id: beliefId, horizon, due_at: new Date(at.getTime() + TRUST_CONFIG.horizons[horizon].ms), evaluated_at: null });
  }
  return new Date(at.getTime() + Math.min(...HORIZONS.map((h) => TRUST_CONFIG.horizons[h].ms)));
}

/** One user's day: the companion's graph in belief-graph, and trust's history with the pending outcomes. */
function userRows(j: number, beliefs: number, vectors: { companion: readonly number[][]; user: readonly number[][] }, out: UserRows): void {
  const userId = uuidOf('user', j);
  const t0 = T0.getTime();
  const seededCount = Math.ceil((beliefs * 2) / 3);
  const nodes: { id: string; confidence: number; level: number }[] = [];
  for (let b = 0; b < beliefs; b++) {
    const k = (j + b * 5) % COMPANION.length;
    const seeded = b < seededCount;
    const createdAt = new Date(seeded ? t0 - 30 * DAY : t0 - (2 + b) * DAY - (j % 600) * MIN);
    const id = uuidOf('node', j, b);
    const confidence = 0.45 + 0.3 * frac(j, b);
    const level = b === 0 && j % 7 === 0 ? 1 : 0;
    nodes.push({ id, confidence, level });
    out.nodes.push({
      belief_id: id,
      user_id: userId,
      holder: 'companion',
      canonical_text: COMPANION[k]!,
      canonical_hash: uuidOf('hash', k),
      belief_type: 'trait',
      polarity: 'positive',
      temporal_scope: 'stable',
      embedding: vectors.companion[k]!,
      embedding_model: LOCAL_EMBEDDING.model,
      embedding_text: embeddingTextOf(COMPANION[k]!),
      raw_text: COMPANION[k]!,
      confidence,
      stream: 'identity',
      migrated_from: null,
      migrated_at: null,
      seeded,
      created_at: createdAt,
      last_reinforced_at: seeded ? createdAt : new Date(t0 - DAY - (j % 300) * MIN),
      deleted_at: null,
      merged_into: null,
      gardener_level: level,
    });
    // Persona seeding is one occurrence; a grown belief was said twice.
    const said = seeded ? [createdAt] : [createdAt, new Date(t0 - DAY - (j % 300) * MIN)];
    said.forEach((at, n) =>
      out.occurrences.push({
        occurrence_id: uuidOf('occ', j, b, n),
        belief_id: id,
        user_id: userId,
        source_message_id: uuidOf('src', j, b, n),
        extractor_version: 'bench',
        raw_text: COMPANION[k]!,
        raw_span: JSON.stringify([]),
        source_weight: seeded ? 1 : 0.8,
        atom_confidence: 0.8,
        epistemic_frame: JSON.stringify({}),
        epistemic_confidence: 0.9,
        match_confidence: 1,
        context_id: seeded ? 'persona' : uuidOf('conv', j),
        created_at: at,
        deleted_at: null,
      }),
    );
  }
  const conflict = (a: number, b: number, active: boolean) =>
    out.conflicts.push({
      conflict_id: uuidOf('conflict', j, a, b),
      user_id: userId,
      node_a_id: nodes[a]!.id,
      node_b_id: nodes[b]!.id,
      conflict_type: 'contradiction',
      detection_method: 'embedding',
      evidence: JSON.stringify({ similarity: 0.8 }),
      source_message_ids: [],
      status: active ? 'active' : 'resolved',
      created_at: new Date(t0 - DAY),
      resolved_at: active ? null : new Date(t0 - 12 * HOUR),
      resolution_reason: active ? null : 'bench',
    });
  if (j % 4 === 0 && beliefs > seededCount) conflict(0, seededCount, true);
  if (j % 10 === 0 && beliefs >= 3) conflict(1, 2, false);

  // Turns with tags: two earlier in the day (held), then one per acting decision in the last two hours.
  const acting = 1 + (j % 3);
  const turns: { at: Date; action: GardenerAction; node: number }[] = [
    { at: new Date(t0 - 20 * HOUR - (j % 90) * MIN), action: 'hold', node: 1 % beliefs },
    { at: new Date(t0 - 9 * HOUR - (j % 90) * MIN), action: 'hold', node: 2 % beliefs },
    ...Array.from({ length: acting }, (_, i) => ({
      at: new Date(t0 - (100 - 30 * i - (j % 25)) * MIN),
      action: ((j + i) % 4 === 3 ? 'deprecate' : 'promote') as GardenerAction,
      node: (j + i) % beliefs,
    })),
  ];
  const contributions = JSON.stringify({ user: 0.7, agent: 0.3 });
  // The earliest pending outcome, as the projection would keep it.
  let nextDue = Number.POSITIVE_INFINITY;
  turns.forEach((turn, i) => {
    const messageId = uuidOf('msg', j, i);
    const node = nodes[turn.node]!;
    const doubt = turn.action === 'deprecate';
    const tags: { tag: Tag; actor: Actor; text: string }[] = [
      { tag: doubt ? '+doubt' : '+keep', actor: 'user', text: (doubt ? USER_DOUBT : USER_KEEP)[(j + i) % 3]! },
      ...(i % 2 === 0 ? [{ tag: '+keep' as Tag, actor: 'agent' as Actor, text: AGENT_KEEP[j % 2]! }] : []),
    ];
    tags.forEach((t, position) => {
      const weight = 0.4 + 0.4 * frac(j, 10 + i * 3 + position);
      out.feedback.push({
        feedback_id: tagId(messageId, position),
        user_id: userId,
        source_message_id: messageId,
        position,
        tag: t.tag,
        actor: t.actor,
        belief_id: node.id,
        alignment: 0.6 + 0.3 * frac(j, 20 + i),
        cue: `${t.tag}:bench`,
        precision: 0.8,
        g_conviction: 0.9,
        g_trust: 1,
        g_align: 1,
        base_weight: weight,
        weight,
        applied: true,
        reason: 'counted',
        text: t.text,
        created_at: turn.at,
      });
    });
    const id = decisionId(messageId, node.id);
    out.decisions.push({
      decision_id: id,
      user_id: userId,
      belief_id: node.id,
      action: turn.action,
      reason: turn.action === 'hold' ? 'between_thresholds' : doubt ? 'below_deprecation' : 'above_promotion',
      feedback: doubt ? -0.5 : turn.action === 'hold' ? 0.1 : 0.6,
      neg: doubt ? 0.6 : 0.1,
      contributions,
      global_feedback: 0.2,
      global_neg: 0.15,
      coherence: 0.8,
      conflicts: j % 4 === 0 ? 1 : 0,
      confidence: node.confidence,
      level: node.level,
      doubt_rate: 0.1,
      source_message_id: messageId,
      created_at: turn.at,
    });
    if (turn.action === 'hold') return;
    nextDue = Math.min(nextDue, openOutcomes(out, userId, id, node.id, turn.at).getTime());
  });
  if (j % 5 === 1) {
    nextDue = Math.min(nextDue, challengeRows(j, userId, vectors.user, out).getTime());
  }
  // T_actor learned before, for two users in three (the others start at 0.5).
  if (j % 3 !== 0) {
    for (const actor of ['user', 'agent'] as const) {
      out.actors.push({ user_id: userId, actor, trust: 0.4 + 0.3 * frac(j, actor === 'user' ? 40 : 41), updates: 1 + (j % 9), updated_at: new Date(t0 - 2 * DAY) });
    }
  }
  out.schedule.push({ user_id: userId, next_due_at: Number.isFinite(nextDue) ? new Date(nextDue) : null, claimed_by: null, claimed_until: null });
}

/** A belief challenge of one user's: two user-held beliefs (one challenged) in belief-graph, the challenge decision and its outcomes in trust. */
function challengeRows(j: number, userId: string, vectors: readonly number[][], out: UserRows): Date {
  const t0 = T0.getTime();
  const said = new Date(t0 - 5 * DAY - (j % 600) * MIN);
  const held = [0, 1].map((b) => {
    const k = (j + b * 3) % USER_BELIEFS.length;
    const id = uuidOf('user-node', j, b);
    out.nodes.push({
      belief_id: id,
      user_id: userId,
      holder: 'user',
      canonical_text: USER_BELIEFS[k]!,
      canonical_hash: uuidOf('user-hash', k),
      belief_type: 'trait',
      polarity: 'positive',
      temporal_scope: 'stable',
      embedding: vectors[k]!,
      embedding_model: LOCAL_EMBEDDING.model,
      embedding_text: embeddingTextOf(USER_BELIEFS[k]!),
      raw_text: USER_BELIEFS[k]!,
      confidence: 0.5 + 0.2 * frac(j, 50 + b),
      stream: 'identity',
      migrated_from: null,
      migrated_at: null,
      created_at: said,
      last_reinforced_at: said,
      deleted_at: null,
      merged_into: null,
    });
    out.occurrences.push({
      occurrence_id: uuidOf('user-occ', j, b),
      belief_id: id,
      user_id: userId,
      source_message_id: uuidOf('user-src', j, b),
      extractor_version: 'bench',
      raw_text: USER_BELIEFS[k]!,
      raw_span: JSON.stringify([]),
      source_weight: 1,
      atom_confidence: 0.8,
      epistemic_frame: JSON.stringify({}),
      epistemic_confidence: 0.9,
      match_confidence: 1,
      context_id: uuidOf('conv', j),
      created_at: said,
      deleted_at: null,
    });
    return id;
  });
  // Contradicting evidence on the challenged belief, for one challenged user in two.
  if (j % 10 === 1) {
    out.conflicts.push({
      conflict_id: uuidOf('user-conflict', j),
      user_id: userId,
      node_a_id: held[0]!,
      node_b_id: held[1]!,
      conflict_type: 'contradiction',
      detection_method: 'embedding',
      evidence: JSON.stringify({ similarity: 0.8 }),
      source_message_ids: [],
      status: 'active',
      created_at: said,
      resolved_at: null,
      resolution_reason: null,
    });
  }
  const challengeId = uuidOf('challenge', j);
  const messageId = uuidOf('challenge-msg', j);
  const issuedAt = new Date(t0 - (60 + (j % 40)) * MIN);
  const answered = j % 25 !== 21;
  const signal = ANSWERS[Math.floor(j / 5) % ANSWERS.length]!;
  const answeredAt = new Date(issuedAt.getTime() + 3 * MIN);
  out.graphChallenges.push({
    challenge_id: challengeId,
    user_id: userId,
    belief_id: held[0]!,
    style: 'gentle',
    message_id: messageId,
    assistant_message_id: uuidOf('challenge-reply', j),
    conversation_id: uuidOf('conv', j),
    prompt: 'bench',
    created_at: issuedAt,
    answered_message_id: answered ? uuidOf('answer-msg', j) : null,
    answer_signal: answered ? signal : null,
  });
  const id = challengeDecisionId(challengeId);
  const confidence = 0.5 + 0.2 * frac(j, 50);
  out.challenges.push({
    challenge_id: challengeId,
    user_id: userId,
    belief_id: held[0]!,
    decision_id: id,
    message_id: messageId,
    issued_at: issuedAt,
    answer_signal: answered ? signal : null,
    answer_message_id: answered ? uuidOf('answer-msg', j) : null,
    answer_delta: answered ? (signal === 'reinforced' ? 0.05 : -0.05) : null,
    answer_confidence: answered ? confidence + (signal === 'reinforced' ? 0.05 : -0.05) : null,
    answered_at: answered ? answeredAt : null,
  });
  out.decisions.push({
    decision_id: id,
    user_id: userId,
    belief_id: held[0]!,
    action: 'challenge',
    reason: 'challenge_issued',
    feedback: 0,
    neg: 0,
    contributions: JSON.stringify({ agent: 1 }),
    global_feedback: 0,
    global_neg: 0,
    coherence: 0,
    conflicts: j % 10 === 1 ? 1 : 0,
    confidence,
    level: 0,
    doubt_rate: 0,
    source_message_id: messageId,
    created_at: issuedAt,
  });
  return openOutcomes(out, userId, id, held[0]!, issuedAt);
}

async function seed(db: Kysely<TrustDb>, bgDb: Kysely<BeliefDb>, ns: string, opts: Options, vectors: { companion: readonly number[][]; user: readonly number[][] }): Promise<Seeded> {
  const seeded: Seeded = { outcomes: new Set(), decisions: 0, challenges: 0, feedback: 0, nodes: 0, occurrences: 0, conflicts: 0 };
  const progress = createProgress(opts.users, 'seed', 'users');
  for (let i = 0; i < opts.users; i += BATCH) {
    const rows: UserRows = { nodes: [], occurrences: [], conflicts: [], feedback: [], decisions: [], outcomes: [], actors: [], schedule: [], challenges: [], graphChallenges: [] };
    for (let j = i; j < Math.min(opts.users, i + BATCH); j++) {
      userRows(j, opts.beliefs, vectors, rows);
      progress.tick(0);
    }
    await bgDb.insertInto('nodes').values(rows.nodes).execute();
    await bgDb.insertInto('occurrences').values(rows.occurrences).execute();
    if (rows.conflicts.length) await bgDb.insertInto('conflicts').values(rows.conflicts).execute();
    if (rows.graphChallenges.length) await bgDb.insertInto('challenges').values(rows.graphChallenges).execute();
    if (rows.challenges.length) await db.insertInto('challenges').values(rows.challenges).execute();
    await db.insertInto('feedback').values(rows.feedback).execute();
    await db.insertInto('decisions').values(rows.decisions).execute();
    await db.insertInto('outcomes').values(rows.outcomes).execute();
    if (rows.actors.length) await db.insertInto('actors').values(rows.actors).execute();
    await db.insertInto('schedule').values(rows.schedule).execute();
    for (const o of rows.outcomes) seeded.outcomes.add(o.outcome_id);
    seeded.decisions += rows.decisions.length;
    seeded.challenges += rows.challenges.length;
    seeded.feedback += rows.feedback.length;
    seeded.nodes += rows.nodes.length;
    seeded.occurrences += rows.occurrences.length;
    seeded.conflicts += rows.conflicts.length;
  }
  progress.stop();
  for (const t of ['feedback', 'decisions', 'outcomes', 'actors', 'schedule', 'challenges']) await sql`analyze ${sql.table(`${ns}_trust.${t}`)}`.execute(db);
  for (const t of ['nodes', 'occurrences', 'conflicts', 'challenges']) await sql`analyze ${sql.table(`${ns}_belief_graph.${t}`)}`.execute(bgDb);
  return seeded;
}

/** Ticks `progress` as the projection marks outcomes evaluated, until `stop` is called. */
function watchOutcomes(db: Kysely<TrustDb>, total: number, label: string): { stop(): Promise<void> } {
  const progress = createProgress(total, label, 'outcomes');
  let running = true;
  let wake: (() => void) | undefined;
  let seen = 0;
  const loop = (async () => {
    while (running) {
      await new Promise<void>((resolve) => {
        wake = resolve;
        setTimeout(resolve, 1_000);
      });
      const row = await db.selectFrom('outcomes').select((eb) => eb.fn.countAll<string>().as('n')).where('evaluated_at', 'is', null).executeTakeFirst();
      for (const done = total - Number(row?.n ?? total); seen < done; seen++) progress.tick(0);
    }
  })();
  return {
    async stop() {
      running = false;
      wake?.();
      await loop;
      progress.stop();
    },
  };
}

async function main(): Promise<void> {
  const program = new Command()
    .name('bench:trust')
    .description('A day of scheduled trust outcomes for N users coming due, evaluated by R scheduler replicas at once, beside the raw pieces of the same run')
    .option('--users <n>', 'users with a day of outcomes due', intArg(1, 1_000_000), 10_000)
    .option('--replicas <n>', 'scheduler replicas evaluating at once', intArg(1, 32), 3)
    .option('--beliefs <n>', "the companion's beliefs per user in belief-graph (⅔ seeded, the rest grown)", intArg(3, COMPANION.length), 6)
    .option('--json <file>', 'also write the figures as JSON')
    .parse();
  const opts = program.opts<Options>();
  const env = requiredServerEnv((m) => program.error(m), 'bench:trust needs a real NATS server and Postgres, e.g. NATS_URL=nats://127.0.0.1:4222 DATABASE_URL=postgres://postgres@127.0.0.1:5432/hearth_test');
  for (const [name, hosts] of [
    ['NATS_URL', env.NATS_URL.split(',').map((s) => new URL(s.includes('://') ? s.trim() : `nats://${s.trim()}`).hostname)],
    ['DATABASE_URL', [new URL(env.DATABASE_URL).hostname]],
  ] as const) {
    if (hosts.some((x) => !isLoopback(x))) program.error(`${name} must point at 127.0.0.1: the benchmark sends traffic to loopback only`);
  }

  const ns = testNamespace('bench_trust');
  let database: Database | undefined;
  let bus: Bus | undefined;
  let raw: pg.Client | undefined;
  let projection: RunningConsumer[] = [];
  try {
    database = await openDatabase({ url: env.DATABASE_URL, poolSize: 4 * opts.replicas + 4 });
    await migrateSchema(database, `${ns}_trust`, trust.migrations);
    await migrateSchema(database, `${ns}_belief_graph`, beliefGraph.migrations);
    const db = schemaDb<TrustDb>(database, `${ns}_trust`);
    const bgDb = schemaDb<BeliefDb>(database, `${ns}_belief_graph`);
    bus = await Bus.connect({ url: env.NATS_URL, name: 'bench-trust', namespace: ns, logger: quiet });
    // Trust's projection reads belief-graph's stream too (the challenges and their answers); nothing is on it here.
    await bus.ensureStreams(['trust', 'belief-graph']);
    raw = new pg.Client({ connectionString: env.DATABASE_URL });
    await raw.connect();

    const embedder = createLocalEmbedder(LOCAL_EMBEDDING);
    const vectors = { companion: COMPANION.map((t) => embedder.embedSync(embeddingTextOf(t))), user: USER_BELIEFS.map((t) => embedder.embedSync(embeddingTextOf(t))) };
    log(`namespace ${ns}: seeding ${opts.users} users (trust history and ${opts.beliefs} companion beliefs each)`);
    const seedStarted = performance.now();
    const seeded = await seed(db, bgDb, ns, opts, vectors);
    const seedMs = performance.now() - seedStarted;
    const outcomes = seeded.outcomes.size;
    log(`seeded in ${fmt(seedMs / 1000, 1)} s: ${outcomes} pending outcomes, ${seeded.decisions} decisions (${seeded.challenges} challenges), ${seeded.feedback} tags, ${seeded.nodes} nodes, ${seeded.occurrences} occurrences, ${seeded.conflicts} conflicts`);

    // belief-graph's real queries, timed and counted at the handler.
    const beliefMs: number[] = [];
    const graphMs: number[] = [];
    const timedQuery = <Q, A>(answer: (request: Q) => Promise<A>, samples: number[]) => async (request: Q): Promise<A> => {
      const t0 = performance.now();
      try {
        return await answer(request);
      } finally {
        samples.push(performance.now() - t0);
      }
    };
    await serveSomeQueries(bus, belief.BeliefQueriesDefinition, {
      GetCompanionBeliefs: timedQuery(createGetCompanionBeliefsQuery(bgDb), beliefMs),
      GetBeliefs: timedQuery(createGetBeliefsQuery(bgDb), graphMs),
    });
    // The scheduler waits on the projection to fold what it appended, as in the service.
    projection = await startProjection(bus, db, 'trust', trustProjection);
    const clock = new ManualClock(T0);
    const deps = { bus, db, clock, beliefGraph: beliefGraphClient(bus), logger: silent };

    // The graph answers what was seeded, or the bench would time the wrong work.
    const probe = await queryClients(bus).belief.GetCompanionBeliefs({ userId: uuidOf('user', 0), at: new Date(T0.getTime() + DAY + MIN), beliefIds: [] });
    if (probe.beliefs.length !== opts.beliefs || !probe.beliefs.some((b) => b.openConflicts > 0)) {
      throw new Error(`bench:trust: GetCompanionBeliefs of the first user gave ${probe.beliefs.length} beliefs (expected ${opts.beliefs}, one with an open conflict)`);
    }
    const graph = await queryClients(bus).belief.GetBeliefs({ userId: uuidOf('user', 1), holder: 'user' });
    if (opts.users > 1 && (graph.nodes.length !== 2 || graph.challenges.length !== 1)) {
      throw new Error(`bench:trust: GetBeliefs of the second user gave ${graph.nodes.length} user-held beliefs and ${graph.challenges.length} challenges (expected 2 and 1)`);
    }
    beliefMs.length = 0;
    graphMs.length = 0;

    // An idle poll: nothing due yet (every outcome is due after the clock).
    const idle: number[] = [];
    for (let i = 0; i < IDLE_POLLS; i++) {
      const t0 = performance.now();
      const r = await evaluateDueOutcomes(deps, { replica: 'idle' });
      idle.push(performance.now() - t0);
      if (r.users > 0) throw new Error('bench:trust: the idle poll evaluated users');
    }

    clock.advance(DAY + MIN);
    log(`the clock jumps 24 h + 1 min: ${outcomes} outcomes of ${opts.users} users come due, ${opts.replicas} replica(s) evaluate them`);
    const watch = watchOutcomes(db, outcomes, 'evaluate');
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const started = performance.now();
    const reports = await Promise.all(Array.from({ length: opts.replicas }, (_, r) => evaluateDueOutcomes(deps, { replica: `r${r}` })));
    const wallMs = performance.now() - started;
    // This process: the replicas, the projection and belief-graph's query handler.
    const elu = performance.eventLoopUtilization(elu0).utilization;
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    await watch.stop();
    const total = reports.reduce<PassReport>((a, r) => ({ users: a.users + r.users, outcomes: a.outcomes + r.outcomes, trustUpdates: a.trustUpdates + r.trustUpdates, skipped: a.skipped + r.skipped }), { users: 0, outcomes: 0, trustUpdates: 0, skipped: 0 });

    // Exactly once: every row evaluated, one OutcomeEvaluated per seeded outcome on the stream, no other.
    const lastSeq = await bus.lastSeq('trust');
    if (!(await waitForCheckpoint(db, trustProjection.name, bus.topology.stream('trust'), lastSeq, { timeoutMs: 60_000 }))) throw new Error('bench:trust: the projection did not catch up');
    const rows = await db
      .selectFrom('outcomes')
      .select((eb) => [eb.fn.countAll<string>().as('n'), eb.fn.count<string>('evaluated_at').as('evaluated')])
      .executeTakeFirstOrThrow();
    const left = await db
      .selectFrom('schedule')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where((w) => w.or([w('next_due_at', 'is not', null), w('claimed_by', 'is not', null)]))
      .executeTakeFirstOrThrow();
    const evaluatedIds = new Set<string>();
    const updateIds = new Set<string>();
    let evaluatedEvents = 0;
    let updateEvents = 0;
    let strays = 0;
    log(`reading the trust stream back (${lastSeq} events)`);
    for await (const e of bus.read('trust')) {
      if (e.type === Events.OutcomeEvaluated.name) {
        evaluatedEvents++;
        evaluatedIds.add(e.id);
        if (!seeded.outcomes.has(e.id)) strays++;
      } else if (e.type === Events.TrustUpdated.name) {
        updateEvents++;
        updateIds.add(e.id);
      }
    }
    const once =
      Number(rows.n) === outcomes &&
      Number(rows.evaluated) === outcomes &&
      evaluatedEvents === outcomes &&
      evaluatedIds.size === outcomes &&
      strays === 0 &&
      total.outcomes === outcomes &&
      total.skipped === 0;
    const updatesOnce = updateEvents === updateIds.size && updateEvents === total.trustUpdates;
    const released = Number(left.n) === 0;
    await Promise.all(projection.map((c) => c.stop()));
    projection = [];

    log('raw figures on the same servers');
    const js = await measureJetStream({ natsUrl: env.NATS_URL, namespace: ns, messages: 500, lookups: 500, subjects: 50 });
    const dbCosts = await measureDatabase(raw, { via: 'pg.Client on DATABASE_URL', schema: `${ns}_raw`, selects: 500, inserts: 200 });
    const idleMs = summarize(idle);
    const beliefsMs = summarize(beliefMs);
    const userGraphMs = summarize(graphMs);

    console.log(
      `\nbench:trust — ${opts.users} users, a day of outcomes due at once (${outcomes} outcomes of ${seeded.decisions - 2 * opts.users - seeded.challenges} promote/deprecate decisions ` +
        `and ${seeded.challenges} challenges, 2 h and 24 h each), ${opts.replicas} replica(s), ${opts.beliefs} companion beliefs per user; seeded in ${fmt(seedMs / 1000, 1)} s\n`,
    );
    for (const line of table([
      ['figure', 'value'],
      ['outcomes evaluated (OutcomeEvaluated appended)', `${total.outcomes} / ${outcomes}`],
      ['each outcome exactly once', once ? 'yes' : 'NO'],
      ['trust updates (TrustUpdated appended)', String(total.trustUpdates)],
      ['each trust update exactly once', updatesOnce ? 'yes' : 'NO'],
      ['every user released, nothing left due', released ? 'yes' : 'NO'],
      ['users evaluated (skipped)', `${total.users} (${total.skipped})`],
      ['evaluation wall time', `${fmt(wallMs / 1000, 2)} s`],
      ['evaluations per second', fmt(perSecond(total.outcomes, wallMs), 0)],
      ['trust updates per second', fmt(perSecond(total.trustUpdates, wallMs), 0)],
      ['users per second', fmt(perSecond(total.users, wallMs), 0)],
      ['per-user latency', 'n/a (no per-user hook in evaluateDueOutcomes)'],
      ['trust events appended per second (projection folds each)', fmt(perSecond(lastSeq, wallMs), 0)],
      ['bench process (replicas + projection + query): CPU, event loop busy', `${fmt((100 * cpuMs) / wallMs, 0)} % of a core, ${fmt(100 * elu, 0)} %`],
      ['GetCompanionBeliefs answered (handler): n, p50 / p99', `${beliefsMs.count}, ${fmt(beliefsMs.p50, 2)} / ${fmt(beliefsMs.p99, 2)} ms`],
      ["GetBeliefs (user's graph, challenges) answered: n, p50 / p99", `${userGraphMs.count}, ${fmt(userGraphMs.p50, 2)} / ${fmt(userGraphMs.p99, 2)} ms`],
      ['idle poll (nothing due): p50 / p99', `${fmt(idleMs.p50, 2)} / ${fmt(idleMs.p99, 2)} ms`],
      ['raw JetStream publish+ack: p50 / p99', `${fmt(js.publishAck.us.p50 / 1000, 2)} / ${fmt(js.publishAck.us.p99 / 1000, 2)} ms`],
      ['raw JetStream append (expect last seq): p50 / p99', `${fmt(js.appendExpect.us.p50 / 1000, 2)} / ${fmt(js.appendExpect.us.p99 / 1000, 2)} ms`],
      ['raw JetStream get-last-by-subject: p50 / p99', `${fmt(js.lastBySubject.us.p50 / 1000, 2)} / ${fmt(js.lastBySubject.us.p99 / 1000, 2)} ms`],
      ['raw Postgres SELECT 1: p50 / p99', `${fmt(dbCosts.select1.us.p50 / 1000, 3)} / ${fmt(dbCosts.select1.us.p99 / 1000, 3)} ms`],
      ['raw Postgres INSERT (commit): p50 / p99', `${fmt(dbCosts.insert.us.p50 / 1000, 3)} / ${fmt(dbCosts.insert.us.p99 / 1000, 3)} ms`],
    ]))
      console.log(line);
    if (opts.json) {
      await writeFile(
        opts.json,
        JSON.stringify(
          { ...opts, seeded: { ...seeded, outcomes }, seedMs, wallMs, total, once, updatesOnce, released, perSecond: { outcomes: perSecond(total.outcomes, wallMs), trustUpdates: perSecond(total.trustUpdates, wallMs), users: perSecond(total.users, wallMs) }, idleMs, companionBeliefsMs: beliefsMs, userBeliefsMs: userGraphMs, trustEvents: lastSeq, process: { cpuMs, eventLoopUtilization: elu }, jetstream: js, postgres: dbCosts },
          null,
          2,
        ),
      );
    }
    if (!once || !updatesOnce || !released) process.exitCode = 1;
  } finally {
    for (const c of projection) await withTimeout('stop the projection', c.stop());
    if (bus) await withTimeout('close NATS', bus.close());
    if (raw) await withTimeout('close the raw Postgres client', raw.end());
    if (database) await withTimeout('close Postgres', database.close());
    await withTimeout('drop the bench schemas', dropSchemas(env.DATABASE_URL, ns));
    await withTimeout('delete the bench streams', cleanupNamespace(env.NATS_URL, ns));
  }
}

main()
  .catch((err: unknown) => {
    log(`bench:trust failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    process.exitCode = 1;
  })
  // A consumer a failed start left running (startProjection does not stop the ones it started) must not keep the process.
  .finally(() => setTimeout(() => process.exit(), 5_000).unref());
