import type { AddressInfo } from 'node:net';
import { NestFactory } from '@nestjs/core';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Bus, SERVICE_NAMES, type ServiceName } from '@hearth/bus';
import { startVirtualClock, systemClock, type Clock, type VirtualClock } from '@hearth/clock';
import { ERASURE_REACTOR, migrateSchema, openDatabase, schemaDb, startErasures, type Database } from '@hearth/store';
import { createLogger, initTelemetry, observableGauge, type GaugeRegistration, type Logger, type Telemetry } from '@hearth/telemetry';
import { eventEncryption, loadHostConfig, type HostConfig } from './config.js';
import { createHealthProbe, type HealthProbe, type ReadinessReport } from './health.js';
import { ApiErrorFilter } from './http-errors.js';
import { instrumentHttpServer } from './http-metrics.js';
import { hearthModule } from './module.js';
import { PinoNestLogger } from './nest-logger.js';
import { schemaFor, type ServiceContext, type ServiceDefinition, type ServiceRuntime } from './service.js';
import { JetStreamTransport, type HostedRuntime } from './transport.js';

export interface RunHearthOptions {
  /** The services this process hosts (one, or all eight). */
  services: readonly ServiceDefinition[];
  /**
   * The environment read once by the host's config.
   * @default process.env
   */
  env?: NodeJS.ProcessEnv;
  /**
   * HTTP port; overrides `PORT`. 0 picks a free port (see {@link HearthProcess.port}).
   * @default the `PORT` variable, else 8080
   */
  port?: number;
  /**
   * Interface to bind; overrides `HOST`.
   * @default the `HOST` variable, else '127.0.0.1'
   */
  host?: string;
  /**
   * Stop gracefully on SIGTERM/SIGINT (and exit); a second signal forces exit.
   * Off for tests and embedders, which call {@link HearthProcess.stop}.
   * @default false
   */
  installSignalHandlers?: boolean;
}

/** A running Hearth process. */
export interface HearthProcess {
  /** Base URL of the HTTP server, e.g. `http://127.0.0.1:8080`. */
  url: string;
  /** The port actually bound (useful with port 0). */
  port: number;
  /** Same verdict as `GET /readyz`. */
  ready(): Promise<boolean>;
  /** Graceful, idempotent shutdown: HTTP, consumers, runtimes, clock, NATS, database, telemetry. */
  stop(): Promise<void>;
  bus: Bus;
  database: Database;
  clock: Clock;
  contexts: Map<ServiceName, ServiceContext>;
}

/** What is open so far; closed in this order whether boot finished or failed. */
interface Resources {
  app?: NestFastifyApplication;
  clock?: VirtualClock;
  bus?: Bus;
  database?: Database;
  gauges?: GaugeRegistration[];
  telemetry?: Telemetry;
}

/**
 * Boots one Hearth process: config, logging, telemetry, NATS (streams of all
 * services), the database (a migrated schema per service), the clock, each
 * service's runtime, and one Nest app serving health, readiness, metrics and the
 * services' HTTP surfaces, with JetStream consumers run by {@link JetStreamTransport}.
 */
export async function runHearth(opts: RunHearthOptions): Promise<HearthProcess> {
  const definitions = checkedDefinitions(opts.services);
  const config = loadHostConfig(opts.env ?? process.env);
  const processName = definitions.length === 1 ? definitions[0]!.name : 'hearth';
  const log = createLogger({ service: processName, level: config.LOG_LEVEL });
  const res: Resources = {};
  let stopping = false;

  const closeResources = once(async () => {
    await step(log, 'virtual clock closed', res.clock && (() => res.clock!.close()));
    await step(log, 'nats drained', res.bus && (() => res.bus!.close()));
    await step(log, 'database closed', res.database && (() => res.database!.close()));
    for (const g of res.gauges ?? []) g.remove();
    await step(log, 'telemetry flushed', res.telemetry && (() => res.telemetry!.shutdown()));
    log.info({}, 'stopped');
  });

  try {
    res.telemetry = initTelemetry({ service: processName, otlpEndpoint: config.OTEL_EXPORTER_OTLP_ENDPOINT });
    const bus = (res.bus = await Bus.connect({
      url: config.NATS_URL,
      name: `hearth-${processName}`,
      user: config.NATS_USER,
      pass: config.NATS_PASSWORD,
      namespace: config.HEARTH_NAMESPACE,
      build: config.HEARTH_BUILD,
      logger: log,
      streamReplicas: config.NATS_STREAM_REPLICAS,
      duplicateWindowMs: config.NATS_DUPLICATE_WINDOW_MS,
      handlerDeadlineMs: config.HANDLER_DEADLINE_MS,
      encryption: eventEncryption(config, log),
    }));
    // Every stream, so any service's consumer can bind whichever services run here.
    await bus.ensureStreams(SERVICE_NAMES);
    let lastDbErrorLog = 0;
    const database = (res.database = await openDatabase({
      url: config.DATABASE_URL,
      pgliteDir: config.PGLITE_DIR,
      connectTimeoutMs: config.DATABASE_CONNECT_TIMEOUT_MS,
      statementTimeoutMs: config.DATABASE_STATEMENT_TIMEOUT_MS,
      preparedStatements: config.DATABASE_PREPARED_STATEMENTS === 'on',
      onConnectionError: (err) => {
        // A restart of Postgres drops every connection at once: one line per few seconds is enough.
        if (Date.now() - lastDbErrorLog < 5_000) return;
        lastDbErrorLog = Date.now();
        log.warn({ err: err.message }, 'database connection lost; the pool reconnects');
      },
    }));

    let clock: Clock = systemClock;
    if (config.HEARTH_ENV !== 'production') {
      res.clock = await startVirtualClock(bus.nc, { namespace: config.HEARTH_NAMESPACE, logger: log });
      clock = res.clock;
    }
    const virtualClock = res.clock;

    const contexts = new Map<ServiceName, ServiceContext>();
    const hosted: HostedRuntime[] = [];
    for (const def of definitions) {
      const logger = createLogger({ service: def.name, level: config.LOG_LEVEL });
      const schema = schemaFor(config.HEARTH_NAMESPACE, def.name);
      const applied = await migrateSchema(database, schema, def.migrations);
      const ctx: ServiceContext = {
        name: def.name,
        env: config.HEARTH_ENV,
        environment: opts.env ?? process.env,
        logger,
        bus,
        database,
        db: schemaDb(database, schema),
        schema,
        clock,
        advanceClock: virtualClock && ((seconds) => virtualClock.advance(seconds)),
      };
      contexts.set(def.name, ctx);
      const runtime = await def.create(ctx);
      hosted.push({ name: def.name, runtime: withErasures(runtime, def, ctx), logger });
      logger.info(
        { schema, migrations_applied: applied, projections: def.projections.map((p) => p.name) },
        `service ${def.name} created`,
      );
    }

    const transport = new JetStreamTransport(bus, hosted, log);
    const telemetry = res.telemetry;
    const probe: HealthProbe = createHealthProbe({
      bus,
      database,
      consumers: () => (transport.isListening() ? transport.consumers() : undefined),
      stopping: () => stopping,
      metricsText: () => telemetry.metricsText(),
      dependencies: () => {
        const out: ReadinessReport['dependencies'] = {};
        for (const h of hosted) {
          const d = h.runtime.dependencies?.();
          if (d && Object.keys(d).length > 0) out[h.name] = d;
        }
        return out;
      },
      isOperator: async (authorization) => {
        for (const h of hosted) if (h.runtime.isOperator && (await h.runtime.isOperator(authorization))) return true;
        return false;
      },
    });
    res.gauges = hostGauges(definitions, transport, probe);

    const app = (res.app = await NestFactory.create<NestFastifyApplication>(
      hearthModule({
        probe,
        surfaces: hosted.flatMap((h) => (h.runtime.http ? [{ name: h.name, http: h.runtime.http }] : [])),
        onShutdown: closeResources,
      }),
      new FastifyAdapter({
        bodyLimit: config.HTTP_BODY_LIMIT_BYTES,
        trustProxy: config.TRUST_PROXY,
        // Errors Fastify raises before any route runs (a malformed URL, an overlong
        // path parameter) answer in the API's error shape too.
        frameworkErrors: (err: FastifyError, _req: FastifyRequest, reply: FastifyReply) => {
          const status = err.statusCode && err.statusCode >= 400 && err.statusCode < 500 ? err.statusCode : 400;
          void reply.code(status).send({ error: { code: status === 414 ? 'URI_TOO_LONG' : 'BAD_REQUEST', message: err.message } });
        },
      }),
      // abortOnError: a failed boot throws to the caller instead of exiting the process.
      { logger: new PinoNestLogger(log), abortOnError: false },
    ));
    instrumentHttpServer(app.getHttpAdapter().getInstance());
    app.useGlobalFilters(new ApiErrorFilter(app.getHttpAdapter(), log));
    app.connectMicroservice({ strategy: transport });
    if (opts.installSignalHandlers) {
      // useProcessExit: Nest exits with 0 once closed, instead of re-raising the signal.
      app.enableShutdownHooks(['SIGTERM', 'SIGINT'], { useProcessExit: true });
    }
    await app.startAllMicroservices();
    await app.listen(opts.port ?? config.PORT, opts.host ?? config.HOST);

    const address = app.getHttpServer().address() as AddressInfo;
    const url = `http://${urlHost(address.address)}:${address.port}`;

    const stop = once(async () => {
      stopping = true;
      log.info({}, 'stopping: http, then consumers and runtimes');
      await step(log, 'nest app closed (http, consumers, runtimes)', () => app.close());
      await closeResources();
      removeSignalHandlers();
    });
    const removeForcedExit = opts.installSignalHandlers
      ? installForcedExit(log, () => {
          stopping = true;
        })
      : () => undefined;
    // The process owner keeps running through a promise nobody awaited (a dropped
    // connection surfacing late): logged loudly, not a crash of every service in it.
    const onRejection = (reason: unknown): void => log.error({ err: reason }, 'unhandled promise rejection (process kept running)');
    if (opts.installSignalHandlers) process.on('unhandledRejection', onRejection);
    const removeSignalHandlers = (): void => {
      removeForcedExit();
      process.off('unhandledRejection', onRejection);
    };

    log.info(
      {
        url,
        services: definitions.map((d) => d.name),
        database: describeDatabase(database, config),
        nats: config.NATS_URL,
        namespace: config.HEARTH_NAMESPACE,
        env: config.HEARTH_ENV,
        clock: virtualClock ? 'virtual' : 'system',
      },
      `hearth listening on ${url} (${database.kind === 'pglite' ? 'PGlite' : 'Postgres'}, NATS ${config.NATS_URL})`,
    );

    return {
      url,
      port: address.port,
      ready: async () => (await probe.readiness()).ready,
      stop,
      bus,
      database,
      clock,
      contexts,
    };
  } catch (err) {
    log.error({ err }, 'hearth failed to start');
    await step(log, 'nest app closed', res.app && (() => res.app!.close()));
    await closeResources();
    throw err;
  }
}

function checkedDefinitions(services: readonly ServiceDefinition[]): readonly ServiceDefinition[] {
  if (services.length === 0) throw new Error('runHearth: no services to run');
  const seen = new Set<ServiceName>();
  for (const s of services) {
    if (!SERVICE_NAMES.includes(s.name)) throw new Error(`runHearth: unknown service '${s.name}'`);
    if (seen.has(s.name)) throw new Error(`runHearth: service '${s.name}' given twice`);
    seen.add(s.name);
    const taken = s.projections.find((p) => p.name === ERASURE_REACTOR);
    if (taken) throw new Error(`runHearth: projection name '${taken.name}' of ${s.name} is reserved for erasures`);
  }
  return services;
}

/**
 * `hearth_service_up`, `hearth_consumer_bound` and `hearth_ready`: what /readyz sees,
 * for dashboards and alerts (deploy/monitoring).
 */
function hostGauges(definitions: readonly ServiceDefinition[], transport: JetStreamTransport, probe: HealthProbe): GaugeRegistration[] {
  return [
    // The probe's own checks are time-boxed (2 s), within a scrape's timeout.
    observableGauge('hearth_ready', 'Whether this process would answer /readyz with 200 (1) or 503 (0)', async (result) => {
      const { ready } = await probe.readiness();
      for (const d of definitions) result.observe(ready ? 1 : 0, { service: d.name });
    }),
    observableGauge('hearth_service_up', 'Services hosted by this process (1 while running)', (result) => {
      for (const d of definitions) result.observe(transport.isListening() ? 1 : 0, { service: d.name });
    }),
    observableGauge('hearth_consumer_bound', 'Durable consumers of this process: 1 bound, 0 not', (result) => {
      for (const [service, list] of transport.consumers()) {
        for (const c of list) result.observe(c.isBound() ? 1 : 0, { service, consumer: c.name });
      }
    }),
  ];
}

/**
 * Nest handles the first SIGTERM/SIGINT (graceful close, then exit 0) and ignores
 * later ones; this listener logs the first and turns a second into an immediate exit.
 */
function installForcedExit(log: Logger, onFirst: () => void): () => void {
  let received = 0;
  const listener = (signal: NodeJS.Signals): void => {
    received++;
    if (received === 1) {
      onFirst();
      log.info({ signal }, 'signal received: shutting down (send again to force exit)');
      return;
    }
    log.warn({ signal }, 'second signal: exiting now');
    process.exit(1);
  };
  process.on('SIGTERM', listener);
  process.on('SIGINT', listener);
  return () => {
    process.off('SIGTERM', listener);
    process.off('SIGINT', listener);
  };
}

async function step(log: Logger, done: string, fn: (() => Promise<unknown>) | undefined): Promise<void> {
  if (!fn) return;
  try {
    await fn();
    log.info({}, done);
  } catch (err) {
    log.warn({ err }, `shutdown step failed (${done})`);
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= fn());
}

function urlHost(address: string): string {
  if (address === '0.0.0.0') return '127.0.0.1';
  if (address === '::') return '[::1]';
  return address.includes(':') ? `[${address}]` : address;
}

/** Where the data lives, without credentials. */
function describeDatabase(database: Database, config: HostConfig): string {
  if (database.kind === 'pglite') return `PGlite ${config.PGLITE_DIR}`;
  try {
    const u = new URL(config.DATABASE_URL ?? '');
    return `Postgres ${u.hostname}:${u.port || 5432}${u.pathname}`;
  } catch {
    return 'Postgres';
  }
}

/**
 * Every service applies erasures (ARCHITECTURE.md "Personal data, export and
 * erasure") whatever it projects: its runtime's consumers plus one reactor that
 * deletes the user's rows of every projection and what `onUserErased` keeps.
 */
function withErasures(runtime: ServiceRuntime, def: ServiceDefinition, ctx: ServiceContext): ServiceRuntime {
  const start = runtime.start.bind(runtime);
  return Object.assign(runtime, {
    start: async () => [
      ...(await start()),
      ...(await startErasures({
        bus: ctx.bus,
        db: ctx.db,
        service: def.name,
        projections: def.projections,
        onUserErased: runtime.onUserErased?.bind(runtime),
        now: () => ctx.clock.now(),
        logger: ctx.logger,
      })),
    ],
  });
}
