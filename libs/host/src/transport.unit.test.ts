import type { Bus, RunningConsumer } from '@hearth/bus';
import { JetStreamTransport } from './transport.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined, debug: () => undefined };

describe('JetStreamTransport.close', () => {
  it('stops the reactors (stopFirst) before the projections their in-flight decisions wait for', async () => {
    const order: string[] = [];
    let projectionStopped = false;
    const consumer = (name: string, stopFirst: boolean): RunningConsumer => ({
      name,
      isBound: () => true,
      lag: () => Promise.resolve(0),
      ...(stopFirst ? { stopFirst: true } : {}),
      async stop() {
        // A reactor's batch in flight finishes only while the projection still runs.
        if (stopFirst && projectionStopped) throw new Error(`${name} stopped after the projection`);
        await new Promise((r) => setTimeout(r, 5));
        if (!stopFirst) projectionStopped = true;
        order.push(name);
      },
    });
    const runtime = { start: () => Promise.resolve([consumer('projection', false), consumer('reactor', true)]) };
    const transport = new JetStreamTransport({} as Bus, [{ name: 'belief-graph', runtime, logger: silent }] as never, silent as never);
    await new Promise<void>((resolve, reject) => transport.listen((err) => (err ? reject(err as Error) : resolve())));

    await transport.close();

    expect(order).toEqual(['reactor', 'projection']);
  });
});
