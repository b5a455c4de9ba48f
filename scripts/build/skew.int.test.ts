// A rolling upgrade without version skew: an old and a new build of memory run side
// by side on the same streams (one replica each, sharing the durable consumers and
// the query queue group) over a load of turns, with an additive proto change between
// them — the new build's envelope has `producer_build` (field 13), the old one's does
// not. The old build is the same code compiled against the proto before that field
// (regenerated here with buf from proto/ minus the field). Rollout: old alone, then
// old and new, then the old one stopped by SIGTERM. Nothing may be lost (every turn
// written back), doubled (one TurnMemoryWritten per turn, one memory per fact) or
// rejected (no dead letter, every query answered).
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Bus, draft, listDeadLetters, LocalKek, type StoredEvent } from '@hearth/bus';
import { deriveId, Events, queryClients } from '@hearth/events';
import { common, orchestrator } from '@hearth/proto';
import { cleanupNamespace, databaseUrl, dropSchemas, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import { bundleService, REPO } from './bundle.js';
import { startFromOutput, stopGracefully, type Started } from './output.js';

const run = promisify(execFile);
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };
const ns = testNamespace('skew');
const work = join(REPO, '.tmp', `skew-${ns}`);
const ENVELOPE = join(REPO, 'libs', 'proto', 'src', 'gen', 'hearth', 'common', 'v1', 'envelope.ts');
const FIELD = /^\s*string producer_build = 13;\s*$/m;
const USERS = 12;
const TURNS_PER_PHASE = 2;

let nats: string;
let dbUrl: string;
let bus: Bus;
const running: Started[] = [];

/** The old proto's generated envelope: proto/ with the new field taken out, through buf and ts-proto. */
async function oldEnvelope(): Promise<string> {
  const proto = join(work, 'old-proto');
  cpSync(join(REPO, 'proto'), proto, { recursive: true });
  const file = join(proto, 'hearth', 'common', 'v1', 'envelope.proto');
  const text = readFileSync(file, 'utf8');
  if (!FIELD.test(text)) throw new Error('envelope.proto has no producer_build field: update this test to the contract change it exercises');
  writeFileSync(file, text.replace(FIELD, ''));
  await run('pnpm', ['exec', 'buf', 'generate', proto, '--template', join(REPO, 'proto', 'buf.gen.yaml'), '-o', join(work, 'old-gen')], { cwd: REPO });
  return join(work, 'old-gen', 'libs', 'proto', 'src', 'gen', 'hearth', 'common', 'v1', 'envelope.ts');
}

async function startMemory(build: 'old' | 'new'): Promise<Started> {
  const s = await startFromOutput(join(work, build), {
    NATS_URL: nats,
    DATABASE_URL: dbUrl,
    HEARTH_NAMESPACE: ns,
    HEARTH_ENV: 'test',
    HEARTH_BUILD: build,
    LOG_LEVEL: 'warn',
  });
  running.push(s);
  return s;
}

const users = Array.from({ length: USERS }, (_, i) => ({ userId: randomUUID(), aiFriendId: randomUUID(), conversationId: randomUUID(), n: i }));
const turns: { userId: string; messageId: string }[] = [];
const FACTS = ['I live in Busan', 'I like jazz', 'My sister is called Mina', 'I work as a nurse', 'I hate mornings', 'I have a dog named Bori'];

/** One turn per user, appended as the orchestrator would (sealed with the namespace's development KEK). */
async function turnsFor(phase: number): Promise<void> {
  await Promise.all(
    users.map(async (u) => {
      for (let t = 0; t < TURNS_PER_PHASE; t++) {
        const messageId = randomUUID();
        const text = FACTS[(phase * TURNS_PER_PHASE + t) % FACTS.length]!;
        const last = await bus.lastOnSubject('orchestrator', u.userId);
        const completed = orchestrator.TurnCompleted.fromPartial({
          messageId,
          conversationId: u.conversationId,
          aiFriendId: u.aiFriendId,
          assistantMessageId: deriveId('skew', 'assistant', messageId),
          assistantText: 'Oh nice, tell me more.',
          source: 'chat',
          userText: text,
          routing: { memoryWritePolicy: 'SELECTIVE' },
          emotion: { valence: 0, intensity: 0, tags: [] },
        });
        await bus.append('orchestrator', u.userId, [draft(Events.TurnCompleted, completed, { id: randomUUID(), userId: u.userId, occurredAt: new Date(), correlationId: messageId })], last?.seq ?? 0);
        turns.push({ userId: u.userId, messageId });
      }
    }),
  );
}

async function memoryEvents(): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for await (const e of bus.read('memory')) out.push(e);
  return out;
}

/** Waits until every turn appended so far has its write-back on memory's stream. */
async function writtenBack(): Promise<StoredEvent[]> {
  return waitFor(
    async () => {
      const events = await memoryEvents();
      const written = new Set(events.filter((e) => e.type === Events.TurnMemoryWritten.name).map((e) => e.correlationId));
      return turns.every((t) => written.has(t.messageId)) ? events : undefined;
    },
    { timeoutMs: 60_000, intervalMs: 100, what: `memory's write-back of ${turns.length} turns` },
  );
}

beforeAll(async () => {
  [nats, dbUrl] = await Promise.all([natsUrl(), databaseUrl()]);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  await bundleService('memory', { distDir: join(work, 'new', 'dist') });
  await bundleService('memory', { distDir: join(work, 'old', 'dist'), replace: new Map([[ENVELOPE, await oldEnvelope()]]) });
  bus = await Bus.connect({ url: nats, name: 'skew-test', namespace: ns, logger: silent, build: 'load', encryption: { kek: LocalKek.forDevelopment(ns) } });
}, 120_000);

afterAll(async () => {
  for (const s of running) if (s.child.exitCode === null) await stopGracefully(s.child).catch(() => undefined);
  await bus?.close();
  await cleanupNamespace(nats, ns);
  await dropSchemas(dbUrl, ns);
  rmSync(work, { recursive: true, force: true });
});

it('old and new builds of memory side by side over a rollout: nothing lost, doubled or rejected', async () => {
  // The two builds differ in the contract: only the new one's envelope writes field 13
  // (tag 13 << 3 | 2 = 106). The code that sets it is the same in both.
  const writesField = '.uint32(106).string(message.producerBuild)';
  expect(readFileSync(join(work, 'new', 'dist', 'main.js'), 'utf8')).toContain(writesField);
  expect(readFileSync(join(work, 'old', 'dist', 'main.js'), 'utf8')).not.toContain(writesField);

  const old = await startMemory('old');
  await turnsFor(0);
  await writtenBack();

  const next = await startMemory('new');
  await turnsFor(1);
  await turnsFor(2);
  const both = await writtenBack();
  // While both ran, each answered queries from the other's events and writes.
  const client = queryClients(bus, 10_000).memory;
  const answers = await Promise.all(users.flatMap((u) => [0, 1, 2, 3].map(() => client.ListMemories({ userId: u.userId, all: false }))));
  expect(answers).toHaveLength(USERS * 4);

  // The old replica goes, as a rollout ends; the new one carries on alone.
  expect(await stopGracefully(old.child)).toBe(0);
  await turnsFor(3);
  const events = await writtenBack();
  expect(events.length).toBeGreaterThan(both.length);

  // Nothing doubled: one write-back per turn, one MemoryRecorded per (user, key).
  const writes = events.filter((e) => e.type === Events.TurnMemoryWritten.name);
  expect(writes).toHaveLength(turns.length);
  expect(new Set(writes.map((e) => e.correlationId)).size).toBe(turns.length);
  const recorded = events.filter((e) => e.type === Events.MemoryRecorded.name).map((e) => {
    const m = Events.MemoryRecorded.decode(e.payload);
    return `${e.userId}|${m.memoryKey}`;
  });
  expect(new Set(recorded).size).toBe(recorded.length);

  // Both builds wrote: the new one stamps its build, the old one's envelope has no such field.
  const builds = new Map<string, number>();
  for (const e of events) builds.set(e.producerBuild, (builds.get(e.producerBuild) ?? 0) + 1);
  expect(builds.get('new') ?? 0).toBeGreaterThan(0);
  expect(builds.get('') ?? 0).toBeGreaterThan(0);
  expect([...builds.keys()].sort()).toEqual(['', 'new']);
  // What the old build wrote decodes with the new contract, and the reverse.
  const fromOld = events.find((e) => e.producerBuild === '')!;
  expect(common.Envelope.decode(fromOld.raw).producerBuild).toBe('');

  // Nothing rejected: no dead letter, and every user's memories are readable through the survivor.
  expect(await listDeadLetters(bus)).toEqual([]);
  for (const u of users) {
    const { memories } = await client.ListMemories({ userId: u.userId, all: false });
    const keys = new Set(memories.map((m) => m.memoryKey));
    const mine = recorded.filter((r) => r.startsWith(`${u.userId}|`)).map((r) => r.slice(u.userId.length + 1));
    // Every key written is listed once, whichever build wrote it.
    expect(keys.size).toBe(memories.length);
    for (const k of mine) expect(keys.has(k)).toBe(true);
    expect(mine.length).toBeGreaterThan(0);
  }
  expect(next.child.exitCode).toBeNull();
  expect(next.output()).not.toMatch(/"level":"error"/);
}, 240_000);
