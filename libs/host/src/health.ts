import { Controller, Get, Header, Inject } from '@nestjs/common';
import type { Bus, RunningConsumer, ServiceName } from '@hearth/bus';
import type { Database } from '@hearth/store';
import { ApiHttpException } from './http-errors.js';

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
}

export interface ReadinessReport {
  ready: boolean;
  checks: { nats: CheckResult; database: CheckResult; consumers: ConsumersCheck };
}

/** What the health endpoints read; built by the host for its own process. */
export interface HealthProbe {
  readiness(): Promise<ReadinessReport>;
  metricsText(): Promise<string>;
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
      const consumers: ConsumersCheck = { ok: true, bound: 0, total: 0, unbound: {} };
      if (!running) {
        consumers.ok = false;
        consumers.reason = 'consumers not started';
      } else {
        for (const [service, list] of running) {
          for (const c of list) {
            consumers.total++;
            if (c.isBound()) consumers.bound++;
            else (consumers.unbound[service] ??= []).push(c.name);
          }
        }
        if (consumers.bound < consumers.total) {
          consumers.ok = false;
          consumers.reason = `${consumers.total - consumers.bound} of ${consumers.total} consumers not bound`;
        }
      }
      if (deps.stopping()) {
        consumers.ok = false;
        consumers.reason = 'shutting down';
      }
      return { ready: nats.ok && database.ok && consumers.ok, checks: { nats, database, consumers } };
    },
    metricsText: deps.metricsText,
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

  @Get('readyz')
  async readyz(): Promise<{ status: 'ready'; checks: ReadinessReport['checks'] }> {
    const report = await this.probe.readiness();
    if (!report.ready) {
      const failed = Object.entries(report.checks)
        .filter(([, c]) => !c.ok)
        .map(([name, c]) => `${name}: ${c.reason ?? 'failed'}`);
      throw new ApiHttpException(503, 'NOT_READY', `not ready (${failed.join('; ')})`, report.checks);
    }
    return { status: 'ready', checks: report.checks };
  }

  @Get('metrics')
  @Header('Content-Type', 'text/plain; version=0.0.4; charset=utf-8')
  metrics(): Promise<string> {
    return this.probe.metricsText();
  }
}
