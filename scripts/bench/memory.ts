// Memory retrieval at 10k memories for one user (turn-pipeline §13): the
// SearchMemories query over NATS request/reply (embed the query, search the
// embedded index, read the hits' rows), the in-process index search alone, and
// FindMemories — beside the raw NATS request/reply and Postgres round trips
// measured in the same run. The memories are written straight into the memory
// projection's tables (real rows, real local embeddings), not through the event
// pipeline: this measures reading, not writing.
//
//   NATS_URL=… DATABASE_URL=… pnpm bench:memory [--memories 10000] [--queries 500] [--json FILE]
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { Command } from 'commander';
import pg from 'pg';
import { Bus, serveSomeQueries } from '@hearth/bus';
import { FIND_MEMORIES, SEARCH_MEMORIES } from '@hearth/events';
import { systemClock } from '@hearth/clock';
import { createLocalEmbedder } from '@hearth/llm';
import { memory } from '@hearth/proto';
import { dropSchema, migrateSchema, openDatabase, schemaDb } from '@hearth/store';
import { sql, type Kysely } from 'kysely';
import { LOCAL_EMBEDDING, MEMORY_KEYS, RETRIEVAL } from '../../services/memory/src/config.js';
import type { MemoryDb } from '../../services/memory/src/db.js';
import { embeddingText } from '../../services/memory/src/domain/describe.js';
import { service } from '../../services/memory/src/index.js';
import { memoriesProjection } from '../../services/memory/src/projections/memories.js';
import { createFindMemoriesQuery, createSearchMemoriesQuery } from '../../services/memory/src/queries/memories.js';
import { createLexicalIndex } from '../../services/memory/src/lexical/index.js';
import { createEmbeddedIndex } from '../../services/memory/src/vector/embedded.js';
import { intArg, log, requiredServerEnv, withTimeout } from './lib/cli.js';
import { createProgress } from './lib/progress.js';
import { measureDatabase } from './lib/raw-costs.js';
import { fmt, table } from './lib/report.js';
import { percentile, perSecond } from './lib/stats.js';

const QUERIES = ['where do I live', 'what food do I like', 'my job', 'do you remember my trip', 'music I listen to', 'what stresses me out at school', 'sushi', '김치 찌개'];
const ITEMS = ['sushi', 'ramen', 'jazz', 'hiking', 'chess', 'tennis', 'green tea', 'horror', 'kimchi', 'coffee', 'piano', 'soccer'];

interface Series {
  name: string;
  ms: number[];
}

function stats(s: Series) {
  const sorted = [...s.ms].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99), max: sorted.at(-1) ?? NaN };
}

async function main(): Promise<void> {
  const opts = new Command()
    .name('bench:memory')
    .option('--memories <n>', 'memories of the one user', intArg(10, 1_000_000), 10_000)
    .option('--queries <n>', 'queries of each kind', intArg(10, 1_000_000), 500)
    .option('--json <file>', 'write the figures as JSON')
    .parse()
    .opts<{ memories: number; queries: number; json?: string }>();
  const env = requiredServerEnv((m) => {
    log(m);
    process.exit(2);
  }, 'bench:memory needs a real NATS server and Postgres (see README: Benchmarks).');

  const ns = `bench_mem_${randomUUID().slice(0, 8)}`;
  const schema = `${ns}_memory`;
  const database = await openDatabase({ url: env.DATABASE_URL });
  const quiet = { info: () => undefined, warn: (o: object, m?: string) => log(`${m ?? ''} ${JSON.stringify(o)}`), error: (o: object, m?: string) => log(`${m ?? ''} ${JSON.stringify(o)}`) };
  const bus = await Bus.connect({ url: env.NATS_URL, name: 'bench-memory', namespace: ns, logger: quiet });
  const raw = new pg.Client({ connectionString: env.DATABASE_URL });
  await raw.connect();
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
        rows.push({
          memory_id: randomUUID(),
          user_id: user.userId,
          ai_friend_id: user.aiFriendId,
          type: 'PREFERENCE',
          memory_key: key,
          memory_value: value,
          confidence: 0.6,
          status: j % 10 === 0 ? 'SUPERSEDED' : 'ACTIVE',
          superseded_by: null,
          source_message_ids: JSON.stringify([randomUUID()]) as unknown as string[],
          extractor: 'heuristic',
          topic_ids: JSON.stringify([]) as unknown as string[],
          embedding: vector!,
          embedding_model: embedder.model,
          created_at: new Date(at.getTime() + j * 1000),
          last_confirmed_at: new Date(at.getTime() + j * 1000),
          status_reason: '',
          updated_at: at,
          updated_seq: 0,
        });
        seeding.tick(0);
      }
      await db.insertInto('memories').values(rows).execute();
    }
    seeding.stop();
    await sql`analyze ${sql.table(`${schema}.memories`)}`.execute(db);

    const index = createEmbeddedIndex(db, { projection: memoriesProjection.name, subjectOf: (u) => bus.topology.subject('memory', u) });
    const lexical = createLexicalIndex(db, { projection: memoriesProjection.name, subjectOf: (u) => bus.topology.subject('memory', u) });
    const deps = { bus, db, clock: systemClock, index, lexical, embedder };
    await serveSomeQueries(bus, memory.MemoryQueriesDefinition, { SearchMemories: createSearchMemoriesQuery(deps), FindMemories: createFindMemoriesQuery(deps) });
    bus.nc.subscribe(`${ns}.bench.echo`, {
      callback: (_e, m) => {
        m.respond(m.data);
      },
    });

    const series: Series[] = [];
    // `op` may return milliseconds of untimed set-up it did first.
    const time = async (name: string, n: number, op: (i: number) => Promise<unknown>) => {
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
      return performance.now() - started;
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
    const searchWall = await time('SearchMemories (NATS)', opts.queries, async (i) => {
      hits += memory.MemoriesResponse.decode(await bus.query('memory', SEARCH_MEMORIES, searchReq(i))).memories.length;
    });
    const vectors = await embedder.embed(QUERIES);
    await time('index.search only', opts.queries, (i) => index.search({ ...user, vector: vectors[i % vectors.length]!, model: embedder.model, topK: RETRIEVAL.topK, excludeKeys: [] }));
    const findReq = memory.FindMemoriesRequest.encode(memory.FindMemoriesRequest.fromPartial({ ...user, readPolicy: 'FULL', limit: 8 })).finish();
    await time('FindMemories (NATS)', opts.queries, () => bus.query('memory', FIND_MEMORIES, findReq));
    // As the orchestrator asks it since issue 15: ranked by relevance to the user's message.
    const findTextReq = (i: number) => memory.FindMemoriesRequest.encode(memory.FindMemoriesRequest.fromPartial({ ...user, readPolicy: 'FULL', limit: 8, queryText: QUERIES[i % QUERIES.length]! })).finish();
    await time('FindMemories with query_text', opts.queries, (i) => bus.query('memory', FIND_MEMORIES, findTextReq(i)));
    // A search right after the user's memories changed: the index reads only the changed rows.
    const writes = Math.min(200, opts.queries);
    const runtime = db as unknown as Kysely<{ projection_positions: { projection: string; subject: string; last_seq: number } }>;
    const [fresh] = await embedder.embed([embeddingText('pref:food:bench_new', 'like|bench new')]);
    await time('SearchMemories after a write', writes, async (i) => {
      const t0 = performance.now();
      await db
        .updateTable('memories')
        .set({ updated_seq: i + 1, embedding: fresh! })
        .where('memory_id', '=', (await db.selectFrom('memories').select('memory_id').where('status', '=', 'ACTIVE').offset(i).limit(1).executeTakeFirstOrThrow()).memory_id)
        .execute();
      await runtime
        .insertInto('projection_positions')
        .values({ projection: memoriesProjection.name, subject: bus.topology.subject('memory', user.userId), last_seq: i + 1 })
        .onConflict((oc) => oc.columns(['projection', 'subject']).doUpdateSet({ last_seq: i + 1 }))
        .execute();
      // Only the search is timed: the write stands in for the projection applying an event.
      const setup = performance.now() - t0;
      await bus.query('memory', SEARCH_MEMORIES, searchReq(i));
      return setup;
    });
    const payload = new Uint8Array(200);
    await time('raw NATS request/reply', opts.queries, () => bus.nc.request(`${ns}.bench.echo`, payload, { timeout: 5_000 }));
    const dbCosts = await measureDatabase(raw, { via: 'pg.Client on DATABASE_URL', schema: `${ns}_raw`, selects: opts.queries, inserts: 10 });

    const rows = [['operation', 'p50 ms', 'p95 ms', 'p99 ms', 'max ms'], ...series.map((s) => ({ s, f: stats(s) })).map(({ s, f }) => [s.name, fmt(f.p50, 3), fmt(f.p95, 3), fmt(f.p99, 3), fmt(f.max, 3)])];
    rows.push(['raw Postgres SELECT 1', fmt(dbCosts.select1.us.p50 / 1000, 3), '', fmt(dbCosts.select1.us.p99 / 1000, 3), fmt(dbCosts.select1.us.max / 1000, 3)]);
    const active = await db.selectFrom('memories').select((eb) => eb.fn.countAll<string>().as('n')).where('status', '=', 'ACTIVE').executeTakeFirstOrThrow();
    console.log(`\nbench:memory — ${opts.memories} memories of one user (${active.n} ACTIVE), ${LOCAL_EMBEDDING.dimensions}-d local embeddings, embedded index, topK ${RETRIEVAL.topK}\n`);
    for (const line of table(rows)) console.log(line);
    console.log(`\ncold first search (loads the user's vectors from Postgres): ${fmt(coldMs, 1)} ms; the lexical index's first load: ${fmt(coldWordsMs, 1)} ms`);
    console.log(`SearchMemories throughput: ${fmt(perSecond(opts.queries, searchWall), 0)} queries/s sequential, ${fmt(hits / opts.queries, 2)} hits per query`);
    if (opts.json) {
      await writeFile(
        opts.json,
        JSON.stringify({ memories: opts.memories, queries: opts.queries, coldMs, coldWordsMs, series: Object.fromEntries(series.map((s) => [s.name, stats(s)])), postgres: dbCosts }, null, 2),
      );
    }
  } finally {
    await withTimeout('drop the bench schema', dropSchema(database, schema));
    await withTimeout('close Postgres', Promise.all([database.close(), raw.end()]));
    await withTimeout('close NATS', bus.close());
  }
}

main().catch((err: unknown) => {
  log(`bench:memory failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  process.exitCode = 1;
});
