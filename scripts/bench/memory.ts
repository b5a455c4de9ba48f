// Memory retrieval at 10k memories for one user (turn-pipeline §13; issue 20's
// targets): the SearchMemories query over NATS request/reply as the service runs
// it offline (the lexical ranking: the local hashing embedder's vectors carry no
// meaning) and with vectors on (the local vectors taken as meaningful, so the
// embedded vector index ranks too, as with an embeddings endpoint), the index
// search alone and its recall@4 against an exact scan, and FindMemories —
// beside the raw NATS request/reply and database round trips measured in the
// same run, then issue 20's targets, met or not. The memories are written
// straight into the memory projection's tables (real rows, real local
// embeddings), not through the event pipeline: this measures reading, not writing.
//
//   NATS_URL=… [DATABASE_URL=…] pnpm bench:memory [--memories 10000] [--queries 500] [--warmup 50] [--recall-queries 200] [--json FILE]
//
// Without DATABASE_URL the memories live in an in-memory PGlite (the same one
// the raw database figures are taken through).
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import pg from 'pg';
import { Bus, serveSomeQueries } from '@hearth/bus';
import { baseEnvSchema, ConfigError, loadConfig } from '@hearth/config';
import { FIND_MEMORIES, SEARCH_MEMORIES } from '@hearth/events';
import { systemClock } from '@hearth/clock';
import { createLocalEmbedder, type Embedder } from '@hearth/llm';
import { memory } from '@hearth/proto';
import { dropSchema, migrateSchema, openDatabase, schemaDb } from '@hearth/store';
import { sql } from 'kysely';
import { LOCAL_EMBEDDING, MEMORY_KEYS, RETRIEVAL, VECTOR_INDEX } from '../../services/memory/src/config.js';
import type { MemoryDb } from '../../services/memory/src/db.js';
import { embeddingText } from '../../services/memory/src/domain/describe.js';
import { memoryRow, setPosition } from '../../services/memory/src/fixtures.js';
import { service } from '../../services/memory/src/index.js';
import { memoriesProjection } from '../../services/memory/src/projections/memories.js';
import { createFindMemoriesQuery, createSearchMemoriesQuery } from '../../services/memory/src/queries/memories.js';
import { createLexicalIndex } from '../../services/memory/src/lexical/index.js';
import { createEmbeddedIndex } from '../../services/memory/src/vector/embedded.js';
import { exactScan, recallAt, type ScanPoint } from '../../services/memory/src/vector/exact.js';
import { float4ArrayFromSend } from '../../services/memory/src/vector/pg-float4.js';
import { intArg, log, withTimeout } from './lib/cli.js';
import { createProgress } from './lib/progress.js';
import { measureDatabase, type DatabaseCosts } from './lib/raw-costs.js';
import { checkTarget, fmt, renderTargets, table, type TargetCheck } from './lib/report.js';
import { percentile, perSecond } from './lib/stats.js';

const QUERIES = ['where do I live', 'what food do I like', 'my job', 'do you remember my trip', 'music I listen to', 'what stresses me out at school', 'sushi', '김치 찌개'];
const ITEMS = ['sushi', 'ramen', 'jazz', 'hiking', 'chess', 'tennis', 'green tea', 'horror', 'kimchi', 'coffee', 'piano', 'soccer'];

/** Issue 20: SearchMemories p95 at 10,000 memories of one user, and at 100,000. */
const SEARCH_P95_MS = [
  { upTo: 10_000, ms: 5 },
  { upTo: 100_000, ms: 10 },
] as const;
/** Issue 20: recall@4 of the index against an exact scan. */
const RECALL_AT_4 = 0.99;

interface Series {
  name: string;
  ms: number[];
}

function stats(s: Series) {
  const sorted = [...s.ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

/** The local embedder, taken for one whose vectors carry meaning: SearchMemories then ranks by them too. */
function asMeaningful(embedder: Embedder): Embedder {
  return { provider: 'bench-local-as-meaningful', model: embedder.model, embed: (texts) => embedder.embed(texts) };
}

/** Questions about the seeded memories (item and number), and some about nothing seeded. */
function recallQueries(n: number, memories: number): string[] {
  const forms = ['do I like %', 'what about % again', 'tell me about %', '% — remember that?'];
  return Array.from({ length: n }, (_, i) => {
    if (i % 5 === 4) return QUERIES[i % QUERIES.length]!;
    const j = (i * 7919) % memories;
    return forms[i % forms.length]!.replace('%', `${ITEMS[j % ITEMS.length]} ${j}`);
  });
}

async function main(): Promise<void> {
  const opts = new Command()
    .name('bench:memory')
    .option('--memories <n>', 'memories of the one user', intArg(10, 1_000_000), 10_000)
    .option('--queries <n>', 'queries of each kind', intArg(10, 1_000_000), 500)
    .option('--warmup <n>', 'untimed queries before each kind', intArg(0, 100_000), 50)
    .option('--recall-queries <n>', 'queries the recall against an exact scan is measured over', intArg(1, 100_000), 200)
    .option('--json <file>', 'write the figures as JSON')
    .parse()
    .opts<{ memories: number; queries: number; warmup: number; recallQueries: number; json?: string }>();
  let env: { NATS_URL: string; DATABASE_URL?: string | undefined };
  try {
    env = loadConfig(baseEnvSchema.pick({ NATS_URL: true, DATABASE_URL: true }), process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    log(`${err.message}\nbench:memory needs a NATS server (NATS_URL) and takes Postgres from DATABASE_URL, else an in-memory PGlite.`);
    process.exit(2);
  }

  const ns = `bench_mem_${randomUUID().slice(0, 8)}`;
  const schema = `${ns}_memory`;
  const database = await openDatabase(env.DATABASE_URL ? { url: env.DATABASE_URL } : { pgliteDir: 'memory://' });
  const databaseText = database.kind === 'postgres' ? 'Postgres (DATABASE_URL)' : 'PGlite in memory (DATABASE_URL unset)';
  log(`database: ${databaseText}`);
  const quiet = { info: () => undefined, warn: (o: object, m?: string) => log(`${m ?? ''} ${JSON.stringify(o)}`), error: (o: object, m?: string) => log(`${m ?? ''} ${JSON.stringify(o)}`) };
  const bus = await Bus.connect({ url: env.NATS_URL, name: 'bench-memory', namespace: ns, logger: quiet });
  const raw = env.DATABASE_URL ? new pg.Client({ connectionString: env.DATABASE_URL }) : undefined;
  await raw?.connect();
  try {
    await migrateSchema(database, schema, service.migrations);
    const db = schemaDb<MemoryDb>(database, schema);
    const embedder = createLocalEmbedder({ dimensions: LOCAL_EMBEDDING.dimensions, model: LOCAL_EMBEDDING.model });
    const user = { userId: randomUUID(), aiFriendId: randomUUID() };

    log(`seeding ${opts.memories} memories of one user into ${schema}.memories`);
    const seeding = createProgress(opts.memories, 'seed', 'memories');
    const at = new Date('2026-11-23T00:00:00Z');
    for (let i = 0; i < opts.memories; i += 500) {
      const rows = [];
      for (let j = i; j < Math.min(opts.memories, i + 500); j++) {
        const category = MEMORY_KEYS.preferenceCategories[j % MEMORY_KEYS.preferenceCategories.length]!;
        const item = `${ITEMS[j % ITEMS.length]} ${j}`;
        const key = `pref:${category}:${item.replace(' ', '_')}`;
        const value = `${j % 3 === 0 ? 'dislike' : 'like'}|${item}`;
        const [vector] = await embedder.embed([embeddingText(key, value)]);
        rows.push(
          memoryRow({
            user_id: user.userId,
            ai_friend_id: user.aiFriendId,
            type: 'PREFERENCE',
            memory_key: key,
            memory_value: value,
            status: j % 10 === 0 ? 'SUPERSEDED' : 'ACTIVE',
            source_message_ids: [randomUUID()],
            embedding: vector!,
            embedding_model: embedder.model,
            created_at: new Date(at.getTime() + j * 1000),
            updated_at: at,
            updated_seq: 0,
          }),
        );
        seeding.tick(0);
      }
      await db.insertInto('memories').values(rows).execute();
    }
    seeding.stop();
    await sql`analyze ${sql.table(`${schema}.memories`)}`.execute(db);

    const copyOptions = { projection: memoriesProjection.name, subjectOf: (u: string) => bus.topology.subject('memory', u) };
    const index = createEmbeddedIndex(db, copyOptions);
    const lexical = createLexicalIndex(db, copyOptions);
    const deps = { bus, db, clock: systemClock, index, lexical, embedder };
    await serveSomeQueries(bus, memory.MemoryQueriesDefinition, { SearchMemories: createSearchMemoriesQuery(deps), FindMemories: createFindMemoriesQuery(deps) });
    // The same query with vectors on, over NATS too (on a subject of its own: one service answers per query name).
    const searchWithVectors = createSearchMemoriesQuery({ ...deps, embedder: asMeaningful(embedder) });
    const vectorsSubject = `${ns}.bench.search-with-vectors`;
    bus.nc.subscribe(vectorsSubject, {
      callback: (_e, m) => {
        void searchWithVectors(memory.SearchMemoriesRequest.decode(m.data)).then(
          (res) => m.respond(memory.MemoriesResponse.encode(res).finish()),
          (err: unknown) => log(`search with vectors failed: ${String(err)}`),
        );
      },
    });
    bus.nc.subscribe(`${ns}.bench.echo`, {
      callback: (_e, m) => {
        m.respond(m.data);
      },
    });

    const series: Series[] = [];
    // `op` may return milliseconds of untimed set-up it did first. Each series
    // starts with untimed runs (--warmup), as the raw figures' series do.
    const time = async (name: string, n: number, op: (i: number) => Promise<unknown>) => {
      for (let i = 0; i < Math.min(opts.warmup, n); i++) await op(n + i);
      const s: Series = { name, ms: [] };
      const progress = createProgress(n, name, 'queries');
      const started = performance.now();
      for (let i = 0; i < n; i++) {
        const t0 = performance.now();
        const setup = await op(i);
        s.ms.push(performance.now() - t0 - (typeof setup === 'number' ? setup : 0));
        progress.tick(0);
      }
      progress.stop();
      series.push(s);
      return { series: s, wallMs: performance.now() - started };
    };

    // The first search loads the user's vectors from the projection (a cold cache).
    const cold = performance.now();
    const [probe] = await embedder.embed(['warm up']);
    await index.search({ ...user, vector: probe!, model: embedder.model, topK: RETRIEVAL.topK, excludeKeys: [] });
    const coldMs = performance.now() - cold;
    // …and the first lexical search loads the user's words (issue 15's BM25 index).
    const coldWords = performance.now();
    await lexical.search({ ...user, text: 'warm up', excludeKeys: [] });
    const coldWordsMs = performance.now() - coldWords;

    const searchReq = (i: number) => memory.SearchMemoriesRequest.encode(memory.SearchMemoriesRequest.fromPartial({ ...user, queryText: QUERIES[i % QUERIES.length]!, topK: RETRIEVAL.topK })).finish();
    let hits = 0;
    const offline = await time('SearchMemories (NATS)', opts.queries, async (i) => {
      const found = memory.MemoriesResponse.decode(await bus.query('memory', SEARCH_MEMORIES, searchReq(i))).memories.length;
      if (i < opts.queries) hits += found;
    });
    let vectorHits = 0;
    const withVectors = await time('SearchMemories, vectors on (NATS)', opts.queries, async (i) => {
      const found = memory.MemoriesResponse.decode((await bus.nc.request(vectorsSubject, searchReq(i), { timeout: 5_000 })).data).memories.length;
      if (i < opts.queries) vectorHits += found;
    });
    const vectors = await embedder.embed(QUERIES);
    const indexOnly = await time(`index.search only, topK ${RETRIEVAL.topK}`, opts.queries, (i) =>
      index.search({ ...user, vector: vectors[i % vectors.length]!, model: embedder.model, topK: RETRIEVAL.topK, excludeKeys: [] }),
    );
    await time(`index.search only, topK ${RETRIEVAL.fusionDepth} (SearchMemories' depth)`, opts.queries, (i) =>
      index.search({ ...user, vector: vectors[i % vectors.length]!, model: embedder.model, topK: RETRIEVAL.fusionDepth, excludeKeys: [] }),
    );
    const findReq = memory.FindMemoriesRequest.encode(memory.FindMemoriesRequest.fromPartial({ ...user, readPolicy: 'FULL', limit: 8 })).finish();
    await time('FindMemories (NATS)', opts.queries, () => bus.query('memory', FIND_MEMORIES, findReq));
    // As the orchestrator asks it since issue 15: ranked by relevance to the user's message.
    const findTextReq = (i: number) => memory.FindMemoriesRequest.encode(memory.FindMemoriesRequest.fromPartial({ ...user, readPolicy: 'FULL', limit: 8, queryText: QUERIES[i % QUERIES.length]! })).finish();
    await time('FindMemories with query_text', opts.queries, (i) => bus.query('memory', FIND_MEMORIES, findTextReq(i)));
    // A search right after the user's memories changed: both indexes read only the changed rows.
    const writes = Math.min(200, opts.queries);
    const [fresh] = await embedder.embed([embeddingText('pref:food:bench_new', 'like|bench new')]);
    // Each write a later position (warm-up writes included): a position going back would reload the user.
    let position = 0;
    await time('SearchMemories, vectors on, after a write', writes, async (i) => {
      const t0 = performance.now();
      const seq = ++position;
      await db
        .updateTable('memories')
        .set({ updated_seq: seq, embedding: fresh! })
        .where('memory_id', '=', (await db.selectFrom('memories').select('memory_id').where('status', '=', 'ACTIVE').orderBy('memory_id').offset(seq).limit(1).executeTakeFirstOrThrow()).memory_id)
        .execute();
      await setPosition(db, memoriesProjection.name, bus.topology.subject('memory', user.userId), seq);
      // Only the search is timed: the write stands in for the projection applying an event.
      const setup = performance.now() - t0;
      await bus.nc.request(vectorsSubject, searchReq(i), { timeout: 5_000 });
      return setup;
    });
    const payload = new Uint8Array(200);
    const rawNats = await time('raw NATS request/reply', opts.queries, () => bus.nc.request(`${ns}.bench.echo`, payload, { timeout: 5_000 }));
    const dbCosts: DatabaseCosts = raw
      ? await measureDatabase(raw, { via: 'pg.Client on DATABASE_URL', schema: `${ns}_raw`, selects: opts.queries, inserts: 10 })
      : await measureDatabase(database.pool, { via: 'the same in-memory PGlite through openDatabase (@hearth/store) pg.Pool, max 1', schema: `${ns}_raw`, selects: opts.queries, inserts: 10 });

    // Recall: the index's top 4 (and top fusionDepth) against an exact scan of the user's ACTIVE vectors.
    log(`recall: ${opts.recallQueries} queries against an exact scan of the user's ACTIVE vectors`);
    const points: ScanPoint[] = (
      await db
        .selectFrom('memories')
        .select('memory_id')
        .select(sql<Uint8Array>`array_send(embedding)`.as('embedding'))
        .where('user_id', '=', user.userId)
        .where('ai_friend_id', '=', user.aiFriendId)
        .where('status', '=', 'ACTIVE')
        .where('embedding_model', '=', embedder.model)
        .execute()
    ).map((r) => ({ memoryId: r.memory_id, vector: float4ArrayFromSend(r.embedding) }));
    const recall = { at4: 0, atDepth: 0 };
    const scan = exactScan(points);
    const recallVectors = await embedder.embed(recallQueries(opts.recallQueries, opts.memories));
    for (const v of recallVectors) {
      const q = { ...user, vector: v, model: embedder.model, excludeKeys: [] };
      // The exact top fusionDepth, best first: its first topK are the exact top topK.
      const exact = scan(v, RETRIEVAL.fusionDepth);
      recall.at4 += recallAt(exact.slice(0, RETRIEVAL.topK), await index.search({ ...q, topK: RETRIEVAL.topK }));
      recall.atDepth += recallAt(exact, await index.search({ ...q, topK: RETRIEVAL.fusionDepth }));
    }
    recall.at4 /= recallVectors.length;
    recall.atDepth /= recallVectors.length;

    const rows = [['operation', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'], ...series.map((s) => ({ s, f: stats(s) })).map(({ s, f }) => [s.name, fmt(f.p50, 3), fmt(f.p95, 3), fmt(f.p99, 3), fmt(f.max, 3)])];
    const dbName = database.kind === 'postgres' ? 'Postgres' : 'PGlite';
    rows.push([`raw ${dbName} SELECT 1`, fmt(dbCosts.select1.us.p50 / 1000, 3), '', fmt(dbCosts.select1.us.p99 / 1000, 3), fmt(dbCosts.select1.us.max / 1000, 3)]);
    const active = await db.selectFrom('memories').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'ACTIVE').executeTakeFirstOrThrow();
    // The index holds each ACTIVE vector as float32 and int8 rows, and a float32 bound.
    const indexMb = (Number(active.n) * (LOCAL_EMBEDDING.dimensions * 5 + 4)) / 2 ** 20;
    console.log(
      `\nbench:memory — ${opts.memories} memories of one user (${active.n} ACTIVE), ${LOCAL_EMBEDDING.dimensions}-d local embeddings, ${databaseText}, ` +
        `embedded index (usearch int8 scan, float32 re-score, ${VECTOR_INDEX.candidates} candidates), topK ${RETRIEVAL.topK}\n`,
    );
    for (const line of table(rows)) console.log(line);
    console.log(`\ncold first search (loads the user's vectors from the database): ${fmt(coldMs, 1)} ms, holding ${fmt(indexMb, 1)} MB of vector rows; the lexical index's first load: ${fmt(coldWordsMs, 1)} ms`);
    console.log(
      `SearchMemories throughput: ${fmt(perSecond(opts.queries, offline.wallMs), 0)} queries/s sequential (${fmt(hits / opts.queries, 2)} hits per query); ` +
        `vectors on: ${fmt(perSecond(opts.queries, withVectors.wallMs), 0)} queries/s (${fmt(vectorHits / opts.queries, 2)} hits per query)`,
    );
    console.log(
      `recall against an exact scan over ${recallVectors.length} queries: @${RETRIEVAL.topK} ${fmt(recall.at4, 4)}, @${RETRIEVAL.fusionDepth} ${fmt(recall.atDepth, 4)}\n`,
    );

    const rawText = `raw NATS req/reply p50 ${fmt(stats(rawNats.series).p50, 3)} ms, ${dbName} SELECT 1 p50 ${fmt(dbCosts.select1.us.p50 / 1000, 3)} ms`;
    const limit = SEARCH_P95_MS.find((t) => opts.memories <= t.upTo);
    const checks: TargetCheck[] = [];
    if (limit) {
      const at = `${fmt(limit.upTo, 0)} memories`;
      checks.push(
        checkTarget({ name: `SearchMemories p95, offline (NATS), ≤ ${at}`, measured: stats(offline.series).p95, unit: 'ms', bound: 'max', limit: limit.ms, raw: rawText }),
        checkTarget({ name: `SearchMemories p95, vectors on (NATS), ≤ ${at}`, measured: stats(withVectors.series).p95, unit: 'ms', bound: 'max', limit: limit.ms, raw: rawText }),
        checkTarget({ name: `index.search p95, ≤ ${at}`, measured: stats(indexOnly.series).p95, unit: 'ms', bound: 'max', limit: limit.ms, raw: 'in process: no I/O' }),
      );
    } else {
      log(`no SearchMemories latency target above ${fmt(SEARCH_P95_MS.at(-1)!.upTo, 0)} memories`);
    }
    checks.push(checkTarget({ name: `recall@${RETRIEVAL.topK} against an exact scan`, measured: recall.at4, unit: '', bound: 'min', limit: RECALL_AT_4, raw: `${recallVectors.length} queries` }));
    for (const line of renderTargets(`targets (issue 20), ${dbName}`, checks)) console.log(line);
    if (opts.json) {
      await writeFile(
        opts.json,
        JSON.stringify(
          {
            memories: opts.memories,
            queries: opts.queries,
            database: database.kind,
            coldMs,
            coldWordsMs,
            indexMb,
            recall,
            series: Object.fromEntries(series.map((s) => [s.name, stats(s)])),
            raw: dbCosts,
            targets: checks,
          },
          null,
          2,
        ),
      );
    }
  } finally {
    await withTimeout('drop the bench schema', dropSchema(database, schema));
    await withTimeout('close the database', Promise.all([database.close(), raw?.end()]));
    await withTimeout('close NATS', bus.close());
  }
}

main().catch((err: unknown) => {
  log(`bench:memory failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
