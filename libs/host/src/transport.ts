import { Server, type CustomTransportStrategy } from '@nestjs/microservices';
import type { Bus, RunningConsumer, ServiceName } from '@hearth/bus';
import type { Logger } from '@hearth/telemetry';
import type { ServiceRuntime } from './service.js';

/** A runtime the transport starts, with the service it belongs to. */
export interface HostedRuntime {
  name: ServiceName;
  runtime: ServiceRuntime;
  /** The service's own logger. */
  logger: Logger;
}

/** Status values the transport reports on Nest's `status` observable. */
export type JetStreamTransportStatus = 'starting' | 'listening' | 'closing' | 'closed' | 'failed';

type StatusListener = (status: JetStreamTransportStatus) => void;
type TransportEvents = { status: StatusListener; error: (err: unknown) => void };

/**
 * JetStream as a Nest transport. Nest does not dispatch our events: each
 * service's runtime binds its own durable consumers (plain functions over
 * libs/bus). The transport only ties their start and stop to the Nest app's
 * lifecycle: `listen` starts every runtime, `close` stops every consumer
 * (in-flight batches finish and are acked) and then the runtimes.
 */
export class JetStreamTransport
  extends Server<TransportEvents, JetStreamTransportStatus>
  implements CustomTransportStrategy
{
  override readonly transportId = Symbol.for('hearth.jetstream');
  private readonly running = new Map<ServiceName, RunningConsumer[]>();
  private readonly started: HostedRuntime[] = [];
  private readonly listeners: { [K in keyof TransportEvents]: TransportEvents[K][] } = { status: [], error: [] };
  private listening = false;
  private closing: Promise<void> | undefined;

  constructor(
    private readonly bus: Bus,
    private readonly runtimes: readonly HostedRuntime[],
    private readonly log: Logger,
  ) {
    super();
  }

  listen(callback: (err?: unknown) => void): void {
    this.setStatus('starting');
    this.startAll().then(
      () => {
        this.listening = true;
        this.setStatus('listening');
        callback();
      },
      (err: unknown) => {
        this.setStatus('failed');
        this.emit('error', err);
        callback(err);
      },
    );
  }

  async close(): Promise<void> {
    this.closing ??= this.closeAll();
    return this.closing;
  }

  on<K extends keyof TransportEvents>(event: K, callback: TransportEvents[K]): void {
    this.listeners[event].push(callback);
  }

  /** The underlying broker client: the process's {@link Bus}. */
  unwrap<T>(): T {
    return this.bus as T;
  }

  /** True once every runtime started, until close. */
  isListening(): boolean {
    return this.listening;
  }

  /** Every consumer started, by service. */
  consumers(): ReadonlyMap<ServiceName, readonly RunningConsumer[]> {
    return this.running;
  }

  private async startAll(): Promise<void> {
    try {
      for (const h of this.runtimes) {
        const consumers = await h.runtime.start();
        this.started.push(h);
        this.running.set(h.name, consumers);
        h.logger.info({ consumers: consumers.map((c) => c.name) }, `service ${h.name} started`);
      }
    } catch (err) {
      // Leave nothing half-started behind.
      await this.close();
      throw err;
    }
  }

  private async closeAll(): Promise<void> {
    this.listening = false;
    this.setStatus('closing');
    const all = [...this.running.values()].flat();
    const stop = (list: readonly RunningConsumer[]) =>
      Promise.all(list.map((c) => c.stop().catch((err: unknown) => this.log.warn({ consumer: c.name, err }, 'consumer stop failed'))));
    // Reactors first: their batch in flight may wait for a projection to apply what it appended.
    await stop(all.filter((c) => c.stopFirst));
    await stop(all.filter((c) => !c.stopFirst));
    this.log.info({ consumers: all.length }, 'consumers stopped');
    for (const h of [...this.started].reverse()) {
      try {
        await h.runtime.stop?.();
      } catch (err) {
        h.logger.warn({ err }, `service ${h.name}: stop failed`);
      }
    }
    this.started.length = 0;
    this.setStatus('closed');
  }

  private setStatus(status: JetStreamTransportStatus): void {
    this._status$.next(status);
    this.emit('status', status);
  }

  private emit<K extends keyof TransportEvents>(event: K, value: Parameters<TransportEvents[K]>[0]): void {
    for (const fn of this.listeners[event]) (fn as (v: unknown) => void)(value);
  }
}
