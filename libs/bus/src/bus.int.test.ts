import { JetStreamApiError } from '@nats-io/jetstream';
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { context, trace } from '@opentelemetry/api';
import { common } from '@hearth/proto';
import { initTelemetry, withSpan } from '@hearth/telemetry';
import { cleanupNamespace, natsUrl, testNamespace, waitFor } from '@hearth/testing';
import {
  ACK,
  AppendConflictError,
  Bus,
  QueryError,
  SERVICE_NAMES,
  TerminalError,
  appendDecided,
  decodeEnvelope,
  startConsumer,
  type BusOptions,
  type EventDraft,
  type Outcome,
  type RunningConsumer,
  type ServiceName,
  type StoredEvent,
} from './index.js';

const NOTED = 'hearth.test.v1.Noted';
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const text = new TextEncoder();

/** A draft on `userId` with a fresh id unless one is given. */
function note(userId: string, body: string, meta: Partial<EventDraft> = {}): EventDraft {
  return {
    id: randomUUID(),
    type: NOTED,
    payload: text.encode(body),
    userId,
    occurredAt: new Date('2026-11-22T10:00:00.123Z'),
    ...meta,
  };
}

/** Drains a read; fails instead of hanging when it does not finish in time. */
async function collect(events: AsyncGenerator<StoredEvent>, withinMs = 3_000): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  const drained = (async () => {
    for await (const e of events) out.push(e);
    return out;
  })();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`read did not finish within ${withinMs} ms (got ${out.length} events)`)), withinMs);
  });
  try {
    return await Promise.race([drained, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('Bus against a real NATS server', () => {
  let url: string;
  let ns: string;
  let opened: Bus[];
  let consumers: RunningConsumer[];
  let bus: Bus;

  async function connectBus(namespace = ns, extra: Partial<BusOptions> = {}): Promise<Bus> {
    const b = await Bus.connect({ url, name: `bus-int-${opened.length}`, namespace, logger: silent, ...extra });
    opened.push(b);
    return b;
  }

  /** The consumer's info once nothing is pending or unacked on it (else undefined). */
  async function settled(c: RunningConsumer, source: ServiceName = 'memory') {
    const info = await bus.jsm.consumers.info(bus.topology.stream(source), c.name);
    return info.num_pending === 0 && info.num_ack_pending === 0 ? info : undefined;
  }

  async function consume(on: Bus, spec: Parameters<typeof startConsumer>[1]): Promise<RunningConsumer> {
    const c = await startConsumer(on, spec);
    consumers.push(c);
    await waitFor(async () => c.isBound(), { what: `consumer ${c.name} to bind` });
    return c;
  }

  beforeAll(async () => {
    url = await natsUrl();
  });

  beforeEach(async () => {
    ns = testNamespace('t_bus');
    opened = [];
    consumers = [];
    bus = await connectBus();
    await bus.ensureStreams(SERVICE_NAMES);
  });

  afterEach(async () => {
    for (const c of consumers) await c.stop();
    for (const b of opened) await b.close();
    await cleanupNamespace(url, ns);
  });

  async function streamsOf(namespace: string): Promise<string[]> {
    const names: string[] = [];
    for await (const name of bus.jsm.streams.names()) {
      if (name.startsWith(`${namespace}_`.toUpperCase())) names.push(name);
    }
    return names.sort();
  }

  describe('ensureStreams', () => {
    it('creates one stream per service plus the dead-letter stream, and is idempotent', async () => {
      const expected = [...SERVICE_NAMES.map((s) => bus.topology.stream(s)), bus.topology.dlqStream].sort();
      expect(await streamsOf(ns)).toEqual(expected);

      await bus.ensureStreams(SERVICE_NAMES);
      const other = await connectBus();
      await Promise.all([bus.ensureStreams(SERVICE_NAMES), other.ensureStreams(SERVICE_NAMES)]);

      expect(await streamsOf(ns)).toEqual(expected);
      const memory = await bus.jsm.streams.info(bus.topology.stream('memory'));
      expect(memory.config.subjects).toEqual([`${ns}.memory.v1.>`]);
      expect(memory.config.duplicate_window).toBe(120_000 * 1_000_000);
      const dlq = await bus.jsm.streams.info(bus.topology.dlqStream);
      expect(dlq.config.subjects).toEqual([`${ns}.dlq.>`]);
    });

    it('tolerates losing the creation race however the server words it (10058 or 10065)', async () => {
      const fresh = testNamespace('t_bus');
      try {
        const [a, b] = await Promise.all([connectBus(fresh), connectBus(fresh)]);
        const streams = a.jsm.streams;
        const add = streams.add.bind(streams);
        let raced = 0;
        // The other process creates each stream first; nats-server 2.9 answers
        // the loser with "subjects overlap" when both adds are in flight.
        streams.add = async (...args: Parameters<typeof add>) => {
          await b.ensureStreams(SERVICE_NAMES);
          await add(...args);
          raced++;
          throw new JetStreamApiError({ code: 400, err_code: 10065, description: 'subjects overlap with an existing stream' });
        };
        await a.ensureStreams(SERVICE_NAMES);
        expect(raced).toBeGreaterThan(0);
        expect(await streamsOf(fresh)).toHaveLength(SERVICE_NAMES.length + 1);
      } finally {
        await cleanupNamespace(url, fresh);
      }
    });

    it('still fails when another stream holds its subjects', async () => {
      const fresh = testNamespace('t_bus');
      try {
        const a = await connectBus(fresh);
        await a.jsm.streams.add({ name: `${fresh.toUpperCase()}_SQUATTER`, subjects: [`${fresh}.memory.v1.>`] });
        await expect(a.ensureStreams(['memory'])).rejects.toMatchObject({ code: 10065 });
      } finally {
        await cleanupNamespace(url, fresh);
      }
    });

    it('creates them from four fresh connections at once', async () => {
      const fresh = testNamespace('t_bus');
      try {
        // The losers of the race get 10058 or 10065 from nats-server 2.9; both must pass.
        const buses = await Promise.all([1, 2, 3, 4].map(() => connectBus(fresh)));
        await Promise.all(buses.map((b) => b.ensureStreams(SERVICE_NAMES)));
        expect(await streamsOf(fresh)).toHaveLength(SERVICE_NAMES.length + 1);
      } finally {
        await cleanupNamespace(url, fresh);
      }
    });
  });

  describe('append', () => {
    it('deduplicates by Msg-Id: the same draft twice stores one message', async () => {
      const user = randomUUID();
      const d = note(user, 'once');

      const [first] = await bus.append('memory', user, [d], 0);
      const [second] = await bus.append('memory', user, [d], 0);

      expect(first).toEqual({ id: d.id, seq: 1, duplicate: false });
      expect(second).toEqual({ id: d.id, seq: 1, duplicate: true });
      expect((await bus.jsm.streams.info(bus.topology.stream('memory'))).state.messages).toBe(1);
    });

    it('rejects a stale expected sequence with AppendConflictError and stores nothing', async () => {
      const user = randomUUID();
      await bus.append('memory', user, [note(user, 'first')], 0);

      const stale = bus.append('memory', user, [note(user, 'stale')], 0);
      await expect(stale).rejects.toBeInstanceOf(AppendConflictError);
      await expect(stale).rejects.toMatchObject({ code: 'APPEND_CONFLICT', subject: bus.topology.subject('memory', user), expectedSeq: 0 });
      await expect(bus.append('memory', randomUUID(), [note(user, 'ahead')], 7)).rejects.toBeInstanceOf(AppendConflictError);

      expect((await bus.jsm.streams.info(bus.topology.stream('memory'))).state.messages).toBe(1);
    });

    it('round-trips every envelope field; prevSeq is the subject predecessor (0 for the first)', async () => {
      const user = randomUUID();
      const other = randomUUID();
      const first = note(user, 'one', { causationId: randomUUID(), correlationId: randomUUID() });
      const second = note(user, 'two', { causationId: first.id, correlationId: first.correlationId!, schemaVersion: 3 });

      const [r1] = await bus.append('memory', user, [first], 0);
      await bus.append('memory', other, [note(other, 'between')], 0);
      const [r2] = await bus.append('memory', user, [second], r1!.seq);

      const stream = bus.topology.stream('memory');
      const stored = await bus.jsm.streams.getMessage(stream, { seq: r2!.seq });
      const e = decodeEnvelope(stored!.data, { stream, subject: stored!.subject, seq: stored!.seq });
      expect(e).toMatchObject({
        id: second.id,
        type: NOTED,
        userId: user,
        occurredAt: second.occurredAt,
        causationId: first.id,
        correlationId: first.correlationId,
        schemaVersion: 3,
        service: 'memory',
        stream,
        subject: bus.topology.subject('memory', user),
        seq: 3,
        prevSeq: 1,
      });
      expect(new TextDecoder().decode(e.payload)).toBe('two');
      expect(stored!.header.get('Hearth-Type')).toBe(NOTED);

      const head = await bus.lastOnSubject('memory', other);
      expect(head).toMatchObject({ seq: 2, prevSeq: 0, causationId: '', correlationId: '', schemaVersion: 1 });
      const firstStored = await collect(bus.read('memory', { key: user, toSeq: 1 }));
      expect(firstStored.map((x) => [x.id, x.seq, x.prevSeq])).toEqual([[first.id, 1, 0]]);
    });
  });

  describe('appendDecided', () => {
    it('appends two concurrent deciders on one subject, in some order, as one consistent chain', async () => {
      const user = randomUUID();
      await bus.append('orchestrator', user, [note(user, 'seed')], 0);
      const other = await connectBus();
      let decisions = 0;
      let bothRead!: () => void;
      const barrier = new Promise<void>((resolve) => (bothRead = resolve));
      const decider = (name: string, id: string) => async (): Promise<EventDraft[]> => {
        decisions += 1;
        if (decisions === 2) bothRead();
        // Both read the same last event before either appends: one must conflict.
        await barrier;
        return [note(user, name, { id })];
      };
      const idA = randomUUID();
      const idB = randomUUID();

      const [a, b] = await Promise.all([
        appendDecided(bus, 'orchestrator', user, decider('a', idA)),
        appendDecided(other, 'orchestrator', user, decider('b', idB)),
      ]);

      expect(decisions).toBeGreaterThanOrEqual(3);
      expect([a[0]!.duplicate, b[0]!.duplicate]).toEqual([false, false]);
      const chain = await collect(bus.read('orchestrator', { key: user }));
      expect(chain).toHaveLength(3);
      expect(chain.map((e) => e.id).slice(1).sort()).toEqual([idA, idB].sort());
      expect(chain[0]!.prevSeq).toBe(0);
      for (let i = 1; i < chain.length; i++) expect(chain[i]!.prevSeq).toBe(chain[i - 1]!.seq);
    });

    it('appends two concurrent first events on an empty subject as one chain', async () => {
      const user = randomUUID();
      const deciders = ['a', 'b', 'c'].map((name) => () => [note(user, name)]);

      await Promise.all(deciders.map((d) => appendDecided(bus, 'orchestrator', user, d)));

      const chain = await collect(bus.read('orchestrator', { key: user }));
      expect(chain.map((e) => e.prevSeq)).toEqual([0, chain[0]!.seq, chain[1]!.seq]);
    });

    it('appends nothing when the draft is already the last event, even after the dedup window', async () => {
      const shortNs = testNamespace('t_bus');
      try {
        const short = await connectBus(shortNs, { duplicateWindowMs: 200 });
        await short.ensureStreams(['orchestrator']);
        const user = randomUUID();
        const cause = note(user, 'decided', { id: randomUUID() });
        const decide = () => [cause];

        const [first] = await appendDecided(short, 'orchestrator', user, decide);
        await sleep(1_000);
        const again = await appendDecided(short, 'orchestrator', user, decide);

        expect(first).toMatchObject({ id: cause.id, duplicate: false });
        expect(again).toEqual([{ id: cause.id, seq: first!.seq, duplicate: true }]);
        expect((await short.jsm.streams.info(short.topology.stream('orchestrator'))).state.messages).toBe(1);
        // The Msg-Id window has passed: without that check a plain append stores it twice.
        const [plain] = await short.append('orchestrator', user, [cause], first!.seq);
        expect(plain!.duplicate).toBe(false);
      } finally {
        await cleanupNamespace(url, shortNs);
      }
    });
    it('appends the rest of a decision whose first events an earlier try already appended', async () => {
      const user = randomUUID();
      const decision = [note(user, 'one', { id: randomUUID() }), note(user, 'two', { id: randomUUID() }), note(user, 'three', { id: randomUUID() })];
      // An earlier try stopped after the first event (a crash between publishes).
      const [first] = await bus.append('orchestrator', user, decision.slice(0, 1), 0);

      const results = await appendDecided(bus, 'orchestrator', user, () => decision);

      const chain = await collect(bus.read('orchestrator', { key: user }));
      expect(chain.map((e) => e.id)).toEqual(decision.map((d) => d.id));
      expect(results.map((r) => [r.id, r.duplicate])).toEqual([
        [decision[0]!.id, true],
        [decision[1]!.id, false],
        [decision[2]!.id, false],
      ]);
      expect(results[0]!.seq).toBe(first!.seq);
      // And once all are there, deciding again appends nothing.
      expect((await appendDecided(bus, 'orchestrator', user, () => decision)).every((r) => r.duplicate)).toBe(true);
      expect(await collect(bus.read('orchestrator', { key: user }))).toHaveLength(3);
    });
  });

  describe('read and lastOnSubject', () => {
    // Stream layout: 1 a1, 2 b1, 3 a2, 4 a3, 5 b2.
    let a: string;
    let b: string;
    let ids: string[];

    beforeEach(async () => {
      a = randomUUID();
      b = randomUUID();
      const plan: [string, string][] = [
        [a, 'a1'],
        [b, 'b1'],
        [a, 'a2'],
        [a, 'a3'],
        [b, 'b2'],
      ];
      ids = [];
      for (const [user, body] of plan) {
        const last = await bus.lastOnSubject('memory', user);
        const d = note(user, body);
        await bus.append('memory', user, [d], last?.seq ?? 0);
        ids.push(d.id);
      }
    });

    const body = (e: StoredEvent) => new TextDecoder().decode(e.payload);

    it('reads the whole stream in order', async () => {
      const all = await collect(bus.read('memory'));
      expect(all.map(body)).toEqual(['a1', 'b1', 'a2', 'a3', 'b2']);
      expect(all.map((e) => e.seq)).toEqual([1, 2, 3, 4, 5]);
      expect(all.map((e) => e.id)).toEqual(ids);
    });

    it('reads one key: only that subject', async () => {
      expect((await collect(bus.read('memory', { key: a }))).map(body)).toEqual(['a1', 'a2', 'a3']);
      expect((await collect(bus.read('memory', { key: b }))).map(body)).toEqual(['b1', 'b2']);
    });

    it('reads a key with no events at once', async () => {
      const started = Date.now();
      expect(await collect(bus.read('memory', { key: randomUUID() }), 2_000)).toEqual([]);
      expect(await collect(bus.read('trust', { key: a }), 2_000)).toEqual([]);
      expect(Date.now() - started).toBeLessThan(2_000);
    });

    it('honours fromSeq and toSeq, on the stream and on a key', async () => {
      expect((await collect(bus.read('memory', { fromSeq: 2, toSeq: 4 }))).map(body)).toEqual(['b1', 'a2', 'a3']);
      expect((await collect(bus.read('memory', { fromSeq: 4 }))).map(body)).toEqual(['a3', 'b2']);
      expect((await collect(bus.read('memory', { toSeq: 1 }))).map(body)).toEqual(['a1']);
      expect(await collect(bus.read('memory', { fromSeq: 6 }))).toEqual([]);
      expect((await collect(bus.read('memory', { key: a, fromSeq: 2 }))).map(body)).toEqual(['a2', 'a3']);
      expect((await collect(bus.read('memory', { key: a, toSeq: 3 }))).map(body)).toEqual(['a1', 'a2']);
      expect((await collect(bus.read('memory', { key: b, fromSeq: 3, toSeq: 4 }), 2_000)).map(body)).toEqual([]);
    });

    it('reads a key from past its last event at once (the stream goes on after it)', async () => {
      // a's last event is seq 4; b2 at 5 keeps the stream's last sequence ahead of it.
      expect(await collect(bus.read('memory', { key: a, fromSeq: 5 }), 2_000)).toEqual([]);
    });

    it('lastOnSubject gives the last event, or null on an empty subject', async () => {
      expect(await bus.lastOnSubject('memory', randomUUID())).toBeNull();
      expect(await bus.lastOnSubject('trust', a)).toBeNull();
      expect(await bus.lastOnSubject('memory', a)).toMatchObject({ id: ids[3], seq: 4, prevSeq: 3 });
    });
  });

  describe('startConsumer', () => {
    it('keeps an event a slow handler is still working on: no redelivery past the ack wait', async () => {
      const user = randomUUID();
      await bus.append('memory', user, [note(user, 'slow')], 0);
      const deliveries: number[] = [];
      const c = await consume(bus, {
        service: 'uncertainty',
        purpose: `slow-${user.slice(0, 8)}`,
        source: 'memory',
        ackWaitMs: 1_000,
        handle: async (events) => {
          deliveries.push(events.length);
          // Three ack waits long, like a slow LLM call.
          await sleep(3_000);
          return events.map(() => ACK);
        },
      });
      await waitFor(async () => deliveries.length > 0, { what: 'the first delivery' });
      // Acked once the handler returns (three ack waits later); the server counts every
      // delivery in consumer_seq, so one there means it never redelivered meanwhile.
      const info = await waitFor(async () => settled(c), { what: 'the slow handler to ack', timeoutMs: 15_000 });
      expect(info.delivered.consumer_seq).toBe(1);
      expect(info.num_redelivered).toBe(0);
      expect(deliveries).toEqual([1]);
    });

    it('hands a keyed consumer only the events of its key', async () => {
      const key = `_global_${randomUUID().slice(0, 8)}`;
      const user = randomUUID();
      await bus.append('trust', user, [note(user, 'a user event')], 0);
      const [global] = await bus.append('trust', key, [note('', 'a global event')], 0);
      await bus.append('trust', user, [note(user, 'another user event')], (await bus.lastOnSubject('trust', user))!.seq);
      const seen: string[] = [];
      const c = await consume(bus, {
        service: 'memory',
        purpose: `keyed-${key}`,
        source: 'trust',
        key,
        handle: async (events) => {
          seen.push(...events.map((e) => e.subject));
          return events.map(() => ACK);
        },
      });
      // Nothing left to deliver: every event of the key was handled and acked.
      const info = await waitFor(async () => seen.length > 0 && settled(c, 'trust'), { what: 'the keyed event handled and acked' });
      expect(info.delivered.consumer_seq).toBe(1);
      expect(seen).toEqual([bus.topology.subject('trust', key)]);
      expect(global!.seq).toBeGreaterThan(0);
    });

    it('dead-letters an event whose handler throws TerminalError on the first delivery', async () => {
      const user = randomUUID();
      const d = note(user, 'poison');
      const [appended] = await bus.append('memory', user, [d], 0);
      let calls = 0;
      const c = await consume(bus, {
        service: 'trust',
        purpose: 'poisoned',
        source: 'memory',
        // Short, so that an event left unacked would come back within the test.
        ackWaitMs: 1_000,
        handle: async () => {
          calls += 1;
          throw new TerminalError('payload makes no sense');
        },
      });

      const dlq = bus.topology.dlqStream;
      const stored = await waitFor(
        async () => (await bus.jsm.streams.getMessage(dlq, { last_by_subj: bus.topology.dlqSubject('trust') })) ?? undefined,
        { what: 'the dead letter' },
      );
      const letter = common.DeadLetter.decode(stored.data);
      expect(letter).toMatchObject({
        subject: bus.topology.subject('memory', user),
        stream: bus.topology.stream('memory'),
        streamSeq: BigInt(appended!.seq),
        consumer: c.name,
        error: 'payload makes no sense',
        deliveryCount: 1,
      });
      expect(decodeEnvelope(letter.envelope, { stream: '', subject: '', seq: 0 }).id).toBe(d.id);
      // Terminated, so never redelivered: nothing left pending, one delivery in all.
      const info = await waitFor(async () => settled(c), { what: 'the poison event to leave the consumer' });
      expect(info.delivered.consumer_seq).toBe(1);
      expect(calls).toBe(1);
    });

    it('redelivers an event it naks with a delay', async () => {
      const user = randomUUID();
      const d = note(user, 'later');
      await bus.append('memory', user, [d], 0);
      const seen: { id: string; at: number }[] = [];
      const c = await consume(bus, {
        service: 'trust',
        purpose: 'naks-once',
        source: 'memory',
        handle: async (events) =>
          events.map((e): Outcome => {
            seen.push({ id: e.id, at: Date.now() });
            return seen.length === 1 ? { kind: 'nak', delayMs: 50 } : ACK;
          }),
      });

      const info = await waitFor(async () => seen.length >= 2 && settled(c), { what: 'the redelivery, acked' });
      expect(info.delivered.consumer_seq).toBe(2);
      expect(seen.map((s) => s.id)).toEqual([d.id, d.id]);
      expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(40);
    });

    it('stop() lets an in-flight batch finish and ack', async () => {
      const user = randomUUID();
      await bus.append('memory', user, [note(user, 'slow')], 0);
      let started!: () => void;
      const inFlight = new Promise<void>((resolve) => (started = resolve));
      let finished = false;
      const c = await startConsumer(bus, {
        service: 'trust',
        purpose: 'slow',
        source: 'memory',
        handle: async (events) => {
          started();
          await sleep(200);
          finished = true;
          return events.map(() => ACK);
        },
      });

      await inFlight;
      await c.stop();

      expect(finished).toBe(true);
      const info = await bus.jsm.consumers.info(bus.topology.stream('memory'), c.name);
      expect(info.num_ack_pending).toBe(0);
      expect(info.num_pending).toBe(0);
      expect(info.delivered.consumer_seq).toBe(1);
    });

    it('splits one durable between two replicas, each event handled once', async () => {
      const replica = await connectBus();
      const handled = new Map<string, string[]>();
      const spec = (who: string) => ({
        service: 'trust' as const,
        purpose: 'replicated',
        source: 'memory' as const,
        batchSize: 1,
        handle: async (events: StoredEvent[]) => {
          for (const e of events) handled.set(e.id, [...(handled.get(e.id) ?? []), who]);
          await sleep(5);
          return events.map(() => ACK);
        },
      });
      const [c] = await Promise.all([consume(bus, spec('one')), consume(replica, spec('two'))]);

      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const user = randomUUID();
        const d = note(user, `n${i}`);
        await bus.append('memory', user, [d], 0);
        ids.push(d.id);
      }

      // One durable: acked by either replica, nothing left that could be handled again.
      const info = await waitFor(async () => handled.size === ids.length && settled(c), { what: 'every event handled and acked' });
      expect(info.delivered.consumer_seq).toBe(ids.length);
      expect([...handled.keys()].sort()).toEqual([...ids].sort());
      const by = [...handled.values()];
      expect(by.every((who) => who.length === 1)).toBe(true);
      expect(by.filter((who) => who[0] === 'one').length).toBeGreaterThan(0);
      expect(by.filter((who) => who[0] === 'two').length).toBeGreaterThan(0);
    });
  });

  describe('serveQuery and query', () => {
    it('answers a query round trip', async () => {
      await bus.serveQuery('memory', 'Echo', async (req) => text.encode(`echo:${new TextDecoder().decode(req)}`));
      const client = await connectBus();

      const reply = await client.query('memory', 'Echo', text.encode('hi'));

      expect(new TextDecoder().decode(reply)).toBe('echo:hi');
    });

    it('turns a handler failure into QueryError QUERY_FAILED with its message', async () => {
      await bus.serveQuery('memory', 'Broken', async () => {
        throw new Error('no such memory');
      });

      const failed = bus.query('memory', 'Broken', new Uint8Array(), 2_000);

      await expect(failed).rejects.toBeInstanceOf(QueryError);
      await expect(failed).rejects.toMatchObject({ code: 'QUERY_FAILED', message: expect.stringContaining('no such memory') });
    });

    it('turns a failure whose message spans lines into QUERY_FAILED too, without an unhandled rejection', async () => {
      const unhandled: unknown[] = [];
      const onUnhandled = (reason: unknown) => unhandled.push(reason);
      process.on('unhandledRejection', onUnhandled);
      try {
        await bus.serveQuery('memory', 'Multiline', async () => {
          throw new Error('invalid request:\n  user_id: not a uuid');
        });

        const failed = bus.query('memory', 'Multiline', new Uint8Array(), 1_000);

        await expect(failed).rejects.toMatchObject({ code: 'QUERY_FAILED', message: expect.stringContaining('invalid request') });
        await sleep(50);
        expect(unhandled).toEqual([]);
      } finally {
        process.off('unhandledRejection', onUnhandled);
      }
    });

    it('turns a failure with an empty message into QUERY_FAILED, not an empty answer', async () => {
      await bus.serveQuery('memory', 'Silent', async () => {
        throw new Error();
      });

      await expect(bus.query('memory', 'Silent', new Uint8Array(), 1_000)).rejects.toMatchObject({ code: 'QUERY_FAILED' });
    });

    it('gives QUERY_UNANSWERED when nobody serves the query', async () => {
      const started = Date.now();
      const unanswered = bus.query('memory', 'Nobody', new Uint8Array(), 300);

      await expect(unanswered).rejects.toBeInstanceOf(QueryError);
      await expect(unanswered).rejects.toMatchObject({ code: 'QUERY_UNANSWERED' });
      expect(Date.now() - started).toBeLessThan(2_000);
    });
  });

  describe('trace context', () => {
    it('travels from an append to its stored headers and to the consumer, and from a query to its server', async () => {
      const telemetry = initTelemetry({ service: 'bus-int-test' });
      try {
        const user = randomUUID();
        const { traceId, seq } = await withSpan('append under test', async (span) => {
          const [r] = await bus.append('memory', user, [note(user, 'traced')], 0);
          return { traceId: span.spanContext().traceId, seq: r!.seq };
        });
        expect(traceId).toMatch(/^[0-9a-f]{32}$/);

        const stored = await bus.jsm.streams.getMessage(bus.topology.stream('memory'), { seq });
        const traceparent = stored!.header.get('traceparent');
        expect(traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
        expect(traceparent.split('-')[1]).toBe(traceId);

        const seenInHandler: (string | undefined)[] = [];
        await consume(bus, {
          service: 'trust',
          purpose: 'traced',
          source: 'memory',
          handle: async (events) => {
            seenInHandler.push(trace.getSpanContext(context.active())?.traceId);
            return events.map(() => ACK);
          },
        });
        await waitFor(async () => seenInHandler.length > 0, { what: 'the traced event to be handled' });
        expect(seenInHandler).toEqual([traceId]);

        const seenByServer: (string | undefined)[] = [];
        await bus.serveQuery('memory', 'Traced', async () => {
          seenByServer.push(trace.getSpanContext(context.active())?.traceId);
          return new Uint8Array();
        });
        const client = await connectBus();
        const queryTrace = await withSpan('query under test', async (span) => {
          await client.query('memory', 'Traced', new Uint8Array());
          return span.spanContext().traceId;
        });
        expect(seenByServer).toEqual([queryTrace]);
      } finally {
        await telemetry.shutdown();
      }
    });
  });
});
