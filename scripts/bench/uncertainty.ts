// The uncertainty engine's cost (issue 17 "Cost"): the Context 1 ingestion check
// as the orchestrator asks it — CheckMessage over NATS request/reply, request →
// answer — at --memories memories of one user, beside the raw pieces of the same
// run on the same servers.
//
// The service runs in this process as its int test wires it
// (services/uncertainty/src/handlers/uncertainty.int.test.ts): the CheckMessage
// handler and the uncertainties projection live on their own Bus connection,
// with payload sealing on (as deployed); the "orchestrator" asks on another
// connection. The reactor (late checks, drift, Context 4) is not started: no
// turn ends here, and it is off the reply path.
//
// The user's mirror of memory (held_memories) is NOT loaded through the memory
// stream: the MemoryRecorded events are built as memory would append them and
// folded by the projection's own `apply`, in one transaction — the same rows,
// minus a JetStream round trip per memory. Half are traits (FACT, PREFERENCE;
// distinct keys), half RELATIONSHIP_EVENT. A few open uncertainties are made
// through the real path (stance-flip checks) before timing.
//
// The messages, in a fixed cycle of ten (most real turns state nothing):
//   nothing ×5   states no trait ("what a long day")            → verdict none
//   restatement ×2  "I love X" when X is held as liked           → reinforcement
//   flip         "I hate Y" when Y is held as liked              → contradiction (opens one)
//   answer       the next turn answers the flip's question        → answer (resolves it)
//   temporal     "I moved to Z" against fact:current_city        → temporal_change
// The answer after each flip keeps the open uncertainties at the few made first.
// Each check has a new message id. Between checks (untimed) the bench waits
// until the projection has applied what the check appended, as real turns are
// seconds apart; a check's own get-last, projection wait and appends are timed.
//
// Also: the pre-screen alone (extractRulesOnly + loadHeld for the candidate
// keys, in-process) against its < 50 ms budget, and raw figures: NATS
// request/reply to an empty handler, one indexed SELECT on held_memories, one
// JetStream append (bus.append, sealed), extractRulesOnly alone.
//
//   NATS_URL=… DATABASE_URL=… pnpm bench:uncertainty [--memories 1000,10000] [--checks 1000] [--open 3] [--raw 500] [--json FILE]
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Command, InvalidArgumentError } from 'commander';
import { sql, type Kysely } from 'kysely';
import { Bus, draft, LocalKek, queryRpc, serveSomeQueries, type BusLogger, type RunningConsumer } from '@hearth/bus';
import { Events } from '@hearth/events';
import { uncertainty } from '@hearth/proto';
import { eventKey, extractRulesOnly, MEMORY_KEYS, preferenceKey, type EventDomain } from '@hearth/memory-rules';
import { migrateSchema, openDatabase, schemaDb, startProjection, waitForPosition, type Database } from '@hearth/store';
import { cleanupNamespace, dropSchemas, storedEvent, testNamespace } from '@hearth/testing';
import { UNCERTAINTY_CONFIG } from '@hearth/uncertainty';
import { loadHeld } from '../../services/uncertainty/src/adapters/state.js';
import { SERVICE } from '../../services/uncertainty/src/config.js';
import type { UncertaintyDb } from '../../services/uncertainty/src/db.js';
import { service } from '../../services/uncertainty/src/index.js';
import { uncertaintiesProjection } from '../../services/uncertainty/src/projections/uncertainties.js';
import { createCheckMessageCommand } from '../../services/uncertainty/src/queries/check-message.js';
import { intArg, isLoopback, log, requiredServerEnv, withTimeout } from './lib/cli.js';
import { createProgress } from './lib/progress.js';
import { fmt, table } from './lib/report.js';
import { perSecond, summarize, type Summary } from './lib/stats.js';

interface Options {
  memories: number[];
  checks: number;
  open: number;
  raw: number;
  json?: string;
}

function sizesArg(value: string): number[] {
  const sizes = value.split(',').map((s) => intArg(10, 1_000_000)(s.trim()));
  if (sizes.length === 0) throw new InvalidArgumentError('expected sizes like 1000,10000');
  return sizes;
}

const program = new Command('bench:uncertainty')
  .description('The Context 1 check (CheckMessage over NATS) at N memories of one user, its pre-screen, and the raw pieces of the same run')
  .option('--memories <list>', 'memories of the one user, one run per size', sizesArg, [1_000, 10_000])
  .option('--checks <n>', 'timed checks per size, in the cycle of ten', intArg(10, 1_000_000), 1_000)
  .option('--open <n>', 'open uncertainties the user has while timed', intArg(0, 100), 3)
  .option('--raw <n>', 'samples of each raw figure per size', intArg(10, 1_000_000), 500)
  .option('--json <file>', 'also write the figures as JSON')
  .parse();
const opts = program.opts<Options>();

type Kind = 'nothing' | 'restatement' | 'flip' | 'answer' | 'temporal';
const CYCLE: readonly Kind[] = ['nothing', 'restatement', 'nothing', 'flip', 'answer', 'nothing', 'temporal', 'nothing', 'restatement', 'nothing'];
const EXPECTED: Record<Kind, string> = { nothing: 'none', restatement: 'reinforcement', flip: 'contradiction', answer: 'answer', temporal: 'temporal_change' };
const KIND_LABEL: Record<Kind, string> = {
  flip: 'check: stance flip (opens one)',
  answer: "check: answer to the flip's question",
  restatement: 'check: restatement',
  temporal: 'check: temporal change (moved)',
  nothing: 'check: states nothing',
};

// Invented words only. A preference item is "<flavour> <dish>"; the ones memory's
// rules read back to one key from both "I love …" and "I hate …" are the probes.
const FLAVOURS = ['tangerine', 'plum', 'walnut', 'ginger', 'sesame', 'maple', 'lemon', 'pumpkin', 'cherry', 'coconut', 'almond', 'honey', 'pepper', 'garlic', 'basil', 'mango', 'peach', 'apricot', 'hazelnut', 'cinnamon', 'saffron', 'rhubarb', 'fig', 'lime', 'olive', 'mint', 'vanilla', 'caramel', 'chestnut', 'pistachio'];
const DISHES = ['cake', 'dumplings', 'soup', 'pie', 'curry', 'noodles', 'salad', 'bread', 'cookies', 'pancakes', 'rice', 'tea', 'smoothie', 'latte', 'ice cream'];
// Filler traits and episodes: keys no probe states.
const PLACES = ['harbor', 'meadow', 'velvet', 'lantern', 'orchard', 'pebble', 'canyon', 'willow', 'ember', 'glacier', 'thistle', 'copper', 'marble', 'juniper', 'prairie', 'quartz', 'sparrow', 'tundra', 'violet', 'aspen', 'birch', 'cobalt', 'dune', 'fjord', 'grove', 'heron', 'indigo', 'jasper', 'kelp', 'lagoon'];
const DOINGS = ['visited', 'painted', 'cleaned', 'planned', 'finished', 'started', 'missed', 'booked', 'fixed', 'shared'];
const FACTS: Record<string, string> = { home_country: 'korea', home_city: 'incheon', current_city: 'seoul', timezone: 'asia/seoul', occupation: 'designer', school: 'hanbit university', major: 'design', language_primary: 'korean' };
const CITIES = ['busan', 'daegu', 'gwangju', 'lisbon', 'oslo', 'daejeon', 'ulsan', 'jeonju'];
const NOTHING = ['what a long day', 'ok sounds good', 'haha yeah', 'can you help me plan dinner?', 'tired today', 'my boss was annoying again', 'the bus was late this morning', 'anyway how are you', 'that makes sense', 'lol no way'];
const ANSWERS = ['no, I still love it honestly', 'I still like it, ignore that', 'nah I love it'];

const T0 = Date.parse('2026-11-20T09:00:00Z');
const DAY = 86_400_000;
/** Untimed cycles before each size's timed checks (JIT, connection pool, plan caches). */
const WARMUP_CYCLES = 5;
/** The bench's own request timeout: past the 600 ms time box, so a slow check is measured, not cut. */
const REQUEST_TIMEOUT_MS = 10_000;
const quiet: BusLogger = { info: () => undefined, warn: (o, m) => log(`${m ?? ''} ${JSON.stringify(o)}`), error: (o, m) => log(`${m ?? ''} ${JSON.stringify(o)}`) };

interface Probe {
  item: string;
  key: string;
}

/** The items whose "I love …" and "I hate …" memory's rules read as one PREFERENCE key. */
function probeItems(at: Date): Probe[] {
  const out: Probe[] = [];
  for (const dish of DISHES) {
    for (const flavour of FLAVOURS) {
      const item = `${flavour} ${dish}`;
      const love = extractRulesOnly(`I love ${item}`, at);
      const hate = extractRulesOnly(`I hate ${item}`, at);
      if (love.length === 1 && hate.length === 1 && love[0]!.type === 'PREFERENCE' && love[0]!.key === hate[0]!.key && love[0]!.value.startsWith('like|')) out.push({ item, key: love[0]!.key });
    }
  }
  return out;
}

interface Series {
  name: string;
  ms: Summary;
  /** Operations per second, one in flight: count / summed time. */
  perSec: number;
  budget: string;
  budgetMs?: number;
  /** Samples over the budget. */
  over?: number;
}

function seriesOf(name: string, samples: readonly number[], budgetMs?: number, budget = budgetMs === undefined ? '—' : `< ${budgetMs} ms`): Series {
  const sum = samples.reduce((s, v) => s + v, 0);
  return { name, ms: summarize(samples), perSec: perSecond(samples.length, sum), budget, budgetMs, over: budgetMs === undefined ? undefined : samples.filter((v) => v >= budgetMs).length };
}

/** Times `n` sequential runs of `op` after `warmup` untimed ones. */
async function timed(n: number, warmup: number, op: (i: number) => Promise<unknown>): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await op(-1 - i);
  const ms: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await op(i);
    ms.push(performance.now() - t0);
  }
  return ms;
}

interface SizeResult {
  memories: number;
  traits: number;
  episodes: number;
  seedMs: number;
  openUncertainties: { before: number; after: number };
  mismatches: Record<Kind, number>;
  checks: Series[];
  prescreen: Series[];
  raw: Series[];
}

interface Harness {
  database: Database;
  db: Kysely<UncertaintyDb>;
  svc: Bus;
  client: Bus;
  /** The Postgres schema of the service's tables. */
  schema: string;
  echoSubject: string;
  probes: Probe[];
}

/** The user's mirror of memory, folded by the projection's own apply in one transaction. */
async function seed(h: Harness, userId: string, memories: number, previousMessageId: string): Promise<{ traits: number; episodes: number }> {
  const traits = Math.ceil(memories / 2);
  const progress = createProgress(memories, 'seed', 'memories');
  const factKeys = Object.keys(FACTS);
  let t = 0;
  let e = 0;
  await h.db.transaction().execute(async (trx) => {
    const apply = async (i: number, type: string, key: string, value: string, extractor: string) => {
      const sourceMessageId = randomUUID();
      const at = new Date(T0 - DAY * (1 + ((i * 7) % 700)));
      const payload = { memoryId: randomUUID(), aiFriendId: 'bench-friend', type, memoryKey: key, memoryValue: value, confidence: 0.6, extractor, sourceMessageId, supersedes: '', topicIds: [], embedding: [], embeddingModel: '', embeddingText: '', occurredOn: '', occurredPrecision: '', occurredText: '' };
      await uncertaintiesProjection.apply(trx, storedEvent(Events.MemoryRecorded, payload, { id: randomUUID(), userId, occurredAt: at, causationId: sourceMessageId, correlationId: sourceMessageId }));
      progress.tick(0);
    };
    for (let i = 0; i < memories; i++) {
      if (i % 2 === 0 && t < traits) {
        // Traits: the singleton facts, then the probes (liked), then filler preferences.
        if (t < factKeys.length) await apply(i, 'FACT', `fact:${factKeys[t]}`, FACTS[factKeys[t]!]!, 'heuristic');
        else if (t - factKeys.length < h.probes.length) {
          const p = h.probes[t - factKeys.length]!;
          await apply(i, 'PREFERENCE', p.key, `like|${p.item}`, 'heuristic');
        } else {
          const k = t - factKeys.length - h.probes.length;
          const categories = MEMORY_KEYS.preferenceCategories;
          const round = Math.floor(k / (FLAVOURS.length * PLACES.length * categories.length));
          const item = `${FLAVOURS[k % FLAVOURS.length]} ${PLACES[Math.floor(k / FLAVOURS.length) % PLACES.length]}${round ? ` ${round}` : ''}`;
          const category = categories[Math.floor(k / (FLAVOURS.length * PLACES.length)) % categories.length]!;
          await apply(i, 'PREFERENCE', preferenceKey(category, item)!, `${k % 3 === 0 ? 'dislike' : 'like'}|${item}`, 'heuristic');
        }
        t++;
      } else {
        const domains = MEMORY_KEYS.eventDomains;
        const what = `${DOINGS[e % DOINGS.length]} the ${PLACES[Math.floor(e / DOINGS.length) % PLACES.length]} ${FLAVOURS[Math.floor(e / (DOINGS.length * PLACES.length)) % FLAVOURS.length]} ${Math.floor(e / (DOINGS.length * PLACES.length * FLAVOURS.length))}`;
        const at = new Date(T0 - DAY * (1 + ((i * 7) % 700)));
        await apply(i, 'RELATIONSHIP_EVENT', eventKey(domains[e % domains.length] as EventDomain, at, what)!, `I ${what} with a friend`, 'offline');
        e++;
      }
    }
    // The previous turn's write-back, so each check's wait for it is one hit, not a 250 ms timeout.
    const written = { messageId: previousMessageId, conversationId: '', assistantMessageId: '', aiFriendId: 'bench-friend', source: 'chat', surfacedMemoryIds: [], extractedMemoryCandidateIds: [], candidates: [], correction: '', invalidatedMemoryIds: [], clarificationNeeded: false, suppressTopicIds: [], heuristicRan: true, llmRan: false, llmReasons: [], exchanges: [], skipped: '', turnAt: new Date(T0), topicIds: [] };
    await uncertaintiesProjection.apply(trx, storedEvent(Events.TurnMemoryWritten, written, { id: randomUUID(), userId, occurredAt: new Date(T0) }));
  });
  progress.stop();
  await sql`analyze ${sql.table(`${h.schema}.held_memories`)}`.execute(h.db);
  return { traits: t, episodes: e };
}

async function runSize(h: Harness, memories: number, opt: Options): Promise<SizeResult> {
  const userId = randomUUID();
  const conversationId = randomUUID();
  const previousMessageId = randomUUID();
  log(`${memories} memories: seeding the mirror of one user`);
  const seedStarted = performance.now();
  const { traits, episodes } = await seed(h, userId, memories, previousMessageId);
  const seedMs = performance.now() - seedStarted;
  const held = h.probes.slice(0, Math.max(0, traits - Object.keys(FACTS).length));
  if (held.length < opt.open + 2) throw new Error(`bench:uncertainty: ${memories} memories hold ${held.length} probe items; need at least ${opt.open + 2}`);

  let minute = 0;
  const at = () => new Date(T0 + minute++ * 60_000);
  const settled = async () => {
    const last = await h.svc.lastOnSubject('uncertainty', userId);
    if (last && !(await waitForPosition(h.db, uncertaintiesProjection.name, last.subject, last.seq, { timeoutMs: 20_000 }))) throw new Error('the projection did not catch up');
  };
  const ask = (text: string, answersUncertaintyId = '') =>
    new uncertainty.UncertaintyQueriesClientImpl(queryRpc(h.client, { timeoutMs: REQUEST_TIMEOUT_MS })).CheckMessage({ userId, messageId: randomUUID(), conversationId, text, afterMessageId: previousMessageId, memoryIds: [], topicIds: [], at: at(), answersUncertaintyId });
  const countOpen = async () => Number((await h.db.selectFrom('uncertainties').select((eb) => eb.fn.countAll<string>().as('n')).where('user_id', '=', userId).where('state', 'in', ['open', 'surfaced']).executeTakeFirstOrThrow()).n);

  // The few open uncertainties, through the real path; their items are not used again.
  for (let k = 0; k < opt.open; k++) {
    const r = await ask(`I hate ${held[k]!.item}`);
    if (r.verdict !== 'contradiction') throw new Error(`bench:uncertainty: seeding an open uncertainty got verdict '${r.verdict}'`);
    await settled();
  }
  const openBefore = await countOpen();
  const probes = held.slice(opt.open);
  const restated = probes.slice(Math.floor(probes.length / 2));
  const flipped = probes.slice(0, Math.max(1, Math.floor(probes.length / 2)));

  // Each message of the cycle, i-th of its kind.
  const seen: Record<Kind, number> = { nothing: 0, restatement: 0, flip: 0, answer: 0, temporal: 0 };
  let pendingQuestion = '';
  const textOf = (kind: Kind): string => {
    const n = seen[kind]++;
    switch (kind) {
      case 'nothing':
        return NOTHING[n % NOTHING.length]!;
      case 'restatement':
        return `I love ${restated[n % restated.length]!.item}`;
      case 'flip':
        return `I hate ${flipped[n % flipped.length]!.item}`;
      case 'answer':
        return ANSWERS[n % ANSWERS.length]!;
      case 'temporal':
        return `I moved to ${CITIES[n % CITIES.length]![0]!.toUpperCase()}${CITIES[n % CITIES.length]!.slice(1)}`;
    }
  };
  const samples: Record<Kind, number[]> = { nothing: [], restatement: [], flip: [], answer: [], temporal: [] };
  const all: number[] = [];
  const mismatches: Record<Kind, number> = { nothing: 0, restatement: 0, flip: 0, answer: 0, temporal: 0 };
  const texts: string[] = [];
  const warmup = WARMUP_CYCLES * CYCLE.length;
  const progress = createProgress(opt.checks, `checks@${memories}`, 'checks');
  for (let i = -warmup; i < opt.checks; i++) {
    const kind = CYCLE[(i + warmup) % CYCLE.length]!;
    const text = textOf(kind);
    const answers = kind === 'answer' ? pendingQuestion : '';
    const t0 = performance.now();
    const r = await ask(text, answers);
    const ms = performance.now() - t0;
    if (r.verdict !== EXPECTED[kind]) {
      if (i < 0) throw new Error(`bench:uncertainty: "${text}" (${kind}) got verdict '${r.verdict}', expected '${EXPECTED[kind]}': the bench would time the wrong path`);
      mismatches[kind]++;
    }
    if (kind === 'flip') pendingQuestion = r.surface?.uncertaintyId ?? '';
    // Untimed: what the check appended is applied before the next turn, as turns are seconds apart.
    if (kind !== 'nothing') await settled();
    if (i < 0) continue;
    samples[kind].push(ms);
    all.push(ms);
    texts.push(text);
    progress.tick(Object.values(mismatches).reduce((s, v) => s + v, 0));
  }
  progress.stop();
  const openAfter = await countOpen();
  const box = UNCERTAINTY_CONFIG.ingestionTimeBoxMs;
  const checks = [...(['flip', 'answer', 'restatement', 'temporal', 'nothing'] as const).map((k) => seriesOf(KIND_LABEL[k], samples[k], box)), seriesOf('check: all (the cycle of ten)', all, box)];

  // The pre-screen alone, in-process: what the message states, and the user's memories of those keys.
  const screen = async (text: string) => {
    const when = at();
    const candidates = extractRulesOnly(text, when).filter((c) => SERVICE.traitTypes.includes(c.type));
    return loadHeld(h.db, userId, [...new Set(candidates.map((c) => c.key))]);
  };
  const stating = texts.filter((x) => extractRulesOnly(x, new Date(T0)).some((c) => SERVICE.traitTypes.includes(c.type)));
  const budget = UNCERTAINTY_CONFIG.prescreenBudgetMs;
  const prescreen = [
    seriesOf('pre-screen: all (rules + loadHeld)', await timed(texts.length, 20, (i) => screen(texts[Math.max(0, i)]!)), budget),
    seriesOf('pre-screen: stating a trait', await timed(stating.length, 20, (i) => screen(stating[Math.max(0, i) % stating.length]!)), budget),
  ];

  // Raw pieces, same servers, same run.
  const n = opt.raw;
  const empty = new Uint8Array(0);
  const natsRR = await timed(n, 100, () => h.client.nc.request(h.echoSubject, empty, { timeout: 5_000 }));
  const select = await timed(n, 100, (i) =>
    h.db
      .selectFrom('held_memories')
      .selectAll()
      .where('user_id', '=', userId)
      .where('memory_key', '=', probes[Math.abs(i) % probes.length]!.key)
      .where('status', '=', 'ACTIVE')
      .execute(),
  );
  // On the orchestrator stream, which nothing here consumes; one subject, its last sequence tracked.
  const rawUser = randomUUID();
  let lastSeq = 0;
  const append = await timed(n, 100, async (i) => {
    const d = draft(Events.ToleranceAdjusted, { from: 0.5, to: 0.5, reason: 'bench', sourceMessageId: '', at: new Date(T0) }, { userId: rawUser, id: randomUUID(), occurredAt: new Date(T0), causationId: String(i), correlationId: '' });
    const [r] = await h.svc.append('orchestrator', rawUser, [d], lastSeq);
    lastSeq = r!.seq;
  });
  const rulesAt = new Date(T0);
  const rules = await timed(n, 100, async (i) => extractRulesOnly(texts[Math.abs(i) % texts.length]!, rulesAt));
  const raw = [
    seriesOf('raw: NATS request/reply, empty handler', natsRR),
    seriesOf('raw: Postgres indexed SELECT on held_memories', select),
    seriesOf('raw: JetStream append (bus.append, sealed)', append),
    seriesOf('raw: extractRulesOnly alone', rules),
  ];
  return { memories, traits, episodes, seedMs, openUncertainties: { before: openBefore, after: openAfter }, mismatches, checks, prescreen, raw };
}

function render(r: SizeResult): string[] {
  const rows = [['series', 'n', 'mean ms', 'p50 ms', 'p99 ms', 'max ms', 'ops/s', 'budget', 'p99 within', 'over budget']];
  const row = (s: Series) => [
    s.name,
    String(s.ms.count),
    fmt(s.ms.mean, 3),
    fmt(s.ms.p50, 3),
    fmt(s.ms.p99, 3),
    fmt(s.ms.max, 3),
    fmt(s.perSec, 0),
    s.budget,
    s.budgetMs === undefined ? '' : s.ms.p99 < s.budgetMs ? 'yes' : 'NO',
    s.over === undefined ? '' : String(s.over),
  ];
  for (const s of [...r.checks, ...r.prescreen, ...r.raw]) rows.push(row(s));
  const bad = Object.entries(r.mismatches).filter(([, v]) => v > 0);
  return [
    `${fmt(r.memories, 0)} memories of one user (${fmt(r.traits, 0)} traits, ${fmt(r.episodes, 0)} episodes; seeded in ${fmt(r.seedMs / 1000, 1)} s), ` +
      `open uncertainties ${r.openUncertainties.before} before the timed checks, ${r.openUncertainties.after} after`,
    '',
    ...table(rows).map((l) => `  ${l}`),
    ...(bad.length ? ['', `  UNEXPECTED VERDICTS: ${bad.map(([k, v]) => `${k} ×${v}`).join(', ')}`] : []),
  ];
}

async function main(): Promise<void> {
  const env = requiredServerEnv(
    (m) => program.error(m),
    'set NATS_URL (JetStream) and DATABASE_URL (Postgres), e.g. NATS_URL=nats://127.0.0.1:4222 DATABASE_URL=postgres://postgres@127.0.0.1:5432/hearth_test',
  );
  for (const [name, hosts] of [
    ['NATS_URL', env.NATS_URL.split(',').map((s) => new URL(s.includes('://') ? s.trim() : `nats://${s.trim()}`).hostname)],
    ['DATABASE_URL', [new URL(env.DATABASE_URL).hostname]],
  ] as const) {
    if (hosts.some((x) => !isLoopback(x))) program.error(`${name} must point at 127.0.0.1: the benchmark sends traffic to loopback only`);
  }
  const started = performance.now();
  const ns = testNamespace('bench_unc');
  const schema = `${ns}_uncertainty`;
  const probes = probeItems(new Date(T0));
  log(`namespace ${ns}; ${probes.length} probe items memory's rules read back`);

  let database: Database | undefined;
  let svc: Bus | undefined;
  let client: Bus | undefined;
  let running: RunningConsumer[] = [];
  try {
    database = await openDatabase({ url: env.DATABASE_URL });
    await migrateSchema(database, schema, service.migrations);
    const db = schemaDb<UncertaintyDb>(database, schema);
    // Sealed payloads, as deployed (a development KEK derived from the throwaway namespace).
    svc = await Bus.connect({ url: env.NATS_URL, name: 'bench-uncertainty-service', namespace: ns, logger: quiet, encryption: { kek: LocalKek.forDevelopment(ns) } });
    client = await Bus.connect({ url: env.NATS_URL, name: 'bench-uncertainty-orchestrator', namespace: ns, logger: quiet });
    await svc.ensureStreams(['memory', 'uncertainty', 'orchestrator']);
    await serveSomeQueries(svc, uncertainty.UncertaintyQueriesDefinition, { CheckMessage: createCheckMessageCommand({ bus: svc, db }) });
    running = await startProjection(svc, db, 'uncertainty', uncertaintiesProjection);
    const echoSubject = `${ns}.bench.echo`;
    svc.nc.subscribe(echoSubject, { callback: (_e, m) => void m.respond(new Uint8Array(0)) });
    await svc.nc.flush();

    const h: Harness = { database, db, svc, client, schema, echoSubject, probes };
    const results: SizeResult[] = [];
    for (const size of opts.memories) results.push(await runSize(h, size, opts));
    const wallMs = performance.now() - started;

    const settings = await sql<{ v: string }>`select current_setting('server_version') || ', synchronous_commit=' || current_setting('synchronous_commit') as v`.execute(db);
    console.log(`\nbench:uncertainty — Context 1 check as the orchestrator asks it (CheckMessage over NATS, request → answer), service in-process on its own connection`);
    console.log(
      `Postgres ${settings.rows[0]?.v ?? '?'}; NATS ${env.NATS_URL}; payloads sealed; ${opts.checks} checks per size in the cycle ` +
        `${CYCLE.join(' ')}; budgets: the check's ${UNCERTAINTY_CONFIG.ingestionTimeBoxMs} ms time box, the pre-screen's < ${UNCERTAINTY_CONFIG.prescreenBudgetMs} ms\n`,
    );
    for (const r of results) {
      for (const line of render(r)) console.log(line);
      console.log('');
    }
    console.log('ops/s: one in flight (count / summed time). Checks are timed at the orchestrator: request → decoded answer, one new message id each.');
    console.log(`wall ${fmt(wallMs / 1000, 1)} s`);
    if (results.some((r) => Object.values(r.mismatches).some((v) => v > 0))) process.exitCode = 1;
    if (opts.json) {
      await writeFile(opts.json, JSON.stringify({ options: opts, cycle: CYCLE, timeBoxMs: UNCERTAINTY_CONFIG.ingestionTimeBoxMs, prescreenBudgetMs: UNCERTAINTY_CONFIG.prescreenBudgetMs, results, wallMs }, null, 2));
    }
  } finally {
    for (const r of running) await withTimeout('stop the projection', r.stop());
    if (client) await withTimeout('close the client connection', client.close());
    if (svc) await withTimeout('close the service connection', svc.close());
    if (database) await withTimeout('close Postgres', database.close());
    await withTimeout('drop the bench schemas', dropSchemas(env.DATABASE_URL, ns));
    await withTimeout('delete the bench streams', cleanupNamespace(env.NATS_URL, ns));
  }
}

main().catch((err: unknown) => {
  log(`bench:uncertainty failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
