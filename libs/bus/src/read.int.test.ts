// Bus.read against a real NATS server: one sequence by direct get, and the
// payloads a reader asks not to open (replay moving past the types its
// projection does not act on). The ranges and keys are covered in bus.int.test.ts.
import { randomUUID } from 'node:crypto';
import { cleanupNamespace, natsUrl, testNamespace } from '@hearth/testing';
import { Bus, LocalKek, type EventDraft, type StoredEvent } from './index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const NOTED = 'hearth.test.v1.Noted';
const SKIPPED = 'hearth.test.v1.Skipped';
const text = new TextEncoder();
const body = (e: StoredEvent): string => new TextDecoder().decode(e.payload);

function draft(userId: string, type: string, value: string, meta: Partial<EventDraft> = {}): EventDraft {
  return { id: randomUUID(), type, payload: text.encode(value), userId, occurredAt: new Date('2026-11-26T10:00:00Z'), ...meta };
}

async function collect(events: AsyncGenerator<StoredEvent>): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for await (const e of events) out.push(e);
  return out;
}

describe('Bus.read (real NATS)', () => {
  let url: string;
  let ns: string;
  let bus: Bus;
  const a = randomUUID();
  const b = randomUUID();

  beforeAll(async () => {
    url = await natsUrl();
    ns = testNamespace('t_read');
    bus = await Bus.connect({ url, name: 'read-int', namespace: ns, logger: silent, encryption: { kek: LocalKek.fromBase64(Buffer.alloc(32, 3).toString('base64')) } });
    await bus.ensureStreams(['memory']);
    // seq 1 a Noted (sealed), 2 b Skipped (sealed), 3 a Skipped (sealed), 4 a Noted (clear), 5 b Noted (sealed)
    const a1 = await bus.append('memory', a, [draft(a, NOTED, 'a1')], 0);
    const b1 = await bus.append('memory', b, [draft(b, SKIPPED, 'b1')], 0);
    const a2 = await bus.append('memory', a, [draft(a, SKIPPED, 'a2'), draft(a, NOTED, 'a3', { clear: true })], a1[0]!.seq);
    await bus.append('memory', b, [draft(b, NOTED, 'b2')], b1[0]!.seq);
    expect(a2.map((r) => r.seq)).toEqual([3, 4]);
  });

  afterAll(async () => {
    await bus.close();
    await cleanupNamespace(url, ns);
  });

  it('reads one sequence, on the stream or on its key, and nothing for another key or past the end', async () => {
    expect((await collect(bus.read('memory', { fromSeq: 3, toSeq: 3 }))).map((e) => [e.seq, body(e)])).toEqual([[3, 'a2']]);
    expect((await collect(bus.read('memory', { key: a, fromSeq: 3, toSeq: 3 }))).map(body)).toEqual(['a2']);
    expect(await collect(bus.read('memory', { key: b, fromSeq: 3, toSeq: 3 }))).toEqual([]);
    expect(await collect(bus.read('memory', { fromSeq: 9, toSeq: 9 }))).toEqual([]);
  });

  it('gives the one sequence exactly as a ranged read does', async () => {
    const [ranged] = await collect(bus.read('memory', { fromSeq: 2, toSeq: 3 }));
    const [direct] = await collect(bus.read('memory', { fromSeq: 2, toSeq: 2 }));
    expect(direct).toEqual(ranged);
    expect(direct).toMatchObject({ seq: 2, prevSeq: 0, subject: bus.topology.subject('memory', b), type: SKIPPED, erased: false });
  });

  it('reads nothing at a deleted sequence', async () => {
    const user = randomUUID();
    const [r] = await bus.append('memory', user, [draft(user, NOTED, 'gone')], 0);
    await bus.jsm.streams.deleteMessage(bus.topology.stream('memory'), r!.seq);
    expect(await collect(bus.read('memory', { fromSeq: r!.seq, toSeq: r!.seq }))).toEqual([]);
  });

  it('opens only the types asked for; the others keep their place in the chain with an empty payload', async () => {
    const open = bus.open.bind(bus);
    let opened = 0;
    bus.open = (e) => {
      opened++;
      return open(e);
    };
    try {
      const events = await collect(bus.read('memory', { toSeq: 5, opens: (type) => type === NOTED }));
      expect(events.map((e) => [e.seq, e.type, body(e)])).toEqual([
        [1, NOTED, 'a1'],
        [2, SKIPPED, ''],
        [3, SKIPPED, ''],
        [4, NOTED, 'a3'],
        [5, NOTED, 'b2'],
      ]);
      expect(events.map((e) => e.prevSeq)).toEqual([0, 0, 1, 3, 2]);
      expect(events.every((e) => !e.erased)).toBe(true);
      // The clear one needs no opening: two sealed Noted events only.
      expect(opened).toBe(2);
    } finally {
      bus.open = open;
    }
  });

  it('opens every type by default', async () => {
    expect((await collect(bus.read('memory', { toSeq: 5 }))).map(body)).toEqual(['a1', 'b1', 'a2', 'a3', 'b2']);
  });
});
