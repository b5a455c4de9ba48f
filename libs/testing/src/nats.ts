import { connect, type NatsConnection } from '@nats-io/transport-node';
import { jetstreamManager } from '@nats-io/jetstream';
import { assertNamespace } from './namespace.js';

/** Whether a stream belongs to `namespace`: its own streams, or its KV buckets. */
export function ownsStream(namespace: string, stream: string): boolean {
  const own = `${namespace}_`.toUpperCase();
  // Streams are named upper-cased; KV bucket names keep their case (KV_<bucket>).
  return stream.toUpperCase().startsWith(own) || stream.startsWith(`KV_${namespace}_`);
}

/**
 * Deletes the JetStream streams of `namespace`: every stream whose name starts
 * with `${namespace}_` upper-cased, and every KV bucket named `${namespace}_*`.
 * Other streams are left alone. Returns the stream names deleted.
 * @param target a connection (left open) or a server URL (connected and closed here).
 */
export async function cleanupNamespace(target: NatsConnection | string, namespace: string): Promise<string[]> {
  assertNamespace(namespace);
  const nc = typeof target === 'string' ? await connect({ servers: target, name: 'hearth-testing-cleanup' }) : target;
  try {
    const jsm = await jetstreamManager(nc);
    const doomed: string[] = [];
    for await (const name of jsm.streams.names()) {
      if (ownsStream(namespace, name)) doomed.push(name);
    }
    for (const name of doomed) await jsm.streams.delete(name);
    return doomed.sort();
  } finally {
    if (typeof target === 'string') await nc.close();
  }
}
