import { randomUUID } from 'node:crypto';
import { DeliverPolicy } from '@nats-io/jetstream';
import { cleanupNamespace, natsUrl, startNatsServer, testNamespace, waitFor } from '@hearth/testing';
import { Bus, LocalKek, SERVICE_NAMES, withCause, type EventDraft, type StoredEvent } from '../index.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
const text = new TextEncoder();
const CANARY = 'canary-7f3a the lighthouse keeper on Jeju';

function note(userId: string, body: string, meta: Partial<EventDraft> = {}): EventDraft {
  return { id: randomUUID(), type: 'hearth.test.v1.Noted', payload: text.encode(body), userId, occurredAt: new Date('2026-11-25T10:00:00Z'), ...meta };
}

async function readAll(bus: Bus, key: string): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for await (const e of bus.read('memory', { key })) out.push(e);
  return out;
}

/** Every message of every stream of the namespace, raw, as the server stores it. */
async function rawMessages(bus: Bus, ns: string): Promise<Buffer[]> {
  const out: Buffer[] = [];
  for await (const name of bus.jsm.streams.names()) {
    if (!name.toUpperCase().startsWith(`${ns}_`.toUpperCase()) && !name.startsWith(`KV_${ns}_`)) continue;
    const info = await bus.jsm.streams.info(name);
    if (info.state.messages === 0) continue;
    const c = await bus.js.consumers.get(name, { deliver_policy: DeliverPolicy.All });
    const it = await c.consume({ max_messages: 100 });
    for await (const m of it) {
      out.push(Buffer.from(m.data));
      if (m.info.pending === 0) break;
    }
    it.stop();
  }
  return out;
}

describe('crypto-shredding in the event layer (real NATS)', () => {
  let url: string;
  let ns: string;
  const opened: Bus[] = [];
  const kek = () => LocalKek.fromBase64(Buffer.alloc(32, 7).toString('base64'));

  async function connect(opts: { encrypted?: boolean; kekOverride?: LocalKek } = {}): Promise<Bus> {
    const b = await Bus.connect({
      url,
      name: `keyring-${opened.length}`,
      namespace: ns,
      logger: silent,
      ...(opts.encrypted === false ? {} : { encryption: { kek: opts.kekOverride ?? kek(), keyCacheTtlMs: 60_000 } }),
    });
    opened.push(b);
    return b;
  }

  beforeAll(async () => {
    url = await natsUrl();
  });

  beforeEach(async () => {
    ns = testNamespace('t_keys');
  });

  afterEach(async () => {
    for (const b of opened.splice(0)) await b.close();
    await cleanupNamespace(url, ns);
  });

  it('seals each payload about a user (nothing readable on the server) and opens it for readers', async () => {
    const bus = await connect();
    await bus.ensureStreams(SERVICE_NAMES);
    await bus.append('memory', 'u1', [note('u1', CANARY)], 0);
    const [e] = await readAll(bus, 'u1');
    expect(new TextDecoder().decode(e!.payload)).toBe(CANARY);
    expect(e!.keyGeneration).toBe(1);
    expect(e!.erased).toBe(false);
    const raw = await rawMessages(bus, ns);
    expect(raw.length).toBeGreaterThan(0);
    expect(raw.some((m) => m.includes(CANARY))).toBe(false);
  });

  it('leaves clear what names no user or is marked clear', async () => {
    const bus = await connect();
    await bus.ensureStreams(SERVICE_NAMES);
    await bus.append('memory', '_global', [note('', 'global fact')], 0);
    await bus.append('memory', 'u2', [note('u2', 'no personal data', { clear: true })], 0);
    expect((await readAll(bus, '_global'))[0]!.keyGeneration).toBe(0);
    expect((await readAll(bus, 'u2'))[0]!.keyGeneration).toBe(0);
    expect((await rawMessages(bus, ns)).some((m) => m.includes('global fact'))).toBe(true);
  });

  it('after the key is destroyed: old events read as erased everywhere at once, new ones are withheld, a new start reads again', async () => {
    const writer = await connect();
    const other = await connect();
    await writer.ensureStreams(SERVICE_NAMES);
    const [first] = await writer.append('memory', 'u3', [note('u3', CANARY)], 0);
    await writer.append('memory', 'u4', [note('u4', 'another user')], 0);
    // The other process has the key cached now.
    expect((await readAll(other, 'u3'))[0]!.erased).toBe(false);

    const destroyed = await writer.keyring!.destroy('u3');
    expect(destroyed).toEqual({ generation: 1, already: false });
    expect(await writer.keyring!.destroy('u3')).toEqual({ generation: 1, already: true });
    // The watch drops the cached key in the other process without waiting for its TTL.
    await waitFor(async () => (await readAll(other, 'u3'))[0]!.erased, { what: 'the cached key to be dropped', timeoutMs: 3_000 });
    const [gone] = await readAll(other, 'u3');
    expect(gone!.payload.length).toBe(0);
    expect((await readAll(other, 'u4'))[0]!.erased).toBe(false);
    // The wrapped key is gone from the key bucket, history included (securely erased).
    const u3Slot = Buffer.from('u3').toString('base64url');
    const keyRecords = (await rawMessages(writer, ns)).map((m) => m.toString()).filter((m) => m.includes('"g":'));
    expect(keyRecords.length).toBeGreaterThan(0);
    expect(keyRecords.filter((m) => m.includes('"s":"active"')).length).toBe(1); // u4's only
    expect(u3Slot).toBe('dTM');

    // Appended about the erased user before any new start: nothing is kept.
    const [late] = await writer.append('memory', 'u3', [note('u3', `${CANARY} late`)], first!.seq);
    const lateRead = (await readAll(other, 'u3')).find((e) => e.seq === late!.seq)!;
    expect(lateRead.erased).toBe(true);

    // POST /v1/me again: the next generation.
    await writer.append('memory', 'u3', [note('u3', 'a new start', { opensDataKey: true })], late!.seq);
    const after = await readAll(other, 'u3');
    expect(after.map((e) => [e.keyGeneration, e.erased])).toEqual([
      [1, true],
      [1, true],
      [2, false],
    ]);
    expect(new TextDecoder().decode(after[2]!.payload)).toBe('a new start');
    // No key material, no canary, left on the server.
    const raw = await rawMessages(writer, ns);
    expect(raw.some((m) => m.includes(CANARY))).toBe(false);
    expect(await writer.keyring!.state('u3')).toEqual({ generation: 2, erased: false });
  });

  it('refuses to open with another KEK, a tampered payload, or a payload moved to another event', async () => {
    const bus = await connect();
    await bus.ensureStreams(SERVICE_NAMES);
    await bus.append('memory', 'u5', [note('u5', CANARY)], 0);
    const [e] = await readAll(bus, 'u5');
    const sealed = (await import('../events.js')).decodeEnvelope(e!.raw, e!);
    const tampered = Uint8Array.from(sealed.payload);
    tampered[20] = tampered[20]! ^ 1;
    await expect(bus.open({ ...sealed, payload: tampered })).rejects.toThrow();
    await expect(bus.open({ ...sealed, id: randomUUID() })).rejects.toThrow();

    const stranger = await connect({ kekOverride: LocalKek.fromBase64(Buffer.alloc(32, 9).toString('base64')) });
    await expect(stranger.open(sealed)).rejects.toThrow();
    const clear = await connect({ encrypted: false });
    await expect(clear.open(sealed)).rejects.toThrow(/encryption off/);
  });

  it('two processes creating the first key of a user at once agree on one key', async () => {
    const a = await connect();
    const b = await connect();
    await a.ensureStreams(SERVICE_NAMES);
    await Promise.all([a.append('memory', 'u6', [note('u6', 'from a')], 0), b.append('router', 'u6', [note('u6', 'from b')], 0)]);
    for (const reader of [a, b]) {
      const [fromA] = await readAll(reader, 'u6');
      expect(new TextDecoder().decode(fromA!.payload)).toBe('from a');
      for await (const e of reader.read('router', { key: 'u6' })) expect(new TextDecoder().decode(e.payload)).toBe('from b');
    }
  });

  it("withholds a reaction to an erased generation's event even after the user started anew", async () => {
    const bus = await connect();
    await bus.ensureStreams(SERVICE_NAMES);
    const [turn] = await bus.append('memory', 'u7', [note('u7', 'a turn before the erasure')], 0);
    const [cause] = await readAll(bus, 'u7');
    await bus.keyring!.destroy('u7');
    const [fresh] = await bus.append('memory', 'u7', [note('u7', 'a new start', { opensDataKey: true })], turn!.seq);
    // The reply to the old turn, still in flight, lands after the new start.
    const [late] = await withCause(cause!, () => bus.append('memory', 'u7', [note('u7', `${CANARY} a late reply`)], fresh!.seq));
    // A reaction to the new user's event is sealed as usual.
    const newCause = (await readAll(bus, 'u7')).find((e) => e.seq === fresh!.seq)!;
    await withCause(newCause, () => bus.append('memory', 'u7', [note('u7', 'a reply to the new user')], late!.seq));
    const events = await readAll(bus, 'u7');
    expect(events.map((e) => [e.keyGeneration, e.erased, new TextDecoder().decode(e.payload)])).toEqual([
      [1, true, ''],
      [2, false, 'a new start'],
      [1, true, ''],
      [2, false, 'a reply to the new user'],
    ]);
    expect((await rawMessages(bus, ns)).some((m) => m.includes(CANARY))).toBe(false);
  });

  it('rotates the KEK: keys stay readable under either during the rotation, then under the new one alone', async () => {
    const oldKek = LocalKek.fromBase64(Buffer.alloc(32, 11).toString('base64'));
    const newKek = LocalKek.fromBase64(Buffer.alloc(32, 12).toString('base64'));
    const before = await connect({ kekOverride: oldKek });
    await before.ensureStreams(SERVICE_NAMES);
    for (const u of ['r1', 'r2', 'r3']) await before.append('memory', u, [note(u, `${u} before the rotation`)], 0);
    await before.keyring!.destroy('r3');

    // A process given the new KEK and the old one as previous reads every key meanwhile.
    const during = await Bus.connect({ url, name: 'keyring-rotating', namespace: ns, logger: silent, encryption: { kek: newKek, previousKeks: [oldKek] } });
    opened.push(during);
    expect(new TextDecoder().decode((await readAll(during, 'r1'))[0]!.payload)).toBe('r1 before the rotation');
    const progress: number[] = [];
    expect(await during.keyring!.rotate((done) => progress.push(done))).toEqual({ total: 3, rewrapped: 2, current: 0, erased: 1 });
    expect(progress).toEqual([1, 2, 3]);
    expect(await during.keyring!.rotate()).toEqual({ total: 3, rewrapped: 0, current: 2, erased: 1 });

    // Afterwards the new KEK alone reads them; the old one alone no longer does.
    const after = await connect({ kekOverride: newKek });
    expect(new TextDecoder().decode((await readAll(after, 'r2'))[0]!.payload)).toBe('r2 before the rotation');
    const stale = await connect({ kekOverride: oldKek });
    await expect(readAll(stale, 'r1')).rejects.toThrow();
    // No record wrapped by the old KEK is left in the bucket, history included.
    const keyRecords = (await rawMessages(after, ns)).map((m) => m.toString()).filter((m) => m.includes('"g":'));
    expect(keyRecords.filter((m) => m.includes(oldKek.id))).toEqual([]);
  });

  it('still drops a cached key at once after the NATS server restarted under the watch', async () => {
    const server = await startNatsServer({ jetstream: true });
    const local: Bus[] = [];
    try {
      const open = async (name: string) => {
        const b = await Bus.connect({ url: server.url, name, namespace: ns, logger: silent, encryption: { kek: kek(), keyCacheTtlMs: 600_000 } });
        local.push(b);
        return b;
      };
      const writer = await open('restart-writer');
      const reader = await open('restart-reader');
      await writer.ensureStreams(SERVICE_NAMES);
      await writer.append('memory', 'w1', [note('w1', CANARY)], 0);
      expect((await readAll(reader, 'w1'))[0]!.erased).toBe(false); // cached, for ten minutes
      await server.restart();
      await waitFor(async () => writer.nc.isClosed() === false && (await writer.lastSeq('memory').then(() => true, () => false)), { what: 'the writer to reconnect', timeoutMs: 15_000 });
      await writer.keyring!.destroy('w1');
      await waitFor(async () => (await readAll(reader, 'w1').catch(() => [{ erased: false }]))[0]!.erased, { what: 'the reader to drop the key', timeoutMs: 10_000 });
    } finally {
      for (const b of local) await b.close();
      await server.stop();
    }
  });
});
