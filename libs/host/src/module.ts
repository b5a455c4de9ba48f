import { Module, type DynamicModule, type OnApplicationShutdown, type Provider, type Type } from '@nestjs/common';
import type { ServiceName } from '@hearth/bus';
import { APP_INTERCEPTOR } from '@nestjs/core';
import { HEALTH_PROBE, HealthController, type HealthProbe } from './health.js';
import { TracingInterceptor } from './tracing.js';
import type { HttpSurface } from './service.js';

/** Nest token of the host's shutdown step that runs after HTTP and the transport closed. */
export const HOST_SHUTDOWN = Symbol.for('hearth.host.shutdown');

/** Runs the host's own shutdown (clock, bus, database, telemetry) as Nest's last hook. */
class HostShutdownHook implements OnApplicationShutdown {
  constructor(private readonly run: () => Promise<void>) {}
  onApplicationShutdown(): Promise<void> {
    return this.run();
  }
}

function pascal(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_m, _d, c: string) => c.toUpperCase());
}

/**
 * One module per service with an HTTP surface, so providers' tokens of two
 * services never collide in one process.
 */
function serviceModule(name: ServiceName, http: HttpSurface): DynamicModule {
  const cls = { [`${pascal(name)}HttpModule`]: class {} }[`${pascal(name)}HttpModule`]!;
  Module({})(cls);
  return {
    module: cls,
    controllers: http.controllers as Type[],
    providers: http.providers as Provider[],
  };
}

/** The root module of a Hearth process: health endpoints plus every service's HTTP surface. */
export function hearthModule(opts: {
  probe: HealthProbe;
  surfaces: readonly { name: ServiceName; http: HttpSurface }[];
  onShutdown: () => Promise<void>;
}): DynamicModule {
  class HearthModule {}
  Module({})(HearthModule);
  return {
    module: HearthModule,
    imports: opts.surfaces.map((s) => serviceModule(s.name, s.http)),
    controllers: [HealthController],
    providers: [
      { provide: HEALTH_PROBE, useValue: opts.probe },
      { provide: HOST_SHUTDOWN, useValue: new HostShutdownHook(opts.onShutdown) },
      { provide: APP_INTERCEPTOR, useClass: TracingInterceptor },
    ],
  };
}
