import { Controller, Get, Header, Inject, Req } from '@nestjs/common';
import type { Bus, RunningConsumer, ServiceName } from '@hearth/bus';
import type { Database } from '@hearth/store';
import type { FastifyRequest } from 'fastify';
import { ApiHttpException } from './http-errors.js';
import type { DependencyStatus } from './service.js';

/** One readiness check. */
export interface CheckResult {
  ok: boolean;
  /** Why it failed. */
  reason?: string;
}

export interface ConsumersCheck extends CheckResult {
  bound: number;
  total: number;
  /** Names of consumers not bound, by service. */
  unbound: Partial<Record<ServiceName, string[]>>;
  /** Names of consumers with a handler past its deadline, by service. */
  stalled: Partial<Record<ServiceName, string[]>>;
}

export interface ReadinessReport {
  ready: boolean;
  checks: { nats: CheckResult; database: CheckResult; consumers: ConsumersCheck };
  /** Degradable dependencies by service (an LLM provider): shown, never failing readiness. */
  dependencies: Partial<Record<ServiceName, Record<string, DependencyStatus>>>;
}

/** What the health endpoints read; built by the host for its own process. */
export interface HealthProbe {
  readiness(): Promise<ReadinessReport>;
  metricsText(): Promise<string>;
  /** May this request see readiness details (loopback, or an operator's token)? */
  maySeeDetails(req: { ip: string; authorization?: string }): Promise<boolean>;
}

/** Nest token of the {@link HealthProbe}. */
export const HEALTH_PROBE = Symbol.for('hearth.host.health-probe');

const CHECK_TIMEOUT_MS = 2_000;

async function timeBoxed(check: () => Promise<CheckResult>, what: string): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve({ ok: false, reason: `${what} did not answer within ${CHECK_TIMEOUT_MS} ms` }), CHECK_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      check().catch((err: unknown) => ({ ok: false, reason: `${what} failed: ${String(err)}` })),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** The process's readiness: NATS answers, the database pings, every consumer is bound. */
export function createHealthProbe(deps: {
  bus: Bus;
  database: Database;
  /** Consumers by service; undefined until the transport started them. */
  consumers: () => ReadonlyMap<ServiceName, readonly RunningConsumer[]> | undefined;
  /** True from the moment the process starts shutting down. */
  stopping: () => boolean;
  metricsText: () => Promise<string>;
  /** Degradable dependencies of each hosted service. */
  dependencies?: () => ReadinessReport['dependencies'];
  /** True for an operator's credentials (ingress verifies an admin token); loopback always sees details. */
  isOperator?: (authorization: string) => Promise<boolean>;
}): HealthProbe {
  return {
    async readiness() {
      const [nats, database] = await Promise.all([
        timeBoxed(async () => {
          if (!deps.bus.isConnected()) return { ok: false, reason: 'not connected' };
          await deps.bus.nc.rtt();
          return { ok: true };
        }, 'nats'),
        timeBoxed(async () => ((await deps.database.ping()) ? { ok: true } : { ok: false, reason: 'ping failed' }), 'database'),
      ]);
      const running = deps.consumers();
      const consumers: ConsumersCheck = { ok: true, bound: 0, total: 0, unbound: {}, stalled: {} };
      if (!running) {
        consumers.ok = false;
        consumers.reason = 'consumers not started';
      } else {
        for (const [service, list] of running) {
          for (const c of list) {
            consumers.total++;
            if (c.isBound()) consumers.bound++;
            else (consumers.unbound[service] ??= []).push(c.name);
            if ((c.stalled?.() ?? 0) > 0) (consumers.stalled[service] ??= []).push(c.name);
          }
        }
        const stalled = Object.values(consumers.stalled).flat().length;
        if (consumers.bound < consumers.total) {
          consumers.ok = false;
          consumers.reason = `${consumers.total - consumers.bound} of ${consumers.total} consumers not bound`;
        } else if (stalled > 0) {
          consumers.ok = false;
          consumers.reason = `${stalled} consumers with a handler past its deadline`;
        }
      }
      if (deps.stopping()) {
        consumers.ok = false;
        consumers.reason = 'shutting down';
      }
      return { ready: nats.ok && database.ok && consumers.ok, checks: { nats, database, consumers }, dependencies: deps.dependencies?.() ?? {} };
    },
    metricsText: deps.metricsText,
    async maySeeDetails(req) {
      if (isLoopback(req.ip)) return true;
      if (!req.authorization || !deps.isOperator) return false;
      return deps.isOperator(req.authorization).catch(() => false);
    },
  };
}

/**
 * `/healthz`, `/readyz` and `/metrics`, served by every Hearth process.
 *
 * We run TypeScript through esbuild/SWC, which emit no decorator metadata, so Nest
 * cannot see constructor parameter types: every constructor dependency of a
 * controller or provider needs an explicit `@Inject(TOKEN)`.
 */
@Controller()
export class HealthController {
  constructor(@Inject(HEALTH_PROBE) private readonly probe: HealthProbe) {}

  @Get('healthz')
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /**
   * Ready or not for everyone (the kubelet needs only the status); why, and the
   * degradable dependencies, only for loopback and operators: error text of
   * Postgres or NATS says more about the inside than a stranger should read.
   */
  @Get('readyz')
  async readyz(@Req() req: FastifyRequest): Promise<{ status: 'ready'; checks?: ReadinessReport['checks']; dependencies?: ReadinessReport['dependencies'] }> {
    const report = await this.probe.readiness();
    const details = await this.probe.maySeeDetails({ ip: req.socket.remoteAddress ?? req.ip, authorization: req.headers.authorization });
    if (!report.ready) {
      if (!details) throw new ApiHttpException(503, 'NOT_READY', 'not ready');
      const failed = Object.entries(report.checks)
        .filter(([, c]) => !c.ok)
        .map(([name, c]) => `${name}: ${c.reason ?? 'failed'}`);
      throw new ApiHttpException(503, 'NOT_READY', `not ready (${failed.join('; ')})`, { ...report.checks, dependencies: report.dependencies });
    }
    return details ? { status: 'ready', checks: report.checks, dependencies: report.dependencies } : { status: 'ready' };
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.probe.metricsText();
  }
}

function isLoopback(ip: string | undefined): boolean {
  if (!ip) return false;
  return ip === '::1' || ip.startsWith('127.') || ip.startsWith('::ffff:127.');
}
