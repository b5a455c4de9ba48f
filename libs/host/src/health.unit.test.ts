import { BadRequestException, HttpException, NotFoundException } from '@nestjs/common';
import type { Bus, RunningConsumer, ServiceName } from '@hearth/bus';
import type { Database } from '@hearth/store';
import type { FastifyRequest } from 'fastify';
import { createHealthProbe, HealthController } from './health.js';
import { ApiHttpException, toApiError } from './http-errors.js';

function consumer(name: string, bound: boolean, stalled = 0): RunningConsumer {
  return { name, isBound: () => bound, lag: async () => 0, stalled: () => stalled, stop: async () => undefined };
}

const LOOPBACK = { socket: { remoteAddress: '127.0.0.1' }, ip: '127.0.0.1', headers: {} } as unknown as FastifyRequest;
const STRANGER = { socket: { remoteAddress: '10.1.2.3' }, ip: '10.1.2.3', headers: {} } as unknown as FastifyRequest;
const OPERATOR = { socket: { remoteAddress: '10.1.2.3' }, ip: '10.1.2.3', headers: { authorization: 'Bearer admin' } } as unknown as FastifyRequest;

function probeWith(over: {
  connected?: boolean;
  ping?: boolean;
  consumers?: ReadonlyMap<ServiceName, readonly RunningConsumer[]> | undefined;
  stopping?: boolean;
}) {
  const bus = {
    isConnected: () => over.connected ?? true,
    nc: { rtt: async () => 1 },
  } as unknown as Bus;
  const database = { ping: async () => over.ping ?? true } as unknown as Database;
  const consumers =
    'consumers' in over
      ? over.consumers
      : new Map<ServiceName, RunningConsumer[]>([['memory', [consumer('memory-a', true)]]]);
  return createHealthProbe({
    bus,
    database,
    consumers: () => consumers,
    stopping: () => over.stopping ?? false,
    metricsText: async () => '# metrics\n',
    dependencies: () => ({ orchestrator: { llm: { ok: false, reason: 'provider answered 503', since: '2026-11-24T00:00:00.000Z' } } }),
    isOperator: async (authorization) => authorization === 'Bearer admin',
  });
}

async function readyzError(controller: HealthController, req: FastifyRequest = LOOPBACK): Promise<HttpException> {
  try {
    await controller.readyz(req);
  } catch (err) {
    if (err instanceof HttpException) return err;
    throw err;
  }
  throw new Error('expected /readyz to fail');
}

describe('readiness', () => {
  it('is ready when NATS answers, the database pings and every consumer is bound', async () => {
    const controller = new HealthController(probeWith({}));

    await expect(controller.readyz(LOOPBACK)).resolves.toEqual({
      status: 'ready',
      checks: {
        nats: { ok: true },
        database: { ok: true },
        consumers: { ok: true, bound: 1, total: 1, unbound: {}, stalled: {} },
      },
      // A degraded LLM shows, and does not make the process unready.
      dependencies: { orchestrator: { llm: { ok: false, reason: 'provider answered 503', since: '2026-11-24T00:00:00.000Z' } } },
    });
  });

  it('shows details only to loopback and operators', async () => {
    const controller = new HealthController(probeWith({}));

    await expect(controller.readyz(STRANGER)).resolves.toEqual({ status: 'ready' });
    await expect(controller.readyz(OPERATOR)).resolves.toMatchObject({ status: 'ready', checks: { nats: { ok: true } } });
    const err = await readyzError(new HealthController(probeWith({ ping: false })), STRANGER);
    expect(err.getStatus()).toBe(503);
    expect(err.getResponse()).toEqual({ error: { code: 'NOT_READY', message: 'not ready' } });
  });

  it('is 503 naming a consumer whose handler is past its deadline', async () => {
    const consumers = new Map<ServiceName, RunningConsumer[]>([['memory', [consumer('memory-a', true, 1)]]]);
    const err = await readyzError(new HealthController(probeWith({ consumers })));

    expect(err.getResponse()).toMatchObject({
      error: { message: expect.stringContaining('1 consumers with a handler past its deadline'), details: { consumers: { stalled: { memory: ['memory-a'] } } } },
    });
  });

  it('is 503 NOT_READY naming an unbound consumer', async () => {
    const consumers = new Map<ServiceName, RunningConsumer[]>([
      ['memory', [consumer('memory-a', true), consumer('memory-b', false)]],
    ]);
    const err = await readyzError(new HealthController(probeWith({ consumers })));

    expect(err.getStatus()).toBe(503);
    expect(err.getResponse()).toMatchObject({
      error: {
        code: 'NOT_READY',
        message: expect.stringContaining('consumers: 1 of 2 consumers not bound'),
        details: { consumers: { ok: false, unbound: { memory: ['memory-b'] } } },
      },
    });
  });

  it.each([
    [{ connected: false }, 'nats: not connected'],
    [{ ping: false }, 'database: ping failed'],
    [{ consumers: undefined }, 'consumers: consumers not started'],
    [{ stopping: true }, 'consumers: shutting down'],
  ])('is 503 when %p', async (over, reason) => {
    const err = await readyzError(new HealthController(probeWith(over)));

    expect(err.getStatus()).toBe(503);
    expect((err.getResponse() as { error: { message: string } }).error.message).toContain(reason);
  });

  it('serves liveness and metrics', async () => {
    const controller = new HealthController(probeWith({ connected: false }));

    expect(controller.healthz()).toEqual({ status: 'ok' });
    await expect(controller.metrics()).resolves.toBe('# metrics\n');
  });
});

describe('toApiError', () => {
  it('keeps a body already in the API shape', () => {
    expect(toApiError(new ApiHttpException(409, 'MESSAGE_CONFLICT', 'same id, other text', { id: 'm1' }))).toEqual({
      status: 409,
      body: { error: { code: 'MESSAGE_CONFLICT', message: 'same id, other text', details: { id: 'm1' } } },
    });
  });

  it("maps Nest's exceptions by status", () => {
    expect(toApiError(new NotFoundException('Cannot GET /x'))).toEqual({
      status: 404,
      body: { error: { code: 'NOT_FOUND', message: 'Cannot GET /x' } },
    });
    expect(toApiError(new BadRequestException(['a is missing', 'b is too long']))).toEqual({
      status: 400,
      body: {
        error: {
          code: 'BAD_REQUEST',
          message: 'a is missing; b is too long',
          details: { messages: ['a is missing', 'b is too long'] },
        },
      },
    });
    expect(toApiError(new HttpException('slow down', 429)).body.error.code).toBe('RATE_LIMITED');
  });

  it('answers 503 with a retry hint when a dependency is away', () => {
    const pgDown = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });
    expect(toApiError(pgDown)).toEqual({
      status: 503,
      body: { error: { code: 'UNAVAILABLE', message: expect.any(String), details: { retry_after_seconds: 2 } } },
    });
    expect(toApiError(new Error('Connection terminated unexpectedly')).status).toBe(503);
  });

  it('reveals nothing of an unexpected error', () => {
    expect(toApiError(new Error('password=hunter2'))).toEqual({
      status: 500,
      body: { error: { code: 'INTERNAL', message: 'internal error' } },
    });
  });
});
