// Resolution feedback (uncertainty-engine.md "Conversational Clarification")
// against real NATS and Postgres: memory events and the uncertainty service's
// UncertaintyResolved appended as those services would, the memory projection
// and the clarified reactor running live.
import { randomUUID } from 'node:crypto';
import { Bus, draft, type EventDraft, type RunningConsumer, type StoredEvent } from '@hearth/bus';
import { ManualClock } from '@hearth/clock';
import { Events } from '@hearth/events';
import { createLocalEmbedder } from '@hearth/llm';
import { memory, uncertainty } from '@hearth/proto';
import { migrateSchema, openDatabase, schemaDb, startProjection, startReactor, waitForPosition, type Database } from '@hearth/store';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace } from '@hearth/testing';
import type { Kysely } from 'kysely';
import { LOCAL_EMBEDDING } from '../config.js';
import type { MemoryDb } from '../db.js';
import { embeddingText } from '../domain/describe.js';
import { service } from '../index.js';
import { memoriesProjection } from '../projections/memories.js';
import { clarifiedMemoryId, createClarifiedReactor } from './clarified.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const embedder = createLocalEmbedder({ dimensions: LOCAL_EMBEDDING.dimensions, model: LOCAL_EMBEDDING.model });

type User = { userId: string; aiFriendId: string };

let ns: string;
let dbUrl: string;
let nats: string;
let database: Database;
let db: Kysely<MemoryDb>;
let bus: Bus;
let running: RunningConsumer[];
let reactor: ReturnType<typeof createClarifiedReactor>;
const clock = new ManualClock(new Date('2026-11-28T09:00:00Z'));

beforeAll(async () => {
  ns = testNamespace('t_mem_clarified');
  dbUrl = await databaseUrl();
  nats = await natsUrl();
  database = await openDatabase({ url: dbUrl });
  const schema = `${ns}_memory`;
  await migrateSchema(database, schema, service.migrations);
  db = schemaDb<MemoryDb>(database, schema);
  bus = await Bus.connect({ url: nats, name: 't-mem-clarified', namespace: ns, logger: silent });
  await bus.ensureStreams(['memory', 'uncertainty']);
  reactor = createClarifiedReactor({ bus, db, embedder });
  running = [...(await startProjection(bus, db, 'memory', memoriesProjection)), ...(await startReactor(bus, db, 'memory', reactor))];
});

afterAll(async () => {
  await Promise.all(running.map((c) => c.stop()));
  await bus.close();
  await database.close();
  await dropSchemas(dbUrl, ns);
  await cleanupNamespace(nats, ns);
});

const meta = (userId: string) => ({ id: randomUUID(), userId, occurredAt: clock.now(), causationId: '', correlationId: '' });

async function appendMemory(user: User, drafts: EventDraft[]): Promise<void> {
  const last = await bus.lastOnSubject('memory', user.userId);
  const results = await bus.append('memory', user.userId, drafts, last?.seq ?? 0);
  if (!(await waitForPosition(db, memoriesProjection.name, bus.topology.subject('memory', user.userId), results.at(-1)!.seq, { timeoutMs: 10_000 }))) throw new Error('the projection did not apply the events');
}

/** A FACT recorded a minute after the last, as write-back records it. */
async function recorded(user: User, key: string, value: string, over: Partial<memory.MemoryRecorded> = {}): Promise<string> {
  const memoryId = randomUUID();
  clock.advance(60_000);
  const text = embeddingText(key, value);
  const [embedding] = await embedder.embed([text]);
  await appendMemory(user, [
    draft(
      Events.MemoryRecorded,
      memory.MemoryRecorded.fromPartial({ memoryId, aiFriendId: user.aiFriendId, type: 'FACT', memoryKey: key, memoryValue: value, confidence: 0.6, extractor: 'heuristic', sourceMessageId: randomUUID(), topicIds: ['WORK_SCHOOL'], embedding, embeddingModel: embedder.model, embeddingText: text, ...over }),
      meta(user.userId),
    ),
  ]);
  return memoryId;
}

/**
 * Appends an UncertaintyResolved on the uncertainty chain of `on` and waits
 * until the reactor has handled it. Returns the event.
 */
async function resolved(on: User, value: Partial<uncertainty.UncertaintyResolved>): Promise<StoredEvent> {
  clock.advance(60_000);
  const last = await bus.lastOnSubject('uncertainty', on.userId);
  const payload = uncertainty.UncertaintyResolved.fromPartial({ uncertaintyId: randomUUID(), strategy: 'user_clarified', detail: 'the user said which holds', sourceMessageId: randomUUID(), at: clock.now(), state: 'resolved', ...value });
  const [result] = await bus.append('uncertainty', on.userId, [draft(Events.UncertaintyResolved, payload, meta(on.userId))], last?.seq ?? 0);
  const subject = bus.topology.subject('uncertainty', on.userId);
  if (!(await waitForPosition(db, reactor.name, subject, result!.seq, { timeoutMs: 10_000 }))) throw new Error('the reactor did not handle the resolution');
  // The reactor's append is read back before the projection applies it: wait for that too.
  const mine = await bus.lastOnSubject('memory', on.userId);
  if (mine) await waitForPosition(db, memoriesProjection.name, mine.subject, mine.seq, { timeoutMs: 10_000 });
  for await (const e of bus.read('uncertainty', { key: on.userId })) if (e.seq === result!.seq) return e;
  throw new Error('the resolution is not on the stream');
}

async function memoryEvents(user: User): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for await (const e of bus.read('memory', { key: user.userId })) out.push(e);
  return out;
}

async function records(user: User) {
  return db.selectFrom('memories').select(['memory_id', 'memory_value', 'status', 'superseded_by', 'confidence', 'extractor']).where('user_id', '=', user.userId).orderBy('created_at').execute();
}

const newUser = (): User => ({ userId: randomUUID(), aiFriendId: randomUUID() });

describe('resolution feedback: a clarified winner memory had superseded is ACTIVE again', () => {
  it('records the winner again, superseding the loser, with the resolution as its source and a vector as write-back embeds', async () => {
    // given: Seoul, confirmed, then superseded by Busan ("I moved")
    const user = newUser();
    const seoul = await recorded(user, 'fact:current_city', 'seoul', { occurredOn: '2026-05-01', occurredPrecision: 'month', occurredText: 'last may' });
    await appendMemory(user, [draft(Events.MemoryConfirmed, { memoryId: seoul, sourceMessageId: randomUUID(), confidence: 0.75, extractor: 'heuristic' }, meta(user.userId))]);
    const busan = await recorded(user, 'fact:current_city', 'busan', { supersedes: seoul });

    // when: the user clarifies that Seoul holds after all
    const sourceMessageId = randomUUID();
    const resolution = await resolved(user, { winnerId: seoul, loserId: busan, sourceMessageId });

    // then
    const restoredId = clarifiedMemoryId(resolution.id);
    const events = await memoryEvents(user);
    const event = events.find((e) => e.id === restoredId)!;
    expect(event.type).toBe(Events.MemoryRecorded.name);
    expect(event.causationId).toBe(resolution.id);
    const p = Events.MemoryRecorded.decode(event.payload);
    expect(p).toMatchObject({
      memoryId: restoredId,
      aiFriendId: user.aiFriendId,
      type: 'FACT',
      memoryKey: 'fact:current_city',
      memoryValue: 'seoul',
      confidence: 0.75,
      extractor: 'clarified',
      supersedes: busan,
      sourceMessageId,
      topicIds: ['WORK_SCHOOL'],
      embeddingModel: embedder.model,
      embeddingText: embeddingText('fact:current_city', 'seoul'),
      occurredOn: '2026-05-01',
      occurredPrecision: 'month',
    });
    const [expected] = await embedder.embed([embeddingText('fact:current_city', 'seoul')]);
    expect(p.embedding).toHaveLength(LOCAL_EMBEDDING.dimensions);
    expect(p.embedding.map((x) => Math.fround(x))).toEqual(expected!.map((x) => Math.fround(x)));
    expect((await records(user)).map((r) => [r.memory_value, r.status, r.superseded_by])).toEqual([
      ['seoul', 'SUPERSEDED', busan],
      ['busan', 'SUPERSEDED', restoredId],
      ['seoul', 'ACTIVE', null],
    ]);
  });

  it('appends nothing when the winner is already ACTIVE, for another strategy, or for a resolution of another user that names these memories', async () => {
    // given: Seoul superseded by Busan, and Jeju the ACTIVE record of another key
    const user = newUser();
    const stranger = newUser();
    const seoul = await recorded(user, 'fact:current_city', 'seoul');
    const busan = await recorded(user, 'fact:current_city', 'busan', { supersedes: seoul });
    const before = (await memoryEvents(user)).length;

    // when
    await resolved(user, { winnerId: busan, loserId: seoul });
    await resolved(user, { strategy: 'temporal_supersede', winnerId: seoul, loserId: busan });
    await resolved(user, { strategy: 'decayed', winnerId: '', loserId: busan, state: 'decayed' });
    await resolved(stranger, { winnerId: seoul, loserId: busan });

    // then
    expect(await memoryEvents(user)).toHaveLength(before);
    expect(await memoryEvents(stranger)).toEqual([]);
    expect((await records(user)).map((r) => [r.memory_value, r.status])).toEqual([
      ['seoul', 'SUPERSEDED'],
      ['busan', 'ACTIVE'],
    ]);
  });

  it('restores once: a redelivered resolution, or evidence resolving the same way again, records nothing more', async () => {
    // given
    const user = newUser();
    const seoul = await recorded(user, 'fact:current_city', 'seoul');
    const busan = await recorded(user, 'fact:current_city', 'busan', { supersedes: seoul });
    const resolution = await resolved(user, { strategy: 'evidence_resolved', winnerId: seoul, loserId: busan });

    // when: the reactor gets it again (a crash before its ack), and a second resolution names the same pair
    await reactor.react(resolution);
    await resolved(user, { winnerId: seoul, loserId: busan });

    // then: Seoul was restored under a new id; the old Seoul record is no winner any more
    const restored = (await memoryEvents(user)).filter((e) => e.type === Events.MemoryRecorded.name && Events.MemoryRecorded.decode(e.payload).extractor === 'clarified');
    expect(restored.map((e) => e.id)).toEqual([clarifiedMemoryId(resolution.id)]);
    expect((await records(user)).filter((r) => r.status === 'ACTIVE').map((r) => [r.memory_value, r.extractor])).toEqual([['seoul', 'clarified']]);
  });
});
