import { existsSync } from 'node:fs';
import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstream, jetstreamManager, StorageType } from '@nats-io/jetstream';
import { startNatsServer, type NatsServer } from './index.js';
import { canConnect } from './ports.js';

async function publishOne(url: string, stream: string, payload: string): Promise<number> {
  const nc = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    await jsm.streams.add({ name: stream, subjects: [`${stream.toLowerCase()}.>`], storage: StorageType.File });
    const ack = await jetstream(nc).publish(`${stream.toLowerCase()}.a`, payload);
    return ack.seq;
  } finally {
    await nc.close();
  }
}

async function readOne(url: string, stream: string, seq: number): Promise<string | undefined> {
  const nc: NatsConnection = await connect({ servers: url });
  try {
    const jsm = await jetstreamManager(nc);
    const msg = await jsm.streams.getMessage(stream, { seq });
    return msg?.string();
  } finally {
    await nc.close();
  }
}

describe('startNatsServer', () => {
  let server: NatsServer | undefined;
  afterEach(async () => {
    await server?.stop();
    server = undefined;
  });

  test('runs JetStream on a spare port, never the shared 4222', async () => {
    server = await startNatsServer();
    expect(server.port).not.toBe(4222);
    expect(server.url).toBe(`nats://127.0.0.1:${server.port}`);
    expect(server.pid).toEqual(expect.any(Number));
    expect(await publishOne(server.url, 'PROBE', 'x')).toBe(1);
  });

  test('restart() keeps the port and the JetStream data', async () => {
    server = await startNatsServer({ jetstream: true });
    const seq = await publishOne(server.url, 'EVENTS', 'kept across restart');
    const pidBefore = server.pid;

    await server.restart();

    expect(server.pid).not.toBe(pidBefore);
    expect(await readOne(server.url, 'EVENTS', seq)).toBe('kept across restart');
  });

  test('stop({ keepData }) leaves it down until start(); data survives a SIGKILL', async () => {
    server = await startNatsServer();
    const seq = await publishOne(server.url, 'CRASHY', 'survives a crash');

    await server.stop({ keepData: true, signal: 'SIGKILL' });
    expect(server.pid).toBeUndefined();
    expect(await canConnect('127.0.0.1', server.port)).toBe(false);

    await server.start();
    expect(await readOne(server.url, 'CRASHY', seq)).toBe('survives a crash');
  });

  test('the final stop removes the temp dir, and start() refuses afterwards', async () => {
    const s = await startNatsServer();
    expect(existsSync(s.storeDir)).toBe(true);
    await s.stop();
    expect(existsSync(s.storeDir)).toBe(false);
    expect(await canConnect('127.0.0.1', s.port)).toBe(false);
    await expect(s.start()).rejects.toThrow(/stopped for good/);
  });
});
